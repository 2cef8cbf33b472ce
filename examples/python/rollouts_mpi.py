#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Rollouts spread over MPI ranks: episode e goes to rank e % size, each rank runs its share as
one sinew Batch (rollouts.run_episodes), and rank 0 gathers every episode's return, length and
final state, in episode order. The result does not depend on the number of ranks.

    mpirun -n 4 /usr/bin/python3 examples/python/rollouts_mpi.py --episodes 256
    mpirun --oversubscribe -n 2 /usr/bin/python3 examples/python/rollouts_mpi.py --out r.json

On a cluster the same script runs under the cluster's mpirun or srun with a hostfile
(docs/python.md "Across machines"): each rank needs sinew installed and the model file.
"""

import argparse
import hashlib
import json
import pathlib
import sys
import time

import numpy as np
from mpi4py import MPI

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import rollouts  # noqa: E402
import sinew  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(rollouts.MODEL))
    ap.add_argument("--episodes", type=int, default=32)
    ap.add_argument("--steps", type=int, default=100, help="env steps (10 simulation steps each)")
    ap.add_argument("--threads", type=int, default=1, help="C threads per rank")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="write the gathered results here (JSON), on rank 0")
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    mine = [e for e in range(args.episodes) if e % size == rank]
    model = sinew.load(args.model)
    t0 = time.perf_counter()
    if mine:
        ret, length, final = rollouts.run_episodes(model, mine, args.steps, args.seed,
                                                   args.threads)
    else:
        ret, length, final = np.zeros(0), np.zeros(0, np.int64), np.zeros((0, 1))
    wall = time.perf_counter() - t0
    parts = comm.gather((mine, ret, length, final, wall), root=0)
    if rank != 0:
        return
    n = args.episodes
    returns, lengths, states = [None] * n, [None] * n, [None] * n
    for eps, r, ln, fin, _ in parts:
        for k, e in enumerate(eps):
            returns[e], lengths[e], states[e] = float(r[k]), int(ln[k]), fin[k]
    digest = hashlib.sha256(np.stack(states).tobytes()).hexdigest()
    print("%d episodes on %d ranks: return %.6f +- %.6f, length %.1f; slowest rank %.2f s" % (
        n, size, np.mean(returns), np.std(returns), np.mean(lengths),
        max(p[4] for p in parts)))
    print("final states sha256 %s" % digest[:16])
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"ranks": size, "returns": [repr(r) for r in returns],
                       "lengths": lengths, "states_sha256": digest}, f)


if __name__ == "__main__":
    main()
