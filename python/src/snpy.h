// SPDX-License-Identifier: Apache-2.0
// snpy.h: the shared parts of the _sinew extension (python/src/*.c, docs/python.md). The
// extension binds the public C API (include/sinew) and nothing else: a Model owns an sn_model, a
// World an sn_world and the Models its systems simulate, a System points into its World (which
// it keeps alive). Arrays handed to Python are numpy views over sinew's memory whose base is the
// object that owns the memory, so a view keeps its owner alive; views of state are read-only and
// the setters validate.
#ifndef SNPY_H
#define SNPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL snpy_ARRAY_API
#ifndef SNPY_MODULE_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>
#include <sinew/sn.h>

typedef struct SnpModel {
    PyObject_HEAD sn_model* m;
    PyObject* path;   // the file it was read from (str), or None for a model read from text
    PyObject* text;   // the text it was read from (str), or None
    PyObject* format; // "urdf", "mjcf", "usd" or None (by content)
    int base;         // sn_base_mode of the load
    PyObject* owner;  // non-NULL: m is borrowed from this object (a world's free body), kept alive
} SnpModel;

typedef struct SnpWorld {
    PyObject_HEAD sn_world* w;
    PyObject* models; // list: the Models its systems simulate (kept alive with the world)
    int busy;         // 1 while a step runs with the GIL released
    PyObject* weakrefs;
} SnpWorld;

typedef struct SnpSystem {
    PyObject_HEAD SnpWorld* world; // strong
    sn_system* s;
    SnpModel* model; // strong
    int index;       // in the world
} SnpSystem;

extern PyTypeObject SnpModel_Type;
extern PyTypeObject SnpWorld_Type;
extern PyTypeObject SnpSystem_Type;
extern PyObject* snpy_Error;    // sinew.Error
extern PyObject* snpy_ArgError; // sinew.ArgumentError (also a ValueError)
// the class World.add and World.systems make (System or a subclass registered by sinew/__init__)
extern PyTypeObject* snpy_system_class;

// raise sinew.Error from a loader's record (file, line, element as attributes)
PyObject* snpy_raise_error(const sn_error* e);
// raise sinew.Error (ArgumentError for SN_ERR_ARG) with a status and a message
PyObject* snpy_raise_status(sn_status st, const char* msg);
// a world's or system's failure: the world's last error, else the thread's
PyObject* snpy_raise_world(SnpWorld* w, sn_status st);

// a read-only (or writeable) numpy view of n doubles (nd 1 or 2) owned by `owner`
PyObject* snpy_view(PyObject* owner, const double* p, int nd, npy_intp d0, npy_intp d1,
                    int writeable);
// a dict of keys[k] -> values[k] (k < n); the values' references are released either way
PyObject* snpy_dict_of(const char* const* keys, PyObject** values, int n);
// an int32 read-only view
PyObject* snpy_view_int(PyObject* owner, const int* p, npy_intp n);
// obj as a C-contiguous float64 array of exactly n numbers (a new reference in *keep, which the
// caller releases); NULL with TypeError or ValueError naming `name` otherwise. n < 0: any size
// (the size goes to *got)
const double* snpy_doubles(PyObject* obj, npy_intp n, const char* name, PyObject** keep,
                           npy_intp* got);
// an index argument: an int in 0..n-1 (negative counts from the end, as Python's), or a name
// that the model resolves for `kind` (kind < 0: no names); -1 with IndexError/TypeError
int snpy_index(PyObject* obj, int n, const sn_model* m, int kind, const char* what);
// an optional 3-vector (x, y, z)
int snpy_vec3(PyObject* obj, const char* name, double out[3]);
PyObject* snpy_tuple3(const double v[3]);

// refuse a call on a world that is stepping in another thread
int snpy_world_busy(SnpWorld* w);
#define SNPY_READY(wobj, ret)                                                                      \
    do {                                                                                           \
        if (snpy_world_busy(wobj)) return ret;                                                     \
    } while (0)

PyObject* snpy_system_new(SnpWorld* w, int index);
// a Model that borrows m from owner (a world's own model: a free body)
PyObject* snpy_model_borrowed(const sn_model* m, PyObject* owner);
int snpy_model_init_types(PyObject* mod);
int snpy_world_init_types(PyObject* mod);
int snpy_system_init_types(PyObject* mod);
int snpy_batch_init_types(PyObject* mod);
int snpy_arm_init_types(PyObject* mod);
// sinew.Maximal and World's constraints between systems (maximal.c), after World and System
int snpy_maximal_init_types(PyObject* mod);
// docs.c: module attribute type_name's docstrings take the C doc comments of the functions they
// name, or else of prefix + their own name (prefix NULL: named ones only)
int snpy_docs_attach(PyObject* mod, const char* type_name, const char* prefix);
// add methods and getsets (NULL-terminated tables, either NULL) to a type after PyType_Ready
int snpy_add_members(PyTypeObject* type, PyMethodDef* methods, PyGetSetDef* getset);
// System's sensor and IK methods (sensors.c), added to its type after PyType_Ready
int snpy_sensors_add_to(PyTypeObject* type);
// World's and System's soft-contact and Expo members (soft.c), added after both are ready
int snpy_soft_add_to(PyTypeObject* world, PyTypeObject* system);
// System's closed-loop inverse and forward dynamics (loopid.c)
int snpy_loopid_add_to(PyTypeObject* system);

#endif
