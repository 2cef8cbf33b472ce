// SPDX-License-Identifier: Apache-2.0
// sensor.c: a system's sensor table and the public sn_system_*sensor* calls (sn_sensor.h): the
// checks of a sensor against its model, the table grown when one is added (from the API, or from
// the model's file when the system is made), and the getters of the last step's values.
#include "sensor/sensor.h"

#include "base/smath.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)

static const struct {
    const char* name;
    int dim;
} kinds[] = {
    {"imu", 10},     {"force_torque", 6}, {"accelerometer", 3}, {"gyro", 3},     {"framequat", 4},
    {"framepos", 3}, {"force", 3},        {"torque", 3},        {"jointpos", 1}, {"jointvel", 1},
};
#define NKIND ((int)(sizeof kinds / sizeof kinds[0]))


int sn_sensor_dim(int type) {
    return type >= 0 && type < NKIND ? kinds[type].dim : 0;
}


const char* sn_sensor_type_name(int type) {
    return type >= 0 && type < NKIND ? kinds[type].name : "?";
}


static int is_wrench(int type) {
    return type == SN_SENSOR_FORCE_TORQUE || type == SN_SENSOR_FORCE || type == SN_SENSOR_TORQUE;
}


static int is_joint(int type) {
    return type == SN_SENSOR_JOINT_POS || type == SN_SENSOR_JOINT_VEL;
}


int sni_sensor_problem(const sn_model* m, int type, int frame, int ujoint, char* why, size_t n) {
    if (type < 0 || type >= NKIND) {
        snprintf(why, n, "type %d is not an sn_sensor_type (0 to %d)", type, NKIND - 1);
        return 1;
    }
    if (!is_wrench(type) && !is_joint(type)) {
        if (frame < 0 || frame >= m->nframe) {
            snprintf(why, n, "frame %d: the model has links 0 to %d", frame, m->nframe - 1);
            return 1;
        }
        return 0;
    }
    if (ujoint < 0 || ujoint >= m->nujoint) {
        snprintf(why, n, "joint %d: the model has URDF joints 0 to %d", ujoint, m->nujoint - 1);
        return 1;
    }
    int j = m->ujoint_joint[ujoint];
    if (is_joint(type) && (j < 0 || m->joint_nv[j] != 1 || m->joint_nq[j] != 1)) {
        snprintf(why, n,
                 "joint '%s' is %s: a %s sensor reads a revolute, continuous or prismatic joint",
                 m->names + m->ujoint_name[ujoint],
                 sn_joint_type_str((sn_joint_type)m->ujoint_type[ujoint]), kinds[type].name);
        return 1;
    }
    return 0;
}


// room for cap sensors: a new block, the old table copied into it
static sn_status grow(sn_system* s, int cap) {
    sni_sensors* t = &s->sens;
    size_t bytes = (size_t)cap * (sizeof(sni_sensor) + SNI_SENSOR_DIM_MAX * sizeof(sn_real));
    void* block = sni_alloc(&s->world->alloc, bytes);
    if (!block) return SN_ERR_NOMEM;
    sn_real* value = block;
    sni_sensor* list = (sni_sensor*)(void*)(value + (size_t)SNI_SENSOR_DIM_MAX * cap);
    memset(block, 0, bytes);
    if (t->n) memcpy(list, t->list, (size_t)t->n * sizeof(sni_sensor));
    sni_free(&s->world->alloc, t->value, t->bytes);
    t->list = list, t->value = value, t->cap = cap, t->bytes = bytes;
    return SN_OK;
}


// a sensor added to the table, checked (frame or ujoint by its type, rot link <- sensor); why
// gets the reason of a refusal
static sn_status add(sn_system* s, int type, const char* name, int frame, int ujoint,
                     const sn_real* pos, const sn_real* rot, sn_real cutoff, int* id, char* why,
                     size_t nwhy) {
    const sn_model* m = s->m;
    sni_sensors* t = &s->sens;
    if (sni_sensor_problem(m, type, frame, ujoint, why, nwhy)) return SN_ERR_ARG;
    char auto_name[SN_SENSOR_NAME_MAX];
    if (!name || !name[0]) {
        snprintf(auto_name, sizeof auto_name, "sensor%d", t->n);
        name = auto_name;
    }
    if (strlen(name) >= SN_SENSOR_NAME_MAX) {
        snprintf(why, nwhy, "name '%.40s...' is longer than %d characters", name,
                 SN_SENSOR_NAME_MAX - 1);
        return SN_ERR_ARG;
    }
    if (sn_system_sensor_find(s, name) != SN_NONE) {
        snprintf(why, nwhy, "name '%s' is taken by sensor %d", name,
                 sn_system_sensor_find(s, name));
        return SN_ERR_ARG;
    }
    if (t->n == t->cap && grow(s, t->cap ? 2 * t->cap : 4) != SN_OK) {
        snprintf(why, nwhy, "out of memory");
        return SN_ERR_NOMEM;
    }
    sni_sensor* e = &t->list[t->n];
    memset(e, 0, sizeof *e);
    e->type = type;
    e->ujoint = is_wrench(type) || is_joint(type) ? ujoint : SN_NONE;
    e->frame = e->ujoint >= 0 ? m->ujoint_child[ujoint] : frame;
    e->body = m->frame_body[e->frame];
    if (is_joint(type)) {
        int j = m->ujoint_joint[ujoint];
        e->qadr = m->joint_qadr[j], e->vadr = m->joint_vadr[j];
    }
    // the sensor frame in the body: link <- sensor composed with body <- link
    const sn_real* lp = m->frame_pos + 3 * e->frame;
    const sn_real* lr = m->frame_rot + 9 * e->frame;
    m3_mul_v3(e->pos, lr, pos);
    v3_add(e->pos, e->pos, lp);
    m3_mul(e->rot, lr, rot);
    e->cutoff = cutoff;
    snprintf(e->name, sizeof e->name, "%s", name);
    e->dim = kinds[type].dim;
    e->adr = t->nvalue;
    t->nvalue += e->dim;
    if (id) *id = t->n;
    t->n++;
    // every sensor reads the inverse dynamics' snapshot of the step (seed 000: an IMU turns it on)
    s->id.compute = 1;
    sni_system_invalidate(s, SNI_VALID_SENSOR);
    return SN_OK;
}


sn_status sn_system_add_sensor(sn_system* s, const sn_sensor_desc* desc, int* id) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!desc) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_add_sensor: desc is NULL");
    if (!desc) return SET_ERR(s->world, SN_ERR_ARG, "sn_system_add_sensor: desc is NULL");
    const sn_real* q = desc->quat;
    for (int k = 0; k < 3; k++)
        if (!isfinite(desc->pos[k]))
            return SET_ERR(s->world, SN_ERR_ARG, "sn_system_add_sensor: pos[%d] is not finite", k);
    for (int k = 0; k < 4; k++)
        if (!isfinite(q[k]))
            return SET_ERR(s->world, SN_ERR_ARG, "sn_system_add_sensor: quat[%d] is not finite", k);
    if (!isfinite(desc->cutoff) || desc->cutoff < 0)
        return SET_ERR(s->world, SN_ERR_ARG,
                       "sn_system_add_sensor: cutoff %g is not a finite number >= 0", desc->cutoff);
    sn_real norm = quat_norm_safe(q), rot[9];
    if (norm == 0) {
        m3_identity(rot);
    } else if (fabs(norm - 1) > 1e-6) {
        return SET_ERR(s->world, SN_ERR_ARG,
                       "sn_system_add_sensor: quat has norm %.9g, not 1 (nor 0 for none)", norm);
    } else {
        sn_real u[4];
        quat_normalize_safe(u, q);
        quat_to_m3(rot, u);
    }
    char why[300];
    sn_status st = add(s, desc->type, desc->name, desc->frame, desc->joint, desc->pos, rot,
                       desc->cutoff, id, why, sizeof why);
    if (st != SN_OK) return SET_ERR(s->world, st, "sn_system_add_sensor: %s", why);
    return SN_OK;
}


sn_status sni_sensors_from_model(sn_system* s) {
    const sn_model* m = s->m;
    for (int i = 0; i < m->nsensor; i++) {
        char why[300];
        sn_status st = add(s, m->sensor_type[i], m->names + m->sensor_name[i], m->sensor_frame[i],
                           m->sensor_ujoint[i], m->sensor_pos + 3 * i, m->sensor_rot + 9 * i,
                           m->sensor_cutoff[i], NULL, why, sizeof why);
        if (st != SN_OK)
            return SET_ERR(s->world, st, "the model's sensor '%s': %s",
                           m->names + m->sensor_name[i], why);
    }
    return SN_OK;
}


void sni_sensors_free(sn_system* s) {
    sni_free(&s->world->alloc, s->sens.value, s->sens.bytes);
    memset(&s->sens, 0, sizeof s->sens);
}


// ---- getters ----

int sn_system_sensor_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->sens.n;
}


int sn_system_sensor_find(const sn_system* s, const char* name) {
    SNI_REFUSE_NULL(s, SN_NONE);
    if (!name) {
        sni_world_fail(s->world, SN_ERR_ARG, "sn_system_sensor_find: name is NULL");
        return SN_NONE;
    }
    for (int i = 0; i < s->sens.n; i++)
        if (!strcmp(s->sens.list[i].name, name)) return i;
    return SN_NONE;
}


sn_status sn_system_sensor_info(const sn_system* s, int i, sn_sensor_info* out) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!out) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_sensor_info: out is NULL");
    if (!out) return SET_ERR(s->world, SN_ERR_ARG, "sn_system_sensor_info: out is NULL");
    if (i < 0 || i >= s->sens.n)
        return SET_ERR(s->world, SN_ERR_ARG, "sensor i %d: the system has %d sensors", i,
                       s->sens.n);
    const sni_sensor* e = &s->sens.list[i];
    out->type = e->type, out->frame = e->frame, out->joint = e->ujoint;
    out->adr = e->adr, out->dim = e->dim, out->cutoff = e->cutoff;
    snprintf(out->name, sizeof out->name, "%s", e->name);
    return SN_OK;
}


int sn_system_sensor_value_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->sens.nvalue;
}


const sn_real* sn_system_sensor_values(const sn_system* s) {
    SNI_REFUSE_NULL(s, NULL);
    return s->sens.n && (s->valid & SNI_VALID_SENSOR) ? s->sens.value : NULL;
}


sn_status sn_system_sensor_read(const sn_system* s, int i, sn_real* out, int n) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!out) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_sensor_read: out is NULL");
    if (i < 0 || i >= s->sens.n)
        return SET_ERR(s->world, SN_ERR_ARG, "sensor i %d: the system has %d sensors", i,
                       s->sens.n);
    const sni_sensor* e = &s->sens.list[i];
    if (!out) return SET_ERR(s->world, SN_ERR_ARG, "sn_system_sensor_read: out is NULL");
    if (n < e->dim)
        return SET_ERR(s->world, SN_ERR_ARG,
                       "sn_system_sensor_read: n = %d, sensor '%s' reads %d values", n, e->name,
                       e->dim);
    if (!(s->valid & SNI_VALID_SENSOR))
        return SET_ERR(s->world, SN_ERR_ARG,
                       "sensor '%s': no step has evaluated the sensors since the last one was "
                       "added (or a checkpoint was loaded, or the world has soft contacts)",
                       e->name);
    memcpy(out, s->sens.value + e->adr, (size_t)e->dim * sizeof(sn_real));
    return SN_OK;
}
