// SPDX-License-Identifier: Apache-2.0
// soft.c: the soft contacts and Expo (sn_soft.h, seed 004) from Python: World's contact model,
// soft parameters and material pairs; System's soft integrator, Expo's options, contact events,
// slipping contacts and soft points. Added to the World and System types when the module starts
// (docs/python.md "Soft contacts and Expo"). Point states are copies (the table grows when a
// point is added).
#include "snpy.h"

#include <string.h>

static PyObject* check(SnpWorld* w, sn_status st) {
    if (st != SN_OK) return snpy_raise_world(w, st);
    Py_RETURN_NONE;
}

// ---- names ----

static const char* const integrator_names[] = {"expo", "euler", "rk4", "implicit_euler"};
static const char* const model_names[] = {"hard", "soft"};

// the index of `obj` (a str) in names[0..n-1]; -1 with ValueError listing them
static int name_index(PyObject* obj, const char* const* names, int n, const char* what) {
    const char* s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (!s && PyErr_Occurred()) return -1;
    for (int i = 0; s && i < n; i++)
        if (!strcmp(s, names[i])) return i;
    char list[128] = "";
    for (int i = 0; i < n; i++) {
        strcat(list, i ? (i + 1 < n ? ", '" : " or '") : "'");
        strcat(list, names[i]);
        strcat(list, "'");
    }
    if (s)
        PyErr_Format(PyExc_ValueError, "%s: %s, not '%s'", what, list, s);
    else
        PyErr_Format(PyExc_TypeError, "%s: %s (a str)", what, list);
    return -1;
}

// ---- parameters ----

static PyObject* params_dict(const sn_soft_params* p) {
    return Py_BuildValue("{s:d,s:d,s:d,s:d,s:d,s:O}", "k_normal", p->k_normal, "k_tangent",
                         p->k_tangent, "b_normal", p->b_normal, "b_tangent", p->b_tangent, "mu",
                         p->mu, "bilateral", p->bilateral ? Py_True : Py_False);
}

// keyword arguments over *p (the values not given stay): k_normal, k_tangent, b_normal,
// b_tangent, mu, bilateral
static int parse_params(PyObject* args, PyObject* kw, const char* fmt, char** kwlist, int* a,
                        int* b, sn_soft_params* p) {
    int bil = p->bilateral;
    int ok =
        a ? PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, a, b, &p->k_normal, &p->k_tangent,
                                        &p->b_normal, &p->b_tangent, &p->mu, &bil)
          : PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &p->k_normal, &p->k_tangent,
                                        &p->b_normal, &p->b_tangent, &p->mu, &bil);
    p->bilateral = bil;
    return ok ? 0 : -1;
}

static PyObject* world_set_soft_params(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"k_normal", "k_tangent", "b_normal", "b_tangent",
                             "mu",       "bilateral", NULL};
    SNPY_READY(o, NULL);
    sn_soft_params p = sn_world_soft_params(o->w);
    if (parse_params(args, kw, "|$dddddp:set_soft_params", kwlist, NULL, NULL, &p) < 0) return NULL;
    return check(o, sn_world_set_soft_params(o->w, &p));
}

static PyObject* world_get_soft_params(SnpWorld* o, void* c) {
    (void)c;
    sn_soft_params p = sn_world_soft_params(o->w);
    return params_dict(&p);
}

static PyObject* world_set_soft_pair(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"a",         "b",  "k_normal",  "k_tangent", "b_normal",
                             "b_tangent", "mu", "bilateral", NULL};
    SNPY_READY(o, NULL);
    sn_soft_params p = sn_world_soft_params(o->w);
    int a, b;
    if (parse_params(args, kw, "ii|$dddddp:set_soft_pair", kwlist, &a, &b, &p) < 0) return NULL;
    return check(o, sn_world_set_soft_pair(o->w, a, b, &p));
}

static PyObject* world_clear_soft_pair(SnpWorld* o, PyObject* args) {
    int a, b;
    if (!PyArg_ParseTuple(args, "ii:clear_soft_pair", &a, &b)) return NULL;
    SNPY_READY(o, NULL);
    return check(o, sn_world_set_soft_pair(o->w, a, b, NULL));
}

static PyObject* world_soft_pair(SnpWorld* o, PyObject* args) {
    int a, b, set = 0;
    if (!PyArg_ParseTuple(args, "ii:soft_pair", &a, &b)) return NULL;
    sn_soft_params p;
    sn_status st = sn_world_soft_pair(o->w, a, b, &p, &set);
    if (st != SN_OK) return snpy_raise_world(o, st);
    PyObject* d = params_dict(&p);
    if (!d) return NULL;
    return Py_BuildValue("(NO)", d, set ? Py_True : Py_False);
}

static PyObject* world_get_contact_model(SnpWorld* o, void* c) {
    (void)c;
    return PyUnicode_FromString(model_names[sn_world_contact_model(o->w) == SN_CONTACT_SOFT]);
}

static int world_set_contact_model(SnpWorld* o, PyObject* v, void* c) {
    (void)c;
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "contact_model cannot be deleted");
        return -1;
    }
    if (snpy_world_busy(o)) return -1;
    int i = name_index(v, model_names, 2, "contact_model");
    if (i < 0) return -1;
    sn_status st = sn_world_set_contact_model(o->w, i ? SN_CONTACT_SOFT : SN_CONTACT_HARD);
    if (st != SN_OK) {
        snpy_raise_world(o, st);
        return -1;
    }
    return 0;
}

static PyMethodDef world_soft_methods[] = {
    {"set_soft_params", (PyCFunction)(void (*)(void))world_set_soft_params,
     METH_VARARGS | METH_KEYWORDS,
     "set_soft_params(*, k_normal, k_tangent, b_normal, b_tangent, mu, bilateral)\n"
     "(sn_world_set_soft_params): the soft contacts' spring-dampers (N/m, N s/m), friction and\n"
     "whether they pull; what is not given keeps its value (defaults 1e5, 1e5, 300, 300, 1,\n"
     "False). k > 0, b >= 0, mu >= 0, finite."},
    {"set_soft_pair", (PyCFunction)(void (*)(void))world_set_soft_pair,
     METH_VARARGS | METH_KEYWORDS,
     "set_soft_pair(a, b, *, k_normal, ...) (sn_world_set_soft_pair): the parameters of a soft\n"
     "contact between material ids a and b (0-15; the ground is 0), the order irrelevant; what\n"
     "is not given is the world's (soft_params)."},
    {"clear_soft_pair", (PyCFunction)world_clear_soft_pair, METH_VARARGS,
     "clear_soft_pair(a, b): the pair takes the world's parameters again"},
    {"soft_pair", (PyCFunction)world_soft_pair, METH_VARARGS,
     "soft_pair(a, b) -> (params dict, is_set): what a contact of that pair takes"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef world_soft_getset[] = {
    {"contact_model", (getter)world_get_contact_model, (setter)world_set_contact_model,
     "'hard' (seed 000's per-contact solver, the default) or 'soft' (spring-damper contacts with\n"
     "anchors, seed 004; sn_world_set_contact_model). Switching releases every soft contact.",
     NULL},
    {"soft_params", (getter)world_get_soft_params, NULL,
     "the soft contacts' parameters (a dict; set them with set_soft_params)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

// ---- systems ----

#define SYS_READY(o) SNPY_READY((o)->world, NULL)

static PyObject* sys_check(SnpSystem* o, sn_status st) {
    return check(o->world, st);
}

static PyObject* system_set_soft_integrator(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"integrator", "substeps", NULL};
    PyObject* name;
    int substeps = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|i:set_soft_integrator", kwlist, &name, &substeps))
        return NULL;
    SYS_READY(o);
    int i = name_index(name, integrator_names, 4, "integrator");
    if (i < 0) return NULL;
    return sys_check(o, sn_system_set_soft_integrator(o->s, (sn_soft_integrator)i, substeps));
}

static PyObject* system_get_soft_integrator(SnpSystem* o, void* c) {
    (void)c;
    int i = (int)sn_system_soft_integrator(o->s);
    return PyUnicode_FromString(i >= 0 && i < 4 ? integrator_names[i] : "?");
}

static PyObject* system_get_soft_substeps(SnpSystem* o, void* c) {
    (void)c;
    return PyLong_FromLong(sn_system_soft_substeps(o->s));
}

static PyObject* system_set_expo_options(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"max_mul", "balance", "full", NULL};
    int max_mul = -1, balance = 1, full = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$ipp:set_expo_options", kwlist, &max_mul, &balance,
                                     &full))
        return NULL;
    SYS_READY(o);
    return sys_check(o, sn_system_set_expo_options(o->s, max_mul, balance, full));
}

// the on/off switches: expo_modal, soft_events, expo_slip
typedef sn_status (*set_flag_fn)(sn_system*, int);
typedef int (*get_flag_fn)(const sn_system*);
typedef struct flag_fns {
    set_flag_fn set;
    get_flag_fn get;
} flag_fns;
static const flag_fns flags[] = {
    {sn_system_set_expo_modal, sn_system_expo_modal},
    {sn_system_set_soft_events, sn_system_soft_events},
    {sn_system_set_expo_slip, sn_system_expo_slip},
};

static PyObject* system_get_flag(SnpSystem* o, void* c) {
    return PyBool_FromLong(flags[(intptr_t)c].get(o->s));
}

static int system_set_flag(SnpSystem* o, PyObject* v, void* c) {
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "cannot be deleted");
        return -1;
    }
    if (!PyBool_Check(v) && !PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a bool");
        return -1;
    }
    long on = PyLong_AsLong(v);
    if (on == -1 && PyErr_Occurred()) return -1;
    if (snpy_world_busy(o->world)) return -1;
    sn_status st = flags[(intptr_t)c].set(o->s, on == 0 || on == 1 ? (int)on : 2);
    if (st != SN_OK) {
        snpy_raise_world(o->world, st);
        return -1;
    }
    return 0;
}

static PyObject* system_get_soft_event_count(SnpSystem* o, void* c) {
    (void)c;
    return PyLong_FromLong(sn_system_soft_event_count(o->s));
}

static PyObject* system_get_soft_point_count(SnpSystem* o, void* c) {
    (void)c;
    return PyLong_FromLong(sn_system_soft_point_count(o->s));
}

static PyObject* system_get_soft_contact_count(SnpSystem* o, void* c) {
    (void)c;
    return PyLong_FromLong(sn_system_soft_contact_count(o->s));
}

static PyObject* add_point(SnpSystem* o, PyObject* args, PyObject* kw, int frame) {
    static char* kwlist[] = {"link", "offset", NULL};
    PyObject *where, *off = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw,
                                     frame ? "O|O:add_soft_point_frame" : "O|O:add_soft_point",
                                     kwlist, &where, &off))
        return NULL;
    SYS_READY(o);
    const sn_model* m = o->model->m;
    int i = frame ? snpy_index(where, m->nframe, m, SN_OBJ_FRAME, "frame")
                  : snpy_index(where, m->nbody, m, SN_OBJ_BODY, "body");
    if (i < 0) return NULL;
    double p[3] = {0, 0, 0};
    if (off != Py_None && snpy_vec3(off, "offset", p) < 0) return NULL;
    int id = SN_NONE;
    sn_status st = frame ? sn_system_add_soft_point_frame(o->s, i, p, &id)
                         : sn_system_add_soft_point(o->s, i, p, &id);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    return PyLong_FromLong(id);
}

static PyObject* system_add_soft_point(SnpSystem* o, PyObject* args, PyObject* kw) {
    return add_point(o, args, kw, 0);
}

static PyObject* system_add_soft_point_frame(SnpSystem* o, PyObject* args, PyObject* kw) {
    return add_point(o, args, kw, 1);
}

static PyObject* system_add_soft_geometry_points(SnpSystem* o, PyObject* unused) {
    (void)unused;
    SYS_READY(o);
    int added = 0;
    sn_status st = sn_system_add_soft_geometry_points(o->s, &added);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    return PyLong_FromLong(added);
}

static PyObject* system_soft_release(SnpSystem* o, PyObject* unused) {
    (void)unused;
    SYS_READY(o);
    sn_system_soft_release(o->s);
    Py_RETURN_NONE;
}

// every point's state as arrays: body (n), offset (n, 3), active, slipping (n, bool),
// position, velocity, anchor (n, 3), penetration (n), force (n, 3)
static PyObject* system_soft_points(SnpSystem* o, PyObject* unused) {
    (void)unused;
    SYS_READY(o);
    enum { NK = 9 };
    static const char* const keys[NK] = {"body",     "offset",      "active",
                                         "slipping", "position",    "velocity",
                                         "anchor",   "penetration", "force"};
    npy_intp n = sn_system_soft_point_count(o->s);
    npy_intp d3[2] = {n, 3};
    PyObject* v[NK];
    v[0] = PyArray_ZEROS(1, &n, NPY_INT32, 0);
    v[2] = PyArray_ZEROS(1, &n, NPY_BOOL, 0);
    v[3] = PyArray_ZEROS(1, &n, NPY_BOOL, 0);
    v[7] = PyArray_ZEROS(1, &n, NPY_DOUBLE, 0);
    int vec[5] = {1, 4, 5, 6, 8};
    for (int k = 0; k < 5; k++)
        v[vec[k]] = PyArray_ZEROS(2, d3, NPY_DOUBLE, 0);
    int ok = 1;
    for (int k = 0; k < NK; k++)
        ok = ok && v[k];
    for (npy_intp i = 0; ok && i < n; i++) {
        sn_soft_point sp;
        sn_status st = sn_system_soft_point(o->s, (int)i, &sp);
        if (st != SN_OK) {
            snpy_raise_world(o->world, st);
            ok = 0;
            break;
        }
#define AT(k) ((char*)PyArray_DATA((PyArrayObject*)v[k]))
        ((int*)AT(0))[i] = sp.body;
        ((npy_bool*)AT(2))[i] = (npy_bool)(sp.active != 0);
        ((npy_bool*)AT(3))[i] = (npy_bool)(sp.slipping != 0);
        ((double*)AT(7))[i] = sp.penetration;
        const double* src[5] = {sp.offset, sp.position, sp.velocity, sp.anchor, sp.force};
        for (int k = 0; k < 5; k++)
            memcpy((double*)AT(vec[k]) + 3 * i, src[k], 3 * sizeof(double));
#undef AT
    }
    if (!ok) {
        for (int k = 0; k < NK; k++)
            Py_XDECREF(v[k]);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    return snpy_dict_of(keys, v, NK);
}

static PyMethodDef system_soft_methods[] = {
    {"set_soft_integrator", (PyCFunction)(void (*)(void))system_set_soft_integrator,
     METH_VARARGS | METH_KEYWORDS,
     "set_soft_integrator(integrator, substeps=1) (sn_system_set_soft_integrator): 'expo' (the\n"
     "default), 'euler', 'rk4' or 'implicit_euler', with 1 .. 2**20 sub-steps per world step;\n"
     "used while the world's contact_model is 'soft'."},
    {"set_expo_options", (PyCFunction)(void (*)(void))system_set_expo_options,
     METH_VARARGS | METH_KEYWORDS,
     "set_expo_options(*, max_mul=-1, balance=True, full=False) (sn_system_set_expo_options):\n"
     "Expo's matrix exponential: max_mul -1 scaling and squaring, 0..4 at most that many matrix\n"
     "products; full=True the exponential to rounding (for references)."},
    {"add_soft_point", (PyCFunction)(void (*)(void))system_add_soft_point,
     METH_VARARGS | METH_KEYWORDS,
     "add_soft_point(body, offset=(0, 0, 0)) -> id (sn_system_add_soft_point): a soft contact\n"
     "point fixed to a body (index or name) at offset in the body frame"},
    {"add_soft_point_frame", (PyCFunction)(void (*)(void))system_add_soft_point_frame,
     METH_VARARGS | METH_KEYWORDS,
     "add_soft_point_frame(link, offset=(0, 0, 0)) -> id (sn_system_add_soft_point_frame): a\n"
     "point at offset in a URDF link's frame (a foot)"},
    {"add_soft_geometry_points", (PyCFunction)system_add_soft_geometry_points, METH_NOARGS,
     "add_soft_geometry_points() -> the number added (sn_system_add_soft_geometry_points): a\n"
     "box's 8 corners, 8 points on each cylinder rim, a mesh's vertices, one rolling point per\n"
     "sphere; sinew.Error (SN_ERR_LIMIT) and none added beyond 256 points"},
    {"soft_points", (PyCFunction)system_soft_points, METH_NOARGS,
     "soft_points() -> dict of arrays (copies): body, offset (n, 3), active, slipping,\n"
     "position, velocity, anchor (n, 3), penetration (n), force (n, 3, world, on the body)"},
    {"soft_release", (PyCFunction)system_soft_release, METH_NOARGS,
     "soft_release() (sn_system_soft_release): end every soft contact; the next step finds them\n"
     "afresh. Setting a state does this too."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef system_soft_getset[] = {
    {"soft_integrator", (getter)system_get_soft_integrator, NULL,
     "the soft integrator's name (set_soft_integrator sets it)", NULL},
    {"soft_substeps", (getter)system_get_soft_substeps, NULL, "sub-steps per world step", NULL},
    {"expo_modal", (getter)system_get_flag, (setter)system_set_flag,
     "Expo's modal path (True, the default): closed-form modes when every row has the same b/k",
     (void*)0},
    {"soft_events", (getter)system_get_flag, (setter)system_set_flag,
     "contact events inside the sub-step (False, the default: the paper's method)", (void*)1},
    {"expo_slip", (getter)system_get_flag, (setter)system_set_flag,
     "Expo's slipping contacts with Coulomb's law (True, the default)", (void*)2},
    {"soft_event_count", (getter)system_get_soft_event_count, NULL,
     "splits at a predicted touch-down since the system was made (a report)", NULL},
    {"soft_point_count", (getter)system_get_soft_point_count, NULL, "soft contact points", NULL},
    {"soft_contact_count", (getter)system_get_soft_contact_count, NULL,
     "soft contact points now active", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

int snpy_soft_add_to(PyTypeObject* world, PyTypeObject* system) {
    if (snpy_add_members(world, world_soft_methods, world_soft_getset) < 0) return -1;
    return snpy_add_members(system, system_soft_methods, system_soft_getset);
}
