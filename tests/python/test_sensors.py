# SPDX-License-Identifier: Apache-2.0
# Sensors and inverse kinematics from Python: an IMU on a standing ANYmal reads +g up and no
# rotation rate, joint sensors read the step's start state, force/torque under a hanging link
# reads its weight; IK puts a frame where a random configuration had it, says when it cannot,
# and refuses malformed targets.
import os

import numpy as np
import pytest
import sinew

ARM = os.path.join(os.path.dirname(__file__), "..", "..", "models", "arm7.urdf")


def quat_of(R):
    # w x y z with w >= 0, from a rotation matrix (trace branch: R near identity is not assumed)
    w = np.sqrt(max(0.0, 1 + R[0, 0] + R[1, 1] + R[2, 2])) / 2
    x = np.copysign(np.sqrt(max(0.0, 1 + R[0, 0] - R[1, 1] - R[2, 2])) / 2, R[2, 1] - R[1, 2])
    y = np.copysign(np.sqrt(max(0.0, 1 - R[0, 0] + R[1, 1] - R[2, 2])) / 2, R[0, 2] - R[2, 0])
    z = np.copysign(np.sqrt(max(0.0, 1 - R[0, 0] - R[1, 1] + R[2, 2])) / 2, R[1, 0] - R[0, 1])
    return np.array([w, x, y, z])


def test_imu_on_a_standing_quadruped(anymal_path):
    w = sinew.World()
    s = w.add(sinew.load(anymal_path))
    assert s.sensor_values is None  # nothing read before a step
    i = s.add_sensor("imu", frame="base", name="imu")
    j = s.add_sensor("jointpos", joint="LF_KFE")
    assert (i, j) == (0, 1) and s.sensor_names[:2] == ["imu", "sensor1"]
    info = s.sensor_info("imu")
    assert info["type"] == "imu" and info["dim"] == 10 and info["adr"] == 0
    s.set_pd_gains(np.full(18, 200.0), np.full(18, 5.0))
    s.set_pd_target(s.q)
    w.step(700)  # standing on its four feet, rocking a little
    q_start, u_start = s.q.copy(), s.u.copy()
    R = np.asarray(s.frame_pose("base")[1]).copy()
    w.step()
    v = s.sensor("imu")
    assert v.shape == (10,)
    g = np.array(w.gravity)
    # the accelerometer reads the base origin's acceleration over the step minus gravity, in the
    # base frame (the free joint's u is the origin's velocity and the angular velocity, world
    # axes); the gyro the start angular velocity
    a = (s.u[:3] - u_start[:3]) / w.timestep
    assert np.abs(v[:3] - R.T @ (a - g)).max() < 1e-9
    assert np.abs(v[3:6] - R.T @ u_start[3:6]).max() < 1e-12
    assert abs(np.linalg.norm(v[:3]) - 9.81) < 0.2  # about +g up: it stands
    # the orientation is the step's start orientation; jointpos its start angle
    assert abs(np.linalg.norm(v[6:]) - 1) < 1e-12
    w0 = sinew.World()
    s0 = w0.add(s.model, setup=False)
    s0.set_state(q_start, np.zeros(18))
    assert np.abs(v[6:] - quat_of(np.asarray(s0.frame_pose("base")[1]))).max() < 1e-9
    knee = s.model.find("joint", "LF_KFE")
    all_v = s.sensor_values
    assert all_v.shape == (11,) and np.array_equal(all_v[:10], v)
    assert all_v[10] == q_start[s.model.joint_qadr[knee]]


def test_force_torque_reads_the_weight_below():
    w = sinew.World()
    s = w.add(sinew.load(ARM))
    s.set_pd_gains(np.full(s.nv, 400.0), np.full(s.nv, 40.0))
    s.set_pd_target(np.zeros(s.nq))
    ft = s.add_sensor("force_torque", joint="joint7", name="wrist")
    w.step(3000)
    f = s.sensor("wrist")
    assert f.shape == (6,)
    assert np.linalg.norm(s.u) < 1e-6  # at rest
    # what hangs below the last joint (link7 and the massless tool), pulled by gravity
    mass = s.model.body_mass[-1]
    assert mass == 0.3
    assert abs(np.linalg.norm(f[:3]) - mass * np.linalg.norm(w.gravity)) < 1e-6
    assert s.sensor_info(ft)["dim"] == 6


def test_sensor_arguments():
    w = sinew.World()
    s = w.add(sinew.load(ARM))
    with pytest.raises(ValueError):
        s.add_sensor("thermometer", frame="link1")
    with pytest.raises((KeyError, ValueError, IndexError)):
        s.add_sensor("imu", frame="no_such_link")
    with pytest.raises(sinew.Error):
        s.add_sensor("imu")  # a frame sensor without its frame
    with pytest.raises(ValueError):
        s.add_sensor("imu", frame="link1", pos=(1, 2))
    s.add_sensor("gyro", frame="link1", name="g")
    with pytest.raises(sinew.Error):
        s.add_sensor("gyro", frame="link2", name="g")  # names are unique
    with pytest.raises(KeyError):
        s.sensor("nothing")
    with pytest.raises(IndexError):
        s.sensor(7)
    assert s.sensor_names == ["g"]


def arm_with_random_pose(seed):
    w = sinew.World()
    s = w.add(sinew.load(ARM))
    rng = np.random.default_rng(seed)
    lo, hi = np.asarray(s.model.lower), np.asarray(s.model.upper)
    q = lo + (hi - lo) * rng.uniform(0.1, 0.9, size=s.nq)
    s.set_state(q, np.zeros(s.nv))
    p, R = (np.asarray(x) for x in s.frame_pose("tool"))
    s.set_state(np.zeros(s.nq), np.zeros(s.nv))
    return w, s, q, p.copy(), R.copy()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ik_reaches_a_reachable_pose(seed):
    w, s, q_true, p, R = arm_with_random_pose(seed)
    target = [{"frame": "tool", "position": p, "rotation": R}]
    q, rep = s.solve_ik(target)
    assert rep["converged"] and rep["position_error"] < 1e-9 and rep["rotation_error"] < 1e-9
    assert np.array_equal(s.q, np.zeros(s.nq))  # the state is left as it was
    errs = s.ik_errors(target, q)
    assert errs.shape == (1, 2) and errs.max() < 1e-9
    assert s.ik_errors(target, q_true).max() < 1e-12
    q2, rep2 = s.solve_ik(target, apply=True)
    assert np.array_equal(q2, q) and np.array_equal(s.q, q)
    assert np.abs(np.asarray(s.frame_pose("tool")[0]) - p).max() < 1e-9


def test_ik_out_of_reach_says_so():
    w, s, _, p, _ = arm_with_random_pose(4)
    far = [{"frame": "tool", "position": p * 0 + np.array([5.0, 0, 0.3])}]
    q, rep = s.solve_ik(far, max_iterations=100)
    assert not rep["converged"] and rep["position_error"] > 1
    assert np.isfinite(q).all()
    # with every DOF fixed nothing can move: the start comes back
    q0, rep0 = s.solve_ik([{"frame": "tool", "position": p}], fixed=np.ones(s.nv))
    assert np.array_equal(q0, np.zeros(s.nq)) and not rep0["converged"]


def test_ik_refuses_malformed_targets():
    w = sinew.World()
    s = w.add(sinew.load(ARM))
    for bad, exc in [([], ValueError), ("tool", TypeError), ([{"position": (0, 0, 1)}], KeyError),
                     ([{"frame": "tool"}], ValueError),
                     ([{"frame": "tool", "position": (0, 0)}], ValueError),
                     ([{"frame": "tool", "rotation": np.ones((2, 2))}], ValueError),
                     ([{"frame": "tool", "rotation": 2 * np.eye(3)}], sinew.Error),
                     ([{"frame": "tool", "position": (np.nan, 0, 0)}], (ValueError, sinew.Error)),
                     ([{"frame": "tool", "position": (0, 0, 1), "position_weight": -1}],
                      sinew.Error),
                     ([{"frame": 99, "position": (0, 0, 1)}], IndexError)]:
        with pytest.raises(exc):
            s.solve_ik(bad)
    with pytest.raises(ValueError):
        s.solve_ik([{"frame": "tool", "position": (0, 0, 1)}], start=np.zeros(3))
    with pytest.raises(ValueError):
        s.ik_errors([{"frame": "tool", "position": (0, 0, 1)}], np.zeros(2))
