// SPDX-License-Identifier: Apache-2.0
// module.c: the _sinew module: its errors, the argument helpers every object uses, and the
// loaders (sinew.load, sinew.load_string). docs/python.md.
#define SNPY_MODULE_MAIN
#include "snpy.h"

#include <string.h>

PyObject* snpy_Error;
PyObject* snpy_ArgError;
PyTypeObject* snpy_system_class = &SnpSystem_Type;

// ---- errors ----

static PyObject* raise_with(sn_status st, const char* msg, const char* file, int line,
                            const char* element) {
    PyObject* cls = st == SN_ERR_ARG ? snpy_ArgError : snpy_Error;
    PyObject* e = PyObject_CallFunction(cls, "s", msg && msg[0] ? msg : sn_status_str(st));
    if (!e) return NULL;
    int bad = PyObject_SetAttrString(e, "status", PyUnicode_FromString(sn_status_str(st))) < 0;
    PyObject* v = PyLong_FromLong(st);
    bad |= !v || PyObject_SetAttrString(e, "code", v) < 0;
    Py_XDECREF(v);
    v = PyUnicode_DecodeFSDefault(file ? file : "");
    bad |= !v || PyObject_SetAttrString(e, "file", v) < 0;
    Py_XDECREF(v);
    v = PyLong_FromLong(line);
    bad |= !v || PyObject_SetAttrString(e, "line", v) < 0;
    Py_XDECREF(v);
    v = PyUnicode_FromString(element ? element : "");
    bad |= !v || PyObject_SetAttrString(e, "element", v) < 0;
    Py_XDECREF(v);
    if (bad) {
        Py_DECREF(e);
        return NULL;
    }
    PyErr_SetObject(cls, e);
    Py_DECREF(e);
    return NULL;
}

PyObject* snpy_raise_error(const sn_error* e) {
    return raise_with(e->code, e->msg, e->file, e->line, e->element);
}

PyObject* snpy_raise_status(sn_status st, const char* msg) {
    return raise_with(st, msg, "", 0, "");
}

PyObject* snpy_raise_world(SnpWorld* w, sn_status st) {
    const char* msg = w && w->w ? sn_world_last_error(w->w) : "";
    if (!msg || !msg[0]) msg = sn_last_error();
    return snpy_raise_status(st, msg);
}

int snpy_world_busy(SnpWorld* w) {
    if (!w->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError,
                    "sinew: the world is stepping in another thread (a world belongs to one "
                    "thread at a time)");
    return 1;
}

// ---- views and arguments ----

// a numpy array over p whose base is owner (kept alive by the array)
static PyObject* view_of(PyObject* owner, const void* p, int nd, npy_intp* dims, int type,
                         int flags) {
    static const double none = 0;
    if (!p) p = &none; // an empty array still needs a pointer that is not NULL
    PyObject* a = PyArray_New(&PyArray_Type, nd, dims, type, NULL, (void*)p, 0, flags, NULL);
    if (!a) return NULL;
    Py_INCREF(owner);
    if (PyArray_SetBaseObject((PyArrayObject*)a, owner) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

PyObject* snpy_view(PyObject* owner, const double* p, int nd, npy_intp d0, npy_intp d1,
                    int writeable) {
    npy_intp dims[2] = {d0, d1};
    return view_of(owner, p, nd, dims, NPY_DOUBLE,
                   writeable ? NPY_ARRAY_CARRAY : NPY_ARRAY_CARRAY_RO);
}

PyObject* snpy_view_int(PyObject* owner, const int* p, npy_intp n) {
    return view_of(owner, p, 1, &n, NPY_INT32, NPY_ARRAY_CARRAY_RO);
}

int snpy_add_members(PyTypeObject* type, PyMethodDef* methods, PyGetSetDef* getset) {
    PyObject* dict = type->tp_dict;
    for (PyMethodDef* d = methods; d && d->ml_name; d++) {
        PyObject* f = PyDescr_NewMethod(type, d);
        if (!f || PyDict_SetItemString(dict, d->ml_name, f) < 0) {
            Py_XDECREF(f);
            return -1;
        }
        Py_DECREF(f);
    }
    for (PyGetSetDef* g = getset; g && g->name; g++) {
        PyObject* f = PyDescr_NewGetSet(type, g);
        if (!f || PyDict_SetItemString(dict, g->name, f) < 0) {
            Py_XDECREF(f);
            return -1;
        }
        Py_DECREF(f);
    }
    PyType_Modified(type);
    return 0;
}

PyObject* snpy_dict_of(const char* const* keys, PyObject** values, int n) {
    PyObject* d = PyDict_New();
    for (int k = 0; k < n; k++) {
        if (d && PyDict_SetItemString(d, keys[k], values[k]) < 0) Py_CLEAR(d);
        Py_CLEAR(values[k]);
    }
    return d;
}

const double* snpy_doubles(PyObject* obj, npy_intp n, const char* name, PyObject** keep,
                           npy_intp* got) {
    *keep = NULL;
    if (!obj || obj == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s: expected %zd numbers, got None", name, (Py_ssize_t)n);
        return NULL;
    }
    if (PyUnicode_Check(obj) || PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected numbers, got %s", name, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    // float64, C order; safe casts only (int and bool are taken, complex and strings refused)
    PyArray_Descr* d = PyArray_DescrFromType(NPY_DOUBLE);
    PyObject* a = PyArray_FromAny(obj, d, 0, 0, NPY_ARRAY_IN_ARRAY, NULL);
    if (!a) {
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyObject* s = v ? PyObject_Str(v) : NULL;
        PyErr_Format(PyExc_TypeError, "%s: expected an array of floats (%s)", name,
                     s ? PyUnicode_AsUTF8(s) : "not convertible");
        Py_XDECREF(s);
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
        return NULL;
    }
    PyArrayObject* arr = (PyArrayObject*)a;
    npy_intp size = PyArray_SIZE(arr);
    if (PyArray_NDIM(arr) != 1 || (n >= 0 && size != n)) {
        if (n >= 0)
            PyErr_Format(PyExc_ValueError,
                         "%s: expected %zd numbers (shape (%zd,)), got %d-D %s%zd", name,
                         (Py_ssize_t)n, (Py_ssize_t)n, PyArray_NDIM(arr),
                         PyArray_NDIM(arr) == 1 ? "of size " : "array of size ", (Py_ssize_t)size);
        else
            PyErr_Format(PyExc_ValueError, "%s: expected a 1-D array, got %d-D", name,
                         PyArray_NDIM(arr));
        Py_DECREF(a);
        return NULL;
    }
    if (got) *got = size;
    *keep = a;
    return (const double*)PyArray_DATA(arr);
}

int snpy_index(PyObject* obj, int n, const sn_model* m, int kind, const char* what) {
    if (PyUnicode_Check(obj)) {
        if (kind < 0 || !m) {
            PyErr_Format(PyExc_TypeError, "%s: expected an index", what);
            return -1;
        }
        const char* name = PyUnicode_AsUTF8(obj);
        if (!name) return -1;
        int id = sn_model_find(m, (sn_object)kind, name);
        if (id < 0) {
            PyErr_Format(PyExc_KeyError, "%s: no %s named '%s' in the model", what, what, name);
            return -1;
        }
        return id;
    }
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an int%s, got %s", what,
                     kind >= 0 ? " or a name" : "", Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(obj, NULL); // clips on overflow, caught by the range test
    if (i == -1 && PyErr_Occurred()) return -1;
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
        PyErr_Format(PyExc_IndexError, "%s: index out of range (%zd of %d)", what,
                     PyNumber_AsSsize_t(obj, NULL), n);
        return -1;
    }
    return (int)i;
}

int snpy_vec3(PyObject* obj, const char* name, double out[3]) {
    PyObject* keep;
    const double* p = snpy_doubles(obj, 3, name, &keep, NULL);
    if (!p) return -1;
    memcpy(out, p, 3 * sizeof(double));
    Py_DECREF(keep);
    return 0;
}

PyObject* snpy_tuple3(const double v[3]) {
    return Py_BuildValue("(ddd)", v[0], v[1], v[2]);
}

// ---- the module ----

static PyObject* mod_version(PyObject* self, PyObject* noargs) {
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(sn_version());
}

static PyObject* mod_set_system_class(PyObject* self, PyObject* cls) {
    (void)self;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &SnpSystem_Type)) {
        PyErr_SetString(PyExc_TypeError, "_set_system_class: a subclass of _sinew.System");
        return NULL;
    }
    Py_INCREF(cls);
    if (snpy_system_class != &SnpSystem_Type) Py_DECREF(snpy_system_class);
    snpy_system_class = (PyTypeObject*)cls;
    Py_RETURN_NONE;
}

PyObject* snpy_load(PyObject* self, PyObject* args, PyObject* kw);
PyObject* snpy_load_string(PyObject* self, PyObject* args, PyObject* kw);

static PyMethodDef mod_methods[] = {
    {"load", (PyCFunction)(void (*)(void))snpy_load, METH_VARARGS | METH_KEYWORDS,
     "load(path, base='auto', package_dir=None) -> Model\n\n"
     "Read a URDF, MJCF or USD text file, recognised by its content (sn_load). A bad file raises\n"
     "sinew.Error with .file, .line and .element set. base: 'auto' (a root link named 'world'\n"
     "is fixed, otherwise floating), 'fixed' or 'floating'."},
    {"load_string", (PyCFunction)(void (*)(void))snpy_load_string, METH_VARARGS | METH_KEYWORDS,
     "load_string(text, format='urdf', name='<string>', base_dir=None, base='auto') -> Model\n\n"
     "Read a model from text: format 'urdf', 'mjcf' or 'usd'; base_dir resolves relative mesh\n"
     "and include paths."},
    {"version", mod_version, METH_NOARGS, "version() -> str: the C library's version."},
    {"_set_system_class", mod_set_system_class, METH_O,
     "internal: the class World.add makes (a subclass of _sinew.System)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef mod_def = {
    PyModuleDef_HEAD_INIT,
    "_sinew",
    "sinew's C extension: the public C API as Model, World and System (docs/python.md).",
    -1,
    mod_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__sinew(void);
PyMODINIT_FUNC PyInit__sinew(void) {
    import_array();
    PyObject* mod = PyModule_Create(&mod_def);
    if (!mod) return NULL;
    snpy_Error = PyErr_NewExceptionWithDoc(
        "sinew.Error",
        "A failure of a sinew call. Attributes: status (the C status name, 'SN_ERR_PARSE'...),\n"
        "code (its number), file, line and element (where in a model file; '' and 0 otherwise).",
        NULL, NULL);
    PyObject* bases = snpy_Error ? PyTuple_Pack(2, snpy_Error, PyExc_ValueError) : NULL;
    snpy_ArgError = bases ? PyErr_NewExceptionWithDoc(
                                "sinew.ArgumentError",
                                "An argument the C library refused (SN_ERR_ARG): a sinew.Error "
                                "and a ValueError.",
                                bases, NULL)
                          : NULL;
    Py_XDECREF(bases);
    if (!snpy_ArgError || PyModule_AddObjectRef(mod, "Error", snpy_Error) < 0 ||
        PyModule_AddObjectRef(mod, "ArgumentError", snpy_ArgError) < 0 ||
        snpy_model_init_types(mod) < 0 || snpy_world_init_types(mod) < 0 ||
        snpy_system_init_types(mod) < 0 || snpy_soft_add_to(&SnpWorld_Type, &SnpSystem_Type) < 0 ||
        snpy_batch_init_types(mod) < 0 || snpy_arm_init_types(mod) < 0 ||
        snpy_maximal_init_types(mod) < 0 || snpy_docs_attach(mod, "Model", "sn_model_") < 0 ||
        snpy_docs_attach(mod, "World", "sn_world_") < 0 ||
        snpy_docs_attach(mod, "System", "sn_system_") < 0 ||
        snpy_docs_attach(mod, "Maximal", "sn_maximal_") < 0 ||
        snpy_docs_attach(mod, "Arm", "sn_arm_") < 0 || snpy_docs_attach(mod, "Batch", NULL) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
