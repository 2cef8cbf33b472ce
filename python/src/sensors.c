// SPDX-License-Identifier: Apache-2.0
// sensors.c: System's sensors (sn_sensor.h) and inverse kinematics (sn_ik.h), added to the System
// type's methods when the module starts (docs/python.md "Sensors and IK"). Sensor values are
// copies: the C table moves when a sensor is added, so a view of it could outlive its memory.
#include "snpy.h"

#include <string.h>

#define READY(o) SNPY_READY((o)->world, NULL)
#define MODEL(o) ((o)->model->m)

static PyObject* new_vector(npy_intp n) {
    return PyArray_ZEROS(1, &n, NPY_DOUBLE, 0);
}

static int sensor_type(PyObject* obj) {
    if (PyUnicode_Check(obj)) {
        const char* s = PyUnicode_AsUTF8(obj);
        if (!s) return -1;
        for (int t = 0; sn_sensor_dim(t) > 0; t++)
            if (!strcmp(s, sn_sensor_type_name(t))) return t;
        PyErr_Format(PyExc_ValueError,
                     "sensor type: 'imu', 'force_torque', 'accelerometer', 'gyro', 'framequat', "
                     "'framepos', 'force', 'torque', 'jointpos' or 'jointvel', not '%s'",
                     s);
        return -1;
    }
    int t = snpy_index(obj, 10, NULL, -1, "sensor type");
    return t;
}

static PyObject* system_add_sensor(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"type", "frame", "joint", "pos", "quat", "cutoff", "name", NULL};
    PyObject *type, *frame = Py_None, *joint = Py_None, *pos = Py_None, *quat = Py_None;
    double cutoff = 0;
    const char* name = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OOOOdz:add_sensor", kwlist, &type, &frame,
                                     &joint, &pos, &quat, &cutoff, &name))
        return NULL;
    READY(o);
    sn_sensor_desc d;
    memset(&d, 0, sizeof d);
    if ((d.type = sensor_type(type)) < 0) return NULL;
    d.frame = d.joint = SN_NONE;
    const sn_model* m = MODEL(o);
    if (frame != Py_None && (d.frame = snpy_index(frame, m->nframe, m, SN_OBJ_FRAME, "frame")) < 0)
        return NULL;
    if (joint != Py_None &&
        (d.joint = snpy_index(joint, m->nujoint, m, SN_OBJ_URDF_JOINT, "urdf_joint")) < 0)
        return NULL;
    if (pos != Py_None && snpy_vec3(pos, "pos", d.pos) < 0) return NULL;
    if (quat != Py_None) {
        PyObject* keep;
        const double* q = snpy_doubles(quat, 4, "quat", &keep, NULL);
        if (!q) return NULL;
        memcpy(d.quat, q, sizeof d.quat);
        Py_DECREF(keep);
    }
    d.cutoff = cutoff;
    d.name = name;
    int id = SN_NONE;
    sn_status st = sn_system_add_sensor(o->s, &d, &id);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    return PyLong_FromLong(id);
}

static int sensor_index(SnpSystem* o, PyObject* arg) {
    int n = sn_system_sensor_count(o->s);
    if (PyUnicode_Check(arg)) {
        const char* name = PyUnicode_AsUTF8(arg);
        if (!name) return -1;
        int i = sn_system_sensor_find(o->s, name);
        if (i < 0) PyErr_Format(PyExc_KeyError, "sensor: none named '%s'", name);
        return i;
    }
    return snpy_index(arg, n, NULL, -1, "sensor");
}

static PyObject* system_sensor(SnpSystem* o, PyObject* arg) {
    READY(o);
    int i = sensor_index(o, arg);
    if (i < 0) return NULL;
    sn_sensor_info info;
    sn_status st = sn_system_sensor_info(o->s, i, &info);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    PyObject* v = new_vector(info.dim);
    if (!v) return NULL;
    st = sn_system_sensor_read(o->s, i, (double*)PyArray_DATA((PyArrayObject*)v), info.dim);
    if (st != SN_OK) {
        Py_DECREF(v);
        return snpy_raise_world(o->world, st);
    }
    return v;
}

static PyObject* system_sensor_info(SnpSystem* o, PyObject* arg) {
    READY(o);
    int i = sensor_index(o, arg);
    if (i < 0) return NULL;
    sn_sensor_info f;
    sn_status st = sn_system_sensor_info(o->s, i, &f);
    if (st != SN_OK) return snpy_raise_world(o->world, st);
    return Py_BuildValue("{s:s,s:s,s:i,s:i,s:i,s:i,s:d}", "name", f.name, "type",
                         sn_sensor_type_name(f.type), "frame", f.frame, "joint", f.joint, "adr",
                         f.adr, "dim", f.dim, "cutoff", f.cutoff);
}

static PyObject* get_sensor_values(SnpSystem* o, void* c) {
    (void)c;
    READY(o);
    const double* v = sn_system_sensor_values(o->s);
    if (!v) Py_RETURN_NONE;
    PyObject* a = new_vector(sn_system_sensor_value_count(o->s));
    if (a)
        memcpy(PyArray_DATA((PyArrayObject*)a), v,
               (size_t)sn_system_sensor_value_count(o->s) * sizeof(double));
    return a;
}

static PyObject* get_sensor_names(SnpSystem* o, void* c) {
    (void)c;
    int n = sn_system_sensor_count(o->s);
    PyObject* l = PyList_New(n > 0 ? n : 0);
    for (int i = 0; l && i < n; i++) {
        sn_sensor_info f;
        sn_system_sensor_info(o->s, i, &f);
        PyObject* s = PyUnicode_FromString(f.name);
        if (!s)
            Py_CLEAR(l);
        else
            PyList_SET_ITEM(l, i, s);
    }
    return l;
}

// ---- IK ----

// targets: a sequence of dicts {frame, position, rotation, position_weight, rotation_weight};
// the mask is what the dict gives (position and/or rotation). *out is PyMem-allocated.
static int parse_targets(SnpSystem* o, PyObject* seq, sn_ik_target** out, int* n) {
    PyObject* fast = PySequence_Fast(seq, "targets: a list of dicts");
    if (!fast) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    if (k < 1 || k > 4096) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "targets: 1 to 4096 of them");
        return -1;
    }
    sn_ik_target* t = PyMem_Calloc((size_t)k, sizeof *t);
    if (!t) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    const sn_model* m = MODEL(o);
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject* d = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyDict_Check(d)) {
            PyErr_Format(PyExc_TypeError,
                         "targets[%zd]: a dict with 'frame' and 'position' "
                         "and/or 'rotation'",
                         i);
            goto fail;
        }
        PyObject* f = PyDict_GetItemString(d, "frame");
        if (!f) {
            PyErr_Format(PyExc_KeyError, "targets[%zd]: no 'frame'", i);
            goto fail;
        }
        if ((t[i].frame = snpy_index(f, m->nframe, m, SN_OBJ_FRAME, "frame")) < 0) goto fail;
        PyObject* p = PyDict_GetItemString(d, "position");
        if (p) {
            t[i].mask |= SN_IK_POSITION;
            if (snpy_vec3(p, "position", t[i].position) < 0) goto fail;
        }
        PyObject* r = PyDict_GetItemString(d, "rotation");
        if (r) {
            t[i].mask |= SN_IK_ROTATION;
            PyObject* flat = PyArray_FromAny(r, PyArray_DescrFromType(NPY_DOUBLE), 2, 2,
                                             NPY_ARRAY_IN_ARRAY, NULL);
            if (!flat) goto fail;
            if (PyArray_DIM((PyArrayObject*)flat, 0) != 3 ||
                PyArray_DIM((PyArrayObject*)flat, 1) != 3) {
                Py_DECREF(flat);
                PyErr_Format(PyExc_ValueError, "targets[%zd]: rotation is 3 x 3", i);
                goto fail;
            }
            memcpy(t[i].rotation, PyArray_DATA((PyArrayObject*)flat), 9 * sizeof(double));
            Py_DECREF(flat);
        }
        if (!t[i].mask) {
            PyErr_Format(PyExc_ValueError, "targets[%zd]: neither 'position' nor 'rotation'", i);
            goto fail;
        }
        const char* wk[2] = {"position_weight", "rotation_weight"};
        double* wv[2] = {&t[i].position_weight, &t[i].rotation_weight};
        for (int j = 0; j < 2; j++) {
            PyObject* w = PyDict_GetItemString(d, wk[j]);
            if (!w) continue;
            *wv[j] = PyFloat_AsDouble(w);
            if (*wv[j] == -1.0 && PyErr_Occurred()) goto fail;
        }
    }
    Py_DECREF(fast);
    *out = t;
    *n = (int)k;
    return 0;
fail:
    Py_DECREF(fast);
    PyMem_Free(t);
    return -1;
}

static PyObject* system_solve_ik(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"targets",        "damping", "tolerance", "loop_tolerance",
                             "max_iterations", "limits",  "fix_base",  "fixed",
                             "start",          "apply",   NULL};
    PyObject *targets, *fixed = Py_None, *start = Py_None;
    sn_ik_opts opts;
    memset(&opts, 0, sizeof opts);
    int limits = 1, apply = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$dddippOOp:solve_ik", kwlist, &targets,
                                     &opts.damping, &opts.tolerance, &opts.loop_tolerance,
                                     &opts.max_iterations, &limits, &opts.fix_base, &fixed, &start,
                                     &apply))
        return NULL;
    READY(o);
    opts.ignore_limits = !limits;
    const sn_model* m = MODEL(o);
    sn_ik_target* t = NULL;
    int nt = 0;
    if (parse_targets(o, targets, &t, &nt) < 0) return NULL;
    PyObject *ks = NULL, *kf = NULL, *q = NULL, *ret = NULL;
    unsigned char* flags = NULL;
    if (start != Py_None && !(opts.start = snpy_doubles(start, m->nq, "start", &ks, NULL)))
        goto out;
    if (fixed != Py_None) {
        const double* f = snpy_doubles(fixed, m->nv, "fixed", &kf, NULL);
        if (!f || !(flags = PyMem_Malloc((size_t)m->nv + 1))) goto out;
        for (int i = 0; i < m->nv; i++)
            flags[i] = f[i] != 0;
        opts.fixed = flags;
    }
    if (!(q = new_vector(m->nq))) goto out;
    sn_ik_report rep;
    memset(&rep, 0, sizeof rep);
    double* qo = (double*)PyArray_DATA((PyArrayObject*)q);
    sn_status st = sn_system_solve_ik(o->s, t, nt, &opts, qo, m->nq, &rep);
    if (st != SN_OK && st != SN_ERR_UNREACHED) {
        snpy_raise_world(o->world, st);
        goto out;
    }
    if (apply) {
        sn_status sa = sn_system_set_q(o->s, qo, m->nq);
        if (sa != SN_OK) {
            snpy_raise_world(o->world, sa);
            goto out;
        }
    }
    ret =
        Py_BuildValue("(O{s:O,s:i,s:d,s:d,s:d,s:d,s:i})", q, "converged",
                      rep.converged ? Py_True : Py_False, "iterations", rep.iterations,
                      "position_error", rep.position_error, "rotation_error", rep.rotation_error,
                      "loop_error", rep.loop_error, "damping", rep.damping, "limited", rep.limited);
out:
    Py_XDECREF(q);
    Py_XDECREF(ks);
    Py_XDECREF(kf);
    PyMem_Free(flags);
    PyMem_Free(t);
    return ret;
}

static PyObject* system_ik_errors(SnpSystem* o, PyObject* args) {
    PyObject *targets, *qobj;
    if (!PyArg_ParseTuple(args, "OO:ik_errors", &targets, &qobj)) return NULL;
    READY(o);
    sn_ik_target* t = NULL;
    int nt = 0;
    if (parse_targets(o, targets, &t, &nt) < 0) return NULL;
    PyObject *kq = NULL, *e = NULL;
    const double* q = snpy_doubles(qobj, MODEL(o)->nq, "q", &kq, NULL);
    npy_intp dims[2] = {nt, 2};
    if (q && (e = PyArray_ZEROS(2, dims, NPY_DOUBLE, 0))) {
        sn_status st = sn_system_ik_errors(o->s, t, nt, q, MODEL(o)->nq,
                                           (double*)PyArray_DATA((PyArrayObject*)e));
        if (st != SN_OK) {
            Py_CLEAR(e);
            snpy_raise_world(o->world, st);
        }
    }
    Py_XDECREF(kq);
    PyMem_Free(t);
    return e;
}

static PyMethodDef sensor_methods[] = {
    {"add_sensor", (PyCFunction)(void (*)(void))system_add_sensor, METH_VARARGS | METH_KEYWORDS,
     "add_sensor(type, *, frame=None, joint=None, pos=None, quat=None, cutoff=0, name=None)\n"
     "-> int (sn_system_add_sensor): type 'imu', 'force_torque', 'accelerometer', 'gyro',\n"
     "'framequat', 'framepos' (on a link `frame`), 'force', 'torque', 'jointpos', 'jointvel' (at\n"
     "a URDF `joint`); pos and quat (w x y z) place the sensor frame in the link. Turns inverse\n"
     "dynamics on. Values describe the last step's start state (docs/sensors.md)."},
    {"sensor", (PyCFunction)system_sensor, METH_O,
     "sensor(i or name) -> the sensor's values after the last step (a new array)"},
    {"sensor_info", (PyCFunction)system_sensor_info, METH_O,
     "sensor_info(i or name) -> dict: name, type, frame, joint, adr, dim, cutoff"},
    {"solve_ik", (PyCFunction)(void (*)(void))system_solve_ik, METH_VARARGS | METH_KEYWORDS,
     "solve_ik(targets, *, damping=0, tolerance=0, loop_tolerance=0, max_iterations=0,\n"
     "         limits=True, fix_base=False, fixed=None, start=None, apply=False)\n"
     "-> (q, report) (sn_system_solve_ik): targets are dicts {'frame', 'position' (3),\n"
     "'rotation' (3 x 3, world <- link), 'position_weight', 'rotation_weight'}; zeros mean the\n"
     "C defaults. The loops stay closed and the limits hold. An unreachable target is not an\n"
     "error: report['converged'] is False and q the best found. apply=True sets the state's q."},
    {"ik_errors", (PyCFunction)system_ik_errors, METH_VARARGS,
     "ik_errors(targets, q) -> (ntarget, 2): each target's position (m) and rotation (rad) error"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef sensor_getset[] = {
    {"sensor_values", (getter)get_sensor_values, NULL,
     "every sensor's values after the last step, sensor after sensor (a copy; None before a step)",
     NULL},
    {"sensor_names", (getter)get_sensor_names, NULL, "the sensors' names, in order", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

int snpy_sensors_add_to(PyTypeObject* type) {
    return snpy_add_members(type, sensor_methods, sensor_getset);
}
