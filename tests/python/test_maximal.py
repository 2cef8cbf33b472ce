# SPDX-License-Identifier: Apache-2.0
# Maximal coordinates and constraints between bodies from Python (sn_maximal.h, seed 003): a
# model turned into bodies and constraints gives its joint state back; a spherical pendulum on a
# distance constraint keeps its length and energy under RK4; a body hanging on a ball joint
# carries its weight; world constraints join free bodies of two systems, carry the weight, and
# pickle with the world bit for bit; a Maximal added to a world follows the articulated system to
# first order in dt and restores bit for bit; malformed constraints are refused.
import gc
import pickle

import numpy as np
import pytest
import sinew
from conftest import SOURCE


def model(name):
    return sinew.load(str(SOURCE / "models" / name))


def test_model_in_maximal_coordinates_round_trips_its_joint_state():
    q, u = np.array([0.3, -0.2]), np.array([0.5, 0.1])
    mx = sinew.Maximal.from_model(model("double_pendulum.urdf"), q, u)
    assert (mx.nbody, mx.nconstraint, mx.nrow) == (2, 2, 10)  # two hinges of 5 rows
    q1, u1 = mx.joint_state()
    assert np.abs(q1 - q).max() < 1e-12 and np.abs(u1 - u).max() < 1e-12
    # stepped in maximal coordinates with RK4, it follows the articulated system
    mx.scheme = "rk4"
    mx.timestep = 1e-4
    w = sinew.World(timestep=1e-4)
    s = w.add(model("double_pendulum.urdf"), setup=False)
    s.scheme = "rk4"
    w.set_ground(False)
    s.set_state(q, u)
    mx.step(2000)
    w.step(2000)
    q2, u2 = mx.joint_state()
    assert np.abs(q2 - s.q).max() < 1e-6 and np.abs(u2 - s.u).max() < 1e-5
    assert mx.constraint_error()[1] < 1e-8
    assert mx.model is not None and abs(mx.time - 0.2) < 1e-12


def test_spherical_pendulum_keeps_length_and_energy():
    mx = sinew.Maximal(timestep=1e-3)
    b = mx.add_body(2.0, [0.01, 0, 0, 0.01, 0, 0.01])
    c = mx.add_constraint("distance", b, -1, anchor_b=(0, 0, 1.0), length=0.5)
    mx.set_body_state(b, x=(0.5, 0, 1.0), v=(0, 1.0, 0))
    mx.scheme = "rk4"
    e0 = mx.kinetic_energy + mx.potential_energy
    mx.step(2000)
    x, quat, v, w = mx.body_state(b)
    assert abs(np.linalg.norm(np.array(x) - (0, 0, 1.0)) - 0.5) < 1e-8
    e1 = mx.kinetic_energy + mx.potential_energy
    assert abs(e1 - e0) < 1e-6 * abs(e0)
    f, t, lam = mx.constraint_force(c)
    assert np.linalg.norm(f) > 0 and lam[1:] == (0,) * 5  # one row
    with pytest.raises(sinew.Error):
        mx.body_state(7)


def test_hanging_bodies_carry_their_weight():
    # a Maximal body on a ball joint to the world, at rest: the joint carries m g
    mx = sinew.Maximal()
    b = mx.add_body(3.0, [0.02, 0, 0, 0.02, 0, 0.02])
    c = mx.add_constraint("ball", b, -1, anchor_a=(0, 0, 0.2), anchor_b=(0, 0, 1.2))
    mx.set_body_state(b, x=(0, 0, 1.0))
    mx.step(10)
    f, t, _ = mx.constraint_force(c)
    assert np.abs(np.array(f) - (0, 0, 3.0 * 9.81)).max() < 1e-9
    # a world constraint: a 1 kg box hanging from the world, another hanging from it by a rod
    w = sinew.World()
    w.set_ground(False)
    top = w.add(model("box.urdf"))
    q = top.q.copy()
    q[2] = 0.9
    top.set_state(q, np.zeros(6))
    i = w.add_constraint("ball", top, "box", anchor_a=(0, 0, 0.1), anchor_b=(0, 0, 1.0))
    low = w.add(model("box.urdf"))
    q[2] = 0.6
    low.set_state(q, np.zeros(6))
    j = w.add_constraint("distance", low, "box", top, "box", anchor_a=(0, 0, 0.1),
                         anchor_b=(0, 0, -0.1), length=0.1)
    assert w.nconstraint == 2
    w.step(200)
    assert np.abs(np.array(w.constraint_force(i)[0]) - (0, 0, 2 * 9.81)).max() < 1e-6
    assert np.abs(np.array(w.constraint_force(j)[0]) - (0, 0, 9.81)).max() < 1e-6
    assert w.constraint_error(i) < 1e-9 and w.constraint_error(j) < 1e-9
    # the recipe holds the constraints between the systems: a pickled world steps on bit for bit
    low.set_state(low.q, np.array([0.3, 0, 0, 0, 0, 0]))
    w2 = pickle.loads(pickle.dumps(w))
    assert w2.nconstraint == 2
    w.step(100)
    w2.step(100)
    assert w.state_hash() == w2.state_hash()
    assert np.array_equal(w.system(1).q, w2.system(1).q)


def test_refusals():
    mx = sinew.Maximal()
    b = mx.add_body(1.0, [0.01, 0, 0, 0.01, 0, 0.01])
    for call, exc in [(lambda: mx.add_body(-1.0, [0.01, 0, 0, 0.01, 0, 0.01]), sinew.Error),
                      (lambda: mx.add_body(1.0, [1, 2, 3]), ValueError),
                      (lambda: mx.add_constraint("rope", b), ValueError),
                      (lambda: mx.add_constraint(3, b), TypeError),
                      (lambda: mx.add_constraint("distance", b, -1, length=-1), sinew.Error),
                      (lambda: mx.add_constraint("ball", 5, -1), sinew.Error),
                      (lambda: mx.add_constraint("hinge", b, -1, frame_a=np.ones((2, 2))),
                       ValueError),
                      (lambda: mx.add_constraint("hinge", b, -1, frame_a=2 * np.eye(3)),
                       sinew.Error),
                      (lambda: mx.joint_state(), ValueError),
                      (lambda: setattr(mx, "timestep", 0.0), sinew.Error),
                      (lambda: setattr(mx, "scheme", "euler"), ValueError),
                      (lambda: mx.set_body_state(b, quat=(0, 0, 0, 0)), sinew.Error)]:
        with pytest.raises(exc):
            call()
    assert mx.nconstraint == 0
    assert mx.gravity == (0, 0, -9.81) and mx.scheme == "semi_implicit"  # refused: unchanged
    mx.gravity, mx.scheme = (0, 0, -1.62), "rk4"
    assert mx.gravity == (0, 0, -1.62) and mx.scheme == "rk4"
    w = sinew.World()
    s = w.add(model("box.urdf"))
    other = sinew.World().add(model("box.urdf"))
    for call, exc in [(lambda: w.add_constraint("ball", None, 0), TypeError),
                      (lambda: w.add_constraint("ball", other, "box"), ValueError),
                      (lambda: w.add_constraint("ball", s, "nothing"), KeyError),
                      (lambda: w.add_constraint("ball", s, 9), IndexError),
                      (lambda: w.add_constraint("distance", s, "box", length=0), sinew.Error),
                      (lambda: w.add_constraint("ball", s, "box", s), TypeError),
                      (lambda: w.constraint_force(0), sinew.Error)]:
        with pytest.raises(exc):
            call()
    assert w.nconstraint == 0


def test_maximal_bodies_in_a_world():
    # a double pendulum in maximal coordinates added to a world: two free-body systems and two
    # world constraints; its joint state follows the articulated system's to first order in dt
    # (both semi-implicit, different discretizations: the gap halves with the step)
    m = model("double_pendulum.urdf")
    q, u = np.array([0.3, -0.2]), np.array([0.5, 0.1])
    gap = []
    for dt in (2e-4, 1e-4):
        mx = sinew.Maximal.from_model(m, q, u)
        w = sinew.World(timestep=dt)
        w.set_ground(False)
        bodies = w.add_maximal(mx)
        assert [b.index for b in bodies] == [0, 1] and w.nconstraint == 2
        ref = sinew.World(timestep=dt)
        ref.set_ground(False)
        s = ref.add(m, setup=False)
        s.set_state(q, u)
        n = int(round(0.2 / dt))
        w.step(n)
        ref.step(n)
        q1, u1 = w.maximal_joint_state(mx, bodies[0])
        assert mx.constraint_error()[1] < 1e-10  # the bodies read from the world, loops closed
        gap.append(np.abs(q1 - s.q).max())
    assert gap[1] < 2e-6 and 1.6 < gap[0] / gap[1] < 2.4
    # the world keeps the model alive; a checkpoint of it restores bit for bit; it does not pickle
    del m, mx, s, ref
    gc.collect()
    snap = w.save()
    w.step(50)
    h = w.state_hash()
    w.restore(snap)
    w.step(50)
    assert w.state_hash() == h
    with pytest.raises(TypeError, match="add_maximal"):
        pickle.dumps(w)
    # a hand-built Maximal: no joint state, its body's state read from the world
    hand = sinew.Maximal()
    hand.add_body(1.0, [0.01, 0, 0, 0.01, 0, 0.01])
    (free,) = w.add_maximal(hand)
    w.step(10)
    assert w.maximal_joint_state(hand, free.index) is None
    x, _, v, _ = hand.body_state(0)
    assert abs(v[2] + 9.81 * 10 * w.timestep) < 1e-12 and x[2] < 0
    pair = sinew.Maximal.from_model(model("double_pendulum.urdf"))  # two bodies: past the end
    for call, exc in [(lambda: w.add_maximal(None), TypeError),
                      (lambda: w.add_maximal(hand, like=3), TypeError),
                      (lambda: w.add_maximal(hand, like=free), sinew.Error),
                      (lambda: w.maximal_joint_state(hand, 99), IndexError),
                      (lambda: w.maximal_joint_state(pair, free.index), sinew.Error)]:
        with pytest.raises(exc):
            call()


def test_user_constraint_in_python():
    # a 2 kg particle held on x^2 + y^2 = R^2 by a Python callback (docs/constraints.md
    # "User constraints"), gravity and stabilization off, RK4: the speed stays 3 m/s and the
    # constraint pulls with m v^2 / R toward the centre
    R, m, speed = 0.5, 2.0, 3.0

    def circle(xa, Ra, va, wa, xb, Rb, vb, wb):
        c = [0.5 * (xa[0] ** 2 + xa[1] ** 2 - R * R)]
        Ja = np.array([[xa[0], xa[1], 0, 0, 0, 0]])
        return c, Ja, None, [va[0] ** 2 + va[1] ** 2]

    mx = sinew.Maximal(timestep=1e-3)
    mx.gravity, mx.scheme = (0, 0, 0), "rk4"
    mx.set_stabilization(0, 0)
    b = mx.add_body(m, [0.01, 0, 0, 0.01, 0, 0.01])
    mx.set_body_state(b, x=(R, 0, 0), v=(0, speed, 0))
    c = mx.add_user_constraint(1, b, -1, circle)
    assert mx.nconstraint == 1 and mx.nrow == 1
    mx.step(2000)
    x, _, v, _ = mx.body_state(b)
    # measured 2.0e-12, 3.2e-13 and 6.7e-13 (the C test of the same case: 6.6e-13, 6.7e-13)
    assert abs(np.linalg.norm(v) - speed) < 1e-10
    assert abs(np.hypot(x[0], x[1]) - R) < 1e-10
    f = np.array(mx.constraint_force(c)[0])
    assert abs(np.linalg.norm(f) - m * speed ** 2 / R) < 1e-10 * m * speed ** 2 / R
    assert np.dot(f[:2], x[:2]) < 0  # toward the centre

    # a wrong Jacobian is refused when added, naming the slice
    def wrong(xa, *rest):
        return circle(xa, *rest)[0], np.array([[xa[0], 2 * xa[1], 0, 0, 0, 0]]), None, [0.0]

    with pytest.raises(sinew.Error, match=r"Ja\[row 0\]"):
        mx.add_user_constraint(1, b, -1, wrong)
    assert mx.nconstraint == 1
    # an exception in the callback fails the step, keeps the state and propagates
    state = mx.body_state(b)
    calls = []

    def failing(*args):
        calls.append(1)
        if len(calls) > 1:
            raise KeyError("from the callback")
        return [0.0], np.zeros((1, 6)), None, [0.0]

    mx.add_user_constraint(1, b, -1, failing, check=False)
    with pytest.raises(KeyError, match="from the callback"):
        mx.step()
    assert mx.body_state(b) == state
    # malformed results and changes from inside the callback are refused the same way
    mx2 = sinew.Maximal()
    b2 = mx2.add_body(1.0, [0.01, 0, 0, 0.01, 0, 0.01])
    mx2.add_user_constraint(1, b2, -1, lambda *a: ([0.0], np.zeros(5), None, [0.0]), check=False)
    with pytest.raises(ValueError, match="Ja"):
        mx2.step()
    mx3 = sinew.Maximal()
    b3 = mx3.add_body(1.0, [0.01, 0, 0, 0.01, 0, 0.01])
    mx3.add_user_constraint(1, b3, -1, lambda *a: (mx3.step(), 0, 0, 0), check=False)
    with pytest.raises(RuntimeError, match="inside its own"):
        mx3.step()
    for args, exc in [((0, b3, -1, circle), ValueError), ((1, b3, -1, 5), TypeError),
                      ((1, 9, -1, circle), sinew.Error)]:
        with pytest.raises(exc):
            mx3.add_user_constraint(*args)
