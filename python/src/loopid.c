// SPDX-License-Identifier: Apache-2.0
// loopid.c: inverse and forward dynamics of closed-loop systems (sn_loopid.h, docs/loopid.md)
// from Python, added to System's members when the module starts (docs/python.md "Closed-loop
// dynamics"). Results are new arrays; a mechanism the accelerations cannot be met on is not an
// error: the result's 'status' says so and the arrays are the least-squares best.
#include "snpy.h"

#include <string.h>

static PyObject* new_vector(npy_intp n) {
    return PyArray_ZEROS(1, &n, NPY_DOUBLE, 0);
}

#define DATA(a) ((double*)PyArray_DATA((PyArrayObject*)(a)))

// an optional 1-D sequence of DOF indices as C ints (a new reference in *keep); NULL for None
static const int* dof_list(PyObject* obj, const char* name, PyObject** keep, int* n, int* err) {
    *keep = NULL;
    *n = 0;
    *err = 0;
    if (obj == Py_None) return NULL;
    PyObject* a = PyArray_FromAny(obj, PyArray_DescrFromType(NPY_INT), 1, 1,
                                  NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST, NULL);
    if (!a) {
        *err = 1;
        return NULL;
    }
    // FORCECAST would truncate 1.5 to 1: refuse anything not integral in the first place
    PyObject* chk = PyArray_FromAny(obj, NULL, 1, 1, 0, NULL);
    int integral =
        chk && (PyArray_ISINTEGER((PyArrayObject*)chk) || (PyArray_SIZE((PyArrayObject*)chk) == 0));
    Py_XDECREF(chk);
    PyErr_Clear();
    if (!integral) {
        Py_DECREF(a);
        PyErr_Format(PyExc_TypeError, "%s: a sequence of DOF indices (ints)", name);
        *err = 1;
        return NULL;
    }
    *keep = a;
    *n = (int)PyArray_SIZE((PyArrayObject*)a);
    return (const int*)PyArray_DATA((PyArrayObject*)a);
}

static PyObject* report_dict(sn_status st, const sn_loop_id_report* r) {
    return Py_BuildValue("{s:s,s:i,s:i,s:i,s:i,s:i,s:d,s:d,s:d}", "status", sn_status_str(st),
                         "rows", r->rows, "rank", r->rank, "mobility", r->mobility,
                         "actuation_rank", r->actuation_rank, "redundancy", r->redundancy,
                         "accel_residual", r->accel_residual, "force_residual", r->force_residual,
                         "jdot_u_norm", r->jdot_u_norm);
}

static PyObject* system_get_loop_rows(SnpSystem* o, void* c) {
    (void)c;
    return PyLong_FromLong(sn_system_loop_row_count(o->s));
}

static PyObject* system_loop_inverse_dynamics(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"udot", "dofs", "actuated", "actuators", NULL};
    PyObject *udot_obj, *ind_obj = Py_None, *act_obj = Py_None;
    int actuators = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO$p:loop_inverse_dynamics", kwlist, &udot_obj,
                                     &ind_obj, &act_obj, &actuators))
        return NULL;
    SNPY_READY(o->world, NULL);
    if (actuators && act_obj != Py_None) {
        PyErr_SetString(PyExc_ValueError,
                        "loop_inverse_dynamics: actuated DOFs or actuators=True, not both");
        return NULL;
    }
    const sn_model* m = o->model->m;
    PyObject *ki = NULL, *ka = NULL, *ku = NULL, *tau = NULL, *lam = NULL, *ud = NULL, *cmd = NULL,
             *ret = NULL;
    int n_ind = 0, n_act = 0, err = 0;
    const int* ind = dof_list(ind_obj, "dofs", &ki, &n_ind, &err);
    if (err) goto out;
    const int* act = dof_list(act_obj, "actuated", &ka, &n_act, &err);
    if (err) goto out;
    npy_intp got = 0;
    const double* udot = snpy_doubles(udot_obj, ind ? n_ind : -1, "udot", &ku, &got);
    if (!udot) goto out;
    if (!ind) n_ind = (int)got;
    int rows = sn_system_loop_row_count(o->s);
    int nact = sn_system_actuator_count(o->s);
    if (!(tau = new_vector(m->nv)) || !(lam = new_vector(rows > 0 ? rows : 0)) ||
        !(ud = new_vector(m->nv)) || (actuators && !(cmd = new_vector(nact))))
        goto out;
    sn_loop_id_report rep;
    memset(&rep, 0, sizeof rep);
    sn_status st =
        actuators
            ? sn_system_loop_inverse_dynamics_actuators(o->s, ind, n_ind, udot, DATA(cmd), nact,
                                                        DATA(tau), rows > 0 ? DATA(lam) : NULL,
                                                        DATA(ud), &rep)
            : sn_system_loop_inverse_dynamics(o->s, ind, n_ind, udot, act, n_act, DATA(tau),
                                              rows > 0 ? DATA(lam) : NULL, DATA(ud), &rep);
    if (st != SN_OK && st != SN_ERR_UNREACHED && st != SN_ERR_SINGULAR) {
        snpy_raise_world(o->world, st);
        goto out;
    }
    PyObject* r = report_dict(st, &rep);
    if (!r) goto out;
    if (PyDict_SetItemString(r, "tau", tau) < 0 || PyDict_SetItemString(r, "lambda", lam) < 0 ||
        PyDict_SetItemString(r, "udot", ud) < 0 ||
        (cmd && PyDict_SetItemString(r, "command", cmd) < 0)) {
        Py_DECREF(r);
        goto out;
    }
    ret = r;
out:
    Py_XDECREF(ki);
    Py_XDECREF(ka);
    Py_XDECREF(ku);
    Py_XDECREF(tau);
    Py_XDECREF(lam);
    Py_XDECREF(ud);
    Py_XDECREF(cmd);
    return ret;
}

static PyObject* system_loop_forward_dynamics(SnpSystem* o, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"tau", NULL};
    PyObject* tau_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:loop_forward_dynamics", kwlist, &tau_obj))
        return NULL;
    SNPY_READY(o->world, NULL);
    const sn_model* m = o->model->m;
    PyObject *kt = NULL, *ud = NULL, *lam = NULL, *ret = NULL;
    const double* tau = NULL;
    if (tau_obj != Py_None && !(tau = snpy_doubles(tau_obj, m->nv, "tau", &kt, NULL))) goto out;
    int rows = sn_system_loop_row_count(o->s);
    if (!(ud = new_vector(m->nv)) || !(lam = new_vector(rows > 0 ? rows : 0))) goto out;
    sn_loop_id_report rep;
    memset(&rep, 0, sizeof rep);
    sn_status st = sn_system_loop_forward_dynamics(o->s, tau, m->nv, DATA(ud),
                                                   rows > 0 ? DATA(lam) : NULL, &rep);
    if (st != SN_OK) {
        snpy_raise_world(o->world, st);
        goto out;
    }
    PyObject* r = report_dict(st, &rep);
    if (r) ret = Py_BuildValue("(OON)", ud, lam, r);
out:
    Py_XDECREF(kt);
    Py_XDECREF(ud);
    Py_XDECREF(lam);
    return ret;
}

static PyMethodDef loopid_methods[] = {
    {"loop_inverse_dynamics", (PyCFunction)(void (*)(void))system_loop_inverse_dynamics,
     METH_VARARGS | METH_KEYWORDS,
     "loop_inverse_dynamics(udot, dofs=None, actuated=None, *, actuators=False) -> dict\n"
     "(sn_system_loop_inverse_dynamics): the actuation that gives the independent DOFs `dofs`\n"
     "(None: the actuated ones) the accelerations `udot` with the loops closed, at the current\n"
     "state. actuated: the DOFs that carry torque (None: every non-floating DOF); actuators=True\n"
     "drives through the system's actuators instead (sn_system_loop_inverse_dynamics_actuators;\n"
     "'command' holds their commands). The dict: tau (nv), lambda (the loops' rows), udot (nv),\n"
     "status ('SN_OK'; 'SN_ERR_UNREACHED' or 'SN_ERR_SINGULAR' with the least-squares best),\n"
     "rows, rank, mobility, actuation_rank, redundancy, accel_residual, force_residual,\n"
     "jdot_u_norm. Damping, springs, friction, limits and contacts are not counted."},
    {"loop_forward_dynamics", (PyCFunction)(void (*)(void))system_loop_forward_dynamics,
     METH_VARARGS | METH_KEYWORDS,
     "loop_forward_dynamics(tau=None) -> (udot (nv), lambda (rows), report dict)\n"
     "(sn_system_loop_forward_dynamics): the closed mechanism's accelerations and loop forces\n"
     "under the generalized force tau (None: zero), at the current state"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef loopid_getset[] = {
    {"loop_rows", (getter)system_get_loop_rows, NULL,
     "the loops' rows: the length of lambda (sn_system_loop_row_count)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

int snpy_loopid_add_to(PyTypeObject* system) {
    return snpy_add_members(system, loopid_methods, loopid_getset);
}
