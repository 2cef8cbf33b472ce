# SPDX-License-Identifier: Apache-2.0
# Soft contacts and Expo from Python (seed 004): a box on four bilateral springs without damping
# follows the analytic oscillation to rounding with Expo at a step longer than its period (the
# explicit integrators cannot); with damping it settles where the springs carry its weight; a
# soft world pickles and restores bit for bit; switches and parameters are validated.
import pickle

import numpy as np
import pytest
import sinew
from conftest import SOURCE

BOX = str(SOURCE / "models" / "box.urdf")
G = 9.81


def box_world(dt, integrator="expo", substeps=1, **params):
    w = sinew.World(timestep=dt)
    s = w.add(sinew.load(BOX))
    w.contact_model = "soft"
    w.set_soft_params(**params)
    s.set_soft_integrator(integrator, substeps)
    assert s.add_soft_geometry_points() == 8  # the corners
    q = s.q.copy()
    q[2] = 0.1  # the bottom face on the ground
    s.set_state(q, np.zeros(6))
    return w, s


def test_expo_is_exact_on_a_linear_contact():
    w, s = box_world(0.01, b_normal=0, b_tangent=0, bilateral=True)
    K = 4 * 1e5  # four corners in contact, 1 kg
    om = np.sqrt(K)
    assert 2 * np.pi / om < 0.01  # the step is longer than the period
    worst = 0
    for i in range(1, 101):
        w.step()
        z = 0.1 - G / K * (1 - np.cos(om * i * 0.01))
        worst = max(worst, abs(s.q[2] - z))
        assert s.soft_contact_count == 4
    assert worst < 1e-13
    assert np.abs(s.q[[0, 1, 4, 5, 6]]).max() < 1e-13  # no drift, no rotation
    # explicit Euler at the same step flies off; with 1000 sub-steps it is close, not exact
    w2, s2 = box_world(0.01, "euler", b_normal=0, b_tangent=0, bilateral=True)
    with pytest.raises(sinew.Error):
        for i in range(100):
            w2.step()
            if abs(s2.q[2] - 0.1) > 1:
                raise sinew.Error("diverged")
    w3, s3 = box_world(0.01, "rk4", 100, b_normal=0, b_tangent=0, bilateral=True)
    w3.step(100)
    z = 0.1 - G / K * (1 - np.cos(om * 1.0))
    assert 1e-15 < abs(s3.q[2] - z) < 1e-7


def test_damped_box_rests_on_its_springs():
    w, s = box_world(0.005)
    w.step(400)
    p = s.soft_points()
    assert p["position"].shape == (8, 3) and p["body"].dtype == np.int32
    assert list(p["active"]) == [bool(z < 0.05) for z in p["offset"][:, 2] + 0.1]
    # the weight on four springs of 1e5 N/m: 9.81 / 4e5 m deep, each carrying a quarter
    assert abs(s.q[2] - (0.1 - G / 4e5)) < 1e-9
    assert np.abs(p["force"][p["active"]][:, 2] - G / 4).max() < 1e-6
    assert np.abs(p["penetration"][p["active"]] - G / 4e5).max() < 1e-9
    assert np.abs(p["force"][~p["active"]]).max() == 0


def test_soft_world_pickles_bit_for_bit():
    w, s = box_world(0.005, k_normal=2e5, mu=0.6)
    s.expo_slip = False
    s.set_soft_integrator("expo", 2)
    u = np.zeros(6)
    u[0], u[5] = 0.3, 1.0  # sliding and spinning on the floor
    s.set_state(s.q, u)
    w.step(30)
    w2 = pickle.loads(pickle.dumps(w))
    s2 = w2.system(0)
    assert w2.contact_model == "soft" and w2.soft_params["k_normal"] == 2e5
    assert s2.soft_substeps == 2 and s2.expo_slip is False and s2.soft_point_count == 8
    w.step(50)
    w2.step(50)
    assert np.array_equal(s.q, s2.q) and np.array_equal(s.u, s2.u)
    assert w.state_hash() == w2.state_hash()
    assert np.array_equal(s.soft_points()["anchor"], s2.soft_points()["anchor"])


def test_soft_pairs_and_switches():
    w, s = box_world(0.005)
    params, is_set = w.soft_pair(0, 3)
    assert not is_set and params == w.soft_params
    w.set_soft_pair(3, 0, k_normal=5e4)
    params, is_set = w.soft_pair(0, 3)
    assert is_set and params["k_normal"] == 5e4 and params["b_normal"] == 300
    w.clear_soft_pair(0, 3)
    assert not w.soft_pair(3, 0)[1]
    for bad in [dict(k_normal=0), dict(k_normal=-1), dict(b_normal=np.nan), dict(mu=-0.1)]:
        with pytest.raises(sinew.Error):
            w.set_soft_params(**bad)
    assert w.soft_params == sinew.World().soft_params  # a refusal changes nothing
    with pytest.raises(sinew.Error):
        w.set_soft_pair(0, 16)
    with pytest.raises(sinew.Error):
        w.soft_pair(-1, 0)
    with pytest.raises(ValueError):
        w.contact_model = "squishy"
    with pytest.raises(TypeError):
        w.contact_model = 1
    with pytest.raises(ValueError):
        s.set_soft_integrator("verlet")
    with pytest.raises(sinew.Error):
        s.set_soft_integrator("rk4", 0)
    with pytest.raises(sinew.Error):
        s.soft_events = 3
    s.soft_events = True
    assert s.soft_events is True and s.soft_integrator == "expo"
    with pytest.raises(sinew.Error):
        s.set_expo_options(max_mul=9)
    s.set_expo_options(full=True)
    with pytest.raises(IndexError):
        s.add_soft_point(5)
    with pytest.raises(ValueError):
        s.add_soft_point(0, (1, 2))
    assert s.add_soft_point("box", (0, 0, -0.1)) == 8
    assert s.add_soft_point_frame("box") == 9
    s.soft_release()
    assert s.soft_contact_count == 0
    w.contact_model = "hard"
    assert w.contact_model == "hard"
