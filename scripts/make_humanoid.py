#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Writes models/humanoid.urdf: a 27-DOF humanoid (free base, 21 hinges) of capsules, spheres and
# boxes, authored for sinew. Multi-axis joints (abdomen, hips, ankles, shoulders) are chains of
# hinges through 10 g links at one point. Inertias are those of the solids (a capsule is a
# cylinder with two hemispheres). Usage: scripts/make_humanoid.py > models/humanoid.urdf
# With --no-capsules every capsule is written as a cylinder and two spheres (the same surface and
# inertia), for URDF readers without capsules (MuJoCo's): models/humanoid_primitives.urdf.
import math
import sys

NO_CAPSULES = "--no-capsules" in sys.argv[1:]


def capsule_inertia(m, r, L):
    # axis along z: cylinder (length L) plus two hemispheres, mass shared by volume
    vc, vs = math.pi * r * r * L, 4.0 / 3.0 * math.pi * r ** 3
    mc, ms = m * vc / (vc + vs), m * vs / (vc + vs)
    izz = mc * r * r / 2 + ms * 2 * r * r / 5
    # hemisphere about its own centroid: 83/320 m r^2; shifted to L/2 + 3r/8 from the centre
    ixx = mc * (3 * r * r + L * L) / 12 + ms * (83.0 / 320 * r * r + (L / 2 + 3 * r / 8) ** 2)
    return ixx, ixx, izz


def box_inertia(m, a, b, c):
    return m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12


out = []
w = out.append


def link(name, mass=None, com=("0 0 0", "0 0 0"), inertia=None, geoms=()):
    # a link between two hinges at one point gets 10 g (a 1 cm ball's inertia of 10 g):
    # MuJoCo refuses massless moving bodies
    if mass is None:
        mass, inertia = 0.01, (4e-7, 4e-7, 4e-7)
    w('  <link name="%s">' % name)
    if mass is not None:
        ixx, iyy, izz = inertia
        w('    <inertial>')
        w('      <origin xyz="%s" rpy="%s"/>' % com)
        w('      <mass value="%g"/>' % mass)
        w('      <inertia ixx="%.9g" ixy="0" ixz="0" iyy="%.9g" iyz="0" izz="%.9g"/>' %
          (ixx, iyy, izz))
        w('    </inertial>')
    for xyz, rpy, geom in geoms:
        for kind in ("visual", "collision"):
            w('    <%s>' % kind)
            w('      <origin xyz="%s" rpy="%s"/>' % (xyz, rpy))
            w('      <geometry>%s</geometry>' % geom)
            w('    </%s>' % kind)
    w('  </link>')


def joint(name, parent, child, xyz, axis, lo, hi, effort=150, damping=1.0):
    w('  <joint name="%s" type="revolute">' % name)
    w('    <parent link="%s"/>' % parent)
    w('    <child link="%s"/>' % child)
    w('    <origin xyz="%s"/>' % xyz)
    w('    <axis xyz="%s"/>' % axis)
    w('    <limit lower="%.6f" upper="%.6f" effort="%g" velocity="20"/>' %
      (math.radians(lo), math.radians(hi), effort))
    w('    <dynamics damping="%g"/>' % damping)
    w('  </joint>')


def fixed(name, parent, child, xyz):
    w('  <joint name="%s" type="fixed">' % name)
    w('    <parent link="%s"/>' % parent)
    w('    <child link="%s"/>' % child)
    w('    <origin xyz="%s"/>' % xyz)
    w('  </joint>')


def capsule(r, L):
    return '<capsule radius="%g" length="%g"/>' % (r, L)


def cap_link(name, m, r, L, centre, rpy="0 0 0", extra=()):
    # a capsule link; rpy turns the capsule's z axis (and its inertia) into place
    geoms = [(centre, rpy, capsule(r, L))]
    if NO_CAPSULES:
        c = [float(x) for x in centre.split()]
        # the capsule's axis: z, or y when turned by pi/2 about x
        axis = (0, -1, 0) if rpy != "0 0 0" else (0, 0, 1)
        ends = [" ".join("%g" % (c[k] + sgn * L / 2 * axis[k]) for k in range(3))
                for sgn in (-1, 1)]
        geoms = [(centre, rpy, '<cylinder radius="%g" length="%g"/>' % (r, L))]
        geoms += [(e, "0 0 0", '<sphere radius="%g"/>' % r) for e in ends]
    link(name, m, (centre, rpy), capsule_inertia(m, r, L), geoms + list(extra))


HALF_PI = "%.9f" % (math.pi / 2)
w('<?xml version="1.0"?>')
w('<!-- SPDX-License-Identifier: Apache-2.0')
w('     A humanoid of capsules, spheres and boxes: a free pelvis and 21 hinges (abdomen 3, hips')
w('     3 + 3, knees 2, ankles 2 + 2, shoulders 2 + 2, elbows 2), 27 DOF, 48.5 kg, standing')
w('     with the pelvis origin 0.955 m above the soles. Multi-axis joints are hinge chains')
w('     through 10 g links. Written by scripts/make_humanoid.py%s; authored for sinew. -->' %
  (" (each capsule written as a cylinder and two spheres)" if NO_CAPSULES else ""))
w('<robot name="humanoid">')
# pelvis: the floating base; a capsule across (y)
cap_link("pelvis", 8, 0.09, 0.14, "0 0 0", HALF_PI + " 0 0")
joint("abdomen_z", "pelvis", "abdomen_link1", "0 0 0.1", "0 0 1", -45, 45)
link("abdomen_link1")
joint("abdomen_y", "abdomen_link1", "abdomen_link2", "0 0 0", "0 1 0", -75, 30)
link("abdomen_link2")
joint("abdomen_x", "abdomen_link2", "torso", "0 0 0", "1 0 0", -35, 35)
cap_link("torso", 14, 0.1, 0.16, "0 0 0.25", HALF_PI + " 0 0")
fixed("neck", "torso", "head", "0 0 0.5")
link("head", 3, ("0 0 0", "0 0 0"), tuple([2.0 / 5 * 3 * 0.09 ** 2] * 3),
     [("0 0 0", "0 0 0", '<sphere radius="0.09"/>')])
for side, s in (("right", -1), ("left", 1)):
    y = s * 0.2
    joint("%s_shoulder1" % side, "torso", "%s_shoulder_link" % side, "0 %g 0.38" % y, "1 0 0",
          -85 if s > 0 else -60, 60 if s > 0 else 85, effort=60)
    link("%s_shoulder_link" % side)
    joint("%s_shoulder2" % side, "%s_shoulder_link" % side, "%s_upper_arm" % side, "0 0 0",
          "0 1 0", -85, 60, effort=60)
    cap_link("%s_upper_arm" % side, 1.5, 0.04, 0.22, "0 0 -0.14")
    joint("%s_elbow" % side, "%s_upper_arm" % side, "%s_lower_arm" % side, "0 0 -0.28",
          "0 1 0", -90, 0, effort=40)
    cap_link("%s_lower_arm" % side, 1.2, 0.035, 0.2, "0 0 -0.13",
             extra=[("0 0 -0.28", "0 0 0", '<sphere radius="0.04"/>')])
    joint("%s_hip_x" % side, "pelvis", "%s_hip_link1" % side, "0 %g -0.04" % (s * 0.1), "1 0 0",
          -25 if s > 0 else -5, 5 if s > 0 else 25)
    link("%s_hip_link1" % side)
    joint("%s_hip_z" % side, "%s_hip_link1" % side, "%s_hip_link2" % side, "0 0 0", "0 0 1",
          -60 if s > 0 else -35, 35 if s > 0 else 60)
    link("%s_hip_link2" % side)
    joint("%s_hip_y" % side, "%s_hip_link2" % side, "%s_thigh" % side, "0 0 0", "0 1 0", -110,
          20, effort=200)
    cap_link("%s_thigh" % side, 5, 0.06, 0.3, "0 0 -0.2")
    joint("%s_knee" % side, "%s_thigh" % side, "%s_shin" % side, "0 0 -0.42", "0 1 0", 0, 150,
          effort=200)
    cap_link("%s_shin" % side, 3, 0.05, 0.3, "0 0 -0.2")
    joint("%s_ankle_y" % side, "%s_shin" % side, "%s_ankle_link" % side, "0 0 -0.42", "0 1 0",
          -50, 50, effort=80)
    link("%s_ankle_link" % side)
    joint("%s_ankle_x" % side, "%s_ankle_link" % side, "%s_foot" % side, "0 0 0", "1 0 0", -30,
          30, effort=80)
    link("%s_foot" % side, 1, ("0.04 0 -0.05", "0 0 0"), box_inertia(1, 0.22, 0.1, 0.05),
         [("0.04 0 -0.05", "0 0 0", '<box size="0.22 0.1 0.05"/>')])
w('</robot>')
print("\n".join(out))
