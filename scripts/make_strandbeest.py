#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write models/strandbeest.urdf: a 12-legged Theo Jansen Strandbeest on one crank.

Each leg is Jansen's planar linkage with his "holy numbers" (in cm: a 38, b 41.5, c 39.3, d 40.1,
e 55.8, f 39.4, g 36.7, h 65.7, i 49, j 50, k 61.9, l 7.8, m 15; scaled to metres). Points, in the
leg's plane (x forward, z up), with the crank centre Z at the origin:
  Y = (-a, -l) the fixed pivot; X = Z + m (cos t, sin t) the crank pin;
  W: |XW| = j, |YW| = b (upper);  V: |WV| = e, |YV| = d;  U: |XU| = k, |YU| = c (lower);
  T: |VT| = f, |UT| = g;  S (the foot): |TS| = h, |US| = i.
Rigid bodies per leg: the upper triangle Y-W-V and the bar Y-U hinged on the chassis at Y, the bars
X-W and X-U hinged on the crank at X, the bar V-T hinged on the triangle at V and the foot triangle
U-T-S hinged on the bar Y-U at U. Three loops close the leg: X-W's end to the triangle at W, X-U's
end to the bar Y-U at U, V-T's end to the foot at T, each an equality constraint with the two
in-plane axes. The machine: a floating chassis (6 DOF), one crank (1), 12 legs x 6 hinges = 79 DOF,
36 loops. The legs stand in six stations along y, a mirrored pair in each (front and back), on
crank throws 120 degrees apart. nominal_config closes every loop at crank angle 0.

Usage: /usr/bin/python3 scripts/make_strandbeest.py [out.urdf [out.xml]]
       SN_BEEST_PAIRS=n (1..6) writes a machine with the first n pairs of legs only.
       SN_BEEST_PINS=1 closes each loop's hinge by two pins on its axis, 4 cm apart (72 pins:
       the structural test keeps two directions of each pair's first pin and none of the second).
With out.xml it also writes the same machine as MJCF for MuJoCo: the same bodies, masses and
hinges, each body turned so that qpos = 0 is the URDF's nominal configuration, and the 36 loops
closed by <equality><connect> (a point: MuJoCo's soft constraints hold the plane's two directions
and, redundantly, the third).
"""
import math
import sys

S = 0.01  # cm -> m
A, B, C, D, E, F, G, H, I, J, K, L, M = (x * S for x in (
    38, 41.5, 39.3, 40.1, 55.8, 39.4, 36.7, 65.7, 49, 50, 61.9, 7.8, 15))
FOOT_R = 0.02
PIN_GAP = 0.02  # a pin pair's half spacing along the hinge axis
STATIONS = [-0.5, -0.3, -0.1, 0.1, 0.3, 0.5]
PHASES = [0, 120, 240, 0, 120, 240]


def circles(p, rp, q, rq, pick):
    """The intersection of the circles (p, rp) and (q, rq) that `pick` (a key) makes least."""
    dx, dz = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dz)
    a = (rp * rp - rq * rq + d * d) / (2 * d)
    h = math.sqrt(max(rp * rp - a * a, 0.0))
    mx, mz = p[0] + a * dx / d, p[1] + a * dz / d
    both = [(mx - h * dz / d, mz + h * dx / d), (mx + h * dz / d, mz - h * dx / d)]
    return min(both, key=pick)


HIGH = lambda v: -v[1]  # noqa: E731
LOW = lambda v: v[1]  # noqa: E731
LEFT = lambda v: v[0]  # noqa: E731


def leg_points(t):
    """Jansen's leg at crank angle t (radians), in its own plane: the upper triangle above the
    pivot, the foot below."""
    Y = (-A, -L)
    X = (M * math.cos(t), M * math.sin(t))
    W = circles(X, J, Y, B, HIGH)
    V = circles(W, E, Y, D, LEFT)
    U = circles(X, K, Y, C, LOW)
    T = circles(V, F, U, G, LEFT)
    Sft = circles(T, H, U, I, LOW)
    return dict(Y=Y, X=X, W=W, V=V, U=U, T=T, S=Sft)


def angle(p, q):
    return math.atan2(q[1] - p[1], q[0] - p[0])


def local(origin, alpha, p):
    """p in the frame at origin whose x axis is at the plane angle alpha."""
    dx, dz = p[0] - origin[0], p[1] - origin[1]
    c, s = math.cos(alpha), math.sin(alpha)
    return (c * dx + s * dz, -s * dx + c * dz)


def inertial(mass, com, length):
    i = mass * length * length / 12 + 1e-6
    return ('<inertial><origin xyz="%.9g 0 %.9g"/><mass value="%g"/><inertia ixx="%.9g" ixy="0" '
            'ixz="0" iyy="%.9g" iyz="0" izz="%.9g"/></inertial>' % (com[0], com[1], mass, i, i, i))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "models/strandbeest.urdf"
    # SN_BEEST_PAIRS=n (1 to 6) keeps the first n stations: 2 n legs, 6 n loops
    import os
    pairs = int(os.environ.get("SN_BEEST_PAIRS", "6"))
    # SN_BEEST_PINS=1 closes each of the loops' hinges by two pins on its axis instead of an
    # equality constraint with the two in-plane axes (models/strandbeest_pins.urdf)
    pins = os.environ.get("SN_BEEST_PINS", "0") == "1"
    del STATIONS[pairs:]
    del PHASES[pairs:]
    links, joints, constraints, q = [], [], [], []
    # the chassis: floating, its frame at the crank centre
    links.append('<link name="chassis"><inertial><mass value="20"/><inertia ixx="0.8" ixy="0" '
                 'ixz="0" iyy="0.4" iyz="0" izz="1.0"/></inertial><visual><geometry><box '
                 'size="0.9 1.2 0.05"/></geometry></visual></link>')
    # the crank, plane angle 0 at nominal
    links.append('<link name="crank">%s<visual><origin rpy="1.5707963 0 0"/><geometry><cylinder '
                 'radius="0.02" length="1.15"/></geometry></visual></link>'
                 % inertial(2.0, (0, 0), 0.3))
    joints.append('<joint name="crank_joint" type="continuous"><parent link="chassis"/><child '
                  'link="crank"/><axis xyz="0 1 0"/></joint>')
    q_crank = 0.0
    lowest = 0.0
    legs = []
    for n, (y, ph) in enumerate(zip(STATIONS, PHASES)):
        for side, mirror in (("f", 1), ("b", -1)):
            t = math.radians(ph)
            # a mirrored leg is the standard one at crank angle pi - t, its x reversed
            P = leg_points(t if mirror > 0 else math.pi - t)
            P = {k: (mirror * v[0], v[1]) for k, v in P.items()}
            legs.append((n, side, y, mirror, P))
            lowest = min(lowest, P["S"][1])
    z0 = -lowest + FOOT_R
    for n, side, y, mirror, P in legs:
        pre = "l%d%s_" % (n, side)
        # plane angles of the bodies' x axes
        a_tri, a_c = angle(P["Y"], P["W"]), angle(P["Y"], P["U"])
        a_j, a_k = angle(P["X"], P["W"]), angle(P["X"], P["U"])
        a_f, a_foot = angle(P["V"], P["T"]), angle(P["U"], P["T"])

        def body(name, origin, alpha, pts, mass):
            com = [0.0, 0.0]
            for p in pts:
                lp = local(origin, alpha, p)
                com[0] += lp[0] / len(pts)
                com[1] += lp[1] / len(pts)
            span = max(math.hypot(*local(origin, alpha, p)) for p in pts)
            # for the eye: a thin bar along each side (visuals only: the dynamics ignore them)
            bars = ""
            sides = list(zip(pts, pts[1:] + pts[:1])) if len(pts) > 2 else [(pts[0], pts[1])]
            for p0, p1 in sides:
                a0, a1 = local(origin, alpha, p0), local(origin, alpha, p1)
                dx, dz = a1[0] - a0[0], a1[1] - a0[1]
                bars += ('<visual><origin xyz="%.6g 0 %.6g" rpy="0 %.6g 0"/><geometry><box '
                         'size="%.6g 0.012 0.015"/></geometry></visual>'
                         % ((a0[0] + a1[0]) / 2, (a0[1] + a1[1]) / 2, -math.atan2(dz, dx),
                            math.hypot(dx, dz)))
            links.append('<link name="%s">%s%s</link>' % (name, inertial(mass, com, span), bars))

        body(pre + "tri", P["Y"], a_tri, [P["Y"], P["W"], P["V"]], 0.3)
        body(pre + "c", P["Y"], a_c, [P["Y"], P["U"]], 0.15)
        body(pre + "j", P["X"], a_j, [P["X"], P["W"]], 0.15)
        body(pre + "k", P["X"], a_k, [P["X"], P["U"]], 0.15)
        body(pre + "f", P["V"], a_f, [P["V"], P["T"]], 0.15)
        body(pre + "foot", P["U"], a_foot, [P["U"], P["T"], P["S"]], 0.3)
        sl = local(P["U"], a_foot, P["S"])
        links[-1] = links[-1].replace(
            "</link>", '<collision><origin xyz="%.9g 0 %.9g"/><geometry><sphere radius="%g"/>'
            '</geometry></collision></link>' % (sl[0], sl[1], FOOT_R))

        def joint(name, parent, child, origin_local, q_value):
            joints.append('<joint name="%s" type="continuous"><parent link="%s"/><child '
                          'link="%s"/><origin xyz="%.9g %.9g %.9g"/><axis xyz="0 1 0"/></joint>'
                          % (name, parent, child, origin_local[0], y_of(parent), origin_local[1]))
            q.append((name, q_value))

        def y_of(parent):
            return y if parent in ("chassis", "crank") else 0.0

        # hinge angles: q = alpha_parent - alpha_child (a turn about +y lowers x towards -z)
        joint(pre + "tri_joint", "chassis", pre + "tri", P["Y"], 0 - a_tri)
        joint(pre + "c_joint", "chassis", pre + "c", P["Y"], 0 - a_c)
        joint(pre + "j_joint", "crank", pre + "j", local((0, 0), q_crank, P["X"]),
              q_crank - a_j)
        joint(pre + "k_joint", "crank", pre + "k", local((0, 0), q_crank, P["X"]),
              q_crank - a_k)
        joint(pre + "f_joint", pre + "tri", pre + "f", local(P["Y"], a_tri, P["V"]), a_tri - a_f)
        joint(pre + "foot_joint", pre + "c", pre + "foot", local(P["Y"], a_c, P["U"]),
              a_c - a_foot)

        def equality(b1, b1_origin, b1_alpha, b2, point):
            an = local(b1_origin, b1_alpha, point)
            if pins:  # the hinge closed by two pins on its axis (y), 2 * PIN_GAP apart
                for dy in (-PIN_GAP, PIN_GAP):
                    constraints.append('<pin body1="%s" body2="%s" anchor="%.9g %.9g %.9g"/>'
                                       % (b1, b2, an[0], dy, an[1]))
                return
            constraints.append('<equality body1="%s" body2="%s" anchor="%.9g 0 %.9g"><axis '
                               'xyz="1 0 0"/><axis xyz="0 0 1"/></equality>'
                               % (b1, b2, an[0], an[1]))

        equality(pre + "j", P["X"], a_j, pre + "tri", P["W"])
        equality(pre + "k", P["X"], a_k, pre + "c", P["U"])
        equality(pre + "f", P["V"], a_f, pre + "foot", P["T"])
    # the local frame convention: a body's x axis at plane angle alpha in the world has the URDF
    # orientation of a turn by -alpha about y; hinges start from the parent's orientation
    names = [name for name, _ in q]
    values = dict(q)
    # the loader orders the movable joints depth first from the root, children in file order:
    # the crank, then per leg the crank's children ... the order is written by the loader and
    # checked by the tests (the loops close at nominal_config only in the right order)
    order = ["crank_joint"]
    # children of the chassis in file order: crank first, then per leg tri, c; under crank: j, k
    # per leg; under tri: f; under c: foot. Depth first from the chassis:
    # crank_joint, then the crank's children (every leg's j, k in file order),
    # then each leg's tri_joint followed by its f_joint, c_joint followed by its foot_joint.
    crank_children = [n for n in names if n.endswith("_j_joint") or n.endswith("_k_joint")]
    order += crank_children
    for n, side, y, mirror, P in legs:
        pre = "l%d%s_" % (n, side)
        order += [pre + "tri_joint", pre + "f_joint", pre + "c_joint", pre + "foot_joint"]
    values["crank_joint"] = q_crank
    nominal = [0.0, 0.0, z0, 1.0, 0.0, 0.0, 0.0] + [values[n] for n in order]
    if len(sys.argv) > 2:
        write_mjcf(sys.argv[2], legs, z0, values)
    with open(out, "w") as f:
        f.write('<?xml version="1.0"?>\n<!-- SPDX-License-Identifier: Apache-2.0\n     '
                'Written by scripts/make_strandbeest.py: a 12-legged Strandbeest (79 DOF, 36 '
                'loops%s). -->\n<robot name="strandbeest">\n'
                % (", each hinge closed by two pins" if pins else ""))
        for s in links:
            f.write("  " + s + "\n")
        for s in joints:
            f.write("  " + s + "\n")
        f.write('  <constraints nominal_config="%s">\n' % " ".join("%.17g" % v for v in nominal))
        for s in constraints:
            f.write("    " + s + "\n")
        f.write("  </constraints>\n</robot>\n")
    print("%s: %d links, %d joints, %d loops, %d coordinates; chassis at z = %.4f m"
          % (out, len(links), len(joints), len(constraints), len(nominal), z0))


def write_mjcf(path, legs, z0, q):
    def quat(angle):  # a turn by `angle` about +y
        return "%.17g 0 %.17g 0" % (math.cos(angle / 2), math.sin(angle / 2))

    def inert(mass, pts, origin, alpha):
        com = [0.0, 0.0]
        for p in pts:
            lp = local(origin, alpha, p)
            com[0] += lp[0] / len(pts)
            com[1] += lp[1] / len(pts)
        span = max(math.hypot(*local(origin, alpha, p)) for p in pts)
        i = mass * span * span / 12 + 1e-6
        return ('<inertial pos="%.9g 0 %.9g" mass="%g" diaginertia="%.9g %.9g %.9g"/>'
                % (com[0], com[1], mass, i, i, i))

    lines = ['<mujoco model="strandbeest">',
             '  <compiler angle="radian" inertiafromgeom="false"/>',
             '  <option timestep="0.002"/>',
             '  <worldbody>',
             '    <geom name="floor" type="plane" size="50 50 0.1"/>',
             '    <body name="chassis" pos="0 0 %.17g">' % z0,
             '      <freejoint name="root"/>',
             '      <inertial pos="0 0 0" mass="20" diaginertia="0.8 0.4 1.0"/>',
             '      <body name="crank">',
             '        <joint name="crank_joint" type="hinge" axis="0 1 0"/>',
             '        %s' % inert(2.0, [(0.15, 0), (-0.15, 0)], (0, 0), 0)]
    eq = []
    for n, side, y, mirror, P in legs:
        pre = "l%d%s_" % (n, side)
        a_j, a_k = angle(P["X"], P["W"]), angle(P["X"], P["U"])
        for nm, a_b, end in (("j", a_j, "W"), ("k", a_k, "U")):
            xl = local((0, 0), 0, P["X"])
            lines.append('        <body name="%s%s" pos="%.17g %.17g %.17g" quat="%s">'
                         % (pre, nm, xl[0], y, xl[1], quat(q[pre + nm + "_joint"])))
            lines.append('          <joint name="%s%s_joint" type="hinge" axis="0 1 0"/>'
                         % (pre, nm))
            lines.append('          ' + inert(0.15, [P["X"], P[end]], P["X"], a_b))
            lines.append('        </body>')
    lines.append('      </body>')
    for n, side, y, mirror, P in legs:
        pre = "l%d%s_" % (n, side)
        a_tri, a_c = angle(P["Y"], P["W"]), angle(P["Y"], P["U"])
        a_f, a_foot = angle(P["V"], P["T"]), angle(P["U"], P["T"])
        vl, ul = local(P["Y"], a_tri, P["V"]), local(P["Y"], a_c, P["U"])
        sl = local(P["U"], a_foot, P["S"])
        lines += [
            '      <body name="%stri" pos="%.17g %.17g %.17g" quat="%s">'
            % (pre, P["Y"][0], y, P["Y"][1], quat(q[pre + "tri_joint"])),
            '        <joint name="%stri_joint" type="hinge" axis="0 1 0"/>' % pre,
            '        ' + inert(0.3, [P["Y"], P["W"], P["V"]], P["Y"], a_tri),
            '        <body name="%sf" pos="%.17g 0 %.17g" quat="%s">'
            % (pre, vl[0], vl[1], quat(q[pre + "f_joint"])),
            '          <joint name="%sf_joint" type="hinge" axis="0 1 0"/>' % pre,
            '          ' + inert(0.15, [P["V"], P["T"]], P["V"], a_f),
            '        </body>',
            '      </body>',
            '      <body name="%sc" pos="%.17g %.17g %.17g" quat="%s">'
            % (pre, P["Y"][0], y, P["Y"][1], quat(q[pre + "c_joint"])),
            '        <joint name="%sc_joint" type="hinge" axis="0 1 0"/>' % pre,
            '        ' + inert(0.15, [P["Y"], P["U"]], P["Y"], a_c),
            '        <body name="%sfoot" pos="%.17g 0 %.17g" quat="%s">'
            % (pre, ul[0], ul[1], quat(q[pre + "foot_joint"])),
            '          <joint name="%sfoot_joint" type="hinge" axis="0 1 0"/>' % pre,
            '          ' + inert(0.3, [P["U"], P["T"], P["S"]], P["U"], a_foot),
            '          <geom type="sphere" size="%g" pos="%.17g 0 %.17g"/>' % (FOOT_R, sl[0], sl[1]),
            '        </body>',
            '      </body>']
        for b1, org, alpha, b2, pt in ((pre + "j", P["X"], angle(P["X"], P["W"]), pre + "tri", "W"),
                                       (pre + "k", P["X"], angle(P["X"], P["U"]), pre + "c", "U"),
                                       (pre + "f", P["V"], a_f, pre + "foot", "T")):
            an = local(org, alpha, P[pt])
            eq.append('    <connect body1="%s" body2="%s" anchor="%.17g 0 %.17g"/>'
                      % (b1, b2, an[0], an[1]))
    lines += ['    </body>', '  </worldbody>', '  <equality>'] + eq + ['  </equality>',
              '  <actuator>', '    <velocity joint="crank_joint" kv="200"/>', '  </actuator>',
              '</mujoco>']
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: MJCF, %d connect constraints" % (path, len(eq)))


if __name__ == "__main__":
    main()
