// SPDX-License-Identifier: Apache-2.0
// world.c: sinew.World (sn_world): its settings, its systems, the step (the GIL released) and
// checkpoints as bytes. docs/python.md "World".
#include "snpy.h"

#include <string.h>

static PyObject* world_new(PyTypeObject* t, PyObject* args, PyObject* kw) {
    (void)args;
    (void)kw;
    SnpWorld* o = (SnpWorld*)t->tp_alloc(t, 0);
    if (!o) return NULL;
    o->models = PyList_New(0);
    if (!o->models) {
        Py_DECREF(o);
        return NULL;
    }
    sn_world_opts opts = {0};
    sn_error e = {0};
    if (sn_world_create(&opts, &o->w, &e) != SN_OK) {
        Py_DECREF(o);
        return snpy_raise_error(&e);
    }
    return (PyObject*)o;
}

static int world_init(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"timestep", NULL};
    PyObject* dt = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:World", kwlist, &dt)) return -1;
    if (dt == Py_None) return 0;
    double v = PyFloat_AsDouble(dt);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    sn_status st = sn_world_set_timestep(o->w, v);
    if (st != SN_OK) {
        snpy_raise_world(o, st);
        return -1;
    }
    return 0;
}

static void world_dealloc(SnpWorld* o) {
    if (o->weakrefs) PyObject_ClearWeakRefs((PyObject*)o);
    sn_world_destroy(o->w); // before the models it simulates
    Py_XDECREF(o->models);
    Py_TYPE(o)->tp_free((PyObject*)o);
}

static PyObject* check(SnpWorld* o, sn_status st) {
    if (st != SN_OK) return snpy_raise_world(o, st);
    Py_RETURN_NONE;
}

// ---- systems ----

static int parse_ground(const char* s, sn_ground_rule* out) {
    if (!s || !strcmp(s, "file"))
        *out = SN_GROUND_FROM_FILE;
    else if (!strcmp(s, "on"))
        *out = SN_GROUND_ON;
    else if (!strcmp(s, "off"))
        *out = SN_GROUND_OFF;
    else {
        PyErr_Format(PyExc_ValueError, "ground: 'file', 'on' or 'off', not '%s'", s);
        return -1;
    }
    return 0;
}

static PyObject* world_add(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {
        "model",       "setup",          "key",      "q0",     "u0", "ground", "friction",
        "restitution", "self_collision", "assemble", "servos", NULL};
    PyObject* model;
    int setup = 1, self_collision = 0, assemble = 1, servos = 1;
    const char* key = NULL;
    const char* ground = NULL;
    PyObject *q0 = Py_None, *u0 = Py_None, *friction = Py_None;
    double restitution = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|$pzOOzOdppp:add", kwlist, &SnpModel_Type, &model,
                                     &setup, &key, &q0, &u0, &ground, &friction, &restitution,
                                     &self_collision, &assemble, &servos))
        return NULL;
    SNPY_READY(o, NULL);
    SnpModel* m = (SnpModel*)model;
    sn_setup_opts so = {0};
    so.key = key;
    so.restitution = restitution;
    so.self_collision = self_collision;
    so.no_assemble = !assemble;
    so.no_servos = !servos;
    if (parse_ground(ground, &so.ground) < 0) return NULL;
    PyObject *kq = NULL, *ku = NULL;
    if (q0 != Py_None && !(so.q0 = snpy_doubles(q0, m->m->nq, "q0", &kq, NULL))) return NULL;
    if (u0 != Py_None && !(so.u0 = snpy_doubles(u0, m->m->nv, "u0", &ku, NULL))) {
        Py_XDECREF(kq);
        return NULL;
    }
    if (friction != Py_None) {
        so.friction_set = 1;
        so.friction = PyFloat_AsDouble(friction);
        if (so.friction == -1.0 && PyErr_Occurred()) goto fail;
    }
    sn_system* s = NULL;
    sn_error e = {0};
    sn_status st = sn_world_add_system(o->w, m->m, &s, &e);
    if (st != SN_OK) {
        snpy_raise_error(&e);
        goto fail;
    }
    if (PyList_Append(o->models, model) < 0) goto fail; // the world destroys s with itself
    if (setup) {
        st = sn_system_apply_file(s, &so, NULL);
        if (st != SN_OK) {
            snpy_raise_world(o, st);
            goto fail;
        }
    } else if (so.q0 || so.u0) {
        const sn_real* q = so.q0 ? so.q0 : sn_system_q(s);
        const sn_real* u = so.u0 ? so.u0 : sn_system_u(s);
        st = sn_system_set_state(s, q, m->m->nq, u, m->m->nv);
        if (st != SN_OK) {
            snpy_raise_world(o, st);
            goto fail;
        }
    }
    Py_XDECREF(kq);
    Py_XDECREF(ku);
    return snpy_system_new(o, sn_world_system_count(o->w) - 1);
fail:
    Py_XDECREF(kq);
    Py_XDECREF(ku);
    return NULL;
}

static PyObject* world_systems(SnpWorld* o, void* c) {
    (void)c;
    int n = sn_world_system_count(o->w);
    PyObject* l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject* s = snpy_system_new(o, i);
        if (!s) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, s);
    }
    return l;
}

static PyObject* world_system(SnpWorld* o, PyObject* arg) {
    int i = snpy_index(arg, sn_world_system_count(o->w), NULL, -1, "system");
    if (i < 0) return NULL;
    return snpy_system_new(o, i);
}

// free bodies the world makes and owns
static PyObject* add_body(SnpWorld* o, sn_status st, sn_system* s) {
    if (st != SN_OK) return snpy_raise_world(o, st);
    (void)s;
    return snpy_system_new(o, sn_world_system_count(o->w) - 1);
}

static PyObject* world_add_sphere(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"radius", "mass", NULL};
    double r, mass;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "dd:add_sphere", kwlist, &r, &mass)) return NULL;
    SNPY_READY(o, NULL);
    sn_system* s = NULL;
    sn_status st = sn_world_add_sphere(o->w, r, mass, &s);
    return add_body(o, st, s);
}

static PyObject* world_add_box(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"size", "mass", NULL};
    PyObject* size;
    double mass, sz[3];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Od:add_box", kwlist, &size, &mass)) return NULL;
    SNPY_READY(o, NULL);
    if (snpy_vec3(size, "size", sz) < 0) return NULL;
    sn_system* s = NULL;
    sn_status st = sn_world_add_box(o->w, sz, mass, &s);
    return add_body(o, st, s);
}

static PyObject* world_add_cylinder(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"radius", "length", "mass", "capsule", NULL};
    double r, len, mass;
    int capsule = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ddd|$p:add_cylinder", kwlist, &r, &len, &mass,
                                     &capsule))
        return NULL;
    SNPY_READY(o, NULL);
    sn_system* s = NULL;
    sn_status st = capsule ? sn_world_add_capsule(o->w, r, len, mass, &s)
                           : sn_world_add_cylinder(o->w, r, len, mass, &s);
    return add_body(o, st, s);
}

static PyObject* world_add_mesh(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"path", "mass", "scale", NULL};
    PyObject* path;
    PyObject* scale = Py_None;
    double mass, sc[3];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&d|O:add_mesh", kwlist, PyUnicode_FSConverter,
                                     &path, &mass, &scale))
        return NULL;
    if (snpy_world_busy(o) || (scale != Py_None && snpy_vec3(scale, "scale", sc) < 0)) {
        Py_DECREF(path);
        return NULL;
    }
    sn_system* s = NULL;
    sn_status st =
        sn_world_add_mesh(o->w, PyBytes_AS_STRING(path), scale == Py_None ? NULL : sc, mass, &s);
    Py_DECREF(path);
    return add_body(o, st, s);
}

// ---- the step ----

// step(n=1): n steps with the GIL released; stops at the first failure (the state as it was
// before that step) and raises sinew.Error naming the step
static PyObject* world_step(SnpWorld* o, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
    long n = 1;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw > 1) {
        PyErr_SetString(PyExc_TypeError, "step(n=1) takes at most one argument");
        return NULL;
    }
    if (nkw && strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, 0)), "n")) {
        PyErr_Format(PyExc_TypeError, "step() got an unexpected keyword argument '%U'",
                     PyTuple_GET_ITEM(kwnames, 0));
        return NULL;
    }
    if (nargs + nkw == 1) {
        PyObject* a = args[0];
        if (PyBool_Check(a) || !PyLong_Check(a)) {
            PyErr_Format(PyExc_TypeError, "step: n is an int, not %s", Py_TYPE(a)->tp_name);
            return NULL;
        }
        n = PyLong_AsLong(a);
        if (n == -1 && PyErr_Occurred()) return NULL;
        if (n < 0) {
            PyErr_SetString(PyExc_ValueError, "step: n must be >= 0");
            return NULL;
        }
    }
    SNPY_READY(o, NULL);
    sn_status st = SN_OK;
    long done = 0;
    o->busy = 1;
    PyThreadState* ts = PyEval_SaveThread();
    for (; done < n; done++) {
        st = sn_world_integrate(o->w);
        if (st != SN_OK) break;
    }
    PyEval_RestoreThread(ts);
    o->busy = 0;
    if (st != SN_OK) {
        char msg[900];
        snprintf(msg, sizeof msg, "step %ld of %ld failed (the state is the one before it): %s",
                 done + 1, n, sn_world_last_error(o->w));
        return snpy_raise_status(st, msg);
    }
    Py_RETURN_NONE;
}

static PyObject* world_integrate1(SnpWorld* o, PyObject* noargs) {
    (void)noargs;
    SNPY_READY(o, NULL);
    return check(o, sn_world_integrate1(o->w));
}

static PyObject* world_integrate2(SnpWorld* o, PyObject* noargs) {
    (void)noargs;
    SNPY_READY(o, NULL);
    return check(o, sn_world_integrate2(o->w));
}

// ---- settings ----

static PyObject* get_timestep(SnpWorld* o, void* c) {
    (void)c;
    return PyFloat_FromDouble(sn_world_timestep(o->w));
}
static int set_timestep(SnpWorld* o, PyObject* v, void* c) {
    (void)c;
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "timestep cannot be deleted");
        return -1;
    }
    if (snpy_world_busy(o)) return -1;
    double dt = PyFloat_AsDouble(v);
    if (dt == -1.0 && PyErr_Occurred()) return -1;
    sn_status st = sn_world_set_timestep(o->w, dt);
    if (st != SN_OK) {
        snpy_raise_world(o, st);
        return -1;
    }
    return 0;
}
static PyObject* get_gravity(SnpWorld* o, void* c) {
    (void)c;
    double g[3];
    sn_world_gravity(o->w, g);
    return snpy_tuple3(g);
}
static int set_gravity(SnpWorld* o, PyObject* v, void* c) {
    (void)c;
    double g[3];
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "gravity cannot be deleted");
        return -1;
    }
    if (snpy_world_busy(o) || snpy_vec3(v, "gravity", g) < 0) return -1;
    sn_status st = sn_world_set_gravity(o->w, g);
    if (st != SN_OK) {
        snpy_raise_world(o, st);
        return -1;
    }
    return 0;
}
static PyObject* get_time(SnpWorld* o, void* c) {
    (void)c;
    return PyFloat_FromDouble(sn_world_time(o->w));
}
static PyObject* get_nsystems(SnpWorld* o, void* c) {
    (void)c;
    return PyLong_FromLong(sn_world_system_count(o->w));
}
static PyObject* get_warning_count(SnpWorld* o, void* c) {
    (void)c;
    return PyLong_FromLong(sn_world_warning_count(o->w));
}
static PyObject* get_last_warning(SnpWorld* o, void* c) {
    (void)c;
    return PyUnicode_FromString(sn_world_last_warning(o->w));
}
static PyObject* get_last_error(SnpWorld* o, void* c) {
    (void)c;
    return PyUnicode_FromString(sn_world_last_error(o->w));
}

static PyObject* world_set_ground(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"enabled", "height", NULL};
    int on = 1;
    double h = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|pd:set_ground", kwlist, &on, &h)) return NULL;
    SNPY_READY(o, NULL);
    return check(o, sn_world_set_ground(o->w, on, h));
}

static PyObject* world_set_heightfield(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"z", "x0", "y0", "dx", "dy", NULL};
    PyObject* z;
    double x0, y0, dx, dy;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Odddd:set_heightfield", kwlist, &z, &x0, &y0, &dx,
                                     &dy))
        return NULL;
    SNPY_READY(o, NULL);
    if (z == Py_None) return check(o, sn_world_set_heightfield(o->w, 0, 0, x0, y0, dx, dy, NULL));
    PyArray_Descr* d = PyArray_DescrFromType(NPY_DOUBLE);
    PyObject* a = PyArray_FromAny(z, d, 2, 2, NPY_ARRAY_IN_ARRAY, NULL);
    if (!a) return NULL;
    npy_intp* dims = PyArray_DIMS((PyArrayObject*)a);
    if (dims[0] > 1 << 20 || dims[1] > 1 << 20) {
        Py_DECREF(a);
        PyErr_SetString(PyExc_ValueError, "z: at most 2^20 rows and columns");
        return NULL;
    }
    // z[j, i] is the height at (x0 + i dx, y0 + j dy): ny rows of nx
    sn_status st = sn_world_set_heightfield(o->w, (int)dims[1], (int)dims[0], x0, y0, dx, dy,
                                            (const double*)PyArray_DATA((PyArrayObject*)a));
    Py_DECREF(a);
    return check(o, st);
}

static PyObject* world_terrain_height(SnpWorld* o, PyObject* args) {
    double x, y, n[3];
    if (!PyArg_ParseTuple(args, "dd:terrain_height", &x, &y)) return NULL;
    double h = sn_world_terrain_height(o->w, x, y, n);
    return Py_BuildValue("(d(ddd))", h, n[0], n[1], n[2]);
}

static PyObject* world_set_material(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"friction", "restitution", "threshold", NULL};
    double mu, e = 0, thr = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "d|dd:set_material", kwlist, &mu, &e, &thr))
        return NULL;
    SNPY_READY(o, NULL);
    return check(o, sn_world_set_material(o->w, mu, e, thr));
}

static PyObject* world_set_material_pair(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"a", "b", "friction", "restitution", "threshold", NULL};
    int a, b;
    double mu, e = 0, thr = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iid|dd:set_material_pair", kwlist, &a, &b, &mu, &e,
                                     &thr))
        return NULL;
    SNPY_READY(o, NULL);
    return check(o, sn_world_set_material_pair(o->w, a, b, mu, e, thr));
}

static PyObject* world_set_erp(SnpWorld* o, PyObject* arg) {
    double v = PyFloat_AsDouble(arg);
    if (v == -1.0 && PyErr_Occurred()) return NULL;
    SNPY_READY(o, NULL);
    return check(o, sn_world_set_erp(o->w, v));
}

static PyObject* world_set_loop_erp(SnpWorld* o, PyObject* arg) {
    double v = PyFloat_AsDouble(arg);
    if (v == -1.0 && PyErr_Occurred()) return NULL;
    SNPY_READY(o, NULL);
    return check(o, sn_world_set_loop_erp(o->w, v));
}

static PyObject* world_set_solver(SnpWorld* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"max_iterations", "tolerance", NULL};
    int it;
    double tol;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "id:set_solver", kwlist, &it, &tol)) return NULL;
    SNPY_READY(o, NULL);
    return check(o, sn_world_set_solver(o->w, it, tol));
}

static PyObject* world_set_warm_start(SnpWorld* o, PyObject* arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    SNPY_READY(o, NULL);
    sn_world_set_warm_start(o->w, on);
    Py_RETURN_NONE;
}

// ---- checkpoints ----

static PyObject* world_save(SnpWorld* o, PyObject* noargs) {
    (void)noargs;
    SNPY_READY(o, NULL);
    size_t n = 0;
    sn_status st = sn_world_checkpoint_size(o->w, &n);
    if (st != SN_OK) return snpy_raise_world(o, st);
    PyObject* b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (!b) return NULL;
    size_t wrote = 0;
    st = sn_world_save_state(o->w, PyBytes_AS_STRING(b), n, &wrote);
    if (st != SN_OK) {
        Py_DECREF(b);
        return snpy_raise_world(o, st);
    }
    if (wrote != n && _PyBytes_Resize(&b, (Py_ssize_t)wrote) < 0) return NULL;
    return b;
}

static PyObject* world_restore(SnpWorld* o, PyObject* arg) {
    Py_buffer v;
    if (PyObject_GetBuffer(arg, &v, PyBUF_SIMPLE) < 0) return NULL;
    if (snpy_world_busy(o)) {
        PyBuffer_Release(&v);
        return NULL;
    }
    sn_status st = sn_world_load_state(o->w, v.buf, (size_t)v.len);
    PyBuffer_Release(&v);
    return check(o, st);
}

static PyObject* world_save_file(SnpWorld* o, PyObject* arg) {
    PyObject* p;
    if (!PyUnicode_FSConverter(arg, &p)) return NULL;
    sn_status st =
        snpy_world_busy(o) ? SN_OK : sn_world_save_state_file(o->w, PyBytes_AS_STRING(p));
    Py_DECREF(p);
    if (PyErr_Occurred()) return NULL;
    return check(o, st);
}

static PyObject* world_restore_file(SnpWorld* o, PyObject* arg) {
    PyObject* p;
    if (!PyUnicode_FSConverter(arg, &p)) return NULL;
    sn_status st =
        snpy_world_busy(o) ? SN_OK : sn_world_load_state_file(o->w, PyBytes_AS_STRING(p));
    Py_DECREF(p);
    if (PyErr_Occurred()) return NULL;
    return check(o, st);
}

static PyObject* world_state_hash(SnpWorld* o, PyObject* noargs) {
    (void)noargs;
    SNPY_READY(o, NULL);
    uint64_t h = 0;
    sn_status st = sn_world_state_hash(o->w, &h);
    if (st != SN_OK) return snpy_raise_world(o, st);
    return PyLong_FromUnsignedLongLong(h);
}

static PyObject* world_contact_rows(SnpWorld* o, PyObject* noargs) {
    (void)noargs;
    int n = sn_world_contact_row_count(o->w);
    PyObject* l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        sn_contact_row r;
        sn_world_contact_row(o->w, i, &r);
        PyObject* d =
            Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:(ddd)}", "kind", r.kind, "system", r.system,
                          "other_system", r.other_system, "index", r.index, "dim", r.dim, "impulse",
                          r.impulse[0], r.impulse[1], r.impulse[2]);
        if (!d) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

static PyMethodDef world_methods[] = {
    {"add", (PyCFunction)(void (*)(void))world_add, METH_VARARGS | METH_KEYWORDS,
     "add(model, *, setup=True, key=None, q0=None, u0=None, ground='file', friction=None,\n"
     "    restitution=0, self_collision=False, assemble=True, servos=True) -> System\n\n"
     "Add a system of `model` (sn_world_add_system). With setup (the default) the file's settings\n"
     "are applied as `sinew run` applies them (sn_system_apply_file): time step, gravity, scheme,\n"
     "ground ('file', 'on', 'off'), friction, keyframe `key`, start state q0/u0, servos, assembly\n"
     "of open loops. The world keeps the model alive."},
    {"system", (PyCFunction)world_system, METH_O, "system(i) -> System: the i-th system"},
    {"add_sphere", (PyCFunction)(void (*)(void))world_add_sphere, METH_VARARGS | METH_KEYWORDS,
     "add_sphere(radius, mass) -> System: a free sphere of uniform density, at the origin"},
    {"add_box", (PyCFunction)(void (*)(void))world_add_box, METH_VARARGS | METH_KEYWORDS,
     "add_box(size, mass) -> System: a free box (full lengths x y z)"},
    {"add_cylinder", (PyCFunction)(void (*)(void))world_add_cylinder, METH_VARARGS | METH_KEYWORDS,
     "add_cylinder(radius, length, mass, *, capsule=False) -> System: a free cylinder (or\n"
     "capsule) along its z axis"},
    {"add_mesh", (PyCFunction)(void (*)(void))world_add_mesh, METH_VARARGS | METH_KEYWORDS,
     "add_mesh(path, mass, scale=None) -> System: a free body, the convex hull of an OBJ/STL"},
    {"step", (PyCFunction)(void (*)(void))world_step, METH_FASTCALL | METH_KEYWORDS,
     "step(n=1): n steps (sn_world_integrate), the GIL released. A failed step\n"
     "raises sinew.Error and leaves the state as it was before that step."},
    {"integrate1", (PyCFunction)world_integrate1, METH_NOARGS,
     "integrate1(): the step's first half (kinematics at the current state)"},
    {"integrate2", (PyCFunction)world_integrate2, METH_NOARGS,
     "integrate2(): the rest of the step (commands, contacts, velocity, position, time)"},
    {"set_ground", (PyCFunction)(void (*)(void))world_set_ground, METH_VARARGS | METH_KEYWORDS,
     "set_ground(enabled=True, height=0.0): the ground plane z = height"},
    {"set_heightfield", (PyCFunction)(void (*)(void))world_set_heightfield,
     METH_VARARGS | METH_KEYWORDS,
     "set_heightfield(z, x0, y0, dx, dy): heights z[j, i] at (x0 + i dx, y0 + j dy); z None\n"
     "removes the field"},
    {"terrain_height", (PyCFunction)world_terrain_height, METH_VARARGS,
     "terrain_height(x, y) -> (height, normal)"},
    {"set_material", (PyCFunction)(void (*)(void))world_set_material, METH_VARARGS | METH_KEYWORDS,
     "set_material(friction, restitution=0, threshold=0): the default material pair"},
    {"set_material_pair", (PyCFunction)(void (*)(void))world_set_material_pair,
     METH_VARARGS | METH_KEYWORDS,
     "set_material_pair(a, b, friction, restitution=0, threshold=0): material ids 0-15"},
    {"set_erp", (PyCFunction)world_set_erp, METH_O,
     "set_erp(erp): share of a penetration removed per step (0.2)"},
    {"set_loop_erp", (PyCFunction)world_set_loop_erp, METH_O,
     "set_loop_erp(erp): loop closure feedback (1.5: 30 % per step)"},
    {"set_solver", (PyCFunction)(void (*)(void))world_set_solver, METH_VARARGS | METH_KEYWORDS,
     "set_solver(max_iterations, tolerance): the contact solver's limits (150, 1e-8)"},
    {"set_warm_start", (PyCFunction)world_set_warm_start, METH_O,
     "set_warm_start(enabled): start the solver from the last step's impulses (on)"},
    {"save", (PyCFunction)world_save, METH_NOARGS,
     "save() -> bytes: the world's checkpoint (sn_world_save_state): restoring it and stepping\n"
     "repeats the uninterrupted run bit for bit"},
    {"restore", (PyCFunction)world_restore, METH_O,
     "restore(checkpoint): load a checkpoint of a world set up the same way (bytes-like);\n"
     "a foreign or corrupt one raises sinew.Error and changes nothing"},
    {"save_file", (PyCFunction)world_save_file, METH_O, "save_file(path): save() to a file"},
    {"restore_file", (PyCFunction)world_restore_file, METH_O,
     "restore_file(path): restore() from a file"},
    {"state_hash", (PyCFunction)world_state_hash, METH_NOARGS,
     "state_hash() -> int: FNV-1a 64 of the checkpoint, a determinism hash"},
    {"contact_rows", (PyCFunction)world_contact_rows, METH_NOARGS,
     "contact_rows() -> list of dict: the last step's contact problem, block by block"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef world_getset[] = {
    {"timestep", (getter)get_timestep, (setter)set_timestep, "time step (s), 1e-9 to 1", NULL},
    {"gravity", (getter)get_gravity, (setter)set_gravity, "gravity (m/s^2), world frame", NULL},
    {"time", (getter)get_time, NULL, "simulated time (s)", NULL},
    {"systems", (getter)world_systems, NULL, "the systems, in order", NULL},
    {"nsystems", (getter)get_nsystems, NULL, "number of systems", NULL},
    {"warning_count", (getter)get_warning_count, NULL, "warnings raised so far", NULL},
    {"last_warning", (getter)get_last_warning, NULL, "the last warning's text", NULL},
    {"last_error", (getter)get_last_error, NULL, "the last failure's text", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SnpWorld_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.World",
    .tp_basicsize = sizeof(SnpWorld),
    .tp_dealloc = (destructor)world_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "World(timestep=None): a world (sn_world) of articulated systems: gravity\n"
              "(0, 0, -9.81), time step 1 ms unless given. It belongs to one thread at a time.",
    .tp_weaklistoffset = offsetof(SnpWorld, weakrefs),
    .tp_methods = world_methods,
    .tp_getset = world_getset,
    .tp_init = (initproc)world_init,
    .tp_new = world_new,
};

int snpy_world_init_types(PyObject* mod) {
    if (PyType_Ready(&SnpWorld_Type) < 0) return -1;
    return PyModule_AddObjectRef(mod, "World", (PyObject*)&SnpWorld_Type);
}
