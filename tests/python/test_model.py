# SPDX-License-Identifier: Apache-2.0
# sinew.load and Model: names, dimensions, limits; errors naming file, line and element.
import pickle

import numpy as np
import pytest
import sinew

PENDULUM = """<robot name="p">
  <link name="base"/>
  <link name="arm"><inertial><mass value="2"/><origin xyz="0 0 -0.5"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1.5" effort="30" velocity="4"/></joint>
</robot>
"""


def test_dimensions_and_names(anymal_path):
    m = sinew.load(anymal_path)
    assert (m.nq, m.nv) == (19, 18)
    assert m.path == anymal_path and m.format == "urdf"
    assert len(m.joint_names) == m.njoint and len(m.body_names) == m.nbody
    assert m.body_mass.shape == (m.nbody,) and m.body_mass.sum() > 30  # ANYmal C: ~50 kg
    assert m.q0.shape == (19,)
    j = m.find("joint", "LF_KFE")
    assert m.joint_names[j] == "LF_KFE"
    assert m.find("joint", "no_such_joint") == -1
    assert m.body_names[m.find("body", "base")] == "base"
    with pytest.raises(ValueError):
        m.find("limb", "base")


def test_limits_from_text():
    m = sinew.load_string(PENDULUM, format="urdf", base="fixed")
    assert (m.nq, m.nv) == (1, 1)
    assert m.lower.tolist() == [-1.0] and m.upper.tolist() == [1.5]
    assert m.effort_limit.tolist() == [30.0] and m.velocity_limit.tolist() == [4.0]
    assert bool(m.limited[0])
    assert m.body_mass[m.find("body", "arm")] == 2.0
    # views of the model's own memory: read-only, and they keep the model alive
    lo = m.lower
    assert not lo.flags.writeable
    with pytest.raises(ValueError):
        lo[0] = 3
    del m
    assert lo.tolist() == [-1.0]


def test_pickle_model(anymal_path):
    m = sinew.load(anymal_path)
    m2 = pickle.loads(pickle.dumps(m))
    assert m2.nq == m.nq and m2.joint_names == m.joint_names
    assert np.array_equal(m2.body_mass, m.body_mass)
    t = sinew.load_string(PENDULUM, base="fixed")
    t2 = pickle.loads(pickle.dumps(t))
    assert np.array_equal(t2.upper, t.upper)


@pytest.mark.parametrize("text,line,element", [
    ("<robot name='r'>\n<link name='a'/>\n<joint name='j' type='revolute'>\n"
     "<parent link='a'/><child link='nowhere'/></joint>\n</robot>\n", 3, "joint"),
    ("<robot name='r'>\n<link name='a'>\n<inertial><mass value='-1'/></inertial>\n</link>\n"
     "</robot>\n", 3, "mass"),
    ("<robot name='r'>\n<link name='a'>\n</robot>\n", 3, ""),
])
def test_bad_text_names_line_and_element(text, line, element, tmp_path):
    p = tmp_path / "bad.urdf"
    p.write_text(text)
    with pytest.raises(sinew.Error) as e:
        sinew.load(str(p))
    err = e.value
    assert err.file == str(p)
    assert err.line == line
    if element:
        assert err.element == element
    assert err.status.startswith("SN_ERR_") and err.code != 0
    assert str(p) in str(err) or "bad.urdf" in str(err)


def test_missing_file_and_bad_arguments(tmp_path):
    with pytest.raises(sinew.Error) as e:
        sinew.load(str(tmp_path / "none.urdf"))
    assert e.value.status == "SN_ERR_IO"
    with pytest.raises(TypeError):
        sinew.load(3)
    with pytest.raises((ValueError, sinew.Error)):
        sinew.load_string(PENDULUM, format="sdf")
    with pytest.raises((ValueError, sinew.Error)):
        sinew.load_string(PENDULUM, base="sideways")
