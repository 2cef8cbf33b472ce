#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write models/delta.urdf: a 3-RUU delta robot (a translational parallel robot).

Three arms stand on a base circle of radius RB at azimuths 0, 120 and 240 degrees. Arm i:
  the base hinge at B_i, its axis a_i the circle's tangent (the actuated joint);
  the upper arm (UPPER long, tilted THETA below the horizontal, outward) to the elbow E_i;
  a universal joint at E_i: a hinge about a_i (into the elbow cross), then one about
  b_i = a_i x d_i (into the forearm rod), d_i the rod's direction from E_i to W_i;
  the rod (ROD long) to the wrist W_i on the platform's circle of radius RP;
  a universal joint at W_i: a hinge about b_i (into the knuckle), then one about a_i (into the
  platform).
In each arm the axes a_i (base, elbow, wrist) and b_i (elbow, wrist) stay parallel, so each arm
keeps the platform from turning about a_i x b_i (the rod's direction): three rods in three
directions keep it from turning at all, and it only translates.

The tree: world - arm_i - elbow_i - rod_i - knuckle_i for each arm, and the platform a child of
knuckle_1 by arm 1's last hinge. Arms 2 and 3 close on the platform by two pins on their last
hinge's axis, PIN_GAP either side of W_i (the structural test keeps two directions of each pair's
second pin: 10 rows of the 12). 13 DOF, mobility 3. Every link frame is parallel to the world at
the nominal configuration, which is q = 0 (the platform centred, THETA down): the joints' origins
are differences of the points below and their axes the world's, so the loops close there to the
points' rounding.

Usage: /usr/bin/python3 scripts/make_delta.py [out.urdf]
"""
import math
import sys

RB, RP = 0.2, 0.05  # base and platform circles' radii (m)
UPPER, ROD = 0.2, 0.45  # upper arm and rod lengths (m)
THETA = math.radians(30)  # the upper arms' tilt below the horizontal at q = 0
PIN_GAP = 0.02  # the closing pins' distance from W_i along a_i (m)
MASS = {"arm": 0.3, "elbow": 0.02, "rod": 0.1, "knuckle": 0.02, "platform": 0.4}
RADIUS = 0.01  # rods' and arms' radius (m)
GEAR = 10  # the base motors' gear ratio
AZIMUTHS = [0.0, 120.0, 240.0]


def add(p, q):
    return [p[0] + q[0], p[1] + q[1], p[2] + q[2]]


def sub(p, q):
    return [p[0] - q[0], p[1] - q[1], p[2] - q[2]]


def scale(p, s):
    return [p[0] * s, p[1] * s, p[2] * s]


def cross(p, q):
    return [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]]


def norm(p):
    return math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])


def vec(p):
    return " ".join(repr(float(x) + 0.0) for x in p)  # no "-0.0"


def points(phi):
    """Arm at azimuth phi (radians): B, E, W, a, b at q = 0 (the platform centred at
    (0, 0, -depth))."""
    c, s = math.cos(phi), math.sin(phi)
    radial = [c, s, 0.0]
    a = [-s, c, 0.0]
    B = scale(radial, RB)
    E = add(B, [UPPER * math.cos(THETA) * c, UPPER * math.cos(THETA) * s, -UPPER * math.sin(THETA)])
    # W = RP radial at the depth where |E - W| = ROD
    dr = RB + UPPER * math.cos(THETA) - RP
    depth = UPPER * math.sin(THETA) + math.sqrt(ROD * ROD - dr * dr)
    W = [RP * c, RP * s, -depth]
    d = scale(sub(W, E), 1 / norm(sub(W, E)))
    b = cross(a, d)
    b = scale(b, 1 / norm(b))
    return B, E, W, a, b, depth


def rod_inertial(mass, p0, p1):
    """A solid rod of radius RADIUS from p0 to p1 (in the link frame)."""
    d = sub(p1, p0)
    length = norm(d)
    d = scale(d, 1 / length)
    ax = mass * RADIUS * RADIUS / 2
    tr = mass * (3 * RADIUS * RADIUS + length * length) / 12
    I = [[tr * ((i == j) - d[i] * d[j]) + ax * d[i] * d[j] for j in range(3)] for i in range(3)]
    return inertial(mass, scale(add(p0, p1), 0.5), I)


def inertial(mass, com, I):
    return ('<inertial><origin xyz="%s"/><mass value="%r"/><inertia ixx="%.12g" ixy="%.12g" '
            'ixz="%.12g" iyy="%.12g" iyz="%.12g" izz="%.12g"/></inertial>'
            % (vec(com), mass, I[0][0], I[0][1], I[0][2], I[1][1], I[1][2], I[2][2]))


def ball_inertial(mass, r):
    i = 0.4 * mass * r * r
    return inertial(mass, [0, 0, 0], [[i, 0, 0], [0, i, 0], [0, 0, i]])


def cylinder_visual(p0, p1):
    d = sub(p1, p0)
    length = norm(d)
    pitch = math.acos(max(-1.0, min(1.0, d[2] / length)))
    yaw = math.atan2(d[1], d[0])
    return ('<visual><origin xyz="%s" rpy="0 %r %r"/><geometry><cylinder radius="%r" '
            'length="%r"/></geometry></visual>' % (vec(scale(add(p0, p1), 0.5)), pitch, yaw,
                                                    RADIUS, length))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "models/delta.urdf"
    arms = [points(math.radians(z)) for z in AZIMUTHS]
    depth = arms[0][5]
    P = [0.0, 0.0, -depth]
    links, joints, pins, actuators = [], [], [], []

    def joint(name, parent, child, origin, axis):
        joints.append('  <joint name="%s" type="continuous"><parent link="%s"/><child link="%s"/>'
                      '<origin xyz="%s"/><axis xyz="%s"/></joint>'
                      % (name, parent, child, vec(origin), vec(axis)))

    for i, (B, E, W, a, b, _) in enumerate(arms, start=1):
        zero = [0.0, 0.0, 0.0]
        links.append('  <link name="arm%d">%s%s</link>' % (
            i, rod_inertial(MASS["arm"], zero, sub(E, B)), cylinder_visual(zero, sub(E, B))))
        links.append('  <link name="elbow%d">%s</link>' % (i, ball_inertial(MASS["elbow"], 0.015)))
        links.append('  <link name="rod%d">%s%s</link>' % (
            i, rod_inertial(MASS["rod"], zero, sub(W, E)), cylinder_visual(zero, sub(W, E))))
        links.append('  <link name="knuckle%d">%s</link>'
                     % (i, ball_inertial(MASS["knuckle"], 0.015)))
        joint("base%d" % i, "world", "arm%d" % i, B, a)
        joint("elbow%d_a" % i, "arm%d" % i, "elbow%d" % i, sub(E, B), a)
        joint("elbow%d_b" % i, "elbow%d" % i, "rod%d" % i, zero, b)
        joint("wrist%d_b" % i, "rod%d" % i, "knuckle%d" % i, sub(W, E), b)
        actuators.append('  <actuator name="motor%d" joint="base%d" gear_ratio="%r"/>'
                         % (i, i, float(GEAR)))
        if i == 1:
            joint("wrist1_a", "knuckle1", "platform", zero, a)
        else:
            for side in (-1, 1):
                pins.append('    <pin body1="knuckle%d" body2="platform" anchor="%s"/>'
                            % (i, vec(scale(a, side * PIN_GAP))))
    # the platform's frame is at W_1 (on its hinge's axis), its disc centred at P
    W1 = arms[0][2]
    c = sub(P, W1)
    m, r, t = MASS["platform"], RP + 0.01, 0.01
    ixx = m * (3 * r * r + t * t) / 12
    links.append('  <link name="platform">%s<visual><origin xyz="%s"/><geometry><cylinder '
                 'radius="%r" length="%r"/></geometry></visual></link>'
                 % (inertial(m, c, [[ixx, 0, 0], [0, ixx, 0], [0, 0, m * r * r / 2]]), vec(c), r,
                    t))
    nq = 4 * 3 + 1
    header = """<?xml version="1.0"?>
<!-- SPDX-License-Identifier: Apache-2.0
     A 3-RUU delta robot (sinew's own model), written by scripts/make_delta.py: base circle
     %g m, platform circle %g m, upper arms %g m, rods %g m. Each arm: a base hinge about the base
     circle's tangent a_i (actuated: motor_i, gear %g), a universal joint at the elbow (a_i, then
     b_i = a_i x rod direction) and one at the wrist (b_i, then a_i): the platform only translates.
     The platform hangs from arm 1's wrist; arms 2 and 3 close on it by two pins on their last
     hinge's axis. nominal_config (q = 0) has the platform centred %.6g m below the base, the upper
     arms %g degrees below the horizontal; every link frame is then parallel to the world's. -->
<robot name="delta">
  <link name="world"/>
""" % (RB, RP, UPPER, ROD, GEAR, depth, math.degrees(THETA))
    body = "\n".join(links + joints + actuators)
    cons = '  <constraints nominal_config="%s">\n%s\n  </constraints>\n' % (
        " ".join(["0"] * nq), "\n".join(pins))
    with open(out, "w") as f:
        f.write(header + body + "\n" + cons + "</robot>\n")


if __name__ == "__main__":
    main()
