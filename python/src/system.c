// SPDX-License-Identifier: Apache-2.0
// system.c: sinew.System (sn_system), one articulated system of a world: its state as views,
// the setters that validate, control, forces, the dynamics (M, h, M^-1, u-dot, inverse
// dynamics), kinematics (frame poses, Jacobians), energies and the contacts of the last step.
// docs/python.md "System".
#include "snpy.h"

#include <string.h>

PyObject* snpy_system_new(SnpWorld* w, int index) {
    sn_system* s = sn_world_system(w->w, index);
    if (!s) return snpy_raise_world(w, SN_ERR_ARG);
    SnpSystem* o = (SnpSystem*)snpy_system_class->tp_alloc(snpy_system_class, 0);
    if (!o) return NULL;
    o->world = (SnpWorld*)Py_NewRef(w);
    o->s = s;
    o->index = index;
    // the Model the world keeps for it, or (a free body) one borrowed from the world
    const sn_model* m = sn_system_model(s);
    PyObject* found = NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(w->models); i++)
        if (((SnpModel*)PyList_GET_ITEM(w->models, i))->m == m)
            found = PyList_GET_ITEM(w->models, i);
    o->model = (SnpModel*)(found ? Py_NewRef(found) : snpy_model_borrowed(m, (PyObject*)w));
    if (!o->model) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject*)o;
}

static PyObject* system_new(PyTypeObject* t, PyObject* a, PyObject* k) {
    (void)t;
    (void)a;
    (void)k;
    PyErr_SetString(PyExc_TypeError, "a System is made by World.add (or World.add_sphere...)");
    return NULL;
}

static void system_dealloc(SnpSystem* o) {
    Py_XDECREF(o->model);
    Py_XDECREF(o->world);
    Py_TYPE(o)->tp_free((PyObject*)o);
}

#define READY(o) SNPY_READY((o)->world, NULL)
#define NQ(o) ((o)->model->m->nq)
#define NV(o) ((o)->model->m->nv)

static PyObject* check(SnpSystem* o, sn_status st) {
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    Py_RETURN_NONE;
}

// ---- state ----

static PyObject* get_q(SnpSystem* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, sn_system_q(o->s), 1, NQ(o), 0, 0);
}
static PyObject* get_u(SnpSystem* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, sn_system_u(o->s), 1, NV(o), 0, 0);
}

static int set_vec(SnpSystem* o, PyObject* v, int which) {
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "the state cannot be deleted");
        return -1;
    }
    if (snpy_world_busy(o->world)) return -1;
    PyObject* keep;
    int n = which ? NV(o) : NQ(o);
    const double* p = snpy_doubles(v, n, which ? "u" : "q", &keep, NULL);
    if (!p) return -1;
    sn_status st = which ? sn_system_set_u(o->s, p, n) : sn_system_set_q(o->s, p, n);
    Py_DECREF(keep);
    if (st != SN_OK) {
        snpy_raise_world(o->world, st);
        return -1;
    }
    return 0;
}
static int set_q(SnpSystem* o, PyObject* v, void* c) {
    (void)c;
    return set_vec(o, v, 0);
}
static int set_u(SnpSystem* o, PyObject* v, void* c) {
    (void)c;
    return set_vec(o, v, 1);
}

static PyObject* system_set_state(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"q", "u", NULL};
    PyObject *q, *u = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:set_state", kwlist, &q, &u)) return NULL;
    READY(o);
    PyObject *kq, *ku = NULL;
    const double* pq = snpy_doubles(q, NQ(o), "q", &kq, NULL);
    if (!pq) return NULL;
    const double* pu = sn_system_u(o->s);
    if (u != Py_None && !(pu = snpy_doubles(u, NV(o), "u", &ku, NULL))) {
        Py_DECREF(kq);
        return NULL;
    }
    // with u None the velocity stays: copy it first (set_state reads q and u together)
    double* keepu = NULL;
    if (u == Py_None && NV(o)) {
        keepu = PyMem_Malloc((size_t)NV(o) * sizeof(double));
        if (!keepu) {
            Py_DECREF(kq);
            return PyErr_NoMemory();
        }
        memcpy(keepu, pu, (size_t)NV(o) * sizeof(double));
        pu = keepu;
    }
    sn_status st = sn_system_set_state(o->s, pq, NQ(o), pu, NV(o));
    PyMem_Free(keepu);
    Py_DECREF(kq);
    Py_XDECREF(ku);
    return check(o, st);
}

// ---- dynamics ----

static PyObject* get_mass_matrix(SnpSystem* o, void* c) {
    (void)c;
    READY(o);
    const double* p = sn_system_mass_matrix(o->s);
    if (!p) return snpy_raise_world(o->world, SN_ERR_ARG);
    return snpy_view((PyObject*)o, p, 2, NV(o), NV(o), 0);
}
static PyObject* get_nonlinear(SnpSystem* o, void* c) {
    (void)c;
    READY(o);
    const double* p = sn_system_nonlinear(o->s);
    if (!p) return snpy_raise_world(o->world, SN_ERR_ARG);
    return snpy_view((PyObject*)o, p, 1, NV(o), 0, 0);
}
static PyObject* get_inverse_mass(SnpSystem* o, void* c) {
    (void)c;
    READY(o);
    const double* p = sn_system_inverse_mass(o->s);
    if (!p) return snpy_raise_world(o->world, SN_ERR_SINGULAR);
    return snpy_view((PyObject*)o, p, 2, NV(o), NV(o), 0);
}

// u-dot = M^-1 (tau - h) by ABA at the current state (tau None: zero), a new array
static PyObject* system_forward_dynamics(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"tau", NULL};
    PyObject* tau = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:forward_dynamics", kwlist, &tau)) return NULL;
    READY(o);
    PyObject* keep = NULL;
    const double* pt = NULL;
    if (tau != Py_None && !(pt = snpy_doubles(tau, NV(o), "tau", &keep, NULL))) return NULL;
    npy_intp n = NV(o);
    PyObject* out = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
    if (!out) {
        Py_XDECREF(keep);
        return NULL;
    }
    sn_system_kinematics(o->s);
    sn_status st =
        sn_aba(o->model->m, sn_system_data(o->s), pt, (double*)PyArray_DATA((PyArrayObject*)out));
    Py_XDECREF(keep);
    if (st != SN_OK) {
        Py_DECREF(out);
        return snpy_raise_world(o->world, st);
    }
    return out;
}

// tau = M u-dot + h (RNEA) at the current state, a new array
static PyObject* system_inverse_dynamics(SnpSystem* o, PyObject* arg) {
    READY(o);
    PyObject* keep;
    const double* a = snpy_doubles(arg, NV(o), "udot", &keep, NULL);
    if (!a) return NULL;
    npy_intp n = NV(o);
    PyObject* out = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
    if (!out) {
        Py_DECREF(keep);
        return NULL;
    }
    sn_system_kinematics(o->s);
    sn_status st =
        sn_rnea(o->model->m, sn_system_data(o->s), a, (double*)PyArray_DATA((PyArrayObject*)out));
    Py_DECREF(keep);
    if (st != SN_OK) {
        Py_DECREF(out);
        return snpy_raise_world(o->world, st);
    }
    return out;
}

#define ENERGY(name, call)                                                                         \
    static PyObject* get_##name(SnpSystem* o, void* c) {                                           \
        (void)c;                                                                                   \
        READY(o);                                                                                  \
        return PyFloat_FromDouble(call(o->s));                                                     \
    }
ENERGY(kinetic_energy, sn_system_kinetic_energy)
ENERGY(potential_energy, sn_system_potential_energy)
ENERGY(spring_energy, sn_system_spring_energy)

static PyObject* system_com(SnpSystem* o, PyObject* noargs) {
    (void)noargs;
    READY(o);
    sn_system_kinematics(o->s);
    double c[3];
    double m = sn_com(o->model->m, sn_system_data(o->s), c);
    return Py_BuildValue("(d(ddd))", m, c[0], c[1], c[2]);
}

static PyObject* system_momentum(SnpSystem* o, PyObject* noargs) {
    (void)noargs;
    READY(o);
    sn_system_kinematics(o->s);
    double l[3], a[3];
    sn_momentum(o->model->m, sn_system_data(o->s), l, a);
    return Py_BuildValue("((ddd)(ddd))", l[0], l[1], l[2], a[0], a[1], a[2]);
}

// ---- kinematics ----

static PyObject* new_array(int nd, npy_intp d0, npy_intp d1) {
    npy_intp dims[2] = {d0, d1};
    return PyArray_ZEROS(nd, dims, NPY_DOUBLE, 0);
}
#define DATA(a) ((double*)PyArray_DATA((PyArrayObject*)(a)))

static PyObject* system_frame_pose(SnpSystem* o, PyObject* arg) {
    READY(o);
    int f = snpy_index(arg, o->model->m->nframe, o->model->m, SN_OBJ_FRAME, "frame");
    if (f < 0) return NULL;
    sn_system_kinematics(o->s);
    PyObject* p = new_array(1, 3, 0);
    PyObject* r = new_array(2, 3, 3);
    if (!p || !r) goto fail;
    sn_frame_pose(o->model->m, sn_system_data(o->s), f, DATA(p), DATA(r));
    return Py_BuildValue("(NN)", p, r);
fail:
    Py_XDECREF(p);
    Py_XDECREF(r);
    return NULL;
}

static PyObject* system_frame_velocity(SnpSystem* o, PyObject* arg) {
    READY(o);
    int f = snpy_index(arg, o->model->m->nframe, o->model->m, SN_OBJ_FRAME, "frame");
    if (f < 0) return NULL;
    sn_system_kinematics(o->s);
    double l[3], a[3];
    sn_frame_velocity(o->model->m, sn_system_data(o->s), f, l, a);
    return Py_BuildValue("((ddd)(ddd))", l[0], l[1], l[2], a[0], a[1], a[2]);
}

static PyObject* system_frame_jacobian(SnpSystem* o, PyObject* arg) {
    READY(o);
    int f = snpy_index(arg, o->model->m->nframe, o->model->m, SN_OBJ_FRAME, "frame");
    if (f < 0) return NULL;
    sn_system_kinematics(o->s);
    PyObject* jp = new_array(2, 3, NV(o));
    PyObject* jr = new_array(2, 3, NV(o));
    if (!jp || !jr) goto fail;
    sn_frame_jacobian(o->model->m, sn_system_data(o->s), f, DATA(jp), DATA(jr));
    return Py_BuildValue("(NN)", jp, jr);
fail:
    Py_XDECREF(jp);
    Py_XDECREF(jr);
    return NULL;
}

static PyObject* system_point_jacobian(SnpSystem* o, PyObject* args) {
    PyObject *b, *pt;
    if (!PyArg_ParseTuple(args, "OO:point_jacobian", &b, &pt)) return NULL;
    READY(o);
    int body = snpy_index(b, o->model->m->nbody, o->model->m, SN_OBJ_BODY, "body");
    double p[3];
    if (body < 0 || snpy_vec3(pt, "point", p) < 0) return NULL;
    sn_system_kinematics(o->s);
    PyObject* jp = new_array(2, 3, NV(o));
    PyObject* jr = new_array(2, 3, NV(o));
    if (!jp || !jr) goto fail;
    sn_point_jacobian(o->model->m, sn_system_data(o->s), body, p, DATA(jp), DATA(jr));
    return Py_BuildValue("(NN)", jp, jr);
fail:
    Py_XDECREF(jp);
    Py_XDECREF(jr);
    return NULL;
}

// ---- control and forces ----

static PyObject* system_set_pd_gains(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"kp", "kd", NULL};
    PyObject *a, *b;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:set_pd_gains", kwlist, &a, &b)) return NULL;
    READY(o);
    PyObject *ka, *kb;
    const double* kp = snpy_doubles(a, NV(o), "kp", &ka, NULL);
    if (!kp) return NULL;
    const double* kd = snpy_doubles(b, NV(o), "kd", &kb, NULL);
    if (!kd) {
        Py_DECREF(ka);
        return NULL;
    }
    sn_status st = sn_system_set_pd_gains(o->s, kp, kd, NV(o));
    Py_DECREF(ka);
    Py_DECREF(kb);
    return check(o, st);
}

static PyObject* system_set_pd_target(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"q_ref", "u_ref", NULL};
    PyObject *a, *b = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:set_pd_target", kwlist, &a, &b)) return NULL;
    READY(o);
    PyObject *ka, *kb = NULL;
    const double* q = snpy_doubles(a, NQ(o), "q_ref", &ka, NULL);
    if (!q) return NULL;
    const double* u = NULL;
    double* zero = NULL;
    if (b != Py_None) {
        if (!(u = snpy_doubles(b, NV(o), "u_ref", &kb, NULL))) {
            Py_DECREF(ka);
            return NULL;
        }
    } else {
        zero = PyMem_Calloc((size_t)NV(o) + 1, sizeof(double));
        if (!zero) {
            Py_DECREF(ka);
            return PyErr_NoMemory();
        }
        u = zero;
    }
    sn_status st = sn_system_set_pd_target(o->s, q, NQ(o), u, NV(o));
    PyMem_Free(zero);
    Py_DECREF(ka);
    Py_XDECREF(kb);
    return check(o, st);
}

// a setter of one nv-vector
typedef sn_status (*vec_fn)(sn_system*, const sn_real*, int);
static PyObject* set_nv(SnpSystem* o, PyObject* arg, vec_fn f, const char* name) {
    READY(o);
    PyObject* k;
    const double* p = snpy_doubles(arg, NV(o), name, &k, NULL);
    if (!p) return NULL;
    sn_status st = f(o->s, p, NV(o));
    Py_DECREF(k);
    return check(o, st);
}
static PyObject* system_set_generalized_force(SnpSystem* o, PyObject* arg) {
    return set_nv(o, arg, sn_system_set_generalized_force, "tau");
}
static PyObject* system_set_joint_damping(SnpSystem* o, PyObject* arg) {
    return set_nv(o, arg, sn_system_set_joint_damping, "damping");
}

static PyObject* system_set_actuation_limits(SnpSystem* o, PyObject* args) {
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "OO:set_actuation_limits", &a, &b)) return NULL;
    READY(o);
    PyObject *ka, *kb;
    const double* lo = snpy_doubles(a, NV(o), "lower", &ka, NULL);
    if (!lo) return NULL;
    const double* hi = snpy_doubles(b, NV(o), "upper", &kb, NULL);
    if (!hi) {
        Py_DECREF(ka);
        return NULL;
    }
    sn_status st = sn_system_set_actuation_limits(o->s, lo, hi, NV(o));
    Py_DECREF(ka);
    Py_DECREF(kb);
    return check(o, st);
}

static PyObject* system_generalized_force(SnpSystem* o, PyObject* noargs) {
    (void)noargs;
    READY(o);
    PyObject* out = new_array(1, NV(o), 0);
    if (!out) return NULL;
    sn_status st = sn_system_generalized_force(o->s, DATA(out), NV(o));
    if (st != SN_OK) {
        Py_DECREF(out);
        return snpy_raise_world(o->world, st);
    }
    return out;
}

static PyObject* system_add_spring(SnpSystem* o, PyObject* args) {
    PyObject* j;
    double k, rest;
    if (!PyArg_ParseTuple(args, "Odd:add_spring", &j, &k, &rest)) return NULL;
    READY(o);
    int joint = snpy_index(j, o->model->m->njoint, o->model->m, SN_OBJ_JOINT, "joint");
    if (joint < 0) return NULL;
    return check(o, sn_system_add_spring(o->s, joint, k, rest));
}

static PyObject* system_set_external_force(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"body", "force", "point", "constraint", NULL};
    PyObject *b, *f, *pt = Py_None;
    int constraint = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O$p:set_external_force", kwlist, &b, &f, &pt,
                                     &constraint))
        return NULL;
    READY(o);
    int body = snpy_index(b, o->model->m->nbody, o->model->m, SN_OBJ_BODY, "body");
    double force[3], point[3] = {0, 0, 0};
    if (body < 0 || snpy_vec3(f, "force", force) < 0 ||
        (pt != Py_None && snpy_vec3(pt, "point", point) < 0))
        return NULL;
    return check(o, constraint ? sn_system_set_constraint_force(o->s, body, point, force)
                               : sn_system_set_external_force(o->s, body, point, force));
}

static PyObject* system_set_external_torque(SnpSystem* o, PyObject* args) {
    PyObject *b, *t;
    if (!PyArg_ParseTuple(args, "OO:set_external_torque", &b, &t)) return NULL;
    READY(o);
    int body = snpy_index(b, o->model->m->nbody, o->model->m, SN_OBJ_BODY, "body");
    double tq[3];
    if (body < 0 || snpy_vec3(t, "torque", tq) < 0) return NULL;
    return check(o, sn_system_set_external_torque(o->s, body, tq));
}

static PyObject* system_set_actuator_torques(SnpSystem* o, PyObject* arg) {
    READY(o);
    PyObject* k;
    int n = sn_system_actuator_count(o->s);
    const double* p = snpy_doubles(arg, n, "tau", &k, NULL);
    if (!p) return NULL;
    sn_status st = sn_system_set_actuator_torques(o->s, p, n);
    Py_DECREF(k);
    return check(o, st);
}

static const char* modes[] = {"force", "pd"};
static PyObject* get_control_mode(SnpSystem* o, void* c) {
    (void)c;
    int m = sn_system_control_mode(o->s);
    return PyUnicode_FromString(m >= 0 && m <= 1 ? modes[m] : "?");
}
static int set_control_mode(SnpSystem* o, PyObject* v, void* c) {
    (void)c;
    const char* s = v ? PyUnicode_AsUTF8(v) : NULL;
    if (!s) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "control_mode: 'force' or 'pd'");
        return -1;
    }
    if (snpy_world_busy(o->world)) return -1;
    for (int i = 0; i < 2; i++)
        if (!strcmp(s, modes[i])) {
            sn_status st = sn_system_set_control_mode(o->s, (sn_control_mode)i);
            if (st != SN_OK) {
                snpy_raise_world(o->world, st);
                return -1;
            }
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "control_mode: 'force' or 'pd', not '%s'", s);
    return -1;
}

static const char* schemes[] = {"semi_implicit", "trapezoid", "euler", "rk4"};
static PyObject* get_scheme(SnpSystem* o, void* c) {
    (void)c;
    int m = sn_system_scheme(o->s);
    return PyUnicode_FromString(m >= 0 && m <= 3 ? schemes[m] : "?");
}
static PyObject* get_scheme_used(SnpSystem* o, void* c) {
    (void)c;
    int m = sn_system_scheme_used(o->s);
    return PyUnicode_FromString(m >= 0 && m <= 3 ? schemes[m] : "?");
}
static int set_scheme(SnpSystem* o, PyObject* v, void* c) {
    (void)c;
    const char* s = v ? PyUnicode_AsUTF8(v) : NULL;
    if (!s) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "scheme: a string");
        return -1;
    }
    if (snpy_world_busy(o->world)) return -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, schemes[i])) {
            sn_status st = sn_system_set_scheme(o->s, (sn_scheme)i);
            if (st != SN_OK) {
                snpy_raise_world(o->world, st);
                return -1;
            }
            return 0;
        }
    PyErr_Format(PyExc_ValueError,
                 "scheme: 'semi_implicit', 'trapezoid', 'euler' or 'rk4', not '%s'", s);
    return -1;
}

// on/off switches
static PyObject* system_set_joint_limits(SnpSystem* o, PyObject* arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    READY(o);
    sn_system_set_joint_limits_enabled(o->s, on);
    Py_RETURN_NONE;
}
static PyObject* system_set_self_collision(SnpSystem* o, PyObject* arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    READY(o);
    sn_system_set_self_collision(o->s, on);
    Py_RETURN_NONE;
}
static PyObject* system_set_compute_inverse_dynamics(SnpSystem* o, PyObject* arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    READY(o);
    sn_system_set_compute_inverse_dynamics(o->s, on);
    Py_RETURN_NONE;
}

static PyObject* system_set_collision_filter(SnpSystem* o, PyObject* args) {
    PyObject* b;
    unsigned long group, mask;
    if (!PyArg_ParseTuple(args, "Okk:set_collision_filter", &b, &group, &mask)) return NULL;
    READY(o);
    int body = snpy_index(b, o->model->m->nbody, o->model->m, SN_OBJ_BODY, "body");
    if (body < 0) return NULL;
    if (group > 0xffffffffUL || mask > 0xffffffffUL) {
        PyErr_SetString(PyExc_ValueError, "set_collision_filter: group and mask are 32-bit");
        return NULL;
    }
    return check(o, sn_system_set_collision_filter(o->s, body, (unsigned)group, (unsigned)mask));
}

static PyObject* system_set_body_material(SnpSystem* o, PyObject* args) {
    PyObject* b;
    int id;
    if (!PyArg_ParseTuple(args, "Oi:set_body_material", &b, &id)) return NULL;
    READY(o);
    int body = snpy_index(b, o->model->m->nbody, o->model->m, SN_OBJ_BODY, "body");
    if (body < 0) return NULL;
    return check(o, sn_system_set_body_material(o->s, body, id));
}

// ---- contacts and constraints of the last step ----

static PyObject* system_contacts(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"loops", NULL};
    int loops = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$p:contacts", kwlist, &loops)) return NULL;
    READY(o);
    int n = loops ? sn_system_contact_entry_count(o->s) : sn_system_contact_count(o->s);
    npy_intp dn = n;
    PyObject* a[12] = {0};
    static const char* keys[] = {"body",    "geom",     "other_system", "other_body",
                                 "self",    "position", "normal",       "depth",
                                 "impulse", "sliding",  "constraint"};
    for (int k = 0; k < 11; k++) {
        int vec = k == 5 || k == 6 || k == 8;
        int real = vec || k == 7;
        npy_intp dims[2] = {dn, 3};
        a[k] = PyArray_ZEROS(vec ? 2 : 1, dims, real ? NPY_DOUBLE : NPY_INT32, 0);
        if (!a[k]) goto fail;
    }
    for (int i = 0; i < n; i++) {
        sn_contact c;
        if ((loops ? sn_system_contact_entry(o->s, i, &c) : sn_system_contact(o->s, i, &c)) !=
            SN_OK)
            continue;
        int iv[] = {c.body, c.geom, c.other_system, c.other_body, c.self};
        for (int k = 0; k < 5; k++)
            ((int*)PyArray_DATA((PyArrayObject*)a[k]))[i] = iv[k];
        memcpy(DATA(a[5]) + 3 * i, c.position, 3 * sizeof(double));
        memcpy(DATA(a[6]) + 3 * i, c.normal, 3 * sizeof(double));
        DATA(a[7])[i] = c.depth;
        memcpy(DATA(a[8]) + 3 * i, c.impulse, 3 * sizeof(double));
        ((int*)PyArray_DATA((PyArrayObject*)a[9]))[i] = c.sliding;
        ((int*)PyArray_DATA((PyArrayObject*)a[10]))[i] = c.constraint;
    }
    return snpy_dict_of(keys, a, 11);
fail:
    for (int k = 0; k < 11; k++)
        Py_XDECREF(a[k]);
    return NULL;
}

static PyObject* system_body_contact_force(SnpSystem* o, PyObject* arg) {
    READY(o);
    int body = snpy_index(arg, o->model->m->nbody, o->model->m, SN_OBJ_BODY, "body");
    if (body < 0) return NULL;
    double f[3], t[3];
    sn_status st = sn_system_body_contact_force(o->s, body, f, t);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    return Py_BuildValue("((ddd)(ddd))", f[0], f[1], f[2], t[0], t[1], t[2]);
}

static PyObject* system_constraint(SnpSystem* o, PyObject* arg) {
    READY(o);
    int i = snpy_index(arg, o->model->m->nconstraint, NULL, -1, "constraint");
    if (i < 0) return NULL;
    double imp[3], sep[3];
    sn_status st = sn_system_constraint(o->s, i, imp, sep);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    return Py_BuildValue("((ddd)(ddd))", imp[0], imp[1], imp[2], sep[0], sep[1], sep[2]);
}

static PyObject* system_loop_error(SnpSystem* o, PyObject* noargs) {
    (void)noargs;
    READY(o);
    double rms, worst;
    sn_status st = sn_system_loop_error(o->s, &rms, &worst);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    return Py_BuildValue("(dd)", rms, worst);
}

static PyObject* system_assemble(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"max_iterations", "tolerance", NULL};
    int it = 100;
    double tol = 1e-12, res = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|id:assemble", kwlist, &it, &tol)) return NULL;
    READY(o);
    sn_status st = sn_system_assemble(o->s, it, tol, &res);
    if (st != SN_OK && st != SN_ERR_SINGULAR) return snpy_raise_world(o->world, st);
    return Py_BuildValue("(Od)", st == SN_OK ? Py_True : Py_False, res);
}

static PyObject* system_step_torques(SnpSystem* o, PyObject* noargs) {
    (void)noargs;
    READY(o);
    static const char* keys[] = {"pd",       "damping",  "actuators", "springs",
                                 "external", "friction", "contacts",  "loops"};
    PyObject* a[8] = {0};
    for (int k = 0; k < 8; k++)
        if (!(a[k] = new_array(1, NV(o), 0))) goto fail;
    sn_status st =
        sn_system_step_torques(o->s, DATA(a[0]), DATA(a[1]), DATA(a[2]), DATA(a[3]), DATA(a[4]));
    if (st == SN_OK)
        st = sn_system_step_constraint_torques(o->s, DATA(a[5]), DATA(a[6]), DATA(a[7]));
    if (st != SN_OK) {
        snpy_raise_world(o->world, st);
        goto fail;
    }
    return snpy_dict_of(keys, a, 8);
fail:
    for (int k = 0; k < 8; k++)
        Py_XDECREF(a[k]);
    return NULL;
}

static PyObject* system_joint_wrench(SnpSystem* o, PyObject* arg) {
    READY(o);
    int j = snpy_index(arg, o->model->m->nujoint, o->model->m, SN_OBJ_URDF_JOINT, "urdf_joint");
    if (j < 0) return NULL;
    double f[3], t[3];
    sn_status st = sn_system_joint_wrench(o->s, j, f, t);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    return Py_BuildValue("((ddd)(ddd))", f[0], f[1], f[2], t[0], t[1], t[2]);
}

#define INT_GETTER(name, expr)                                                                     \
    static PyObject* get_##name(SnpSystem* o, void* c) {                                           \
        (void)c;                                                                                   \
        return PyLong_FromLong(expr);                                                              \
    }
INT_GETTER(nq, NQ(o))
INT_GETTER(nv, NV(o))
INT_GETTER(index, o->index)
INT_GETTER(contact_count, sn_system_contact_count(o->s))
INT_GETTER(solver_iterations, sn_system_solver_iterations(o->s))
INT_GETTER(actuator_count, sn_system_actuator_count(o->s))
static PyObject* get_has_contacted(SnpSystem* o, void* c) {
    (void)c;
    return PyBool_FromLong(sn_system_has_contacted(o->s));
}
static PyObject* get_model(SnpSystem* o, void* c) {
    (void)c;
    return Py_NewRef(o->model);
}
static PyObject* get_world(SnpSystem* o, void* c) {
    (void)c;
    return Py_NewRef(o->world);
}

static PyObject* system_repr(SnpSystem* o) {
    return PyUnicode_FromFormat("<sinew.System %d of a world: nq %d, nv %d>", o->index, NQ(o),
                                NV(o));
}

#define M_O(name, doc)                                                                             \
    { #name, (PyCFunction)system_##name, METH_O, doc }
#define M_V(name, doc)                                                                             \
    { #name, (PyCFunction)system_##name, METH_VARARGS, doc }
#define M_K(name, doc)                                                                             \
    { #name, (PyCFunction)(void (*)(void))system_##name, METH_VARARGS | METH_KEYWORDS, doc }
#define M_N(name, doc)                                                                             \
    { #name, (PyCFunction)system_##name, METH_NOARGS, doc }
static PyMethodDef system_methods[] = {
    M_K(set_state, "set_state(q, u=None): the state (sizes and finiteness checked, quaternions\n"
                   "normalized with a warning; u None keeps the velocity)"),
    M_K(forward_dynamics, "forward_dynamics(tau=None) -> u-dot = M^-1 (tau - h) by ABA at the\n"
                          "current state (a new array)"),
    M_O(inverse_dynamics, "inverse_dynamics(udot) -> tau = M udot + h by RNEA (a new array)"),
    M_N(com, "com() -> (mass, centre of mass)"),
    M_N(momentum, "momentum() -> (linear, angular about the world origin)"),
    M_O(frame_pose, "frame_pose(frame) -> (position (3), rotation world <- link (3, 3));\n"
                    "frame: index or link name"),
    M_O(frame_velocity, "frame_velocity(frame) -> (linear, angular), world"),
    M_O(frame_jacobian, "frame_jacobian(frame) -> (jp, jr), 3 x nv each, world"),
    M_V(point_jacobian, "point_jacobian(body, point) -> (jp, jr) of the body's material point at\n"
                        "world point `point`"),
    M_K(set_pd_gains, "set_pd_gains(kp, kd): gains (nv each, >= 0); switches to PD control"),
    M_K(set_pd_target, "set_pd_target(q_ref, u_ref=None): targets (nq; nv, zero when None)"),
    M_O(set_generalized_force, "set_generalized_force(tau): feedforward force (nv), held"),
    M_N(generalized_force, "generalized_force() -> tau_cmd + tau_act at the current state"),
    M_V(set_actuation_limits, "set_actuation_limits(lower, upper): clamps of tau_cmd (nv each)"),
    M_O(set_joint_damping, "set_joint_damping(b): viscous damping (nv, >= 0)"),
    M_V(add_spring, "add_spring(joint, k, rest): a spring on a 1-DOF joint (index or name)"),
    M_K(set_external_force, "set_external_force(body, force, point=None, *, constraint=False):\n"
                            "a world force at a point of the body frame, for the next step only"),
    M_V(set_external_torque, "set_external_torque(body, torque): a world torque, next step only"),
    M_O(set_actuator_torques, "set_actuator_torques(tau): every actuator's command"),
    M_O(set_joint_limits, "set_joint_limits(enabled): joint limits as solver rows (on)"),
    M_O(set_self_collision, "set_self_collision(enabled): contacts between own bodies (off)"),
    M_O(set_compute_inverse_dynamics,
        "set_compute_inverse_dynamics(on): joint wrenches after each step"),
    M_V(set_collision_filter, "set_collision_filter(body, group, mask)"),
    M_V(set_body_material, "set_body_material(body, material): material id 0-15"),
    M_K(contacts, "contacts(*, loops=False) -> dict of arrays (body, geom, other_system,\n"
                  "other_body, self, position (n, 3), normal, depth, impulse (n, 3), sliding,\n"
                  "constraint) of the last step; loops=True adds the loop constraints' entries"),
    M_O(body_contact_force, "body_contact_force(body) -> (force, torque about its origin)"),
    M_O(constraint, "constraint(i) -> (impulse, separation) of loop constraint i"),
    M_N(loop_error, "loop_error() -> (rms, worst) closure error at the current state"),
    M_K(assemble, "assemble(max_iterations=100, tolerance=1e-12) -> (closed, residual)"),
    M_N(step_torques, "step_torques() -> dict: the last step's joint torques, term by term"),
    M_O(joint_wrench, "joint_wrench(urdf_joint) -> (force, torque) of the last step (inverse\n"
                      "dynamics on)"),
    {NULL, NULL, 0, NULL},
};

#define GS(name, doc)                                                                              \
    { #name, (getter)get_##name, (setter)set_##name, doc, NULL }
#define G(name, doc)                                                                               \
    { #name, (getter)get_##name, NULL, doc, NULL }
static PyGetSetDef system_getset[] = {
    GS(q, "generalized coordinates (nq): a read-only view of the system's own memory;\n"
          "assigning validates (set_q)"),
    GS(u, "generalized velocities (nv): a read-only view; assigning validates (set_u)"),
    G(mass_matrix, "M (nv x nv) with rotor inertia at the current state, a read-only view\n"
                   "(computed when read after a state change)"),
    G(nonlinear, "h (nv) = gravity + Coriolis + centrifugal, a read-only view"),
    G(inverse_mass, "M^-1 (nv x nv), a read-only view"),
    G(kinetic_energy, "kinetic energy (J)"),
    G(potential_energy, "gravity's potential energy (J)"),
    G(spring_energy, "the joint springs' potential energy (J)"),
    GS(control_mode, "'force' (feedforward only) or 'pd'"),
    GS(scheme, "'semi_implicit' (default), 'trapezoid', 'euler' or 'rk4'"),
    G(scheme_used, "the scheme the last step used (seed 000's replacement rules)"),
    G(has_contacted, "seed 000's 'has been in contact' flag"),
    G(contact_count, "contacts of the last step"),
    G(solver_iterations, "the contact solver's sweeps in the last step"),
    G(actuator_count, "actuators"),
    G(nq, "generalized coordinates"),
    G(nv, "degrees of freedom"),
    G(index, "its index in the world"),
    G(model, "the Model it simulates"),
    G(world, "the World it belongs to"),
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SnpSystem_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.System",
    .tp_basicsize = sizeof(SnpSystem),
    .tp_dealloc = (destructor)system_dealloc,
    .tp_repr = (reprfunc)system_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "An articulated system of a world (sn_system), made by World.add. It keeps its\n"
              "world alive; its arrays are views that keep it alive.",
    .tp_methods = system_methods,
    .tp_getset = system_getset,
    .tp_new = system_new,
};

int snpy_system_init_types(PyObject* mod) {
    if (PyType_Ready(&SnpSystem_Type) < 0 || snpy_sensors_add_to(&SnpSystem_Type) < 0 ||
        snpy_loopid_add_to(&SnpSystem_Type) < 0)
        return -1;
    return PyModule_AddObjectRef(mod, "System", (PyObject*)&SnpSystem_Type);
}
