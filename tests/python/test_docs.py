# SPDX-License-Identifier: Apache-2.0
# The docstrings take the C doc comments: each method or attribute whose docstring names a C
# function gets that function's comment from the public headers (read here by the generator's own
# parser, not from the extension's table), and nearly every member of the C-backed classes has one.
import re
import sys

import sinew
from conftest import SOURCE

sys.path.insert(0, str(SOURCE / "scripts"))
import python_docs  # noqa: E402

COMMENTS = dict(python_docs.entries())
CLASSES = (sinew.Model, sinew.World, sinew.System, sinew.Maximal, sinew.Arm)


def members():
    for c in CLASSES:
        for k in dir(c):
            if not k.startswith("_"):
                yield "%s.%s" % (c.__name__, k), getattr(c, k).__doc__ or ""


def test_named_functions_bring_their_comments():
    checked = 0
    for where, doc in members():
        own = doc.split("\n\nsn_")[0]
        for name in dict.fromkeys(re.findall(r"\b(sn_\w+)", own)):
            if name in COMMENTS and len(set(re.findall(r"\b(sn_\w+)", own))) <= 4:
                assert "%s: %s" % (name, COMMENTS[name]) in doc, where
                checked += 1
    assert checked >= 25  # 31 members name their C function (2026-12-04)


def test_nearly_every_member_has_a_c_comment():
    docs = dict(members())
    with_c = [w for w, d in docs.items() if re.search(r"\n\n(sn_\w+(\.\w+)?): ", d)]
    assert len(with_c) >= 0.9 * len(docs), sorted(set(docs) - set(with_c))
    # by name (no C function named), by an alias and by a model member
    assert "sn_world_save_state_file: " + COMMENTS["sn_world_save_state_file"] in \
        sinew.World.save_file.__doc__
    assert "sn_maximal_body_count: " in sinew.Maximal.nbody.__doc__
    assert "sn_model.dof_lower: " + COMMENTS["sn_model.dof_lower"] in sinew.Model.lower.__doc__
    # the recorded Python wrappers of World and System keep the C docstrings
    assert "sn_world_add_box: " in sinew.World.add_box.__doc__
