# SPDX-License-Identifier: Apache-2.0
# A randomized test of the bindings' argument handling, in the spirit of tests/fuzz: every
# public method and settable attribute of Model, World, System, Batch, Arm and Maximal is called
# many times with arguments drawn from wrong types, shapes, dtypes, non-finite numbers, huge and negative
# indices. Each call returns or raises one of the argument errors; the interpreter never crashes,
# and afterwards the world still steps and its state is finite.
import math

import numpy as np
import pytest
import sinew
from conftest import SOURCE

ALLOWED = (TypeError, ValueError, IndexError, KeyError, OverflowError, sinew.Error)


def garbage(rng, nq, nv):
    pool = [
        None, True, 0, 1, -1, 3, -4, 2 ** 31, -2 ** 31 - 1, 2 ** 64, 0.5, math.nan, math.inf,
        -math.inf, 1e308, "", "base", "LF_FOOT", "no such", "\x00", b"bytes", bytearray(3),
        [], [1, 2], (0.1, 0.2, 0.3), {"a": 1}, object(), sinew,
        np.zeros(0), np.zeros(3), np.zeros(nq), np.zeros(nv), np.zeros((nv, nv)),
        np.zeros((2, 3)), np.ones(nq, dtype=np.int32), np.ones(nv, dtype=np.complex128),
        np.ones(3, dtype=np.float32), np.array(["a", "b", "c"]), np.array([None] * 3),
        np.full(nv, np.nan), np.full(3, np.inf), np.zeros(2 * nv)[::2], np.zeros((3, 3)).T,
        np.float64(2.0), np.int64(-1), np.zeros((4, 4)),
    ]
    return pool[rng.integers(len(pool))]


def public(obj):
    return [n for n in dir(obj) if not n.startswith("_")]


def call_everything(obj, rng, nq, nv, skip, rounds):
    for name in public(obj):
        if name in skip:
            continue
        attr = getattr(type(obj), name, None)
        for _ in range(rounds):
            try:
                if isinstance(attr, property) or type(attr).__name__ == "getset_descriptor":
                    getattr(obj, name)
                    if getattr(attr, "__set__", None) is not None:
                        setattr(obj, name, garbage(rng, nq, nv))
                    continue
                fn = getattr(obj, name)
                if not callable(fn):
                    continue
                nargs = int(rng.integers(0, 5))
                args = [garbage(rng, nq, nv) for _ in range(nargs)]
                kwargs = {}
                if rng.random() < 0.3:
                    kwargs[str(rng.choice(["point", "u", "tau", "loops", "n", "capsule",
                                           "setup", "key", "bogus"]))] = garbage(rng, nq, nv)
                fn(*args, **kwargs)
            except ALLOWED:
                pass
            except AttributeError as e:  # read-only attributes
                assert "not writable" in str(e) or "can't set" in str(e) or "readonly" in str(e)


@pytest.mark.parametrize("seed", range(4))
def test_garbage_never_crashes(seed, anymal_path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # save_file("...") writes here
    rng = np.random.default_rng(seed)
    model = sinew.load(anymal_path)
    world = sinew.World()
    system = world.add(model)
    nq, nv = model.nq, model.nv
    # step(n) with a large n would only take long, not fail: keep n small there
    call_everything(model, rng, nq, nv, skip=(), rounds=20)
    call_everything(system, rng, nq, nv, skip=(), rounds=25)
    call_everything(world, rng, nq, nv, skip=("step",), rounds=25)
    batch = sinew.Batch(model, 3, threads=2)
    call_everything(batch, rng, nq, nv, skip=("step", "step_loop"), rounds=25)
    for args in ((None, 2 ** 64), (np.zeros((3, 12)), -1), ("x",), (np.zeros((3, 12)), 2)):
        try:
            batch.step(*args)
        except ALLOWED:
            pass
    for args in ((-1,), (2 ** 64,), ("3",), (2.0,), (None,), (0,), (2,)):
        try:
            batch.step_loop(*args)
        except ALLOWED:
            pass
    assert np.isfinite(batch.q).all()
    arm = sinew.Arm(sinew.load(str(SOURCE / "models" / "arm7.urdf")))
    call_everything(arm, rng, 7, 7, skip=(), rounds=25)
    arm.set_state(np.zeros(7), np.zeros(7))
    arm.set_stops(np.full(7, -np.inf), np.full(7, np.inf))
    arm.step(1e-3)
    assert np.isfinite(arm.q).all()
    # maximal coordinates: a body on a ball joint and one made from a model
    mx = sinew.Maximal.from_model(sinew.load(str(SOURCE / "models" / "double_pendulum.urdf")),
                                  np.zeros(2), np.zeros(2))
    b = mx.add_body(1.0, [0.01, 0, 0, 0.01, 0, 0.01])
    mx.add_constraint("ball", b, -1, anchor_b=(0, 0, 1.0))
    call_everything(mx, rng, 2, 2, skip=("step",), rounds=25)
    for n in (0, -1, 2 ** 64, "3", 2.0, None, 3):
        try:
            mx.step(n)
        except ALLOWED:
            pass
    for args in (("ball", system, 0), ("ball", system, "base", system, "base"),
                 ("distance", system, -1, None, None), ("weld", system, 2 ** 40),
                 ("hinge", system, "base", None, None)):
        try:
            world.add_constraint(*args, anchor_a=garbage(rng, nq, nv))
        except ALLOWED:
            pass
    for n in (0, -1, 2 ** 64, "3", 2.0, None):
        try:
            world.step(n)
        except ALLOWED:
            pass
    # the world is still usable: a valid state restores, and it steps
    world.set_solver(150, 1e-8)
    fresh = sinew.World().add(model)
    world.system(0).set_state(fresh.q, np.zeros(nv))
    world.step(3)
    assert np.isfinite(world.system(0).q).all()
