// SPDX-License-Identifier: Apache-2.0
// compile_sensor.c: the sensors a file declares (MJCF <sensor>, URDF <sinew:sensor>;
// docs/sensors.md), their links and joints resolved by name and checked as sn_system_add_sensor
// checks them. A force sensor given by its link (an MJCF site's body) reads the joint whose child
// that link is.
#include "model/compile.h"
#include "sensor/sensor.h"

#include <string.h>


// the URDF joint whose child is link f, SN_NONE for a root link
static int parent_ujoint(const sn_model* m, int f) {
    for (int u = 0; u < m->nujoint; u++)
        if (m->ujoint_child[u] == f) return u;
    return SN_NONE;
}


// sensor i's link and joint; SN_OK or the error at its element
static sn_status resolve(compiler* c, sn_model* m, name_table* links, const sni_sensor_spec* e,
                         int i) {
    const sni_spec* s = c->s;
    const char* sname = SNI_NAME(s, e->name);
    int f = SN_NONE, u = SN_NONE;
    if (e->link >= 0) {
        const char* name = SNI_NAME(s, e->link);
        f = sni_compile_table_find(links, s->names.data, &c->links[0].name, sizeof(sni_link), name,
                                   -1);
        if (f < 0)
            return sni_compile_error(c, SN_ERR_MODEL, e->line, e->element,
                                     "sensor '%s': link '%s' is not a link of the model", sname,
                                     name);
    }
    if (e->joint >= 0) {
        const char* name = SNI_NAME(s, e->joint);
        u = sn_model_find(m, SN_OBJ_URDF_JOINT, name);
        if (u < 0)
            return sni_compile_error(c, SN_ERR_MODEL, e->line, e->element,
                                     "sensor '%s': joint '%s' is not a joint of the model", sname,
                                     name);
        if (f >= 0 && m->ujoint_child[u] != f)
            return sni_compile_error(c, SN_ERR_MODEL, e->line, e->element,
                                     "sensor '%s': link '%s' is not joint '%s''s child", sname,
                                     SNI_NAME(s, e->link), name);
    }
    int wrench = e->type == SN_SENSOR_FORCE_TORQUE || e->type == SN_SENSOR_FORCE ||
                 e->type == SN_SENSOR_TORQUE;
    if (wrench && u < 0 && f >= 0) {
        u = parent_ujoint(m, f);
        if (u < 0)
            return sni_compile_error(c, SN_ERR_MODEL, e->line, e->element,
                                     "sensor '%s': link '%s' is the root and has no joint to its "
                                     "parent whose wrench a force sensor could read",
                                     sname, SNI_NAME(s, e->link));
    }
    char why[300];
    if (sni_sensor_problem(m, e->type, f, u, why, sizeof why))
        return sni_compile_error(c, SN_ERR_MODEL, e->line, e->element, "sensor '%s': %s", sname,
                                 why);
    for (int k = 0; k < i; k++)
        if (!strcmp(m->names + m->sensor_name[k], sname))
            return sni_compile_error(c, SN_ERR_MODEL, e->line, e->element,
                                     "sensor name '%s' is not unique", sname);
    m->sensor_type[i] = e->type;
    m->sensor_frame[i] = u >= 0 ? m->ujoint_child[u] : f;
    m->sensor_ujoint[i] = u;
    m->sensor_name[i] = (int)e->name;
    memcpy(m->sensor_pos + 3 * i, e->pos, 3 * sizeof(sn_real));
    memcpy(m->sensor_rot + 9 * i, e->rot, 9 * sizeof(sn_real));
    m->sensor_cutoff[i] = e->cutoff;
    return SN_OK;
}


sn_status sni_compile_sensors(compiler* c, sn_model* m, name_table* links) {
    const sni_sensor_spec* e = (const sni_sensor_spec*)(void*)c->s->sensors.data;
    sn_status st = SN_OK;
    for (int i = 0; i < m->nsensor && st == SN_OK; i++)
        st = resolve(c, m, links, &e[i], i);
    return st;
}
