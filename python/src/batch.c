// SPDX-License-Identifier: Apache-2.0
// batch.c: sinew.Batch, n worlds of one model stepped on C threads with the GIL released
// (docs/python.md "Batch"). Each world is an sn_world with one system, set up from the file as
// World.add does; their states are gathered after every step into two contiguous arrays, (n, nq)
// and (n, nv), which Python reads as read-only views. Actions come as one (n, nu) array. The
// threads are made once, with the batch, and wait on a condition variable between steps; the
// calling thread steps the first share of the worlds itself. Nothing is allocated per step.
#include "snpy.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { ACT_NONE, ACT_TORQUE, ACT_TARGET, ACT_ACTUATOR };
static const char* act_names[] = {"none", "torque", "target", "actuator"};

typedef struct SnpBatch SnpBatch;
typedef struct worker {
    SnpBatch* b;
    int lo, hi; // its worlds
    pthread_t tid;
} worker;

struct SnpBatch {
    PyObject_HEAD SnpModel* model;
    int n, nq, nv, nu, action, nthreads;
    int base_q, base_v; // where the actions' DOFs start in q and u (7 and 6 on a floating base)
    sn_world** w;
    sn_system** s;
    double *q, *u;        // (n, nq), (n, nv): the states after the last call
    double* act;          // (n, nu): the actions of the current call
    double* tau;          // (n, nv): scratch of generalized forces
    double* qref;         // (n, nq): scratch of PD targets
    double* time;         // (n): each world's time
    sn_status* st;        // (n): each world's status in the last call
    long* done;           // (n): steps each world completed in the last call
    char (*msg)[800];     // (n): each world's failure
    unsigned char* ckpt0; // the checkpoint of the start state (every world's)
    size_t ckpt0_n;
    // the pool
    worker* workers;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t go, idle;
    long generation, steps;
    int use_act, pending, quit, busy;
    // making the worlds: each thread makes its own share, one thread at a time, so that a
    // world's memory comes from the allocator's arena of the thread that steps it (worlds made
    // by one thread and stepped by two ran at 1.1-1.7x one thread, not 2x: docs/benchmarks.md)
    int making;
    const sn_setup_opts* so;
    double dt;
    pthread_mutex_t make_mu;
    PyObject* weakrefs;
};

extern PyTypeObject SnpBatch_Type;

// ---- one world's share of a call (any thread) ----

static void gather(SnpBatch* b, int i) {
    memcpy(b->q + (size_t)i * b->nq, sn_system_q(b->s[i]), (size_t)b->nq * sizeof(double));
    memcpy(b->u + (size_t)i * b->nv, sn_system_u(b->s[i]), (size_t)b->nv * sizeof(double));
    b->time[i] = sn_world_time(b->w[i]);
}

static sn_status apply_action(SnpBatch* b, int i) {
    const double* a = b->act + (size_t)i * b->nu;
    sn_system* s = b->s[i];
    switch (b->action) {
    case ACT_TORQUE: {
        double* tau = b->tau + (size_t)i * b->nv;
        memset(tau, 0, (size_t)b->nv * sizeof(double));
        memcpy(tau + b->base_v, a, (size_t)b->nu * sizeof(double));
        return sn_system_set_generalized_force(s, tau, b->nv);
    }
    case ACT_TARGET: {
        double* qr = b->qref + (size_t)i * b->nq;
        double* zero = b->tau + (size_t)i * b->nv; // the velocity target
        memset(zero, 0, (size_t)b->nv * sizeof(double));
        memcpy(qr, sn_system_q(s), (size_t)b->base_q * sizeof(double));
        memcpy(qr + b->base_q, a, (size_t)b->nu * sizeof(double));
        return sn_system_set_pd_target(s, qr, b->nq, zero, b->nv);
    }
    case ACT_ACTUATOR:
        return sn_system_set_actuator_torques(s, a, b->nu);
    default:
        return SN_OK;
    }
}

static void run_world(SnpBatch* b, int i) {
    sn_status st = SN_OK;
    long k = 0;
    if (b->use_act) st = apply_action(b, i);
    for (; st == SN_OK && k < b->steps; k++) {
        st = sn_world_integrate(b->w[i]);
        if (st != SN_OK) break;
    }
    b->st[i] = st;
    b->done[i] = k;
    if (st != SN_OK) snprintf(b->msg[i], sizeof b->msg[i], "%s", sn_world_last_error(b->w[i]));
    gather(b, i);
}

// world i made and set up from the file (a failure leaves its status and message)
static void make_world(SnpBatch* b, int i) {
    sn_world_opts wo = {0};
    sn_error e = {0};
    sn_status st = sn_world_create(&wo, &b->w[i], &e);
    if (st == SN_OK) st = sn_world_add_system(b->w[i], b->model->m, &b->s[i], &e);
    if (st != SN_OK) {
        snprintf(b->msg[i], sizeof b->msg[i], "%s", e.msg);
    } else {
        st = sn_system_apply_file(b->s[i], b->so, NULL);
        if (st == SN_OK && b->dt > 0) st = sn_world_set_timestep(b->w[i], b->dt);
        if (st != SN_OK) snprintf(b->msg[i], sizeof b->msg[i], "%s", sn_world_last_error(b->w[i]));
    }
    b->st[i] = st;
    if (st == SN_OK) gather(b, i);
}

static void run_share(worker* wk) {
    SnpBatch* b = wk->b;
    if (b->making) {
        pthread_mutex_lock(&b->make_mu);
        for (int i = wk->lo; i < wk->hi; i++)
            make_world(b, i);
        pthread_mutex_unlock(&b->make_mu);
        return;
    }
    for (int i = wk->lo; i < wk->hi; i++)
        run_world(b, i);
}

static void* worker_main(void* arg) {
    worker* wk = arg;
    SnpBatch* b = wk->b;
    long seen = 0;
    pthread_mutex_lock(&b->mu);
    for (;;) {
        while (!b->quit && b->generation == seen)
            pthread_cond_wait(&b->go, &b->mu);
        if (b->quit) break;
        seen = b->generation;
        pthread_mutex_unlock(&b->mu);
        run_share(wk);
        pthread_mutex_lock(&b->mu);
        if (--b->pending == 0) pthread_cond_signal(&b->idle);
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

// every world `steps` steps, the GIL released; the calling thread takes the first share
static void run_all(SnpBatch* b, long steps, int use_act) {
    b->busy = 1;
    PyThreadState* ts = PyEval_SaveThread();
    pthread_mutex_lock(&b->mu);
    b->steps = steps;
    b->use_act = use_act;
    b->pending = b->nthreads - 1;
    b->generation++;
    pthread_cond_broadcast(&b->go);
    pthread_mutex_unlock(&b->mu);
    run_share(&b->workers[0]);
    pthread_mutex_lock(&b->mu);
    while (b->pending > 0)
        pthread_cond_wait(&b->idle, &b->mu);
    pthread_mutex_unlock(&b->mu);
    PyEval_RestoreThread(ts);
    b->busy = 0;
}

// sinew.Error for the worlds that failed in the last call: the first one's reason, every failed
// index in .worlds
static PyObject* raise_failed(SnpBatch* b) {
    int first = -1, count = 0;
    for (int i = 0; i < b->n; i++)
        if (b->st[i] != SN_OK) {
            if (first < 0) first = i;
            count++;
        }
    if (first < 0) return NULL;
    PyObject* worlds = PyList_New(0);
    for (int i = 0; worlds && i < b->n; i++)
        if (b->st[i] != SN_OK) {
            PyObject* v = PyLong_FromLong(i);
            if (!v || PyList_Append(worlds, v) < 0) Py_CLEAR(worlds);
            Py_XDECREF(v);
        }
    if (!worlds) return NULL;
    char msg[600];
    snprintf(msg, sizeof msg,
             "%d of %d worlds failed; world %d at its step %ld of the call (its state is the one "
             "before that step; the others stepped on): %s",
             count, b->n, first, b->done[first] + 1, b->msg[first]);
    snpy_raise_status(b->st[first], msg);
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    if (v) PyObject_SetAttrString(v, "worlds", worlds);
    Py_DECREF(worlds);
    PyErr_Restore(t, v, tb);
    return NULL;
}

static int ready(SnpBatch* b) {
    if (!b->busy) return 1;
    PyErr_SetString(PyExc_RuntimeError, "sinew: the batch is stepping in another thread");
    return 0;
}

// ---- life ----

static void stop_pool(SnpBatch* b) {
    if (!b->started) return;
    pthread_mutex_lock(&b->mu);
    b->quit = 1;
    pthread_cond_broadcast(&b->go);
    pthread_mutex_unlock(&b->mu);
    for (int k = 1; k < b->started; k++)
        pthread_join(b->workers[k].tid, NULL);
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->go);
    pthread_cond_destroy(&b->idle);
    pthread_mutex_destroy(&b->make_mu);
    b->started = 0;
}

static void batch_dealloc(SnpBatch* b) {
    if (b->weakrefs) PyObject_ClearWeakRefs((PyObject*)b);
    stop_pool(b);
    for (int i = 0; b->w && i < b->n; i++)
        sn_world_destroy(b->w[i]);
    free(b->w);
    free(b->s);
    free(b->q);
    free(b->u);
    free(b->act);
    free(b->tau);
    free(b->qref);
    free(b->time);
    free(b->st);
    free(b->done);
    free(b->msg);
    free(b->ckpt0);
    free(b->workers);
    Py_XDECREF(b->model);
    Py_TYPE(b)->tp_free((PyObject*)b);
}

static int parse_action(const char* s, int* out) {
    for (int k = 0; k < 4; k++)
        if (!strcmp(s, act_names[k])) {
            *out = k;
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "action: 'torque', 'target', 'actuator' or 'none', not '%s'", s);
    return -1;
}

static int make_worlds(SnpBatch* b, const sn_setup_opts* so, double timestep) {
    b->so = so;
    b->dt = timestep;
    b->making = 1;
    run_all(b, 0, 0);
    b->making = 0;
    for (int i = 0; i < b->n; i++)
        if (b->st[i] != SN_OK) {
            char msg[400];
            snprintf(msg, sizeof msg, "Batch: world %d: %s", i, b->msg[i]);
            snpy_raise_status(b->st[i], msg);
            return -1;
        }
    // the start state's checkpoint, which reset() loads
    if (sn_world_checkpoint_size(b->w[0], &b->ckpt0_n) != SN_OK ||
        !(b->ckpt0 = malloc(b->ckpt0_n))) {
        PyErr_NoMemory();
        return -1;
    }
    size_t wrote = 0;
    sn_status st = sn_world_save_state(b->w[0], b->ckpt0, b->ckpt0_n, &wrote);
    if (st != SN_OK) {
        snpy_raise_status(st, sn_world_last_error(b->w[0]));
        return -1;
    }
    b->ckpt0_n = wrote;
    return 0;
}

static int start_pool(SnpBatch* b) {
    if (pthread_mutex_init(&b->mu, NULL) || pthread_cond_init(&b->go, NULL) ||
        pthread_cond_init(&b->idle, NULL) || pthread_mutex_init(&b->make_mu, NULL)) {
        PyErr_SetString(PyExc_OSError, "Batch: the threads' locks could not be made");
        return -1;
    }
    b->started = 1;
    for (int k = 0; k < b->nthreads; k++) {
        worker* wk = &b->workers[k];
        wk->b = b;
        wk->lo = (int)((long)b->n * k / b->nthreads);
        wk->hi = (int)((long)b->n * (k + 1) / b->nthreads);
        if (k == 0) continue;
        if (pthread_create(&wk->tid, NULL, worker_main, wk)) {
            PyErr_Format(PyExc_OSError, "Batch: thread %d of %d could not be started", k + 1,
                         b->nthreads);
            return -1;
        }
        b->started = k + 1;
    }
    return 0;
}

static SnpBatch* fill(SnpBatch* b, SnpModel* model, int n, int threads, int act,
                      const sn_setup_opts* so, double timestep);

static PyObject* batch_new(PyTypeObject* t, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"model", "n",  "threads", "action", "timestep",
                             "key",   "q0", "u0",      "ground", NULL};
    PyObject *model, *q0 = Py_None, *u0 = Py_None;
    int n, threads = 1;
    const char* action = "torque";
    const char* key = NULL;
    const char* ground = NULL;
    double timestep = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!i|$isdzOOz:Batch", kwlist, &SnpModel_Type, &model,
                                     &n, &threads, &action, &timestep, &key, &q0, &u0, &ground))
        return NULL;
    if (n < 1 || n > 1 << 20) {
        PyErr_Format(PyExc_ValueError, "Batch: n is 1 to 2^20 worlds, not %d", n);
        return NULL;
    }
    if (threads < 1 || threads > 256) {
        PyErr_Format(PyExc_ValueError, "Batch: threads is 1 to 256, not %d", threads);
        return NULL;
    }
    if (timestep < 0) {
        PyErr_SetString(PyExc_ValueError, "Batch: timestep must be positive");
        return NULL;
    }
    sn_setup_opts so = {0};
    so.key = key;
    if (!ground || !strcmp(ground, "file"))
        so.ground = SN_GROUND_FROM_FILE;
    else if (!strcmp(ground, "on"))
        so.ground = SN_GROUND_ON;
    else if (!strcmp(ground, "off"))
        so.ground = SN_GROUND_OFF;
    else {
        PyErr_Format(PyExc_ValueError, "ground: 'file', 'on' or 'off', not '%s'", ground);
        return NULL;
    }
    int act;
    if (parse_action(action, &act) < 0) return NULL;
    const sn_model* mm = ((SnpModel*)model)->m;
    PyObject *kq = NULL, *ku = NULL; // the start state's arrays, held until the worlds are made
    if (q0 != Py_None && !(so.q0 = snpy_doubles(q0, mm->nq, "q0", &kq, NULL))) return NULL;
    if (u0 != Py_None && !(so.u0 = snpy_doubles(u0, mm->nv, "u0", &ku, NULL))) {
        Py_XDECREF(kq);
        return NULL;
    }
    SnpBatch* b = (SnpBatch*)t->tp_alloc(t, 0);
    if (b) b = fill(b, (SnpModel*)model, n, threads, act, &so, timestep);
    Py_XDECREF(kq);
    Py_XDECREF(ku);
    return (PyObject*)b;
}

// the batch's arrays, worlds and threads (NULL with the error set, b released)
static SnpBatch* fill(SnpBatch* b, SnpModel* model, int n, int threads, int act,
                      const sn_setup_opts* so, double timestep) {
    Py_INCREF(model);
    b->model = model;
    const sn_model* m = b->model->m;
    b->n = n;
    b->nq = m->nq;
    b->nv = m->nv;
    b->action = act;
    b->nthreads = threads < n ? threads : n;
    if (act == ACT_TORQUE || act == ACT_TARGET) {
        b->base_q = m->is_floating ? 7 : 0;
        b->base_v = m->is_floating ? 6 : 0;
        b->nu = m->nv - b->base_v;
        if (act == ACT_TARGET && m->nq - b->base_q != b->nu) {
            PyErr_SetString(PyExc_ValueError,
                            "Batch: action 'target' needs 1-DOF joints (nq = nv past the base); "
                            "this model has ball joints");
            Py_DECREF(b);
            return NULL;
        }
    } else if (act == ACT_ACTUATOR) {
        b->nu = m->nactuator;
    }
    size_t N = (size_t)n;
    b->w = calloc(N, sizeof *b->w);
    b->s = calloc(N, sizeof *b->s);
    b->q = calloc(N * (size_t)b->nq + 1, sizeof(double));
    b->u = calloc(N * (size_t)b->nv + 1, sizeof(double));
    b->act = calloc(N * (size_t)b->nu + 1, sizeof(double));
    b->tau = calloc(N * (size_t)b->nv + 1, sizeof(double));
    b->qref = calloc(N * (size_t)b->nq + 1, sizeof(double));
    b->time = calloc(N, sizeof(double));
    b->st = calloc(N, sizeof *b->st);
    b->done = calloc(N, sizeof *b->done);
    b->msg = calloc(N, sizeof *b->msg);
    b->workers = calloc((size_t)b->nthreads, sizeof *b->workers);
    if (!b->w || !b->s || !b->q || !b->u || !b->act || !b->tau || !b->qref || !b->time || !b->st ||
        !b->done || !b->msg || !b->workers) {
        Py_DECREF(b);
        PyErr_NoMemory();
        return NULL;
    }
    if (start_pool(b) < 0 || make_worlds(b, so, timestep) < 0) {
        Py_DECREF(b);
        return NULL;
    }
    return b;
}

// ---- calls ----

static PyObject* batch_step(SnpBatch* b, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"actions", "n", NULL};
    PyObject* actions = Py_None;
    long steps = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|Ol:step", kwlist, &actions, &steps)) return NULL;
    if (!ready(b)) return NULL;
    if (steps < 0) {
        PyErr_SetString(PyExc_ValueError, "step: n must be >= 0");
        return NULL;
    }
    int use = actions != Py_None;
    if (use) {
        if (b->action == ACT_NONE) {
            PyErr_SetString(PyExc_ValueError, "step: this batch takes no actions (action='none')");
            return NULL;
        }
        PyArrayObject* a = (PyArrayObject*)PyArray_FromAny(
            actions, PyArray_DescrFromType(NPY_DOUBLE), 0, 0, NPY_ARRAY_IN_ARRAY, NULL);
        if (!a) return NULL;
        if (PyArray_NDIM(a) != 2 || PyArray_DIM(a, 0) != b->n || PyArray_DIM(a, 1) != b->nu) {
            PyErr_Format(PyExc_ValueError, "step: actions of shape (%d, %d), not %d-D", b->n, b->nu,
                         PyArray_NDIM(a));
            Py_DECREF(a);
            return NULL;
        }
        memcpy(b->act, PyArray_DATA(a), (size_t)b->n * (size_t)b->nu * sizeof(double));
        Py_DECREF(a);
    }
    run_all(b, steps, use);
    if (raise_failed(b) || PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

// n one-step calls dispatched from C: what a C program's loop over single batch steps does; the
// reference bench/python sets the Python loop against (step(n) steps each world n times in a row
// instead, which keeps a world in cache)
static PyObject* batch_step_loop(SnpBatch* b, PyObject* args) {
    long steps;
    if (!PyArg_ParseTuple(args, "l:step_loop", &steps)) return NULL;
    if (!ready(b)) return NULL;
    if (steps < 0) {
        PyErr_SetString(PyExc_ValueError, "step_loop: n must be >= 0");
        return NULL;
    }
    for (long k = 0; k < steps; k++) {
        run_all(b, 1, 0);
        if (raise_failed(b)) return NULL;
    }
    Py_RETURN_NONE;
}

// an index list: None (every world), an int, or a sequence / boolean mask of worlds
static int* indices(SnpBatch* b, PyObject* obj, int* count) {
    int* out = malloc(((size_t)b->n + 1) * sizeof(int));
    if (!out) return (int*)PyErr_NoMemory();
    *count = 0;
    if (obj == Py_None) {
        for (int i = 0; i < b->n; i++)
            out[i] = i;
        *count = b->n;
        return out;
    }
    PyArrayObject* a = (PyArrayObject*)PyArray_FromAny(obj, NULL, 0, 1, NPY_ARRAY_IN_ARRAY, NULL);
    if (!a) goto bad;
    if (PyArray_TYPE(a) == NPY_BOOL) {
        if (PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != b->n) {
            PyErr_Format(PyExc_ValueError, "worlds: a mask of %d booleans", b->n);
            goto bad;
        }
        const npy_bool* m = PyArray_DATA(a);
        for (int i = 0; i < b->n; i++)
            if (m[i]) out[(*count)++] = i;
    } else if (PyArray_ISINTEGER(a)) {
        PyArrayObject* c = (PyArrayObject*)PyArray_Cast(a, NPY_INT64);
        if (!c) goto bad;
        const npy_int64* v = PyArray_DATA(c);
        npy_intp k = PyArray_SIZE(c);
        if (k > b->n) {
            Py_DECREF(c);
            PyErr_SetString(PyExc_ValueError, "worlds: more indices than worlds");
            goto bad;
        }
        for (npy_intp j = 0; j < k; j++) {
            npy_int64 i = v[j] < 0 ? v[j] + b->n : v[j];
            if (i < 0 || i >= b->n) {
                PyErr_Format(PyExc_IndexError, "worlds: index %lld out of range (%d worlds)",
                             (long long)v[j], b->n);
                Py_DECREF(c);
                goto bad;
            }
            out[(*count)++] = (int)i;
        }
        Py_DECREF(c);
    } else {
        PyErr_SetString(PyExc_TypeError, "worlds: None, an int, indices or a boolean mask");
        goto bad;
    }
    Py_DECREF(a);
    return out;
bad:
    Py_XDECREF(a);
    free(out);
    return NULL;
}

static PyObject* batch_reset(SnpBatch* b, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"worlds", "checkpoint", NULL};
    PyObject *which = Py_None, *ck = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:reset", kwlist, &which, &ck)) return NULL;
    if (!ready(b)) return NULL;
    Py_buffer view = {0};
    const void* buf = b->ckpt0;
    size_t len = b->ckpt0_n;
    if (ck != Py_None) {
        if (PyObject_GetBuffer(ck, &view, PyBUF_SIMPLE) < 0) return NULL;
        buf = view.buf;
        len = (size_t)view.len;
    }
    int count;
    int* idx = indices(b, which, &count);
    PyObject* ret = idx ? Py_None : NULL;
    for (int j = 0; idx && j < count; j++) {
        int i = idx[j];
        sn_status st = sn_world_load_state(b->w[i], buf, len);
        if (st != SN_OK) {
            char msg[400];
            snprintf(msg, sizeof msg, "reset: world %d refused the checkpoint: %s", i,
                     sn_world_last_error(b->w[i]));
            ret = snpy_raise_status(st, msg);
            break;
        }
        gather(b, i);
    }
    free(idx);
    if (ck != Py_None) PyBuffer_Release(&view);
    Py_XINCREF(ret);
    return ret;
}

static PyObject* batch_save(SnpBatch* b, PyObject* arg) {
    if (!ready(b)) return NULL;
    int i = snpy_index(arg, b->n, NULL, -1, "world");
    if (i < 0) return NULL;
    size_t n = 0, wrote = 0;
    sn_status st = sn_world_checkpoint_size(b->w[i], &n);
    if (st != SN_OK) return snpy_raise_status(st, sn_world_last_error(b->w[i]));
    PyObject* out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (!out) return NULL;
    st = sn_world_save_state(b->w[i], PyBytes_AS_STRING(out), n, &wrote);
    if (st != SN_OK) {
        Py_DECREF(out);
        return snpy_raise_status(st, sn_world_last_error(b->w[i]));
    }
    if (wrote != n && _PyBytes_Resize(&out, (Py_ssize_t)wrote) < 0) return NULL;
    return out;
}

// the start state (what reset() loads) becomes world i's checkpoint now
static PyObject* batch_set_start(SnpBatch* b, PyObject* args) {
    PyObject* which = NULL;
    if (!PyArg_ParseTuple(args, "|O:set_start", &which)) return NULL;
    if (!ready(b)) return NULL;
    int i = which ? snpy_index(which, b->n, NULL, -1, "world") : 0;
    if (i < 0) return NULL;
    size_t n = 0, wrote = 0;
    sn_status st = sn_world_checkpoint_size(b->w[i], &n);
    if (st != SN_OK) return snpy_raise_status(st, sn_world_last_error(b->w[i]));
    unsigned char* buf = malloc(n ? n : 1);
    if (!buf) return PyErr_NoMemory();
    st = sn_world_save_state(b->w[i], buf, n, &wrote);
    if (st != SN_OK) {
        free(buf);
        return snpy_raise_status(st, sn_world_last_error(b->w[i]));
    }
    free(b->ckpt0);
    b->ckpt0 = buf;
    b->ckpt0_n = wrote;
    Py_RETURN_NONE;
}

static PyObject* batch_set_state(SnpBatch* b, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"q", "u", "worlds", NULL};
    PyObject *qo, *uo = Py_None, *which = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:set_state", kwlist, &qo, &uo, &which))
        return NULL;
    if (!ready(b)) return NULL;
    int count;
    int* idx = indices(b, which, &count);
    if (!idx) return NULL;
    PyArrayObject *q = NULL, *u = NULL;
    PyObject* ret = NULL;
    q = (PyArrayObject*)PyArray_FromAny(qo, PyArray_DescrFromType(NPY_DOUBLE), 2, 2,
                                        NPY_ARRAY_IN_ARRAY, NULL);
    if (!q) goto out;
    if (PyArray_DIM(q, 0) != count || PyArray_DIM(q, 1) != b->nq) {
        PyErr_Format(PyExc_ValueError, "set_state: q of shape (%d, %d)", count, b->nq);
        goto out;
    }
    if (uo != Py_None) {
        u = (PyArrayObject*)PyArray_FromAny(uo, PyArray_DescrFromType(NPY_DOUBLE), 2, 2,
                                            NPY_ARRAY_IN_ARRAY, NULL);
        if (!u) goto out;
        if (PyArray_DIM(u, 0) != count || PyArray_DIM(u, 1) != b->nv) {
            PyErr_Format(PyExc_ValueError, "set_state: u of shape (%d, %d)", count, b->nv);
            goto out;
        }
    }
    for (int j = 0; j < count; j++) {
        int i = idx[j];
        const double* qi = (const double*)PyArray_DATA(q) + (size_t)j * b->nq;
        const double* ui =
            u ? (const double*)PyArray_DATA(u) + (size_t)j * b->nv : sn_system_u(b->s[i]);
        sn_status st = sn_system_set_state(b->s[i], qi, b->nq, ui, b->nv);
        if (st != SN_OK) {
            char msg[400];
            snprintf(msg, sizeof msg, "set_state: world %d: %s", i, sn_world_last_error(b->w[i]));
            snpy_raise_status(st, msg);
            goto out;
        }
        gather(b, i);
    }
    ret = Py_None;
    Py_INCREF(ret);
out:
    Py_XDECREF(q);
    Py_XDECREF(u);
    free(idx);
    return ret;
}

static PyObject* batch_set_pd_gains(SnpBatch* b, PyObject* args) {
    PyObject *kpo, *kdo;
    if (!PyArg_ParseTuple(args, "OO:set_pd_gains", &kpo, &kdo)) return NULL;
    if (!ready(b)) return NULL;
    PyObject *k1, *k2;
    const double* kp = snpy_doubles(kpo, b->nv, "kp", &k1, NULL);
    if (!kp) return NULL;
    const double* kd = snpy_doubles(kdo, b->nv, "kd", &k2, NULL);
    PyObject* ret = kd ? Py_None : NULL;
    for (int i = 0; kd && i < b->n; i++) {
        sn_status st = sn_system_set_pd_gains(b->s[i], kp, kd, b->nv);
        if (st != SN_OK) {
            ret = snpy_raise_status(st, sn_world_last_error(b->w[i]));
            break;
        }
    }
    Py_DECREF(k1);
    Py_XDECREF(k2);
    Py_XINCREF(ret);
    return ret;
}

// ---- attributes ----

static PyObject* get_q(SnpBatch* b, void* c) {
    (void)c;
    return snpy_view((PyObject*)b, b->q, 2, b->n, b->nq, 0);
}
static PyObject* get_u(SnpBatch* b, void* c) {
    (void)c;
    return snpy_view((PyObject*)b, b->u, 2, b->n, b->nv, 0);
}
static PyObject* get_time(SnpBatch* b, void* c) {
    (void)c;
    return snpy_view((PyObject*)b, b->time, 1, b->n, 0, 0);
}
static PyObject* get_n(SnpBatch* b, void* c) {
    (void)c;
    return PyLong_FromLong(b->n);
}
static PyObject* get_nu(SnpBatch* b, void* c) {
    (void)c;
    return PyLong_FromLong(b->nu);
}
static PyObject* get_threads(SnpBatch* b, void* c) {
    (void)c;
    return PyLong_FromLong(b->nthreads);
}
static PyObject* get_action(SnpBatch* b, void* c) {
    (void)c;
    return PyUnicode_FromString(act_names[b->action]);
}
static PyObject* get_model(SnpBatch* b, void* c) {
    (void)c;
    Py_INCREF(b->model);
    return (PyObject*)b->model;
}
static PyObject* get_timestep(SnpBatch* b, void* c) {
    (void)c;
    return PyFloat_FromDouble(sn_world_timestep(b->w[0]));
}
static PyObject* get_start(SnpBatch* b, void* c) {
    (void)c;
    return PyBytes_FromStringAndSize((const char*)b->ckpt0, (Py_ssize_t)b->ckpt0_n);
}

static PyMethodDef batch_methods[] = {
    {"step", (PyCFunction)(void (*)(void))batch_step, METH_VARARGS | METH_KEYWORDS,
     "step(actions=None, n=1): apply actions (n_worlds, nu) and step every world n times on the\n"
     "batch's threads, the GIL released; the actions are held for the n steps. A world whose step\n"
     "fails keeps the state before that step; the others step on, and sinew.Error is raised\n"
     "with .worlds listing the failed ones."},
    {"step_loop", (PyCFunction)batch_step_loop, METH_VARARGS,
     "step_loop(n): n steps of every world, one step of all at a time (step-major, as a Python\n"
     "loop over step() does), from C, the actions held; bench/python's C reference"},
    {"reset", (PyCFunction)(void (*)(void))batch_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(worlds=None, checkpoint=None): load a checkpoint (default: the start state) into\n"
     "the worlds given (None: all; an int, indices or a boolean mask)"},
    {"save", (PyCFunction)batch_save, METH_O, "save(i) -> bytes: world i's checkpoint"},
    {"set_state", (PyCFunction)(void (*)(void))batch_set_state, METH_VARARGS | METH_KEYWORDS,
     "set_state(q, u=None, worlds=None): states of the worlds given (rows in their order),\n"
     "validated as System.set_state"},
    {"set_pd_gains", (PyCFunction)batch_set_pd_gains, METH_VARARGS,
     "set_pd_gains(kp, kd): the same gains (nv each) in every world; PD control on. A\n"
     "checkpoint holds the controller's inputs: call set_start() for reset() to keep them"},
    {"set_start", (PyCFunction)batch_set_start, METH_VARARGS,
     "set_start(world=0): the start state that reset() loads becomes that world's checkpoint\n"
     "now (its state and its controller's inputs: mode, gains, targets)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef batch_getset[] = {
    {"q", (getter)get_q, NULL, "(n, nq) coordinates of every world, a read-only view", NULL},
    {"u", (getter)get_u, NULL, "(n, nv) velocities of every world, a read-only view", NULL},
    {"time", (getter)get_time, NULL, "(n) each world's time, a read-only view", NULL},
    {"n", (getter)get_n, NULL, "number of worlds", NULL},
    {"nu", (getter)get_nu, NULL, "actions per world", NULL},
    {"threads", (getter)get_threads, NULL, "threads that step (the caller's included)", NULL},
    {"action", (getter)get_action, NULL,
     "what actions are: 'torque' (joint forces past a floating base), 'target' (PD position\n"
     "targets of those joints), 'actuator' (the model's actuators' commands) or 'none'",
     NULL},
    {"model", (getter)get_model, NULL, "the Model", NULL},
    {"timestep", (getter)get_timestep, NULL, "time step (s)", NULL},
    {"start", (getter)get_start, NULL, "the start state's checkpoint (bytes)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SnpBatch_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Batch",
    .tp_basicsize = sizeof(SnpBatch),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Batch(model, n, *, threads=1, action='torque', timestep=None, key=None,\n"
              "      q0=None, u0=None, ground='file'): n worlds of one model, each set up from the "
              "file as\n"
              "World.add does, stepped together on C threads. States in one (n, nq) and one\n"
              "(n, nv) array, actions as one (n, nu) array, any subset reset to a checkpoint.",
    .tp_weaklistoffset = offsetof(SnpBatch, weakrefs),
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
    .tp_new = batch_new,
};

int snpy_batch_init_types(PyObject* mod) {
    if (PyType_Ready(&SnpBatch_Type) < 0) return -1;
    return PyModule_AddObjectRef(mod, "Batch", (PyObject*)&SnpBatch_Type);
}
