# SPDX-License-Identifier: Apache-2.0
"""A gymnasium-style vectorized environment over a sinew.Batch, without a gymnasium dependency.

    env = sinew.env.VecEnv(sinew.load("anymal.urdf"), n=64, threads=2)
    obs, info = env.reset(seed=0)
    for t in range(1000):
        obs, reward, terminated, truncated, info = env.step(policy(obs))

It follows gymnasium's vector API (reset -> (obs, info); step -> (obs, reward, terminated,
truncated, info); worlds that finish are reset to the start state at once and their last
observation is in info["final_observation"]), so a gymnasium wrapper is a few lines; see
docs/python.md "Environments".
"""

import numpy as np

from . import _sinew


class Box:
    """The bounds and shape of an observation or action array (gymnasium's Box, in brief)."""

    def __init__(self, low, high, shape, dtype=np.float64):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()

    def sample(self, rng):
        low = np.where(np.isfinite(self.low), self.low, -1.0)
        high = np.where(np.isfinite(self.high), self.high, 1.0)
        return rng.uniform(low, high).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self):
        return "Box(shape=%s)" % (self.shape,)


def alive(q, u, actions):
    """The default reward: 1 for every step a world stays up."""
    return np.ones(q.shape[0])


class VecEnv:
    """n worlds of one model as a vectorized environment.

    model        a sinew.Model
    n, threads   worlds, and the C threads that step them (sinew.Batch)
    action       'target' (PD position targets of the joints past a floating base; the default),
                 'torque' (their forces) or 'actuator' (the model's actuators)
    kp, kd       PD gains of the joints for action 'target' (scalars or per joint)
    frame_skip   simulation steps per env step (the action is held over them)
    max_steps    env steps before an episode is truncated
    reward       reward(q, u, actions) -> (n,) array, from the states after the step
    terminated   terminated(q, u) -> (n,) bool; default: a floating base's height below
                 min_height, or a world whose step failed
    q0, u0, key  the start state (as World.add), which reset() returns every world to
    """

    def __init__(self, model, n, *, threads=1, action="target", kp=80.0, kd=2.0, frame_skip=10,
                 max_steps=1000, reward=alive, terminated=None, min_height=0.25, timestep=None,
                 q0=None, u0=None, key=None):
        self.batch = _sinew.Batch(model, n, threads=threads, action=action,
                                  timestep=timestep or 0.0, q0=q0, u0=u0, key=key)
        self.model = model
        self.num_envs = n
        self.frame_skip = int(frame_skip)
        self.max_steps = int(max_steps)
        self.reward_fn = reward
        self.terminated_fn = terminated
        self.min_height = min_height
        nq, nv, nu = model.nq, model.nv, self.batch.nu
        base = 6 if model.is_floating else 0
        if action == "target":
            gains_p = np.zeros(nv)
            gains_d = np.zeros(nv)
            gains_p[base:] = kp
            gains_d[base:] = kd
            self.batch.set_pd_gains(gains_p, gains_d)
            self.batch.set_start()  # reset() keeps the gains (a checkpoint holds them)
            low = np.where(model.limited[base:] != 0, model.lower[base:], -np.pi)
            high = np.where(model.limited[base:] != 0, model.upper[base:], np.pi)
        elif action == "torque":
            low, high = -model.effort_limit[base:], model.effort_limit[base:]
        else:
            low, high = np.full(nu, -np.inf), np.full(nu, np.inf)
        self.single_action_space = Box(low, high, (nu,))
        self.action_space = Box(np.tile(low, (n, 1)), np.tile(high, (n, 1)), (n, nu))
        self.single_observation_space = Box(-np.inf, np.inf, (nq + nv,))
        self.observation_space = Box(-np.inf, np.inf, (n, nq + nv))
        self.elapsed = np.zeros(n, dtype=np.int64)
        self.rng = np.random.default_rng()

    def _obs(self):
        return np.concatenate([self.batch.q, self.batch.u], axis=1)

    def _terminated(self, q, u, failed):
        if self.terminated_fn is not None:
            done = np.asarray(self.terminated_fn(q, u), dtype=bool)
        elif self.model.is_floating:
            done = q[:, 2] < self.min_height
        else:
            done = np.zeros(q.shape[0], dtype=bool)
        return done | failed | ~np.isfinite(q).all(axis=1)

    def reset(self, *, seed=None, options=None):
        """Every world back to the start state. Returns (observation, info)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.batch.reset()
        self.elapsed[:] = 0
        return self._obs(), {}

    def step(self, actions):
        """Hold `actions` (n, nu) for frame_skip steps. Returns (observation, reward,
        terminated, truncated, info); finished worlds are reset, their last observation in
        info["final_observation"] (rows of the finished ones, in info["final_index"])."""
        failed = np.zeros(self.num_envs, dtype=bool)
        try:
            self.batch.step(actions, n=self.frame_skip)
        except _sinew.Error as e:
            if not hasattr(e, "worlds"):
                raise
            failed[e.worlds] = True
        q, u = self.batch.q, self.batch.u
        reward = np.asarray(self.reward_fn(q, u, actions), dtype=np.float64)
        self.elapsed += 1
        terminated = self._terminated(q, u, failed)
        truncated = (self.elapsed >= self.max_steps) & ~terminated
        obs = self._obs()
        info = {}
        done = terminated | truncated
        if done.any():
            info["final_index"] = np.flatnonzero(done)
            info["final_observation"] = obs[done].copy()
            self.batch.reset(done)
            self.elapsed[done] = 0
            obs = self._obs()
        return obs, reward, terminated, truncated, info

    def close(self):
        self.batch = None
