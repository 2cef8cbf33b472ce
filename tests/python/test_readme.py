# SPDX-License-Identifier: Apache-2.0
# The README's Python example runs as printed (from the checkout's top, as its paths assume).
import re
import subprocess
import sys

from conftest import SOURCE


def test_readme_example_runs():
    text = (SOURCE / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README has no Python example"
    code = blocks[0]
    assert len(code.strip().splitlines()) <= 6
    out = subprocess.run([sys.executable, "-c", code + "\nprint(batch.q.shape)\n"],
                         cwd=str(SOURCE), capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "(64, 80)" in out.stdout
