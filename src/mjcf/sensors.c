// SPDX-License-Identifier: Apache-2.0
// sensors.c: the MJCF <sensor> section (docs/sensors.md): accelerometer, gyro, force and torque
// on a site; framepos and framequat on a site or an xbody (a body's own frame); jointpos and
// jointvel on a hinge or slide. Each becomes a sensor of the spec (sni_sensor_spec), resolved
// by the compiler. MuJoCo's noise and user are information only (MuJoCo adds no noise either);
// cutoff clamps as in MuJoCo. Other kinds of sensors, and frame sensors measured relative to
// another frame (reftype, refname), are listed in the "not read" warning and left out.
#include "mjcf/mjcf.h"

#include <stdio.h>

static const struct {
    const char* element;
    int type;
    int on; // 0 a site, 1 objtype and objname, 2 a joint
} kinds[] = {
    {"accelerometer", SN_SENSOR_ACCELEROMETER, 0},
    {"gyro", SN_SENSOR_GYRO, 0},
    {"force", SN_SENSOR_FORCE, 0},
    {"torque", SN_SENSOR_TORQUE, 0},
    {"framepos", SN_SENSOR_FRAME_POS, 1},
    {"framequat", SN_SENSOR_FRAME_QUAT, 1},
    {"jointpos", SN_SENSOR_JOINT_POS, 2},
    {"jointvel", SN_SENSOR_JOINT_VEL, 2},
};
#define NKIND ((int)(sizeof kinds / sizeof kinds[0]))


// a required attribute, or the failure naming it (NULL)
static const char* need(reader* r, int k, const char* attr) {
    const char* v = get(r, k, attr);
    if (!v || !v[0])
        sni_mjcf_fail(r, k, SN_ERR_MODEL, ename(r, k), "<%s> needs a %s attribute", ename(r, k),
                      attr);
    return v;
}


// the frame sensor's frame: a site's, or a body's own (objtype xbody); 0, -1 on failure
static int frame_of(loader* L, int k, int on, sni_sensor_spec* e) {
    reader* r = L->r;
    const char* type = on == 0 ? "site" : get(r, k, "objtype");
    const char* name = need(r, k, on == 0 ? "site" : "objname");
    if (!name) return -1;
    if (!type) type = "site";
    if (!strcmp(type, "site")) {
        const site_rec* sr = sni_mjcf_site_find(L, name);
        if (!sr) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, ename(r, k), "site '%s' is not a named <site>", name);
            return -1;
        }
        e->link = sr->link;
        v3_copy(e->pos, sr->pos);
        memcpy(e->rot, sr->R, sizeof e->rot);
        return 0;
    }
    if (!strcmp(type, "xbody")) {
        e->link = sni_spec_name(r->s, name);
        return 0;
    }
    sni_mjcf_fail(r, k, SN_ERR_MODEL, ename(r, k),
                  "objtype '%s' is not read: a frame sensor is on a site or an xbody (a body's "
                  "frame; objtype body is its inertial frame)",
                  type);
    return -1;
}


// one sensor element k: into the spec, or listed as not read
static void one_sensor(loader* L, int k) {
    reader* r = L->r;
    const char* el = ename(r, k);
    int kind = -1;
    for (int i = 0; i < NKIND && kind < 0; i++)
        if (!strcmp(el, kinds[i].element)) kind = i;
    char what[96];
    if (kind < 0 || get(r, k, "reftype") || get(r, k, "refname")) {
        snprintf(what, sizeof what, kind < 0 ? "<%s> sensors" : "<%s> sensors with a refname", el);
        sni_mjcf_note_ignored(r, what);
        return;
    }
    sni_sensor_spec e;
    memset(&e, 0, sizeof e);
    e.type = kinds[kind].type;
    e.line = NODE(r, k).line;
    e.element = kinds[kind].element;
    e.link = e.joint = -1;
    m3_identity(e.rot);
    if (sni_mjcf_reals(L, k, L->main_class, "cutoff", &e.cutoff, 1) < 0) return;
    if (!(e.cutoff >= 0)) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, el, "cutoff %g is negative", e.cutoff);
        return;
    }
    if (kinds[kind].on == 2) {
        const char* j = need(r, k, "joint");
        if (!j) return;
        e.joint = sni_spec_name(r->s, j);
    } else if (frame_of(L, k, kinds[kind].on, &e) < 0) {
        return;
    }
    const char* name = get(r, k, "name");
    char auto_name[32];
    if (!name || !name[0]) {
        snprintf(auto_name, sizeof auto_name, "sensor%d", SNI_NSENSOR(r->s));
        name = auto_name;
    }
    if (strlen(name) >= SN_SENSOR_NAME_MAX) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, el, "sensor name '%.40s...' is longer than %d", name,
                      SN_SENSOR_NAME_MAX - 1);
        return;
    }
    e.name = sni_spec_name(r->s, name);
    sni_sensor_spec* slot = sni_buf_grow(&r->s->sensors, sizeof e);
    if (!slot || r->s->names.failed) {
        sni_mjcf_fail(r, k, SN_ERR_NOMEM, el, "out of memory");
        return;
    }
    *slot = e;
}


void sni_mjcf_sensors(loader* L, int node) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next)
        one_sensor(L, k);
}
