// SPDX-License-Identifier: Apache-2.0
// model_actuators.c: actuators declared in the model file (the <actuator> extension of
// docs/urdf.md, compiled into the model's actuator_* arrays) become actuators of a system when
// it is added to a world, in file order, through the same call as the API's.
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(((sn_actuator_desc*)0)->coupling_joint) ==
                   SN_ACTUATOR_MAX_COUPLINGS * sizeof(int),
               "sn_actuator_desc holds SN_ACTUATOR_MAX_COUPLINGS couplings");


// the description of model actuator i (a peak torque of +inf is 0, unbounded, in a desc)
static void actuator_desc(const sn_model* m, int i, sn_actuator_desc* a) {
    memset(a, 0, sizeof *a);
    a->joint = m->actuator_joint[i];
    a->gear = m->actuator_gear[i];
    a->kt = m->actuator_kt[i];
    a->vbus = m->actuator_vbus[i];
    a->resistance = m->actuator_resistance[i];
    a->kv = m->actuator_kv[i];
    a->peak_torque = isfinite(m->actuator_peak_torque[i]) ? m->actuator_peak_torque[i] : 0;
    a->output_damping = m->actuator_output_damping[i];
    a->output_friction = m->actuator_output_friction[i];
    a->ncoupling = m->actuator_ncoupling[i];
    for (int c = 0; c < a->ncoupling; c++) {
        a->coupling_joint[c] = m->actuator_coupling_joint[SN_ACTUATOR_MAX_COUPLINGS * i + c];
        a->coupling_ratio[c] = m->actuator_coupling_ratio[SN_ACTUATOR_MAX_COUPLINGS * i + c];
    }
}


sn_status sni_system_actuators_from_model(sn_system* s) {
    const sn_model* m = s->m;
    for (int i = 0; i < m->nactuator; i++) {
        sn_actuator_desc a;
        actuator_desc(m, i, &a);
        sn_status st = sn_system_add_actuator(s, &a, NULL);
        if (st != SN_OK) {
            // the compiler checked what sn_system_add_actuator checks: this is out of memory
            char why[sizeof s->world->last_error];
            snprintf(why, sizeof why, "%s", s->world->last_error);
            return sni_world_fail(s->world, st, "actuator '%s' of the model: %s",
                                  m->names + m->actuator_name[i], why);
        }
    }
    return SN_OK;
}
