#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Training-free rollouts on one machine: a sinew.env.VecEnv of the bundled humanoid, its n worlds
stepped on C threads, each episode driven by PD targets around the standing pose plus noise of
its own random stream. Prints the episodes' returns (the pelvis height, less a penalty on motion,
summed over the steps it stayed up) and the throughput.

    /usr/bin/python3 examples/python/rollouts.py --episodes 64 --threads 2

rollouts_mpi.py runs the same episodes spread over MPI ranks and gets the same returns.
"""

import argparse
import pathlib
import time

import numpy as np
import sinew

MODEL = pathlib.Path(__file__).resolve().parents[2] / "models" / "humanoid.urdf"


def height(q, u, actions):
    """The reward: the floating base's height (m) after the step, less a penalty on motion."""
    return q[:, 2] - 1e-3 * np.einsum("ij,ij->i", u, u)


def standing(model, height=0.96):
    """The start state: the model's zero pose with a floating base lifted to `height`."""
    q = model.q0.copy()
    if model.is_floating:
        q[2] = height
    return q


def run_episodes(model, episodes, steps, seed=0, threads=1, noise=0.2):
    """Run the numbered episodes side by side in one VecEnv. Episode e's noise comes from its
    own stream, numpy's default_rng([seed, e]), so its result does not depend on which
    episodes share the batch. Returns (returns, lengths, final observations)."""
    n = len(episodes)
    start = standing(model)
    env = sinew.env.VecEnv(model, n, threads=threads, reward=height, min_height=0.6,
                           frame_skip=10, max_steps=steps, q0=start)
    env.reset()
    target = start[7:] if model.is_floating else start
    rngs = [np.random.default_rng([seed, e]) for e in episodes]
    returns = np.zeros(n)
    lengths = np.zeros(n, dtype=np.int64)
    final = np.zeros((n, model.nq + model.nv))
    alive = np.ones(n, dtype=bool)
    for _ in range(steps):
        actions = target + noise * np.stack([r.normal(size=env.batch.nu) for r in rngs])
        obs, reward, terminated, truncated, info = env.step(actions)
        returns += np.where(alive, reward, 0.0)
        lengths += alive
        done = terminated | truncated
        if "final_index" in info:
            ended = info["final_index"]
            keep = alive[ended]
            final[ended[keep]] = info["final_observation"][keep]
        alive &= ~done
        if not alive.any():
            break
    final[alive] = obs[alive]
    return returns, lengths, final


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(MODEL))
    ap.add_argument("--episodes", type=int, default=64)
    ap.add_argument("--steps", type=int, default=200, help="env steps (10 simulation steps each)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    model = sinew.load(args.model)
    t0 = time.perf_counter()
    returns, lengths, _ = run_episodes(model, list(range(args.episodes)), args.steps, args.seed,
                                       args.threads)
    wall = time.perf_counter() - t0
    sim_steps = int(lengths.sum()) * 10
    print("%d episodes of %s: return %.3f +- %.3f, length %.1f env steps (max %d)" % (
        args.episodes, pathlib.Path(args.model).name, returns.mean(), returns.std(),
        lengths.mean(), args.steps))
    print("%.2f s, at least %d simulation steps (%.0f steps/s) on %d threads" % (
        wall, sim_steps, sim_steps / wall, args.threads))


if __name__ == "__main__":
    main()
