#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a URDF robot (sinew's subset, with its <constraints> extension) as a USD text layer.

Usage: /usr/bin/python3 scripts/urdf_to_usda.py robot.urdf robot.usda

The bodies are placed where the URDF's nominal_config puts them (the USD file's poses are the
joints' zero, docs/usd.md), each a PhysicsRigidBodyAPI + PhysicsMassAPI Xform directly under the
robot's prim; boxes, cylinders and spheres become Cube, Cylinder and Sphere prims (collision ones
with PhysicsCollisionAPI). The tree's revolute, continuous, prismatic and fixed joints become
UsdPhysics joints; each <equality> with two axes becomes a revolute joint about their normal and
each <pin> a spherical joint, both with physics:excludeFromArticulation = true (sinew closes them
again by two pins on the axis and one pin). Numbers are written with 17 significant digits.
Written for sinew's bundled models (models/fourbar.usda, models/strandbeest.usda).
"""
import math
import sys
import xml.etree.ElementTree as ET



# ---- 3-vectors and 3x3 matrices as lists (no numpy: the script runs on a bare python3) ----

def mat(rows):
    return [list(map(float, r)) for r in rows]


def eye():
    return mat([[1, 0, 0], [0, 1, 0], [0, 0, 1]])


def mm(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def mv(A, v):
    return [sum(A[i][k] * v[k] for k in range(3)) for i in range(3)]


def tr(A):
    return [[A[j][i] for j in range(3)] for i in range(3)]


def add(a, b):
    return [a[i] + b[i] for i in range(3)]


def sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def scale(a, s):
    return [x * s for x in a]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return sum(a[i] * b[i] for i in range(3))


def norm(a):
    return math.sqrt(dot(a, a))


def det(A):
    return dot(A[0], cross(A[1], A[2]))


def jacobi(T):
    """eigenvalues and eigenvectors (columns) of a symmetric 3x3 matrix"""
    A = [row[:] for row in T]
    V = eye()
    for _ in range(100):
        off = abs(A[0][1]) + abs(A[0][2]) + abs(A[1][2])
        if off < 1e-300:
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if A[p][q] == 0:
                continue
            th = (A[q][q] - A[p][p]) / (2 * A[p][q])
            t = (1 if th >= 0 else -1) / (abs(th) + math.sqrt(th * th + 1))
            c = 1 / math.sqrt(t * t + 1)
            s = t * c
            J = eye()
            J[p][p] = J[q][q] = c
            J[p][q], J[q][p] = s, -s
            A = mm(tr(J), mm(A, J))
            V = mm(V, J)
    return [A[0][0], A[1][1], A[2][2]], V


def num(v):
    return "%.17g" % (0.0 if v == 0 else v)


def tup(v):
    return "(" + ", ".join(num(x) for x in v) + ")"


def rpy_matrix(r, p, y):
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), \
        math.sin(y)
    return mat([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                [-sp, cp * sr, cp * cr]])


def axis_angle(a, t):
    a = scale(a, 1 / norm(a))
    K = mat([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    K2 = mm(K, K)
    s, c = math.sin(t), 1 - math.cos(t)
    I = eye()
    return [[I[i][j] + s * K[i][j] + c * K2[i][j] for j in range(3)] for i in range(3)]


def quat(R):
    """w, x, y, z of a rotation matrix"""
    t = R[0][0] + R[1][1] + R[2][2]
    if t > 0:
        k = 2 * math.sqrt(1 + t)
        q = [k / 4, (R[2][1] - R[1][2]) / k, (R[0][2] - R[2][0]) / k, (R[1][0] - R[0][1]) / k]
    elif R[0][0] > R[1][1] and R[0][0] > R[2][2]:
        k = 2 * math.sqrt(1 + R[0][0] - R[1][1] - R[2][2])
        q = [(R[2][1] - R[1][2]) / k, k / 4, (R[0][1] + R[1][0]) / k, (R[0][2] + R[2][0]) / k]
    elif R[1][1] > R[2][2]:
        k = 2 * math.sqrt(1 + R[1][1] - R[0][0] - R[2][2])
        q = [(R[0][2] - R[2][0]) / k, (R[0][1] + R[1][0]) / k, k / 4, (R[1][2] + R[2][1]) / k]
    else:
        k = 2 * math.sqrt(1 + R[2][2] - R[0][0] - R[1][1])
        q = [(R[1][0] - R[0][1]) / k, (R[0][2] + R[2][0]) / k, (R[1][2] + R[2][1]) / k, k / 4]
    return q


def quat_matrix(q):
    w, x, y, z = q
    return mat([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def floats(s, n=None):
    v = [float(x) for x in s.split()]
    if n is not None and len(v) != n:
        raise SystemExit("expected %d numbers in '%s'" % (n, s))
    return v


def origin(el):
    o = el.find("origin") if el is not None else None
    if o is None:
        return [0.0, 0.0, 0.0], eye()
    xyz = floats(o.get("xyz", "0 0 0"), 3)
    rpy = floats(o.get("rpy", "0 0 0"), 3)
    return xyz, rpy_matrix(*rpy)


def align(axis):
    """the USD axis token and the rotation taking that axis onto `axis`"""
    a = scale(axis, 1 / norm(axis))
    for k, t in enumerate("XYZ"):
        if a[k] == 1:
            return t, eye()
        if a[k] == -1:  # a half turn about the next axis: exact
            R = eye()
            R[k][k] = R[(k + 1) % 3][(k + 1) % 3] = -1.0
            return t, R
    x = [1.0, 0.0, 0.0]
    c = cross(x, a)
    s, co = norm(c), dot(x, a)
    if s < 1e-15:
        return "X", axis_angle([0, 0, 1], math.pi)
    return "X", axis_angle(scale(c, 1 / s), math.atan2(s, co))


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    robot = ET.parse(src).getroot()
    links = {l.get("name"): l for l in robot.findall("link")}
    joints = robot.findall("joint")
    children = {}
    parent_of = {}
    for j in joints:
        p, c = j.find("parent").get("link"), j.find("child").get("link")
        children.setdefault(p, []).append(j)
        parent_of[c] = j
    root = [n for n in links if n not in parent_of][0]
    floating = root != "world"
    cons = robot.find("constraints")
    nominal = floats(cons.get("nominal_config", "")) if cons is not None else []
    # depth first from the root, children in file order: the loader's coordinate order
    order, stack = [], [root]
    while stack:
        n = stack.pop()
        for j in reversed(children.get(n, [])):
            stack.append(j.find("child").get("link"))
        order.append(n)
    movable = []

    def dfs(n):
        for j in children.get(n, []):
            if j.get("type") != "fixed":
                movable.append(j.get("name"))
            dfs(j.find("child").get("link"))
    dfs(root)
    q = {}
    a = 7 if floating else 0
    for name in movable:
        q[name] = nominal[a] if a < len(nominal) else 0.0
        a += 1
    # the links' poses at the nominal configuration
    pose = {}
    if floating:
        base = nominal[:7] if len(nominal) >= 7 else [0, 0, 0, 1, 0, 0, 0]
        pose[root] = (list(base[:3]), quat_matrix(base[3:7]))
    else:
        pose[root] = ([0.0, 0.0, 0.0], eye())

    def motion(j):
        t = j.get("type")
        ax = j.find("axis")
        axis = floats(ax.get("xyz"), 3) if ax is not None else [1.0, 0, 0]
        v = q.get(j.get("name"), 0.0)
        if t in ("revolute", "continuous"):
            return [0.0, 0.0, 0.0], axis_angle(axis, v), axis
        if t == "prismatic":
            return scale(axis, v / norm(axis)), eye(), axis
        if t == "fixed":
            return [0.0, 0.0, 0.0], eye(), axis
        raise SystemExit("joint '%s': type %s is not written" % (j.get("name"), t))

    for n in order:
        for j in children.get(n, []):
            c = j.find("child").get("link")
            p0, R0 = pose[n]
            po, Ro = origin(j)
            pm, Rm, _ = motion(j)
            pose[c] = (add(p0, mv(R0, add(po, mv(Ro, pm)))), mm(mm(R0, Ro), Rm))
    name = robot.get("name")
    L = []
    w = L.append
    w("#usda 1.0")
    w("(")
    w('    defaultPrim = "%s"' % name)
    w('    doc = """Written by scripts/urdf_to_usda.py from %s (SPDX-License-Identifier: '
      'Apache-2.0)."""' % src.split("/")[-1])
    w("    metersPerUnit = 1")
    w("    kilogramsPerUnit = 1")
    w('    upAxis = "Z"')
    w(")")
    w("")
    w('def Xform "%s" (' % name)
    w('    prepend apiSchemas = ["PhysicsArticulationRootAPI"]')
    w(")")
    w("{")
    w('    def PhysicsScene "physicsScene"')
    w("    {")
    w("        vector3f physics:gravityDirection = (0, 0, -1)")
    w("        float physics:gravityMagnitude = 9.81")
    w("    }")
    for n in order:
        if n == "world":
            continue
        el = links[n]
        p, R = pose[n]
        w("")
        w('    def Xform "%s" (' % n)
        w('        prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI"]')
        w("    )")
        w("    {")
        w("        double3 xformOp:translate = %s" % tup(p))
        w("        quatd xformOp:orient = %s" % tup(quat(R)))
        w('        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:orient"]')
        inn = el.find("inertial")
        if inn is None:
            raise SystemExit("link '%s' has no <inertial>" % n)
        ci, Ri = origin(inn)
        mass = float(inn.find("mass").get("value"))
        I = inn.find("inertia")
        g = {k: float(I.get(k, "0")) for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")}
        T = mat([[g["ixx"], g["ixy"], g["ixz"]], [g["ixy"], g["iyy"], g["iyz"]],
                 [g["ixz"], g["iyz"], g["izz"]]])
        T = mm(mm(Ri, T), tr(Ri))
        if abs(T[0][1]) + abs(T[0][2]) + abs(T[1][2]) == 0:
            diag, Rp = [T[0][0], T[1][1], T[2][2]], eye()
        else:
            diag, Rp = jacobi(T)
            if det(tr(Rp)) < 0:
                for i in range(3):
                    Rp[i][2] = -Rp[i][2]
        w("        float physics:mass = %s" % num(mass))
        w("        point3f physics:centerOfMass = %s" % tup(ci))
        w("        float3 physics:diagonalInertia = %s" % tup(diag))
        w("        quatf physics:principalAxes = %s" % tup(quat(Rp)))
        k = 0
        for tag in ("collision", "visual"):
            for gel in el.findall(tag):
                geo = gel.find("geometry")
                shape = geo[0] if geo is not None and len(geo) else None
                if shape is None or shape.tag not in ("box", "cylinder", "sphere"):
                    continue
                gp, gR = origin(gel)
                kind = {"box": "Cube", "cylinder": "Cylinder", "sphere": "Sphere"}[shape.tag]
                w("")
                w('        def %s "%s%d"%s' % (kind, tag, k, (
                    ' (\n            prepend apiSchemas = ["PhysicsCollisionAPI"]\n        )'
                    if tag == "collision" else "")))
                w("        {")
                ops = ["xformOp:translate", "xformOp:orient"]
                if shape.tag == "box":
                    w("            double size = 1")
                    w("            double3 xformOp:scale = %s" % tup(floats(shape.get("size"), 3)))
                    ops.append("xformOp:scale")
                elif shape.tag == "cylinder":
                    w("            double radius = %s" % num(float(shape.get("radius"))))
                    w("            double height = %s" % num(float(shape.get("length"))))
                    w('            uniform token axis = "Z"')
                else:
                    w("            double radius = %s" % num(float(shape.get("radius"))))
                if tag == "collision":
                    w('            uniform token purpose = "guide"')
                w("            double3 xformOp:translate = %s" % tup(gp))
                w("            quatd xformOp:orient = %s" % tup(quat(gR)))
                w("            uniform token[] xformOpOrder = [%s]"
                  % ", ".join('"%s"' % o for o in ops))
                w("        }")
                k += 1
        w("    }")
    # the tree's joints
    for n in order:
        for j in children.get(n, []):
            c = j.find("child").get("link")
            t = j.get("type")
            po, Ro = origin(j)
            pm, Rm, axis = motion(j)
            kind = {"revolute": "PhysicsRevoluteJoint", "continuous": "PhysicsRevoluteJoint",
                    "prismatic": "PhysicsPrismaticJoint", "fixed": "PhysicsFixedJoint"}[t]
            tok, Ra = align(axis) if t != "fixed" else ("X", eye())
            w("")
            w('    def %s "%s"' % (kind, j.get("name")))
            w("    {")
            if n != "world":
                w("        rel physics:body0 = </%s/%s>" % (name, n))
            w("        rel physics:body1 = </%s/%s>" % (name, c))
            w("        point3f physics:localPos0 = %s" % tup(po))
            w("        quatf physics:localRot0 = %s" % tup(quat(mm(Ro, Ra))))
            # the joint's frame in the child: the motion undone (the bodies' poses are the zero)
            w("        point3f physics:localPos1 = %s" % tup(scale(mv(tr(Rm), pm), -1)))
            w("        quatf physics:localRot1 = %s" % tup(quat(mm(tr(Rm), Ra))))
            if t != "fixed":
                w('        uniform token physics:axis = "%s"' % tok)
            lim = j.find("limit")
            if t in ("revolute", "prismatic") and lim is not None:
                s = 180 / math.pi if t == "revolute" else 1.0
                w("        float physics:lowerLimit = %s" % num(float(lim.get("lower", "0")) * s))
                w("        float physics:upperLimit = %s" % num(float(lim.get("upper", "0")) * s))
            w("    }")
    # the loops
    k = 0
    for c in (cons if cons is not None else []):
        b1, b2 = c.get("body1"), c.get("body2")
        an = floats(c.get("anchor"), 3)
        p1, R1 = pose[b1]
        p2, R2 = pose[b2]
        an2 = mv(tr(R2), sub(add(p1, mv(R1, an)), p2))
        if c.tag == "pin":
            kind, tok, Ra = "PhysicsSphericalJoint", None, eye()
        elif c.tag == "equality":
            axes = [floats(a.get("xyz"), 3) for a in c.findall("axis")]
            if len(axes) != 2:
                raise SystemExit("an <equality> with %d axes is not a USD joint" % len(axes))
            nrm = cross(axes[0], axes[1])
            kind = "PhysicsRevoluteJoint"
            tok, Ra = align(scale(nrm, 1 / norm(nrm)))
        else:
            raise SystemExit("<%s> is not written" % c.tag)
        w("")
        w('    def %s "loop%d"' % (kind, k))
        w("    {")
        w("        rel physics:body0 = </%s/%s>" % (name, b1))
        w("        rel physics:body1 = </%s/%s>" % (name, b2))
        w("        point3f physics:localPos0 = %s" % tup(an))
        w("        quatf physics:localRot0 = %s" % tup(quat(Ra)))
        w("        point3f physics:localPos1 = %s" % tup(an2))
        w("        quatf physics:localRot1 = %s" % tup(quat(mm(mm(tr(R2), R1), Ra))))
        if tok:
            w('        uniform token physics:axis = "%s"' % tok)
        w("        bool physics:excludeFromArticulation = true")
        w("    }")
        k += 1
    w("}")
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    print("%s: %d bodies, %d joints, %d loop joints" % (out, len(order) - (not floating),
                                                        len(joints), k))


if __name__ == "__main__":
    main()
