#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench/python: what Python costs on top of sinew's C (issue 19; docs/benchmarks.md "Python").

    PYTHONPATH=build/python /usr/bin/python3 bench/python/bench_python.py [--quick]

ANYmal C standing on its feet (the shared model, raisimGym's standing pose held by PD, kp 300,
kd 5, 1 ms steps, the file's collision geometry on the ground plane), after 500 steps to settle:

- per-call overhead: N calls of world.step() from Python against one world.step(N), whose loop
  is C's; the difference per call is what the binding adds. The same for reading system.q (a
  view) and writing it (a validated copy), and for Batch.step on one world;
- Batch throughput in world-steps/s for 1 and 2 threads and n = 1..1024 worlds, stepped by a
  Python loop (one Batch.step with an (n, 12) action array per step), against the C loop (one
  world's world.step(N), times n) - the goal: 2 threads at least 1.8x one, and the Python loop
  within 5 % of C for n >= 64.

Timings are medians of repeats; this machine's timings swing by up to 2x between runs, so the
ratios, measured side by side, are what to read. MuJoCo's Python package cannot be installed
here (no PyPI); bench/run.sh's `step_contact` kernel gives the C MuJoCo loop on ANYmal.
"""

import argparse
import os
import pathlib
import statistics
import sys
import time

import numpy as np
import sinew

HERE = pathlib.Path(__file__).resolve()
SHARED = pathlib.Path(os.environ.get("SINEW_SHARED", HERE.parents[3] / "shared"))
ANYMAL = SHARED / "models" / "raisim_anymal_c" / "urdf" / "anymal.urdf"
POSE = {"LF_HAA": 0.03, "LF_HFE": 0.4, "LF_KFE": -0.8, "RF_HAA": -0.03, "RF_HFE": 0.4,
        "RF_KFE": -0.8, "LH_HAA": 0.03, "LH_HFE": -0.4, "LH_KFE": 0.8, "RH_HAA": -0.03,
        "RH_HFE": -0.4, "RH_KFE": 0.8}


def standing(model):
    q = model.q0.copy()
    q[2] = 0.56
    for name, v in POSE.items():
        j = model.find("joint", name)
        q[model.joint_qadr[j]] = v
    kp, kd = np.zeros(model.nv), np.zeros(model.nv)
    kp[6:], kd[6:] = 300.0, 5.0
    return q, kp, kd


def settled_world(model):
    q, kp, kd = standing(model)
    w = sinew.World()
    s = w.add(model, q0=q)
    s.set_pd_gains(kp, kd)
    s.set_pd_target(q)
    w.step(500)
    return w, s


def median_time(fn, repeats):
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def overheads(model, calls, repeats):
    w, s = settled_world(model)
    snap = w.save()

    def c_loop():
        w.restore(snap)
        w.step(calls)

    def py_loop():
        w.restore(snap)
        step = w.step
        for _ in range(calls):
            step()

    c = median_time(c_loop, repeats) / calls
    py = median_time(py_loop, repeats) / calls
    q = s.q.copy()
    n = 20000

    def read():
        for _ in range(n):
            s.q

    def write():
        for _ in range(n):
            s.q = q

    rd = median_time(read, repeats) / n
    wr = median_time(write, repeats) / n
    # Batch.step on one world, actions included, against the same C loop
    b = sinew.Batch(model, 1, q0=standing(model)[0], action="target")
    b.set_pd_gains(*standing(model)[1:])
    b.step(np.array([standing(model)[0][7:]]), n=500)
    a = np.array([standing(model)[0][7:]])

    def batch_loop():
        for _ in range(calls):
            b.step(a)

    bt = median_time(batch_loop, repeats) / calls
    return c, py, rd, wr, bt


def throughput(model, n, threads, steps, repeats):
    """world-steps/s of n worlds: (C, each world `steps` in a row; C, one step of all at a time;
    Python, one Batch.step(actions) per step)"""
    q, kp, kd = standing(model)
    b = sinew.Batch(model, n, threads=threads, q0=q, action="target")
    b.set_pd_gains(kp, kd)
    a = np.tile(q[7:], (n, 1))
    b.step(a, n=500)
    snap = b.save(0)
    b.reset(checkpoint=snap)

    def timed(run):
        ts = []
        for _ in range(repeats):
            b.reset(checkpoint=snap)
            t = time.perf_counter()
            run()
            ts.append(time.perf_counter() - t)
        return n * steps / statistics.median(ts)

    def py_loop():
        step = b.step
        for _ in range(steps):
            step(a)

    return (timed(lambda: b.step(a, n=steps)), timed(lambda: b.step_loop(steps)),
            timed(py_loop))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats and sizes")
    args = ap.parse_args()
    if not ANYMAL.exists():
        sys.exit("the shared models are missing: %s (set SINEW_SHARED)" % ANYMAL)
    model = sinew.load(str(ANYMAL))
    repeats = 3 if args.quick else 7
    c, py, rd, wr, bt = overheads(model, 2000 if args.quick else 5000, repeats)
    print("| per call (ANYmal standing) | time | over the C loop |")
    print("|---|---:|---:|")
    print("| C loop, world.step(N), per step | %.2f us | - |" % (c * 1e6))
    print("| world.step() from Python, per call | %.2f us | %+.2f us |" % (py * 1e6,
                                                                       (py - c) * 1e6))
    print("| Batch(n = 1).step(actions), per call | %.2f us | %+.2f us |" % (bt * 1e6,
                                                                          (bt - c) * 1e6))
    print("| read system.q (a view) | %.3f us | - |" % (rd * 1e6))
    print("| write system.q = q (validated copy) | %.3f us | - |" % (wr * 1e6))
    print()
    sizes = [1, 16, 64, 256, 1024] if args.quick else [1, 4, 16, 64, 256, 1024]
    print("world-steps/s; C: Batch.step(n=N) (each world N steps in a row) and Batch.step_loop(N)")
    print("(one step of every world at a time, from C); Python: N calls of Batch.step(actions)")
    print()
    print("| n | threads | C, in a row | C, step by step | Python loop | Python / C step by step "
          "| Python, 2 threads / 1 |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        steps = max(20, 4000 // n)
        one = throughput(model, n, 1, steps, repeats)
        two = throughput(model, n, 2, steps, repeats)
        for th, r in ((1, one), (2, two)):
            print("| %d | %d | %.0f | %.0f | %.0f | %.3f | %s |" % (
                n, th, r[0], r[1], r[2], r[2] / r[1], "%.2f" % (two[2] / one[2]) if th == 2
                else ""))
        sys.stdout.flush()
    print()
    print("one world's C loop (world.step(N)): %.0f steps/s" % (1.0 / c))


if __name__ == "__main__":
    main()
