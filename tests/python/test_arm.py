# SPDX-License-Identifier: Apache-2.0
# sinew.Arm, seed 002's dynamic arm component, from Python: its mass matrix and frames equal the
# articulated system's on the same file to the bit; a step from rest without damping or friction
# is dt times the system's forward dynamics; a wrench at the tip acts as J^T of it; friction
# holds the arm stuck; stops hold; views, copies and refusals behave.
import gc
import weakref

import numpy as np
import pytest
import sinew
from conftest import SOURCE

ARM = str(SOURCE / "models" / "arm7.urdf")


def arm_and_system(q):
    m = sinew.load(ARM)
    a = sinew.Arm(m)
    s = sinew.World().add(m, setup=False)
    a.set_state(q, np.zeros(7))
    s.set_state(q, np.zeros(7))
    return a, s


def test_same_mass_matrix_and_frames_as_the_system():
    rng = np.random.default_rng(11)
    q = rng.uniform(-1.5, 1.5, 7)
    a, s = arm_and_system(q)
    assert a.n == 7 and np.array_equal(a.q, q)
    assert np.array_equal(a.mass_matrix(), s.mass_matrix)
    for k in range(1, 8):
        p, R = s.frame_pose(a.frame_id(k))
        assert np.abs(a.frame_pos[k - 1] - p).max() < 1e-15
        assert np.abs(a.frame_rot[k - 1] - R).max() < 1e-15
    qd = rng.normal(size=7)
    a.set_state(qd=qd)
    M = a.mass_matrix()
    assert abs(a.kinetic_energy() - 0.5 * qd @ M @ qd) < 1e-12
    G = a.gyroscopic_matrix(rng.normal(size=(7, 3)))
    assert np.abs(G + G.T).max() < 1e-12 and np.abs(G).max() > 0  # skew: does no work
    # a carried mass at the tip makes the mass matrix heavier
    C = np.zeros((7, 10))
    C[6, 0] = 2.0
    C[6, 4:10] = [1e-3, 0, 0, 1e-3, 0, 1e-3]
    assert np.linalg.eigvalsh(a.mass_matrix(C) - M).min() > -1e-12
    assert a.kinetic_energy(C) > a.kinetic_energy()


def test_a_step_from_rest_is_the_forward_dynamics():
    q = np.array([0.3, -0.5, 0.2, 1.0, -0.4, 0.6, 0.1])
    a, s = arm_and_system(q)
    a.damping = np.zeros(7)
    a.friction = np.zeros(7)
    dt = 1e-3
    a.step(dt)
    udot = s.forward_dynamics()
    assert np.abs(a.qd - dt * udot).max() < 1e-12
    assert np.abs(a.q - (q + dt * a.qd)).max() < 1e-15
    r = a.report()
    assert np.array_equal(r["theta_star"], a.qd) and r["energy_end"] <= r["energy_star"] + 1e-15


def test_tip_wrench_acts_as_its_jacobian_transpose():
    q = np.array([0.3, -0.5, 0.2, 1.0, -0.4, 0.6, 0.1])
    f = np.array([3.0, -1.0, 2.0, 0.2, 0.1, -0.3])
    a, s = arm_and_system(q)
    a.damping = np.zeros(7)
    a.friction = np.zeros(7)
    W = np.zeros((7, 6))
    W[6] = f
    a.step(1e-3, wrench=W)
    by_wrench = a.qd.copy()
    jp, jr = s.frame_jacobian(a.frame_id(7))
    a.set_state(q, np.zeros(7))
    a.step(1e-3, torques=jp.T @ f[:3] + jr.T @ f[3:])
    assert np.abs(a.qd - by_wrench).max() < 1e-12


def test_friction_holds_and_stops_hold():
    q = np.array([0.3, -0.5, 0.2, 1.0, -0.4, 0.6, 0.1])
    a, _ = arm_and_system(q)
    a.friction = np.full(7, 1e3)  # far above what gravity asks of any joint
    for _ in range(10):
        a.step(1e-3)
    assert np.array_equal(a.q, q) and np.abs(a.qd).max() == 0
    assert a.report()["stuck_start"] is True
    a.friction = np.zeros(7)
    a.set_stops(q - 0.01, q + 0.01)
    for _ in range(200):
        a.step(1e-3, torques=np.full(7, 50.0))
    assert (a.q <= q + 0.01 + 1e-15).all() and (a.q >= q - 0.01 - 1e-15).all()
    assert np.isclose(a.q, q + 0.01, atol=1e-12).any()  # pushed against an upper stop


def test_views_copies_and_refusals():
    a, _ = arm_and_system(np.zeros(7))
    v = a.q
    assert not v.flags.writeable
    with pytest.raises(ValueError):
        v[0] = 1
    a.step(1e-3)
    assert np.shares_memory(v, a.q) and np.array_equal(v, a.q)
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is not None  # the view keeps the arm alive
    a = ref()
    d = a.damping
    d[0] = 99.0
    assert a.damping[0] != 99.0  # parameters are copies; the setter validates
    before = a.q.copy(), a.qd.copy()
    for call in [lambda: a.step(0.0), lambda: a.step(2.0), lambda: a.step(np.nan),
                 lambda: a.set_state(np.full(7, 9.0)), lambda: a.set_stops(np.ones(7), np.zeros(7)),
                 lambda: setattr(a, "damping", np.full(7, -1.0)),
                 lambda: setattr(a, "sweeps", 0), lambda: a.set_placement((0, 0, 0), 2 * np.eye(3)),
                 lambda: a.step(1e-3, torques=np.full(7, np.inf))]:
        with pytest.raises(sinew.Error):
            call()
    for call in [lambda: a.step(1e-3, torques=np.zeros(6)), lambda: a.step(1e-3, wrench=np.zeros(7)),
                 lambda: a.set_state("q"), lambda: a.gyroscopic_matrix(np.zeros(3))]:
        with pytest.raises((ValueError, TypeError)):
            call()
    with pytest.raises(IndexError):
        a.frame_id(0)
    assert np.array_equal(a.q, before[0]) and np.array_equal(a.qd, before[1])
    with pytest.raises(sinew.Error):
        sinew.Arm(sinew.load(str(SOURCE / "models" / "fourbar.urdf")))  # a loop: not an arm
    a.gravity = (0, 0, 0)
    assert a.gravity == (0.0, 0.0, 0.0)
