# SPDX-License-Identifier: Apache-2.0
"""sinew: articulated robots in generalized coordinates, hard contacts, exact loops.

The objects are those of the C library (docs/python.md):

    import sinew
    model = sinew.load("robot.urdf")      # sinew.Error names the file, line and element
    world = sinew.World()
    robot = world.add(model)              # the file's settings applied, as `sinew run` does
    world.step(100)                       # the GIL released while C steps
    robot.q                               # a read-only numpy view of the system's own memory

Arrays handed out are views over sinew's memory that keep their owner alive; views of state are
read-only and the setters (`robot.q = ...`, `set_state`) validate. A World pickles: the set-up
calls made through this package are replayed and its checkpoint (`World.save`) restored, so the
copy steps on bit for bit as the original.
"""

import functools as _functools

from . import _sinew
from . import env  # noqa: E402,F401  (sinew.env.VecEnv)
from ._sinew import Arm, ArgumentError, Batch, Error, Maximal, Model, load, load_string, version

__all__ = ["Arm", "ArgumentError", "Batch", "Error", "Maximal", "Model", "System", "World", "load", "load_string", "version"]
__version__ = _sinew.version()

# The calls that configure a world rather than its state: a checkpoint compares them instead of
# restoring them (sn_state.h), so a pickled world records them and replays them.
_WORLD_SETUP = (
    "add", "add_sphere", "add_box", "add_cylinder", "add_mesh", "set_ground", "set_heightfield",
    "set_material", "set_material_pair", "set_erp", "set_loop_erp", "set_solver",
    "set_warm_start", "set_soft_params", "set_soft_pair", "clear_soft_pair",
    "add_constraint", "add_maximal",
)
_SYSTEM_SETUP = (
    "set_actuation_limits", "set_joint_damping", "add_spring", "set_joint_limits",
    "set_self_collision", "set_compute_inverse_dynamics", "set_collision_filter",
    "set_body_material", "assemble", "add_sensor", "set_soft_integrator", "set_expo_options",
    "add_soft_point", "add_soft_point_frame", "add_soft_geometry_points",
)


class _SystemRef:
    """A System in a recorded call's arguments, by its index (a World's recipe cannot hold the
    System itself: pickling it would pickle its world again)."""

    def __init__(self, index):
        self.index = index


def _refs(args):
    return tuple(_SystemRef(a.index) if isinstance(a, _sinew.System) else a for a in args)


def _recorded(base, name, target):
    method = getattr(base, name)

    @_functools.wraps(method)
    def call(self, *args, **kwargs):
        result = method(self, *args, **kwargs)
        world = self if target is None else self.world
        world._recipe.append((target(self) if target else None, name, _refs(args),
                              dict(zip(kwargs, _refs(kwargs.values())))))
        return result

    return call


def _recorded_property(base, name, target):
    prop = getattr(base, name)

    def setter(self, value):
        prop.__set__(self, value)
        world = self if target is None else self.world
        world._recipe.append((target(self) if target else None, "=" + name, (value,), {}))

    return property(prop.__get__, setter, doc=prop.__doc__)


class World(_sinew.World):
    __doc__ = _sinew.World.__doc__

    def __init__(self, timestep=None):
        super().__init__(timestep)
        self._timestep0 = timestep
        self._recipe = []

    def __reduce__(self):
        if any(name == "add_maximal" for _, name, _, _ in self._recipe):
            raise TypeError("a World with a Maximal added (add_maximal) does not pickle: a Maximal "
                            "does not record how it was built; save() and restore() do work")
        return (_rebuild, (self._timestep0, list(self._recipe), self.save()))

    def __repr__(self):
        return "<sinew.World: %d systems, t = %g s, dt = %g s>" % (
            self.nsystems, self.time, self.timestep)


class System(_sinew.System):
    __doc__ = _sinew.System.__doc__

    def __reduce__(self):
        return (_system_of, (self.world, self.index))


for _name in _WORLD_SETUP:
    setattr(World, _name, _recorded(_sinew.World, _name, None))
for _name in ("timestep", "gravity", "contact_model"):
    setattr(World, _name, _recorded_property(_sinew.World, _name, None))
for _name in _SYSTEM_SETUP:
    setattr(System, _name, _recorded(_sinew.System, _name, lambda s: s.index))
for _name in ("scheme", "expo_modal", "soft_events", "expo_slip"):
    setattr(System, _name, _recorded_property(_sinew.System, _name, lambda s: s.index))
del _name

_sinew._set_system_class(System)


def _replay(world, recipe):
    for target, name, args, kwargs in recipe:
        obj = world if target is None else world.system(target)
        args = tuple(world.system(a.index) if isinstance(a, _SystemRef) else a for a in args)
        kwargs = {k: world.system(v.index) if isinstance(v, _SystemRef) else v
                  for k, v in kwargs.items()}
        if name.startswith("="):
            setattr(obj, name[1:], args[0])
        else:
            getattr(obj, name)(*args, **kwargs)


def _rebuild(timestep, recipe, checkpoint):
    world = World(timestep)
    _replay(world, recipe)
    world.restore(checkpoint)
    return world


def _system_of(world, index):
    return world.system(index)
