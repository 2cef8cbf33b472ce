# SPDX-License-Identifier: Apache-2.0
# Closed-loop dynamics from Python (sn_loopid.h): forward then inverse dynamics of a moving
# four-bar give back the torque, the accelerations and the loop forces; without loops the inverse
# dynamics is RNEA's; the delta robot is driven through its three actuators; what cannot be met
# is reported, what is malformed refused.
import numpy as np
import pytest
import sinew
from conftest import SOURCE


def model(name):
    return sinew.load(str(SOURCE / "models" / name))


def moving(name, steps=60):
    w = sinew.World()
    s = w.add(model(name))
    w.step(steps)  # falling under gravity: a state the loops admit, with velocity
    assert np.abs(s.u).max() > 0.1
    return w, s


def test_forward_then_inverse_gives_the_torque_back():
    w, s = moving("fourbar.urdf")
    assert s.loop_rows == 2
    tau = np.array([0.3, 0.0, 0.0])
    udot, lam, rep = s.loop_forward_dynamics(tau)
    assert rep["status"] == "SN_OK" and rep["mobility"] == 1 and rep["jdot_u_norm"] > 0
    assert rep["accel_residual"] < 1e-10 and rep["force_residual"] < 1e-10
    r = s.loop_inverse_dynamics([udot[0]], dofs=[0], actuated=[0])
    assert r["status"] == "SN_OK" and r["redundancy"] == 0
    assert np.abs(r["tau"] - tau).max() < 1e-9
    assert np.abs(r["udot"] - udot).max() < 1e-9 and np.abs(r["lambda"] - lam).max() < 1e-9
    # the same torque from a different actuated joint: the rocker's, found by inverse dynamics,
    # gives the crank the same acceleration
    r2 = s.loop_inverse_dynamics([udot[0]], dofs=[0], actuated=[2])
    udot2, _, _ = s.loop_forward_dynamics(r2["tau"])
    assert abs(udot2[0] - udot[0]) < 1e-9 and r2["tau"][0] == 0 and r2["tau"][1] == 0
    # the state is left as it was
    q, u = s.q.copy(), s.u.copy()
    s.loop_forward_dynamics()
    assert np.array_equal(q, s.q) and np.array_equal(u, s.u)


def test_without_loops_it_is_rnea():
    w = sinew.World()
    s = w.add(model("arm7.urdf"))
    rng = np.random.default_rng(5)
    s.set_state(rng.uniform(-1, 1, 7), rng.normal(size=7))
    udot = rng.normal(size=7)
    r = s.loop_inverse_dynamics(udot)
    assert s.loop_rows == 0 and r["lambda"].shape == (0,)
    assert np.abs(r["tau"] - s.inverse_dynamics(udot)).max() < 1e-9
    ud, lam, rep = s.loop_forward_dynamics(r["tau"])
    assert np.abs(ud - udot).max() < 1e-9
    assert np.abs(ud - s.forward_dynamics(r["tau"])).max() < 1e-9


def test_delta_through_its_actuators():
    w, s = moving("delta.urdf", 20)
    udot = np.array([0.5, -0.2, 0.1])
    r = s.loop_inverse_dynamics(udot, actuators=True)
    assert r["status"] == "SN_OK" and r["command"].shape == (3,) and r["mobility"] == 3
    ud, lam, rep = s.loop_forward_dynamics(r["tau"])
    # the driven joints (base1..3, models/delta.urdf) get the accelerations asked for
    dofs = [s.model.joint_vadr[s.model.find("joint", "base%d" % k)] for k in (1, 2, 3)]
    assert np.abs(ud[dofs] - udot).max() < 1e-8
    assert np.abs(ud - r["udot"]).max() < 1e-8
    # the commands are joint-side torques on the driven DOFs, nothing elsewhere
    assert np.abs(np.delete(r["tau"], dofs)).max() == 0
    assert np.abs(r["tau"][dofs] - r["command"]).max() < 1e-12


def test_unreachable_and_refused():
    w, s = moving("fourbar.urdf")
    r = s.loop_inverse_dynamics([1.0, 2.0], dofs=[0, 1])  # a one-DOF mechanism, two asked for
    assert r["status"] == "SN_ERR_UNREACHED" and r["accel_residual"] > 1e-3
    for args, kw, exc in [(([1.0, 2.0],), dict(dofs=[0, 0]), sinew.Error),
                          (([1.0],), dict(dofs=[7]), sinew.Error),
                          (([1.0],), dict(dofs=[0.5]), TypeError),
                          (([1.0, 2.0],), dict(dofs=[0]), ValueError),
                          (([np.nan],), dict(dofs=[0]), (ValueError, sinew.Error)),
                          (([1.0],), dict(dofs=[0], actuated=[0], actuators=True), ValueError),
                          (("x",), {}, (TypeError, ValueError))]:
        with pytest.raises(exc):
            s.loop_inverse_dynamics(*args, **kw)
    # without dofs, udot has one entry per actuated DOF (the four-bar's three); fewer are refused
    # before more are read (the argument fuzz found the C call reading past a short udot)
    for udot, kw in [([1.0], {}), ([1.0, 2.0], dict(actuated=[0, 1, 2])), ([], {})]:
        with pytest.raises(sinew.ArgumentError, match=r"one per actuated DOF \(3\)"):
            s.loop_inverse_dynamics(udot, **kw)
    assert s.loop_inverse_dynamics([0.1, 0.2, 0.3])["status"] == "SN_ERR_UNREACHED"
    w2, delta = moving("delta.urdf", 5)
    with pytest.raises(sinew.ArgumentError, match=r"one per driven DOF \(3\)"):
        delta.loop_inverse_dynamics([1.0, 2.0], actuators=True)
    with pytest.raises(ValueError):
        s.loop_forward_dynamics(np.zeros(2))
    with pytest.raises((ValueError, sinew.Error)):
        s.loop_forward_dynamics(np.full(3, np.inf))
