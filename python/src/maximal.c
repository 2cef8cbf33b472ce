// SPDX-License-Identifier: Apache-2.0
// maximal.c: rigid bodies in maximal coordinates and constraints between bodies (sn_maximal.h,
// seed 003, docs/constraints.md) from Python: sinew.Maximal (bodies and constraints stepped
// alone, or any model in maximal coordinates), World.add_constraint between bodies of different
// systems, World.add_maximal (docs/python.md "Maximal coordinates and constraints").
#include "snpy.h"

#include <limits.h>
#include <string.h>

typedef struct SnpMaximal {
    PyObject_HEAD sn_maximal* mx;
    PyObject* model; // the Model it was made from (kept alive), or None
    PyObject* weakrefs;
    PyObject* users; // list of capsules: the user constraints' callbacks (kept alive), or NULL
    int busy;        // 1 while a step or an add runs a user constraint's callback
} SnpMaximal;

// a call that would change the Maximal from inside its own callback is refused
#define MX_READY(o, ret)                                                                           \
    do {                                                                                           \
        if ((o)->busy) {                                                                           \
            PyErr_SetString(PyExc_RuntimeError,                                                    \
                            "Maximal: changed from inside its own user constraint's callback");    \
            return ret;                                                                            \
        }                                                                                          \
    } while (0)

static PyObject* mx_raise(SnpMaximal* o, sn_status st) {
    return snpy_raise_status(st, o->mx ? sn_maximal_last_error(o->mx) : sn_last_error());
}

static PyObject* mx_check(SnpMaximal* o, sn_status st) {
    if (st != SN_OK) return mx_raise(o, st);
    Py_RETURN_NONE;
}

// ---- constraint descriptions ----

static const char* const kind_names[] = {"ball",   "distance", "plane", "line", "hinge",
                                         "slider", "weld",     "gear",  "wire"};
enum { NKIND = 9 };

static int parse_kind(PyObject* obj) {
    const char* s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (!s && PyErr_Occurred()) return -1;
    for (int i = 0; s && i < NKIND; i++)
        if (!strcmp(s, kind_names[i])) return i;
    PyErr_Format(s ? PyExc_ValueError : PyExc_TypeError,
                 "constraint kind: 'ball', 'distance', 'plane', 'line', 'hinge', 'slider', "
                 "'weld', 'gear' or 'wire'%s%s%s",
                 s ? ", not '" : "", s ? s : "", s ? "'" : "");
    return -1;
}

// a 3 x 3 rotation (row-major, columns the joint frame's axes) into out
static int parse_frame(PyObject* obj, const char* name, double out[9]) {
    if (obj == Py_None) return 0;
    PyObject* a = PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (!a) return -1;
    int ok = PyArray_NDIM((PyArrayObject*)a) == 2 && PyArray_DIM((PyArrayObject*)a, 0) == 3 &&
             PyArray_DIM((PyArrayObject*)a, 1) == 3;
    PyObject* flat = ok ? PyArray_Ravel((PyArrayObject*)a, NPY_CORDER) : NULL;
    Py_DECREF(a);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: a 3 x 3 rotation", name);
        return -1;
    }
    if (!flat) return -1;
    PyObject* keep;
    const double* p = snpy_doubles(flat, 9, name, &keep, NULL);
    Py_DECREF(flat);
    if (!p) return -1;
    memcpy(out, p, 9 * sizeof(double));
    Py_DECREF(keep);
    return 0;
}

// the keyword fields shared by Maximal.add_constraint and World.add_constraint
typedef struct desc_kw {
    PyObject *anchor_a, *anchor_b, *frame_a, *frame_b;
    double length, stiffness, damping, ratio, offset;
    int joint_a, joint_b;
} desc_kw;

static int fill_desc(const desc_kw* k, sn_constraint_desc* d) {
    if (k->anchor_a != Py_None && snpy_vec3(k->anchor_a, "anchor_a", d->anchor_a) < 0) return -1;
    if (k->anchor_b != Py_None && snpy_vec3(k->anchor_b, "anchor_b", d->anchor_b) < 0) return -1;
    if (parse_frame(k->frame_a, "frame_a", d->frame_a) < 0) return -1;
    if (parse_frame(k->frame_b, "frame_b", d->frame_b) < 0) return -1;
    d->length = k->length;
    d->stiffness = k->stiffness;
    d->damping = k->damping;
    d->ratio = k->ratio;
    d->offset = k->offset;
    d->joint_a = k->joint_a;
    d->joint_b = k->joint_b;
    return 0;
}

static void desc_kw_init(desc_kw* k) {
    memset(k, 0, sizeof *k);
    k->anchor_a = k->anchor_b = k->frame_a = k->frame_b = Py_None;
    k->joint_a = k->joint_b = -1;
}

#define DESC_DOC                                                                                   \
    "kind: 'ball', 'distance', 'plane', 'line', 'hinge', 'slider', 'weld', 'gear' or 'wire';\n"    \
    "anchors in the bodies' frames, frame_a / frame_b 3 x 3 rotations whose first column is the\n" \
    "hinge, slider, line or plane-normal axis (None: the body's axes); length (distance, wire),\n" \
    "stiffness and damping (a compliant wire), joint_a, joint_b, ratio, offset (gear)."

// ---- sinew.Maximal ----

static void mx_dealloc(SnpMaximal* o) {
    if (o->weakrefs) PyObject_ClearWeakRefs((PyObject*)o);
    sn_maximal_destroy(o->mx);
    Py_XDECREF(o->model);
    Py_XDECREF(o->users); // after the sn_maximal that calls them
    Py_TYPE(o)->tp_free((PyObject*)o);
}

static SnpMaximal* mx_wrap(PyTypeObject* t, sn_maximal* mx, PyObject* model) {
    SnpMaximal* o = (SnpMaximal*)t->tp_alloc(t, 0);
    if (!o) {
        sn_maximal_destroy(mx);
        return NULL;
    }
    o->mx = mx;
    Py_INCREF(model);
    o->model = model;
    return o;
}

static PyObject* mx_new(PyTypeObject* t, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"timestep", NULL};
    double dt = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|d:Maximal", kwlist, &dt)) return NULL;
    sn_maximal* mx = NULL;
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = sn_maximal_create(NULL, &mx, &err);
    if (st != SN_OK) return snpy_raise_error(&err);
    SnpMaximal* o = mx_wrap(t, mx, Py_None);
    if (o && dt != 0 && (st = sn_maximal_set_timestep(mx, dt)) != SN_OK) {
        mx_raise(o, st);
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject*)o;
}

static PyObject* mx_from_model(PyTypeObject* t, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"model", "q", "u", "timestep", NULL};
    PyObject *model, *qo = Py_None, *uo = Py_None, *kq = NULL, *ku = NULL, *ret = NULL;
    double dt = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|OO$d:from_model", kwlist, &SnpModel_Type, &model,
                                     &qo, &uo, &dt))
        return NULL;
    const sn_model* m = ((SnpModel*)model)->m;
    const double* q = qo == Py_None ? NULL : snpy_doubles(qo, m->nq, "q", &kq, NULL);
    const double* u = uo == Py_None ? NULL : snpy_doubles(uo, m->nv, "u", &ku, NULL);
    if ((qo != Py_None && !q) || (uo != Py_None && !u)) goto out;
    sn_maximal* mx = NULL;
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = sn_maximal_from_model(m, q, u, NULL, &mx, &err);
    if (st != SN_OK) {
        snpy_raise_error(&err);
        goto out;
    }
    SnpMaximal* o = mx_wrap(t, mx, model);
    if (o && dt != 0 && (st = sn_maximal_set_timestep(mx, dt)) != SN_OK) {
        mx_raise(o, st);
        Py_CLEAR(o);
    }
    ret = (PyObject*)o;
out:
    Py_XDECREF(kq);
    Py_XDECREF(ku);
    return ret;
}

static PyObject* mx_add_body(SnpMaximal* o, PyObject* args, PyObject* kw) {
    MX_READY(o, NULL);
    static char* kwlist[] = {"mass", "inertia", NULL};
    double mass;
    PyObject *io, *keep;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "dO:add_body", kwlist, &mass, &io)) return NULL;
    const double* in = snpy_doubles(io, 6, "inertia (xx xy xz yy yz zz)", &keep, NULL);
    if (!in) return NULL;
    int id = -1;
    sn_status st = sn_maximal_add_body(o->mx, mass, in, &id);
    Py_DECREF(keep);
    if (st != SN_OK) return mx_raise(o, st);
    return PyLong_FromLong(id);
}

static PyObject* mx_add_constraint(SnpMaximal* o, PyObject* args, PyObject* kw) {
    MX_READY(o, NULL);
    static char* kwlist[] = {"kind",    "body_a",  "body_b", "anchor_a",  "anchor_b",
                             "frame_a", "frame_b", "length", "stiffness", "damping",
                             "joint_a", "joint_b", "ratio",  "offset",    NULL};
    PyObject* kind;
    int a = -1, b = -1;
    desc_kw k;
    desc_kw_init(&k);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|ii$OOOOdddiidd:add_constraint", kwlist, &kind, &a,
                                     &b, &k.anchor_a, &k.anchor_b, &k.frame_a, &k.frame_b,
                                     &k.length, &k.stiffness, &k.damping, &k.joint_a, &k.joint_b,
                                     &k.ratio, &k.offset))
        return NULL;
    sn_constraint_desc d;
    memset(&d, 0, sizeof d);
    int kd = parse_kind(kind);
    if (kd < 0 || fill_desc(&k, &d) < 0) return NULL;
    d.kind = (sn_constraint_kind)kd;
    d.body_a = a;
    d.body_b = b;
    int id = -1;
    sn_status st = sn_maximal_add_constraint(o->mx, &d, &id);
    if (st != SN_OK) return mx_raise(o, st);
    return PyLong_FromLong(id);
}

// ---- user constraints: a Python callable as sn_constraint_fn ----

typedef struct user_fn {
    PyObject* fn;
    int rows, world_b;
} user_fn;

static void user_free(PyObject* capsule) {
    user_fn* u = PyCapsule_GetPointer(capsule, "sinew.user_constraint");
    if (!u) return;
    Py_XDECREF(u->fn);
    PyMem_Free(u);
}

static PyObject* array_of(const double* p, int nd, npy_intp d0, npy_intp d1) {
    npy_intp dims[2] = {d0, d1};
    PyObject* a = PyArray_SimpleNew(nd, dims, NPY_DOUBLE);
    if (a)
        memcpy(PyArray_DATA((PyArrayObject*)a), p, (size_t)(d0 * (nd == 2 ? d1 : 1)) * sizeof *p);
    return a;
}

// obj as exactly n doubles into out (a sequence or array of any shape with n entries)
static int take(PyObject* obj, int n, double* out, const char* what) {
    PyObject* a = PyArray_FROMANY(obj, NPY_DOUBLE, 0, 2, NPY_ARRAY_CARRAY);
    if (!a) return -1;
    if (PyArray_SIZE((PyArrayObject*)a) != n) {
        PyErr_Format(PyExc_ValueError, "user constraint: %s: %d numbers, not %zd", what, n,
                     (Py_ssize_t)PyArray_SIZE((PyArrayObject*)a));
        Py_DECREF(a);
        return -1;
    }
    memcpy(out, PyArray_DATA((PyArrayObject*)a), (size_t)n * sizeof *out);
    Py_DECREF(a);
    return 0;
}

// the callback fn(xa, Ra, va, wa, xb, Rb, vb, wb) -> (c, Ja, Jb, jdot); a Python error or a
// malformed result fails the step (state kept) and is raised by the call that stepped
static int user_eval(void* ctx, const sn_real* xa, const sn_real* Ra, const sn_real* va,
                     const sn_real* wa, const sn_real* xb, const sn_real* Rb, const sn_real* vb,
                     const sn_real* wb, sn_real* c, sn_real* Ja, sn_real* Jb, sn_real* jdot) {
    user_fn* u = ctx;
    if (PyErr_Occurred()) return 1; // an earlier call's error is pending
    PyObject* r =
        PyObject_CallFunction(u->fn, "NNNNNNNN", array_of(xa, 1, 3, 0), array_of(Ra, 2, 3, 3),
                              array_of(va, 1, 3, 0), array_of(wa, 1, 3, 0), array_of(xb, 1, 3, 0),
                              array_of(Rb, 2, 3, 3), array_of(vb, 1, 3, 0), array_of(wb, 1, 3, 0));
    if (!r) return 1;
    int rc = 1;
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 4) {
        PyErr_SetString(PyExc_TypeError, "user constraint: the callback returns (c, Ja, Jb, jdot)");
    } else if (take(PyTuple_GET_ITEM(r, 0), u->rows, c, "c") == 0 &&
               take(PyTuple_GET_ITEM(r, 1), 6 * u->rows, Ja, "Ja (rows x 6)") == 0 &&
               ((u->world_b && PyTuple_GET_ITEM(r, 2) == Py_None) ||
                take(PyTuple_GET_ITEM(r, 2), 6 * u->rows, Jb, "Jb (rows x 6, or None)") == 0) &&
               take(PyTuple_GET_ITEM(r, 3), u->rows, jdot, "jdot") == 0) {
        rc = 0;
    }
    Py_DECREF(r);
    return rc;
}

// a failed step or add: the callback's Python error if it raised one, else sinew.Error
static PyObject* user_or_raise(SnpMaximal* o, sn_status st) {
    if (PyErr_Occurred()) return NULL;
    return mx_raise(o, st);
}

static PyObject* mx_add_user_constraint(SnpMaximal* o, PyObject* args, PyObject* kw) {
    MX_READY(o, NULL);
    static char* kwlist[] = {"rows", "body_a", "body_b", "fn", "check", "check_tol", NULL};
    int rows, a, b, check = 1;
    double tol = 0;
    PyObject* fn;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiiO|$pd:add_user_constraint", kwlist, &rows, &a,
                                     &b, &fn, &check, &tol))
        return NULL;
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "add_user_constraint: fn is not callable");
        return NULL;
    }
    if (rows < 1 || rows > 6) {
        PyErr_SetString(PyExc_ValueError, "add_user_constraint: rows 1..6");
        return NULL;
    }
    if (!o->users && !(o->users = PyList_New(0))) return NULL;
    user_fn* u = PyMem_Calloc(1, sizeof *u);
    if (!u) return PyErr_NoMemory();
    u->fn = Py_NewRef(fn);
    u->rows = rows;
    u->world_b = b < 0;
    PyObject* cap = PyCapsule_New(u, "sinew.user_constraint", user_free);
    if (!cap) {
        Py_DECREF(fn);
        PyMem_Free(u);
        return NULL;
    }
    sn_user_constraint uc;
    memset(&uc, 0, sizeof uc);
    uc.rows = rows;
    uc.body_a = a;
    uc.body_b = b;
    uc.eval = user_eval;
    uc.ctx = u;
    uc.check = check;
    uc.check_tol = tol;
    // the list holds the callable before the sn_maximal refers to it
    int bad = PyList_Append(o->users, cap);
    Py_DECREF(cap);
    if (bad) return NULL;
    int id = -1;
    o->busy = 1;
    sn_status st = sn_maximal_add_user_constraint(o->mx, &uc, &id);
    o->busy = 0;
    if (st != SN_OK) { // refused: the sn_maximal kept nothing
        PyObject *err_type, *err_value, *err_tb;
        PyErr_Fetch(&err_type, &err_value, &err_tb);
        PySequence_DelItem(o->users, PyList_GET_SIZE(o->users) - 1);
        PyErr_Restore(err_type, err_value, err_tb);
        return user_or_raise(o, st);
    }
    return PyLong_FromLong(id);
}

static PyObject* mx_step(SnpMaximal* o, PyObject* args) {
    MX_READY(o, NULL);
    int n = 1;
    if (!PyArg_ParseTuple(args, "|i:step", &n)) return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "step: n >= 0");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        o->busy = 1;
        sn_status st = sn_maximal_step(o->mx);
        o->busy = 0;
        if (st != SN_OK) return user_or_raise(o, st);
    }
    Py_RETURN_NONE;
}

static PyObject* mx_body_state(SnpMaximal* o, PyObject* arg) {
    long b = PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    double x[3], q[4], v[3], w[3];
    sn_status st =
        sn_maximal_body_state(o->mx, b < INT_MIN || b > INT_MAX ? -1 : (int)b, x, q, v, w);
    if (st != SN_OK) return mx_raise(o, st);
    return Py_BuildValue("(N(dddd)NN)", snpy_tuple3(x), q[0], q[1], q[2], q[3], snpy_tuple3(v),
                         snpy_tuple3(w));
}

static PyObject* mx_set_body_state(SnpMaximal* o, PyObject* args, PyObject* kw) {
    MX_READY(o, NULL);
    static char* kwlist[] = {"body", "x", "quat", "v", "w", NULL};
    int b;
    PyObject *xo = Py_None, *qo = Py_None, *vo = Py_None, *wo = Py_None, *kq = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|OOOO:set_body_state", kwlist, &b, &xo, &qo, &vo,
                                     &wo))
        return NULL;
    double x[3], v[3], w[3];
    const double* q = NULL;
    if ((xo != Py_None && snpy_vec3(xo, "x", x) < 0) ||
        (vo != Py_None && snpy_vec3(vo, "v", v) < 0) ||
        (wo != Py_None && snpy_vec3(wo, "w", w) < 0))
        return NULL;
    if (qo != Py_None && !(q = snpy_doubles(qo, 4, "quat (w x y z)", &kq, NULL))) return NULL;
    sn_status st = sn_maximal_set_body_state(o->mx, b, xo != Py_None ? x : NULL, q,
                                             vo != Py_None ? v : NULL, wo != Py_None ? w : NULL);
    Py_XDECREF(kq);
    return mx_check(o, st);
}

static PyObject* mx_set_body_force(SnpMaximal* o, PyObject* args) {
    MX_READY(o, NULL);
    int b;
    PyObject *fo, *to = Py_None;
    if (!PyArg_ParseTuple(args, "iO|O:set_body_force", &b, &fo, &to)) return NULL;
    double f[3], t[3] = {0, 0, 0};
    if (snpy_vec3(fo, "force", f) < 0 || (to != Py_None && snpy_vec3(to, "torque", t) < 0))
        return NULL;
    return mx_check(o, sn_maximal_set_body_force(o->mx, b, f, t));
}

static PyObject* mx_constraint_force(SnpMaximal* o, PyObject* arg) {
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    double lam[6] = {0}, f[3], t[3];
    int cid = id < 0 || id > INT_MAX ? -1 : (int)id;
    sn_status st = sn_maximal_constraint_force(o->mx, cid, lam, 6, f, t);
    if (st != SN_OK) return mx_raise(o, st);
    return Py_BuildValue("(NNN)", snpy_tuple3(f), snpy_tuple3(t),
                         Py_BuildValue("(dddddd)", lam[0], lam[1], lam[2], lam[3], lam[4], lam[5]));
}

static PyObject* mx_constraint_error(SnpMaximal* o, PyObject* unused) {
    (void)unused;
    double rms = 0, worst = 0;
    sn_status st = sn_maximal_constraint_error(o->mx, &rms, &worst);
    if (st != SN_OK) return mx_raise(o, st);
    return Py_BuildValue("(dd)", rms, worst);
}

static PyObject* mx_momentum(SnpMaximal* o, PyObject* unused) {
    (void)unused;
    double l[3], a[3];
    sn_maximal_momentum(o->mx, l, a);
    return Py_BuildValue("(NN)", snpy_tuple3(l), snpy_tuple3(a));
}

static PyObject* mx_joint_state(SnpMaximal* o, PyObject* unused) {
    (void)unused;
    const sn_model* m = sn_maximal_model(o->mx);
    if (!m) {
        PyErr_SetString(PyExc_ValueError, "joint_state: this Maximal was not made from a model");
        return NULL;
    }
    npy_intp nq = m->nq, nv = m->nv;
    PyObject* q = PyArray_ZEROS(1, &nq, NPY_DOUBLE, 0);
    PyObject* u = PyArray_ZEROS(1, &nv, NPY_DOUBLE, 0);
    if (!q || !u) goto fail;
    sn_status st = sn_maximal_joint_state(o->mx, (double*)PyArray_DATA((PyArrayObject*)q), m->nq,
                                          (double*)PyArray_DATA((PyArrayObject*)u), m->nv);
    if (st != SN_OK) {
        mx_raise(o, st);
        goto fail;
    }
    return Py_BuildValue("(NN)", q, u);
fail:
    Py_XDECREF(q);
    Py_XDECREF(u);
    return NULL;
}

static PyObject* mx_set_stabilization(SnpMaximal* o, PyObject* args) {
    MX_READY(o, NULL);
    double a, b;
    if (!PyArg_ParseTuple(args, "dd:set_stabilization", &a, &b)) return NULL;
    return mx_check(o, sn_maximal_set_stabilization(o->mx, a, b));
}

static PyObject* mx_get(SnpMaximal* o, void* c) {
    switch ((int)(intptr_t)c) {
    case 0:
        return PyLong_FromLong(sn_maximal_body_count(o->mx));
    case 1:
        return PyLong_FromLong(sn_maximal_constraint_count(o->mx));
    case 2:
        return PyLong_FromLong(sn_maximal_row_count(o->mx));
    case 3:
        return PyFloat_FromDouble(sn_maximal_timestep(o->mx));
    case 4:
        return PyFloat_FromDouble(sn_maximal_time(o->mx));
    case 5:
        return PyFloat_FromDouble(sn_maximal_kinetic_energy(o->mx));
    case 6:
        return PyFloat_FromDouble(sn_maximal_potential_energy(o->mx));
    case 7:
        return PyBool_FromLong(sn_maximal_projection(o->mx) == 1);
    case 9: {
        double g[3];
        sn_maximal_gravity(o->mx, g);
        return Py_BuildValue("(ddd)", g[0], g[1], g[2]);
    }
    case 10:
        return PyUnicode_FromString(
            sn_maximal_scheme_of(o->mx) == SN_MAXIMAL_RK4 ? "rk4" : "semi_implicit");
    default:
        Py_INCREF(o->model);
        return o->model;
    }
}

static int mx_set(SnpMaximal* o, PyObject* v, void* c) {
    MX_READY(o, -1);
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "cannot be deleted");
        return -1;
    }
    sn_status st = SN_OK;
    int which = (int)(intptr_t)c;
    if (which == 3) {
        double dt = PyFloat_AsDouble(v);
        if (dt == -1.0 && PyErr_Occurred()) return -1;
        st = sn_maximal_set_timestep(o->mx, dt);
    } else if (which == 7) {
        if (!PyBool_Check(v)) {
            PyErr_SetString(PyExc_TypeError, "projection: a bool");
            return -1;
        }
        st = sn_maximal_set_projection(o->mx, v == Py_True);
    } else if (which == 9) {
        double g[3];
        if (snpy_vec3(v, "gravity", g) < 0) return -1;
        st = sn_maximal_set_gravity(o->mx, g);
    } else if (which == 10) {
        const char* s = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
        if (!s || (strcmp(s, "semi_implicit") && strcmp(s, "rk4"))) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "scheme: 'semi_implicit' or 'rk4'");
            return -1;
        }
        st = sn_maximal_set_scheme(o->mx,
                                   strcmp(s, "rk4") ? SN_MAXIMAL_SEMI_IMPLICIT : SN_MAXIMAL_RK4);
    }
    if (st != SN_OK) {
        mx_raise(o, st);
        return -1;
    }
    return 0;
}

static PyMethodDef mx_methods[] = {
    {"from_model", (PyCFunction)(void (*)(void))mx_from_model,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Maximal.from_model(model, q=None, u=None, *, timestep=0) (sn_maximal_from_model): each\n"
     "link a body, each joint a constraint, at q and u (None: q0, rest)"},
    {"add_body", (PyCFunction)(void (*)(void))mx_add_body, METH_VARARGS | METH_KEYWORDS,
     "add_body(mass, inertia) -> id (sn_maximal_add_body): inertia about the COM, xx xy xz yy yz\n"
     "zz; at the origin at rest"},
    {"add_constraint", (PyCFunction)(void (*)(void))mx_add_constraint, METH_VARARGS | METH_KEYWORDS,
     "add_constraint(kind, body_a, body_b=-1, *, anchor_a, anchor_b, frame_a, frame_b, length,\n"
     "stiffness, damping, joint_a, joint_b, ratio, offset) -> id (sn_maximal_add_constraint);\n"
     "body -1 is the world. " DESC_DOC},
    {"add_user_constraint", (PyCFunction)(void (*)(void))mx_add_user_constraint,
     METH_VARARGS | METH_KEYWORDS,
     "add_user_constraint(rows, body_a, body_b, fn, *, check=True, check_tol=0) -> id\n"
     "(sn_maximal_add_user_constraint): rows 1..6 on two bodies (body_b -1: the world);\n"
     "fn(xa, Ra, va, wa, xb, Rb, vb, wb) -> (c, Ja, Jb, jdot) at the bodies' states (R body to\n"
     "world, v and w world; Ja, Jb rows x 6 over (v, w), Jb None for the world). check: J and\n"
     "J-dot x-dot against finite differences when added. An exception in fn fails the step\n"
     "(state kept) and propagates; fn must not change this Maximal"},
    {"step", (PyCFunction)mx_step, METH_VARARGS,
     "step(n=1) (sn_maximal_step): a failed step raises and keeps the state"},
    {"body_state", (PyCFunction)mx_body_state, METH_O,
     "body_state(i) -> (x, quat (w x y z), v, w): COM position, orientation, world velocities"},
    {"set_body_state", (PyCFunction)(void (*)(void))mx_set_body_state, METH_VARARGS | METH_KEYWORDS,
     "set_body_state(body, x=None, quat=None, v=None, w=None): None keeps that part"},
    {"set_body_force", (PyCFunction)mx_set_body_force, METH_VARARGS,
     "set_body_force(body, force, torque=None): world force at the COM, torque; next step only"},
    {"constraint_force", (PyCFunction)mx_constraint_force, METH_O,
     "constraint_force(id) -> (force, torque on body a, lambda (6, unused rows 0)), last step"},
    {"constraint_error", (PyCFunction)mx_constraint_error, METH_NOARGS,
     "constraint_error() -> (rms, worst) over the rows at the current state (m or rad)"},
    {"momentum", (PyCFunction)mx_momentum, METH_NOARGS,
     "momentum() -> (linear, angular about the origin)"},
    {"joint_state", (PyCFunction)mx_joint_state, METH_NOARGS,
     "joint_state() -> (q, u) of the model it was made from (sn_maximal_joint_state)"},
    {"set_stabilization", (PyCFunction)mx_set_stabilization, METH_VARARGS,
     "set_stabilization(alpha, beta): c'' + 2 alpha c' + beta^2 c = 0 (1/s; 0 0: off)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef mx_getset[] = {
    {"nbody", (getter)mx_get, NULL, "bodies", (void*)0},
    {"nconstraint", (getter)mx_get, NULL, "constraints", (void*)1},
    {"nrow", (getter)mx_get, NULL, "the constraints' rows", (void*)2},
    {"timestep", (getter)mx_get, (setter)mx_set, "the time step (s)", (void*)3},
    {"time", (getter)mx_get, NULL, "simulated time (s)", (void*)4},
    {"kinetic_energy", (getter)mx_get, NULL, "J", (void*)5},
    {"potential_energy", (getter)mx_get, NULL, "J, in gravity", (void*)6},
    {"projection", (getter)mx_get, (setter)mx_set,
     "post-stabilization onto c = 0 and J v = 0 after each step (False)", (void*)7},
    {"model", (getter)mx_get, NULL, "the Model it was made from, or None", (void*)8},
    {"gravity", (getter)mx_get, (setter)mx_set, "gravity (m/s^2, world; (0, 0, -9.81))", (void*)9},
    {"scheme", (getter)mx_get, (setter)mx_set, "'semi_implicit' (default) or 'rk4'", (void*)10},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SnpMaximal_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Maximal",
    .tp_basicsize = sizeof(SnpMaximal),
    .tp_dealloc = (destructor)mx_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Maximal(timestep=0): rigid bodies in maximal coordinates and constraints between\n"
              "them or the world, stepped alone by seed 003's method (sn_maximal_create);\n"
              "Maximal.from_model(model) turns any model into one.",
    .tp_weaklistoffset = offsetof(SnpMaximal, weakrefs),
    .tp_methods = mx_methods,
    .tp_getset = mx_getset,
    .tp_new = mx_new,
};

// ---- World: constraints between systems, and a Maximal added to a world ----

static sn_system* system_arg(SnpWorld* w, PyObject* obj, const char* name) {
    if (obj == Py_None) return NULL;
    if (!PyObject_TypeCheck(obj, &SnpSystem_Type)) {
        PyErr_Format(PyExc_TypeError, "%s: a System (or None: the world)", name);
        return NULL;
    }
    SnpSystem* s = (SnpSystem*)obj;
    if (s->world != w) {
        PyErr_Format(PyExc_ValueError, "%s: a System of this world", name);
        return NULL;
    }
    return s->s;
}

static PyObject* world_add_constraint(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"kind",      "system_a", "body_a",  "system_b", "body_b",
                             "anchor_a",  "anchor_b", "frame_a", "frame_b",  "length",
                             "stiffness", "damping",  NULL};
    PyObject *kind, *sa, *ba, *sb = Py_None, *bb = Py_None;
    desc_kw k;
    desc_kw_init(&k);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|OO$OOOOddd:add_constraint", kwlist, &kind, &sa,
                                     &ba, &sb, &bb, &k.anchor_a, &k.anchor_b, &k.frame_a,
                                     &k.frame_b, &k.length, &k.stiffness, &k.damping))
        return NULL;
    SNPY_READY(o, NULL);
    sn_constraint_desc d;
    memset(&d, 0, sizeof d);
    int kd = parse_kind(kind);
    if (kd < 0 || fill_desc(&k, &d) < 0) return NULL;
    d.kind = (sn_constraint_kind)kd;
    if (sa == Py_None) {
        PyErr_SetString(PyExc_TypeError, "system_a: a System of this world");
        return NULL;
    }
    if (!(d.system_a = system_arg(o, sa, "system_a"))) return NULL;
    d.system_b = system_arg(o, sb, "system_b");
    if (!d.system_b && PyErr_Occurred()) return NULL;
    const sn_model* ma = ((SnpSystem*)sa)->model->m;
    if ((d.body_a = snpy_index(ba, ma->nbody, ma, SN_OBJ_BODY, "body_a")) < 0) return NULL;
    d.body_b = -1;
    if (d.system_b) {
        const sn_model* mb = ((SnpSystem*)sb)->model->m;
        if (bb == Py_None) {
            PyErr_SetString(PyExc_TypeError, "body_b: a body of system_b");
            return NULL;
        }
        if ((d.body_b = snpy_index(bb, mb->nbody, mb, SN_OBJ_BODY, "body_b")) < 0) return NULL;
    }
    int id = -1;
    sn_status st = sn_world_add_constraint(o->w, &d, &id);
    if (st != SN_OK) return snpy_raise_world(o, st);
    return PyLong_FromLong(id);
}

static PyObject* world_constraint_force(SnpWorld* o, PyObject* arg) {
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    double f[3], t[3];
    int taut = 0;
    sn_status st =
        sn_world_constraint_force(o->w, id < 0 || id > INT_MAX ? -1 : (int)id, f, t, &taut);
    if (st != SN_OK) return snpy_raise_world(o, st);
    return Py_BuildValue("(NNO)", snpy_tuple3(f), snpy_tuple3(t), taut ? Py_True : Py_False);
}

static PyObject* world_constraint_error(SnpWorld* o, PyObject* arg) {
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    SNPY_READY(o, NULL);
    double worst = 0;
    sn_status st = sn_world_constraint_error(o->w, id < 0 || id > INT_MAX ? -1 : (int)id, &worst);
    if (st != SN_OK) return snpy_raise_world(o, st);
    return PyFloat_FromDouble(worst);
}

static PyObject* world_add_maximal(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"maximal", "like", NULL};
    PyObject *mo, *like = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|O:add_maximal", kwlist, &SnpMaximal_Type, &mo,
                                     &like))
        return NULL;
    SNPY_READY(o, NULL);
    SnpMaximal* mx = (SnpMaximal*)mo;
    const sn_system* ls = NULL;
    if (like != Py_None) {
        if (!PyObject_TypeCheck(like, &SnpSystem_Type)) {
            PyErr_SetString(PyExc_TypeError, "like: a System (of the Maximal's model), or None");
            return NULL;
        }
        ls = ((SnpSystem*)like)->s;
    }
    int n0 = sn_world_system_count(o->w), first = -1;
    // the world's systems of a model-made Maximal refer to its model (their collision filter):
    // the world keeps it alive
    if (mx->model != Py_None && PyList_Append(o->models, mx->model) < 0) return NULL;
    sn_status st = like != Py_None ? sn_world_add_maximal_as(o->w, mx->mx, ls, &first)
                                   : sn_world_add_maximal(o->w, mx->mx, &first);
    if (st != SN_OK) return snpy_raise_world(o, st);
    int n = sn_world_system_count(o->w) - n0;
    PyObject* l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject* sys = snpy_system_new(o, first + i);
        if (!sys) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, sys);
    }
    return l;
}

static PyObject* world_maximal_joint_state(SnpWorld* o, PyObject* args) {
    PyObject* mo;
    PyObject* fo;
    if (!PyArg_ParseTuple(args, "O!O:maximal_joint_state", &SnpMaximal_Type, &mo, &fo)) return NULL;
    SNPY_READY(o, NULL);
    SnpMaximal* mx = (SnpMaximal*)mo;
    int first;
    if (PyObject_TypeCheck(fo, &SnpSystem_Type)) {
        if (((SnpSystem*)fo)->world != o) {
            PyErr_SetString(PyExc_ValueError, "first: a System of this world");
            return NULL;
        }
        first = ((SnpSystem*)fo)->index;
    } else if ((first = snpy_index(fo, sn_world_system_count(o->w), NULL, -1, "first")) < 0) {
        return NULL;
    }
    const sn_model* m = sn_maximal_model(mx->mx);
    npy_intp nq = m ? m->nq : 0, nv = m ? m->nv : 0;
    PyObject* q = m ? PyArray_ZEROS(1, &nq, NPY_DOUBLE, 0) : NULL;
    PyObject* u = m ? PyArray_ZEROS(1, &nv, NPY_DOUBLE, 0) : NULL;
    if (m && (!q || !u)) goto fail;
    sn_status st = sn_world_maximal_joint_state(
        o->w, mx->mx, first, q ? (double*)PyArray_DATA((PyArrayObject*)q) : NULL, (int)nq,
        u ? (double*)PyArray_DATA((PyArrayObject*)u) : NULL, (int)nv);
    if (st != SN_OK) {
        snpy_raise_world(o, st);
        goto fail;
    }
    if (!m) Py_RETURN_NONE;
    return Py_BuildValue("(NN)", q, u);
fail:
    Py_XDECREF(q);
    Py_XDECREF(u);
    return NULL;
}

static PyObject* world_get_nconstraint(SnpWorld* o, void* c) {
    (void)c;
    return PyLong_FromLong(sn_world_constraint_count(o->w));
}

static PyMethodDef world_mx_methods[] = {
    {"add_constraint", (PyCFunction)(void (*)(void))world_add_constraint,
     METH_VARARGS | METH_KEYWORDS,
     "add_constraint(kind, system_a, body_a, system_b=None, body_b=None, *, anchor_a, anchor_b,\n"
     "frame_a, frame_b, length, stiffness, damping) -> id (sn_world_add_constraint): a\n"
     "constraint between a body (index or name) of one system and one of another, or the world\n"
     "(system_b None), eliminated by the step with the contacts. Anchors in the link "
     "frames.\n" DESC_DOC},
    {"constraint_force", (PyCFunction)world_constraint_force, METH_O,
     "constraint_force(id) -> (force, torque on body a about its link origin, taut): last step"},
    {"constraint_error", (PyCFunction)world_constraint_error, METH_O,
     "constraint_error(id) -> the largest row error at the current state (m or rad)"},
    {"add_maximal", (PyCFunction)(void (*)(void))world_add_maximal, METH_VARARGS | METH_KEYWORDS,
     "add_maximal(maximal, like=None) -> [System] (sn_world_add_maximal, _as with like): each\n"
     "body a free-body system at its current state, each constraint a world constraint; a\n"
     "model-made Maximal's bodies collide as the model's (like: a System of that model whose\n"
     "materials, filters and self-collision they take). The world's gravity and step apply."},
    {"maximal_joint_state", (PyCFunction)world_maximal_joint_state, METH_VARARGS,
     "maximal_joint_state(maximal, first) -> (q, u), or None for a hand-built Maximal\n"
     "(sn_world_maximal_joint_state): the Maximal's bodies set from the systems first.. (a\n"
     "System or its index), and the model's joint coordinates read back"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef world_mx_getset[] = {
    {"nconstraint", (getter)world_get_nconstraint, NULL, "world constraints", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

int snpy_maximal_init_types(PyObject* mod) {
    if (PyType_Ready(&SnpMaximal_Type) < 0 ||
        snpy_add_members(&SnpWorld_Type, world_mx_methods, world_mx_getset) < 0)
        return -1;
    return PyModule_AddObjectRef(mod, "Maximal", (PyObject*)&SnpMaximal_Type);
}
