// SPDX-License-Identifier: Apache-2.0
// arm.c: sinew.Arm, the dynamic arm component of seed 002 (sn_arm.h, docs/arm.md) from Python:
// made from a Model (kept alive by the Arm, which sn_arm_from_model requires), stepped with its
// named inputs; its states are read-only views of the arm's own arrays, its parameters validated
// setters (docs/python.md "The arm component").
#include "snpy.h"

#include <string.h>

typedef struct SnpArm {
    PyObject_HEAD sn_arm* arm;
    SnpModel* model; // strong: the arm references its model
    int n;
    PyObject* weakrefs;
} SnpArm;

#define DATA(a) ((double*)PyArray_DATA((PyArrayObject*)(a)))

static PyObject* arm_raise(SnpArm* o, sn_status st) {
    return snpy_raise_status(st, o->arm ? sn_arm_last_error(o->arm) : sn_last_error());
}

static PyObject* check(SnpArm* o, sn_status st) {
    if (st != SN_OK) return arm_raise(o, st);
    Py_RETURN_NONE;
}

static void arm_dealloc(SnpArm* o) {
    if (o->weakrefs) PyObject_ClearWeakRefs((PyObject*)o);
    sn_arm_destroy(o->arm);
    Py_XDECREF(o->model);
    Py_TYPE(o)->tp_free((PyObject*)o);
}

// an optional input of rows x cols numbers: (rows, cols) or, with cols 1, (rows,); flattened to
// float64 by snpy_doubles (which refuses other dtypes). NULL for None (*keep NULL) or on error
// (*err 1)
static const double* input(PyObject* obj, int rows, int cols, const char* name, PyObject** keep,
                           int* err) {
    *keep = NULL;
    if (obj == Py_None) return NULL;
    PyObject* a = PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (!a) {
        *err = 1;
        return NULL;
    }
    PyArrayObject* arr = (PyArrayObject*)a;
    int nd = PyArray_NDIM(arr);
    int ok = cols == 1 ? nd == 1 && PyArray_DIM(arr, 0) == rows
                       : nd == 2 && PyArray_DIM(arr, 0) == rows && PyArray_DIM(arr, 1) == cols;
    if (!ok) {
        Py_DECREF(a);
        if (cols == 1)
            PyErr_Format(PyExc_ValueError, "%s: %d numbers", name, rows);
        else
            PyErr_Format(PyExc_ValueError, "%s: an array of shape (%d, %d)", name, rows, cols);
        *err = 1;
        return NULL;
    }
    PyObject* flat = PyArray_Ravel(arr, NPY_CORDER);
    Py_DECREF(a);
    if (!flat) {
        *err = 1;
        return NULL;
    }
    const double* p = snpy_doubles(flat, (npy_intp)rows * cols, name, keep, NULL);
    Py_DECREF(flat); // *keep holds the float64 copy (or flat itself) while p is used
    if (!p) *err = 1;
    return p;
}

static PyObject* arm_new(PyTypeObject* t, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"model", "position", "rotation", "gravity", "sweeps", NULL};
    PyObject *model, *pos = Py_None, *rot = Py_None, *grav = Py_None;
    int sweeps = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|$OOOi:Arm", kwlist, &SnpModel_Type, &model, &pos,
                                     &rot, &grav, &sweeps))
        return NULL;
    sn_arm_desc d;
    memset(&d, 0, sizeof d);
    d.gravity[2] = -9.81;
    d.sweeps = sweeps;
    if (pos != Py_None && snpy_vec3(pos, "position", d.placement_pos) < 0) return NULL;
    if (grav != Py_None && snpy_vec3(grav, "gravity", d.gravity) < 0) return NULL;
    if (rot != Py_None) {
        PyObject* keep;
        int err = 0;
        const double* r = input(rot, 3, 3, "rotation (3 x 3, world <- base)", &keep, &err);
        if (!r) return NULL;
        memcpy(d.placement_rot, r, sizeof d.placement_rot);
        Py_DECREF(keep);
    }
    sn_arm* arm = NULL;
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = sn_arm_from_model(((SnpModel*)model)->m, &d, NULL, &arm, &err);
    if (st != SN_OK) return snpy_raise_error(&err);
    SnpArm* o = (SnpArm*)t->tp_alloc(t, 0);
    if (!o) {
        sn_arm_destroy(arm);
        return NULL;
    }
    o->arm = arm;
    o->n = sn_arm_joint_count(arm);
    Py_INCREF(model);
    o->model = (SnpModel*)model;
    return (PyObject*)o;
}

static PyObject* arm_step(SnpArm* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"dt", "torques", "wrench", "momentum", "inertia0", "inertia1", NULL};
    double dt;
    PyObject *tq = Py_None, *wr = Py_None, *mo = Py_None, *c0 = Py_None, *c1 = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "d|$OOOOO:step", kwlist, &dt, &tq, &wr, &mo, &c0,
                                     &c1))
        return NULL;
    PyObject* keep[5] = {NULL, NULL, NULL, NULL, NULL};
    int err = 0;
    sn_arm_inputs in;
    in.torques = input(tq, o->n, 1, "torques (n)", &keep[0], &err);
    in.wrench = err ? NULL : input(wr, o->n, 6, "wrench (n x 6)", &keep[1], &err);
    in.momentum = err ? NULL : input(mo, o->n, 3, "momentum (n x 3)", &keep[2], &err);
    in.inertia0 = err ? NULL : input(c0, o->n, 10, "inertia0 (n x 10)", &keep[3], &err);
    in.inertia1 = err ? NULL : input(c1, o->n, 10, "inertia1 (n x 10)", &keep[4], &err);
    PyObject* ret = NULL;
    if (!err) ret = check(o, sn_arm_step(o->arm, dt, &in));
    for (int i = 0; i < 5; i++)
        Py_XDECREF(keep[i]);
    return ret;
}

static PyObject* arm_set_state(SnpArm* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"q", "qd", NULL};
    PyObject *qo = Py_None, *qdo = Py_None, *kq = NULL, *kqd = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:set_state", kwlist, &qo, &qdo)) return NULL;
    int err = 0;
    const double* q = input(qo, o->n, 1, "q", &kq, &err);
    const double* qd = err ? NULL : input(qdo, o->n, 1, "qd", &kqd, &err);
    PyObject* ret = NULL;
    if (!err) ret = check(o, sn_arm_set_state(o->arm, q, o->n, qd, o->n));
    Py_XDECREF(kq);
    Py_XDECREF(kqd);
    return ret;
}

static PyObject* arm_set_placement(SnpArm* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"position", "rotation", NULL};
    PyObject *po, *ro = Py_None, *kr = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:set_placement", kwlist, &po, &ro)) return NULL;
    double p[3];
    if (snpy_vec3(po, "position", p) < 0) return NULL;
    int err = 0;
    const double* r = input(ro, 3, 3, "rotation (3 x 3)", &kr, &err);
    PyObject* ret = NULL;
    if (!err) ret = check(o, sn_arm_set_placement(o->arm, p, r));
    Py_XDECREF(kr);
    return ret;
}

static PyObject* arm_set_stops(SnpArm* o, PyObject* args) {
    PyObject *lo, *hi, *kl = NULL, *kh = NULL;
    if (!PyArg_ParseTuple(args, "OO:set_stops", &lo, &hi)) return NULL;
    const double* l = snpy_doubles(lo, o->n, "lower", &kl, NULL);
    const double* h = l ? snpy_doubles(hi, o->n, "upper", &kh, NULL) : NULL;
    PyObject* ret = h ? check(o, sn_arm_set_stops(o->arm, l, h, o->n)) : NULL;
    Py_XDECREF(kl);
    Py_XDECREF(kh);
    return ret;
}

// M(theta; C), the gyroscopic matrix G(H), the kinetic energy with C
static PyObject* arm_mass_matrix(SnpArm* o, PyObject* args) {
    PyObject *co = Py_None, *kc = NULL;
    if (!PyArg_ParseTuple(args, "|O:mass_matrix", &co)) return NULL;
    int err = 0;
    const double* c = input(co, o->n, 10, "carried inertia (n x 10)", &kc, &err);
    npy_intp dims[2] = {o->n, o->n};
    PyObject* M = err ? NULL : PyArray_ZEROS(2, dims, NPY_DOUBLE, 0);
    if (M) {
        sn_status st = sn_arm_mass_matrix(o->arm, c, DATA(M));
        if (st != SN_OK) {
            Py_CLEAR(M);
            arm_raise(o, st);
        }
    }
    Py_XDECREF(kc);
    return M;
}

static PyObject* arm_gyroscopic_matrix(SnpArm* o, PyObject* arg) {
    PyObject* kh = NULL;
    int err = 0;
    const double* h = arg == Py_None ? NULL : input(arg, o->n, 3, "momentum (n x 3)", &kh, &err);
    if (!h) {
        if (!err) PyErr_SetString(PyExc_TypeError, "gyroscopic_matrix: momentum (n x 3)");
        return NULL;
    }
    npy_intp dims[2] = {o->n, o->n};
    PyObject* G = PyArray_ZEROS(2, dims, NPY_DOUBLE, 0);
    if (G) {
        sn_status st = sn_arm_gyroscopic_matrix(o->arm, h, DATA(G));
        if (st != SN_OK) {
            Py_CLEAR(G);
            arm_raise(o, st);
        }
    }
    Py_DECREF(kh);
    return G;
}

static PyObject* arm_kinetic_energy(SnpArm* o, PyObject* args) {
    PyObject *co = Py_None, *kc = NULL;
    if (!PyArg_ParseTuple(args, "|O:kinetic_energy", &co)) return NULL;
    int err = 0;
    const double* c = input(co, o->n, 10, "carried inertia (n x 10)", &kc, &err);
    PyObject* ret = err ? NULL : PyFloat_FromDouble(sn_arm_kinetic_energy(o->arm, c));
    Py_XDECREF(kc);
    return ret;
}

static PyObject* copy_vector(const double* p, int n) {
    npy_intp d = p ? n : 0;
    PyObject* a = PyArray_ZEROS(1, &d, NPY_DOUBLE, 0);
    if (a && p) memcpy(DATA(a), p, (size_t)n * sizeof(double));
    return a;
}

static PyObject* arm_report(SnpArm* o, PyObject* unused) {
    (void)unused;
    sn_arm_report r;
    sn_arm_report_get(o->arm, &r);
    return Py_BuildValue("{s:N,s:N,s:N,s:N,s:i,s:O,s:d,s:d}", "theta_prime",
                         copy_vector(r.theta_prime, o->n), "theta_star",
                         copy_vector(r.theta_star, o->n), "bias", copy_vector(r.bias, o->n),
                         "impulse", copy_vector(r.impulse, o->n), "sweeps", r.sweeps, "stuck_start",
                         r.stuck_start ? Py_True : Py_False, "energy_star", r.energy_star,
                         "energy_end", r.energy_end);
}

static PyObject* arm_frame_id(SnpArm* o, PyObject* arg) {
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return NULL;
    if (k < 1 || k > o->n) {
        PyErr_Format(PyExc_IndexError, "frame_id: k is 1 to %d, not %ld", o->n, k);
        return NULL;
    }
    return PyLong_FromLong(sn_arm_frame_id(o->arm, (int)k));
}

// ---- attributes ----

static PyObject* get_q(SnpArm* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, sn_arm_q(o->arm), 1, o->n, 0, 0);
}

static PyObject* get_qd(SnpArm* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, sn_arm_qd(o->arm), 1, o->n, 0, 0);
}

static PyObject* get_frame_pos(SnpArm* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, sn_arm_frame_pos(o->arm), 2, o->n, 3, 0);
}

static PyObject* get_frame_omega(SnpArm* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, sn_arm_frame_omega(o->arm), 2, o->n, 3, 0);
}

static PyObject* get_frame_rot(SnpArm* o, void* c) {
    (void)c;
    PyObject* flat = snpy_view((PyObject*)o, sn_arm_frame_rot(o->arm), 2, o->n, 9, 0);
    if (!flat) return NULL;
    npy_intp dims[3] = {o->n, 3, 3};
    PyArray_Dims shape = {dims, 3};
    PyObject* r = PyArray_Newshape((PyArrayObject*)flat, &shape, NPY_CORDER);
    Py_DECREF(flat);
    return r;
}

static PyObject* get_model(SnpArm* o, void* c) {
    (void)c;
    Py_INCREF(o->model);
    return (PyObject*)o->model;
}

static PyObject* get_n(SnpArm* o, void* c) {
    (void)c;
    return PyLong_FromLong(o->n);
}

static PyObject* get_gravity(SnpArm* o, void* c) {
    (void)c;
    double g[3];
    sn_arm_gravity(o->arm, g);
    return snpy_tuple3(g);
}

static int set_gravity(SnpArm* o, PyObject* v, void* c) {
    (void)c;
    double g[3];
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "gravity cannot be deleted");
        return -1;
    }
    if (snpy_vec3(v, "gravity", g) < 0) return -1;
    sn_status st = sn_arm_set_gravity(o->arm, g);
    if (st != SN_OK) {
        arm_raise(o, st);
        return -1;
    }
    return 0;
}

// the parameters: 0 damping, 1 friction, 2 lower, 3 upper (copies); damping and friction settable
static PyObject* get_param(SnpArm* o, void* c) {
    int which = (int)(intptr_t)c;
    npy_intp n = o->n;
    PyObject* a[4];
    for (int i = 0; i < 4; i++)
        a[i] = PyArray_ZEROS(1, &n, NPY_DOUBLE, 0);
    PyObject* ret = NULL;
    if (a[0] && a[1] && a[2] && a[3]) {
        sn_arm_params(o->arm, DATA(a[0]), DATA(a[1]), DATA(a[2]), DATA(a[3]), NULL);
        ret = a[which];
        Py_INCREF(ret);
    }
    for (int i = 0; i < 4; i++)
        Py_XDECREF(a[i]);
    return ret;
}

static int set_param(SnpArm* o, PyObject* v, void* c) {
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "cannot be deleted");
        return -1;
    }
    PyObject* keep;
    const double* p = snpy_doubles(v, o->n, c ? "friction" : "damping", &keep, NULL);
    if (!p) return -1;
    sn_status st = c ? sn_arm_set_friction(o->arm, p, o->n) : sn_arm_set_damping(o->arm, p, o->n);
    Py_DECREF(keep);
    if (st != SN_OK) {
        arm_raise(o, st);
        return -1;
    }
    return 0;
}

static PyObject* get_sweeps(SnpArm* o, void* c) {
    (void)c;
    int s = 0;
    sn_arm_params(o->arm, NULL, NULL, NULL, NULL, &s);
    return PyLong_FromLong(s);
}

static int set_sweeps(SnpArm* o, PyObject* v, void* c) {
    (void)c;
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "sweeps cannot be deleted");
        return -1;
    }
    long s = PyLong_AsLong(v);
    if (s == -1 && PyErr_Occurred()) return -1;
    sn_status st = sn_arm_set_sweeps(o->arm, s < 0 || s > 1 << 30 ? -1 : (int)s);
    if (st != SN_OK) {
        arm_raise(o, st);
        return -1;
    }
    return 0;
}

static PyMethodDef arm_methods[] = {
    {"step", (PyCFunction)(void (*)(void))arm_step, METH_VARARGS | METH_KEYWORDS,
     "step(dt, *, torques=None, wrench=None, momentum=None, inertia0=None, inertia1=None)\n"
     "(sn_arm_step): one step of seed 002's equations; torques (n), wrench per link (n x 6:\n"
     "force then torque at frame k's origin, world axes), spin momentum per link (n x 3, frame\n"
     "k's axes), carried inertia at the start and end (n x 10: mass, com (3), inertia (6)).\n"
     "None: zeros (inertia1 None: inertia0). A refused input or failed step keeps the state."},
    {"set_state", (PyCFunction)(void (*)(void))arm_set_state, METH_VARARGS | METH_KEYWORDS,
     "set_state(q=None, qd=None) (sn_arm_set_state): None keeps it; q within the stops"},
    {"set_placement", (PyCFunction)(void (*)(void))arm_set_placement, METH_VARARGS | METH_KEYWORDS,
     "set_placement(position, rotation=None) (sn_arm_set_placement): the base frame O in the\n"
     "world, rotation world <- base (3 x 3; None: the identity)"},
    {"set_stops", (PyCFunction)arm_set_stops, METH_VARARGS,
     "set_stops(lower, upper) (sn_arm_set_stops): -inf / inf for none; refused when q is outside"},
    {"mass_matrix", (PyCFunction)arm_mass_matrix, METH_VARARGS,
     "mass_matrix(carried=None) -> M(theta; C) (n x n), C (n x 10) as step's inertia0"},
    {"gyroscopic_matrix", (PyCFunction)arm_gyroscopic_matrix, METH_O,
     "gyroscopic_matrix(momentum) -> G = sum_k S_k^T [H_k]x S_k (n x n, skew), H (n x 3)"},
    {"kinetic_energy", (PyCFunction)arm_kinetic_energy, METH_VARARGS,
     "kinetic_energy(carried=None) -> 1/2 qd^T M(theta; C) qd (J)"},
    {"report", (PyCFunction)arm_report, METH_NOARGS,
     "report() -> dict of the last step's theta_prime, theta_star, bias, impulse (copies),\n"
     "sweeps, stuck_start, energy_star, energy_end (empty arrays before a step)"},
    {"frame_id", (PyCFunction)arm_frame_id, METH_O,
     "frame_id(k) -> the model frame (URDF link) of arm frame k = 1..n"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef arm_getset[] = {
    {"q", (getter)get_q, NULL, "theta (n), a read-only view", NULL},
    {"qd", (getter)get_qd, NULL, "theta-dot (n), a read-only view", NULL},
    {"frame_pos", (getter)get_frame_pos, NULL, "P: frame k's origin, world (n x 3), a view", NULL},
    {"frame_rot", (getter)get_frame_rot, NULL,
     "frame k's rotation, world <- frame (n x 3 x 3), a view", NULL},
    {"frame_omega", (getter)get_frame_omega, NULL,
     "Omega: frame k's angular velocity, world axes (n x 3), a view", NULL},
    {"model", (getter)get_model, NULL, "the Model the arm steps", NULL},
    {"n", (getter)get_n, NULL, "the number of joints", NULL},
    {"gravity", (getter)get_gravity, (setter)set_gravity, "g, world axes (m/s^2)", NULL},
    {"damping", (getter)get_param, (setter)set_param, "D (n, >= 0; a copy)", (void*)0},
    {"friction", (getter)get_param, (setter)set_param, "mu (n, >= 0; a copy)", (void*)1},
    {"lower", (getter)get_param, NULL, "the lower stops (n; set_stops sets them)", (void*)2},
    {"upper", (getter)get_param, NULL, "the upper stops (n)", (void*)3},
    {"sweeps", (getter)get_sweeps, (setter)set_sweeps,
     "projected Gauss-Seidel sweeps per step (1..100000)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SnpArm_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Arm",
    .tp_basicsize = sizeof(SnpArm),
    .tp_dealloc = (destructor)arm_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Arm(model, *, position=None, rotation=None, gravity=(0, 0, -9.81), sweeps=0):\n"
              "seed 002's dynamic arm component (sn_arm_from_model): a fixed-base serial chain\n"
              "stepped by its own equations, no world and no contacts. Damping, friction and\n"
              "stops come from the model; the Arm keeps its Model alive.",
    .tp_weaklistoffset = offsetof(SnpArm, weakrefs),
    .tp_methods = arm_methods,
    .tp_getset = arm_getset,
    .tp_new = arm_new,
};

int snpy_arm_init_types(PyObject* mod) {
    if (PyType_Ready(&SnpArm_Type) < 0) return -1;
    return PyModule_AddObjectRef(mod, "Arm", (PyObject*)&SnpArm_Type);
}
