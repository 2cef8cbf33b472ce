# SPDX-License-Identifier: Apache-2.0
# sinew.Batch and sinew.env.VecEnv: n worlds stepped on C threads equal n worlds stepped one by
# one, to the bit; contiguous state views; resets of any subset to a checkpoint; the
# gymnasium-style environment's contract; the MPI example's returns independent of the ranks.
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest
import sinew

from conftest import SOURCE


def test_batch_equals_separate_worlds(anymal_path):
    m = sinew.load(anymal_path)
    n = 64
    batch = sinew.Batch(m, n, threads=2)
    assert batch.q.shape == (n, 19) and batch.u.shape == (n, 18) and batch.nu == 12
    assert batch.q.flags.c_contiguous and not batch.q.flags.writeable
    worlds = [sinew.World() for _ in range(n)]
    systems = [w.add(m) for w in worlds]
    rng = np.random.default_rng(11)
    q_view = batch.q
    for _ in range(10):
        a = rng.normal(scale=5.0, size=(n, 12))
        batch.step(a, n=4)
        for i, (w, s) in enumerate(zip(worlds, systems)):
            tau = np.zeros(18)
            tau[6:] = a[i]
            s.set_generalized_force(tau)
            w.step(4)
    for i, s in enumerate(systems):
        assert np.array_equal(batch.q[i], s.q) and np.array_equal(batch.u[i], s.u), i
    assert np.shares_memory(q_view, batch.q)  # one array, updated in place
    assert np.all(batch.time == worlds[0].time)
    # the worlds differ (their actions did): the test compares something
    assert np.abs(batch.q[0] - batch.q[1]).max() > 1e-6


def test_threads_do_not_change_results(anymal_path):
    m = sinew.load(anymal_path)
    rng = np.random.default_rng(5)
    a = rng.normal(scale=3.0, size=(9, 12))
    runs = []
    for threads in (1, 2, 3):
        b = sinew.Batch(m, 9, threads=threads)
        b.step(a, n=30)
        runs.append((b.q.copy(), b.u.copy()))
    for q, u in runs[1:]:
        assert np.array_equal(q, runs[0][0]) and np.array_equal(u, runs[0][1])


def test_reset_subsets_and_checkpoints(anymal_path):
    m = sinew.load(anymal_path)
    b = sinew.Batch(m, 6, threads=2)
    q_start = b.q.copy()
    b.step(np.ones((6, 12)), n=20)
    moved = b.q.copy()
    mask = np.array([True, False, True, False, False, False])
    b.reset(mask)
    assert np.array_equal(b.q[0], q_start[0]) and np.array_equal(b.q[2], q_start[2])
    assert np.array_equal(b.q[1], moved[1]) and np.array_equal(b.q[5], moved[5])
    b.reset([-1])
    assert np.array_equal(b.q[5], q_start[5])
    # world 3's checkpoint loaded into world 4: both step on identically
    snap = b.save(3)
    b.reset([4], checkpoint=snap)
    b.step(np.full((6, 12), 0.5), n=15)
    assert np.array_equal(b.q[3], b.q[4]) and np.array_equal(b.u[3], b.u[4])
    with pytest.raises(sinew.Error):
        b.reset([0], checkpoint=snap[:100])
    with pytest.raises(IndexError):
        b.reset([6])
    with pytest.raises(ValueError):
        b.reset(np.ones(3, dtype=bool))
    with pytest.raises(TypeError):
        b.reset(["a"])


def test_arguments_are_checked(anymal_path):
    m = sinew.load(anymal_path)
    with pytest.raises(ValueError):
        sinew.Batch(m, 0)
    with pytest.raises(ValueError):
        sinew.Batch(m, 2, threads=0)
    with pytest.raises(ValueError):
        sinew.Batch(m, 2, action="wish")
    b = sinew.Batch(m, 3)
    with pytest.raises(ValueError):
        b.step(np.zeros((3, 11)))
    with pytest.raises(ValueError):
        b.step(np.zeros(36))
    with pytest.raises(ValueError):
        b.step(n=-1)
    q = b.q.copy()
    bad = q[:2].copy()
    bad[1, 4] = np.nan
    with pytest.raises(sinew.Error):
        b.set_state(bad, worlds=[0, 1])
    with pytest.raises(ValueError):
        b.set_state(q[:2])  # two rows for three worlds
    up = q.copy()
    up[:, 2] += 0.5
    b.set_state(up)
    assert np.array_equal(b.q[:, 2], up[:, 2])


def test_pd_targets_and_start_state(fourbar_path):
    path = str(SOURCE / "models" / "humanoid.urdf")
    m = sinew.load(path)
    q0 = m.q0.copy()
    q0[2] = 0.96
    b = sinew.Batch(m, 2, action="target", q0=q0)
    assert b.nu == 21 and np.array_equal(b.q[:, 2], [0.96, 0.96])
    kp, kd = np.zeros(27), np.zeros(27)
    kp[6:], kd[6:] = 80.0, 2.0
    b.set_pd_gains(kp, kd)
    b.set_start()
    target = np.zeros((2, 21))
    target[1] = 0.3
    b.step(target, n=50)
    # the same through a World: set_pd_target with the base's coordinates as they are
    w = sinew.World()
    s = w.add(m, q0=q0)
    s.set_pd_gains(kp, kd)
    ref = q0.copy()
    ref[7:] = 0.3
    s.set_pd_target(ref)
    w.step(50)
    assert np.array_equal(b.q[1, 7:], s.q[7:])
    assert abs(b.q[1, 7] - 0.3) < 0.1 and abs(b.q[0, 7]) < 1e-6
    b.reset()  # the start kept the gains
    b.step(target, n=50)
    assert np.array_equal(b.q[1, 7:], s.q[7:])


def test_vecenv_contract():
    m = sinew.load(str(SOURCE / "models" / "humanoid.urdf"))
    q0 = m.q0.copy()
    q0[2] = 0.96
    env = sinew.env.VecEnv(m, 4, threads=2, q0=q0, max_steps=3, frame_skip=5)
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape == (4, 28 + 27)
    a = env.action_space.sample(np.random.default_rng(0))
    assert a.shape == (4, 21) and env.single_action_space.contains(a[0])
    for t in range(3):
        obs, r, term, trunc, info = env.step(np.zeros((4, 21)))
        assert r.shape == (4,) and term.dtype == bool and not term.any()
    # the third step truncates every episode: the last observations are kept, the worlds reset
    assert trunc.all() and np.array_equal(info["final_index"], np.arange(4))
    assert not np.array_equal(info["final_observation"][:, :28], obs[:, :28])
    assert np.array_equal(obs[:, :28], np.tile(q0, (4, 1)))
    # a base below min_height terminates at once
    env2 = sinew.env.VecEnv(m, 2, q0=q0, min_height=2.0)
    env2.reset()
    _, _, term, trunc, info = env2.step(np.zeros((2, 21)))
    assert term.all() and not trunc.any() and len(info["final_index"]) == 2


def mpirun():
    exe = shutil.which("mpirun")
    if not exe:
        if os.environ.get("SNT_NO_SKIP"):
            raise FileNotFoundError("mpirun (openmpi-bin) is missing")
        pytest.skip("mpirun missing")
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        if os.environ.get("SNT_NO_SKIP"):
            raise
        pytest.skip("mpi4py missing")
    return exe


def test_mpi_returns_do_not_depend_on_ranks(tmp_path):
    exe = mpirun()
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,vader,tcp", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo")
    script = SOURCE / "examples" / "python" / "rollouts_mpi.py"
    out = {}
    for ranks in (1, 2):
        f = tmp_path / ("r%d.json" % ranks)
        subprocess.run([exe, "--oversubscribe", "-n", str(ranks), sys.executable, str(script),
                        "--episodes", "6", "--steps", "40", "--out", str(f)], env=env,
                       check=True, timeout=300, capture_output=True)
        out[ranks] = json.loads(f.read_text())
    assert out[2]["ranks"] == 2
    assert out[1]["returns"] == out[2]["returns"]
    assert out[1]["lengths"] == out[2]["lengths"]
    assert out[1]["states_sha256"] == out[2]["states_sha256"]
    assert len(set(out[1]["returns"])) > 1  # the episodes' noise differs, and so do returns


def test_rollouts_example_runs():
    out = subprocess.run([sys.executable, str(SOURCE / "examples" / "python" / "rollouts.py"),
                          "--episodes", "4", "--steps", "20", "--threads", "2"],
                         capture_output=True, text=True, check=True, timeout=300)
    assert "4 episodes of humanoid.urdf" in out.stdout and "steps/s" in out.stdout
