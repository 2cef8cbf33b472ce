// SPDX-License-Identifier: Apache-2.0
// model.c: sinew.Model, a loaded model (sn_model): sizes, names, limits and the other per-DOF
// arrays as read-only views over the model's own memory. docs/python.md "Model".
#include "snpy.h"

#include <string.h>

static int parse_base(const char* s, int* out) {
    if (!s || !strcmp(s, "auto"))
        *out = SN_BASE_AUTO;
    else if (!strcmp(s, "fixed"))
        *out = SN_BASE_FIXED;
    else if (!strcmp(s, "floating"))
        *out = SN_BASE_FLOATING;
    else {
        PyErr_Format(PyExc_ValueError, "base: 'auto', 'fixed' or 'floating', not '%s'", s);
        return -1;
    }
    return 0;
}

static PyObject* wrap_model(sn_model* m, PyObject* path, PyObject* text, int base) {
    SnpModel* o = PyObject_New(SnpModel, &SnpModel_Type);
    if (!o) {
        sn_model_destroy(m);
        return NULL;
    }
    o->m = m;
    o->path = path;
    o->text = text;
    o->base = base;
    o->owner = NULL;
    static const char* formats[] = {"urdf", "mjcf", "usd"};
    o->format = m->format >= 0 && m->format <= 2 ? PyUnicode_FromString(formats[m->format])
                                                 : Py_NewRef(Py_None);
    return (PyObject*)o;
}

PyObject* snpy_load(PyObject* self, PyObject* args, PyObject* kw);
PyObject* snpy_load(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"path", "base", "package_dir", NULL};
    PyObject* path_obj;
    const char* base_s = NULL;
    const char* pkg = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|zz:load", kwlist, PyUnicode_FSConverter,
                                     &path_obj, &base_s, &pkg))
        return NULL;
    sn_load_opts o = {0};
    int base;
    if (parse_base(base_s, &base) < 0) {
        Py_DECREF(path_obj);
        return NULL;
    }
    o.base = (sn_base_mode)base;
    o.package_dir = pkg;
    sn_model* m = NULL;
    sn_error e = {0};
    sn_status st;
    const char* path = PyBytes_AS_STRING(path_obj);
    PyThreadState* ts = PyEval_SaveThread(); // a large file reads without the GIL
    st = sn_load(path, &o, &m, &e);
    PyEval_RestoreThread(ts);
    if (st != SN_OK) {
        Py_DECREF(path_obj);
        return snpy_raise_error(&e);
    }
    PyObject* p = PyUnicode_DecodeFSDefault(path);
    Py_DECREF(path_obj);
    if (!p) {
        sn_model_destroy(m);
        return NULL;
    }
    return wrap_model(m, p, Py_NewRef(Py_None), base);
}

PyObject* snpy_load_string(PyObject* self, PyObject* args, PyObject* kw);
PyObject* snpy_load_string(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"text", "format", "name", "base_dir", "base", NULL};
    PyObject* text;
    const char* format = "urdf";
    const char* name = "<string>";
    const char* base_dir = NULL;
    const char* base_s = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "U|szzz:load_string", kwlist, &text, &format, &name,
                                     &base_dir, &base_s))
        return NULL;
    if (!name) name = "<string>";
    Py_ssize_t len;
    const char* s = PyUnicode_AsUTF8AndSize(text, &len);
    if (!s) return NULL;
    int base;
    if (parse_base(base_s, &base) < 0) return NULL;
    sn_load_opts o = {0};
    o.base = (sn_base_mode)base;
    sn_model* m = NULL;
    sn_error e = {0};
    sn_status st;
    if (!strcmp(format, "urdf"))
        st = sn_load_urdf_string(s, (size_t)len, name, base_dir, &o, &m, &e);
    else if (!strcmp(format, "mjcf"))
        st = sn_load_mjcf_string(s, (size_t)len, name, base_dir, &o, &m, &e);
    else if (!strcmp(format, "usd"))
        st = sn_load_usd_string(s, (size_t)len, name, &o, &m, &e);
    else {
        PyErr_Format(PyExc_ValueError, "format: 'urdf', 'mjcf' or 'usd', not '%s'", format);
        return NULL;
    }
    if (st != SN_OK) return snpy_raise_error(&e);
    return wrap_model(m, Py_NewRef(Py_None), Py_NewRef(text), base);
}

PyObject* snpy_model_borrowed(const sn_model* m, PyObject* owner) {
    SnpModel* o = PyObject_New(SnpModel, &SnpModel_Type);
    if (!o) return NULL;
    o->m = (sn_model*)m;
    o->path = Py_NewRef(Py_None);
    o->text = Py_NewRef(Py_None);
    o->format = Py_NewRef(Py_None);
    o->base = 0;
    o->owner = Py_NewRef(owner);
    return (PyObject*)o;
}

static void model_dealloc(SnpModel* o) {
    if (o->owner)
        Py_DECREF(o->owner);
    else
        sn_model_destroy(o->m);
    Py_XDECREF(o->path);
    Py_XDECREF(o->text);
    Py_XDECREF(o->format);
    Py_TYPE(o)->tp_free((PyObject*)o);
}

// ---- names ----

static PyObject* names(SnpModel* o, sn_object kind, int n) {
    PyObject* l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) {
        const char* s = sn_model_name(o->m, kind, i);
        PyObject* v = PyUnicode_FromString(s ? s : "");
        if (!v) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

static PyObject* get_body_names(SnpModel* o, void* c) {
    (void)c;
    return names(o, SN_OBJ_BODY, o->m->nbody);
}
static PyObject* get_joint_names(SnpModel* o, void* c) {
    (void)c;
    return names(o, SN_OBJ_JOINT, o->m->njoint);
}
static PyObject* get_frame_names(SnpModel* o, void* c) {
    (void)c;
    return names(o, SN_OBJ_FRAME, o->m->nframe);
}
static PyObject* get_urdf_joint_names(SnpModel* o, void* c) {
    (void)c;
    return names(o, SN_OBJ_URDF_JOINT, o->m->nujoint);
}
static PyObject* get_actuator_names(SnpModel* o, void* c) {
    (void)c;
    return names(o, SN_OBJ_ACTUATOR, o->m->nactuator);
}
static PyObject* get_key_names(SnpModel* o, void* c) {
    (void)c;
    return names(o, SN_OBJ_KEY, o->m->nkey);
}
static PyObject* get_sensor_names(SnpModel* o, void* c) {
    (void)c;
    return names(o, SN_OBJ_SENSOR, o->m->nsensor);
}

static PyObject* get_joint_types(SnpModel* o, void* c) {
    (void)c;
    PyObject* l = PyList_New(o->m->njoint);
    for (int i = 0; l && i < o->m->njoint; i++)
        PyList_SET_ITEM(l, i, PyUnicode_FromString(sn_joint_type_str(o->m->joint_type[i])));
    return l;
}

static PyObject* get_warnings(SnpModel* o, void* c) {
    (void)c;
    int n = o->m->nwarning < 64 ? o->m->nwarning : 64;
    PyObject* l = PyList_New(n);
    for (int i = 0; l && i < n; i++)
        PyList_SET_ITEM(l, i, PyUnicode_FromString(o->m->warnings[i]));
    return l;
}

static PyObject* model_find(SnpModel* o, PyObject* args) {
    const char* kind;
    const char* name;
    if (!PyArg_ParseTuple(args, "ss:find", &kind, &name)) return NULL;
    static const char* kinds[] = {"body", "joint",  "frame",           "urdf_joint", "actuator",
                                  "key",  "tendon", "tendon_actuator", "sensor"};
    for (int k = 0; k < 9; k++)
        if (!strcmp(kind, kinds[k]))
            return PyLong_FromLong(sn_model_find(o->m, (sn_object)k, name));
    PyErr_Format(PyExc_ValueError,
                 "find: kind is one of body, joint, frame, urdf_joint, actuator, key, tendon, "
                 "tendon_actuator, sensor; not '%s'",
                 kind);
    return NULL;
}

// ---- sizes and arrays ----

#define SIZE_GETTER(field)                                                                         \
    static PyObject* get_##field(SnpModel* o, void* c) {                                           \
        (void)c;                                                                                   \
        return PyLong_FromLong(o->m->field);                                                       \
    }
SIZE_GETTER(nq)
SIZE_GETTER(nv)
SIZE_GETTER(nbody)
SIZE_GETTER(njoint)
SIZE_GETTER(nframe)
SIZE_GETTER(nujoint)
SIZE_GETTER(ngeom)
SIZE_GETTER(nconstraint)
SIZE_GETTER(nactuator)
SIZE_GETTER(nkey)
SIZE_GETTER(ntendon)
SIZE_GETTER(nsensor)

static PyObject* get_is_floating(SnpModel* o, void* c) {
    (void)c;
    return PyBool_FromLong(o->m->is_floating);
}

#define DOF_VIEW(name, field)                                                                      \
    static PyObject* get_##name(SnpModel* o, void* c) {                                            \
        (void)c;                                                                                   \
        return snpy_view((PyObject*)o, o->m->field, 1, o->m->nv, 0, 0);                            \
    }
DOF_VIEW(lower, dof_lower)
DOF_VIEW(upper, dof_upper)
DOF_VIEW(velocity_limit, dof_velocity_limit)
DOF_VIEW(effort_limit, dof_effort_limit)
DOF_VIEW(damping, dof_damping)
DOF_VIEW(friction, dof_friction)
DOF_VIEW(stiffness, dof_stiffness)
DOF_VIEW(armature, dof_armature)

static PyObject* get_limited(SnpModel* o, void* c) {
    (void)c;
    return snpy_view_int((PyObject*)o, o->m->dof_limited, o->m->nv);
}
static PyObject* get_q0(SnpModel* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, o->m->q0, 1, o->m->nq, 0, 0);
}
static PyObject* get_body_mass(SnpModel* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, o->m->body_mass, 1, o->m->nbody, 0, 0);
}
static PyObject* get_body_parent(SnpModel* o, void* c) {
    (void)c;
    return snpy_view_int((PyObject*)o, o->m->body_parent, o->m->nbody);
}
static PyObject* get_joint_qadr(SnpModel* o, void* c) {
    (void)c;
    return snpy_view_int((PyObject*)o, o->m->joint_qadr, o->m->njoint);
}
static PyObject* get_joint_vadr(SnpModel* o, void* c) {
    (void)c;
    return snpy_view_int((PyObject*)o, o->m->joint_vadr, o->m->njoint);
}
static PyObject* get_key_q(SnpModel* o, void* c) {
    (void)c;
    return snpy_view((PyObject*)o, o->m->key_q, 2, o->m->nkey, o->m->nq, 0);
}
static PyObject* get_nominal(SnpModel* o, void* c) {
    (void)c;
    if (!o->m->nominal_config) Py_RETURN_NONE;
    return snpy_view((PyObject*)o, o->m->nominal_config, 1, o->m->nq, 0, 0);
}
static PyObject* get_path(SnpModel* o, void* c) {
    (void)c;
    return Py_NewRef(o->path);
}
static PyObject* get_format(SnpModel* o, void* c) {
    (void)c;
    return Py_NewRef(o->format);
}

// pickling: the model is read again from its file (which must exist where it is unpickled) or
// from the text it was read from
static PyObject* model_reduce(SnpModel* o, PyObject* noargs) {
    (void)noargs;
    if (o->owner) {
        PyErr_SetString(PyExc_TypeError, "a world's own body model cannot be pickled alone: "
                                         "pickle the World");
        return NULL;
    }
    static const char* bases[] = {"auto", "fixed", "floating"};
    PyObject* mod = PyImport_ImportModule("sinew._sinew");
    if (!mod) return NULL;
    PyObject* r;
    if (o->path != Py_None) {
        PyObject* f = PyObject_GetAttrString(mod, "load");
        r = f ? Py_BuildValue("(N(Os))", f, o->path, bases[o->base]) : NULL;
    } else {
        PyObject* f = PyObject_GetAttrString(mod, "load_string");
        r = f ? Py_BuildValue("(N(OOOOs))", f, o->text, o->format, Py_None, Py_None, bases[o->base])
              : NULL;
    }
    Py_DECREF(mod);
    return r;
}

static PyObject* model_repr(SnpModel* o) {
    return PyUnicode_FromFormat("<sinew.Model %R: nq %d, nv %d, %d bodies>", o->path, o->m->nq,
                                o->m->nv, o->m->nbody);
}

static PyMethodDef model_methods[] = {
    {"find", (PyCFunction)model_find, METH_VARARGS,
     "find(kind, name) -> int: the id of a named object, -1 when there is none. kind: 'body',\n"
     "'joint' (movable), 'frame' (link), 'urdf_joint', 'actuator', 'key', 'tendon',\n"
     "'tendon_actuator', 'sensor'."},
    {"__reduce__", (PyCFunction)model_reduce, METH_NOARGS, "pickle: read again from its file"},
    {NULL, NULL, 0, NULL},
};

#define G(name, doc)                                                                               \
    { #name, (getter)get_##name, NULL, doc, NULL }
static PyGetSetDef model_getset[] = {
    G(nq, "generalized coordinates"),
    G(nv, "generalized velocities (degrees of freedom)"),
    G(nbody, "dynamic bodies, the world (body 0) included"),
    G(njoint, "movable joints, in u order (a floating base included)"),
    G(nframe, "URDF links"),
    G(nujoint, "URDF joints, fixed ones included"),
    G(ngeom, "collision and visual geometries"),
    G(nconstraint, "loop constraints"),
    G(nactuator, "actuators of the <actuator> extension"),
    G(nkey, "keyframes"),
    G(ntendon, "tendons"),
    G(nsensor, "sensors the file declares"),
    G(is_floating, "True when body 1 has a floating joint"),
    G(body_names, "names of the bodies (body 0 is the world)"),
    G(joint_names, "names of the movable joints"),
    G(joint_types, "types of the movable joints ('revolute', 'floating'...)"),
    G(frame_names, "names of the links"),
    G(urdf_joint_names, "names of the URDF joints, fixed ones included"),
    G(actuator_names, "names of the actuators"),
    G(key_names, "names of the keyframes"),
    G(sensor_names, "names of the sensors"),
    G(warnings, "warnings raised by the load (at most the first 64)"),
    G(lower, "position lower limits (nv), a read-only view"),
    G(upper, "position upper limits (nv), a read-only view"),
    G(limited, "1 where lower/upper bound the position (nv, int32)"),
    G(velocity_limit, "|u| bounds (nv; inf: none)"),
    G(effort_limit, "|tau| bounds (nv; inf: none)"),
    G(damping, "joint damping (nv)"),
    G(friction, "joint Coulomb friction (nv)"),
    G(stiffness, "joint spring stiffness (nv)"),
    G(armature, "rotor inertia on the mass matrix's diagonal (nv)"),
    G(q0, "the zero configuration (nq)"),
    G(nominal, "the model's nominal configuration (nq), None when it has none"),
    G(body_mass, "masses of the bodies (nbody)"),
    G(body_parent, "parent of each body, -1 for the world (nbody, int32)"),
    G(joint_qadr, "first index of each movable joint in q (njoint, int32)"),
    G(joint_vadr, "first index of each movable joint in u (njoint, int32)"),
    G(key_q, "the keyframes' coordinates (nkey x nq)"),
    G(path, "the file the model was read from (None: from text)"),
    G(format, "'urdf', 'mjcf' or 'usd'"),
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SnpModel_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Model",
    .tp_basicsize = sizeof(SnpModel),
    .tp_dealloc = (destructor)model_dealloc,
    .tp_repr = (reprfunc)model_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A loaded model (sn_model), immutable: sizes, names, limits. Made by sinew.load or\n"
              "sinew.load_string; its arrays are read-only views that keep it alive.",
    .tp_methods = model_methods,
    .tp_getset = model_getset,
};

int snpy_model_init_types(PyObject* mod) {
    if (PyType_Ready(&SnpModel_Type) < 0) return -1;
    return PyModule_AddObjectRef(mod, "Model", (PyObject*)&SnpModel_Type);
}
