# SPDX-License-Identifier: Apache-2.0
# The Python suite's fixtures: where the shared models and the CLI are (ctest sets SINEW_CLI and
# SINEW_SOURCE; run by hand, PYTHONPATH=build/python and the defaults below apply).
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get("SINEW_SOURCE", pathlib.Path(__file__).parents[2]))
SHARED = pathlib.Path(os.environ.get("SINEW_SHARED", SOURCE.parent / "shared"))
CLI = os.environ.get("SINEW_CLI", str(SOURCE / "build" / "sinew"))


def shared(rel):
    p = SHARED / "models" / rel
    if not p.exists():
        if os.environ.get("SNT_NO_SKIP"):
            raise FileNotFoundError("the shared models are missing: %s" % p)
        pytest.skip("shared model missing: %s" % p)
    return str(p)


@pytest.fixture
def anymal_path():
    return shared("raisim_anymal_c/urdf/anymal.urdf")


@pytest.fixture
def fourbar_path():
    return str(SOURCE / "models" / "fourbar.urdf")


@pytest.fixture
def cli():
    return CLI
