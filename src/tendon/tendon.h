// SPDX-License-Identifier: Apache-2.0
// tendon.h: MJCF tendons (internal; docs/constraints.md "Tendons"): a tendon's length, velocity
// and Jacobian (1 x nv) at a system's kinematics, its spring, damper and actuator forces as a
// generalized force, and a system's tendon state (control inputs, the step's forces). Nothing
// here allocates.
#ifndef SNI_TENDON_H
#define SNI_TENDON_H

#include "sinew/sn_data.h"
#include "sinew/sn_model.h"

typedef struct sn_system sn_system;

// a system's tendon state (s->tendon), carved by the system's layout
typedef struct sni_tendon_sys {
    sn_real* ctrl;      // each tendon actuator's control input (ntactuator)
    sn_real* act_force; // each tendon actuator's force of the last step (ntactuator)
    sn_real* force;     // each tendon's force of the last step: spring, damper, actuators (ntendon)
    sn_real* row;       // a Jacobian row while forces or rows are made (nv)
    sn_real* len;       // each tendon's length when the solver's rows were gathered (ntendon)
} sni_tendon_sys;

// the length of tendon t at configuration q (fixed tendons) and d's kinematics (spatial: sn_fk
// at q); its Jacobian into J (nv, overwritten) when J is not NULL
sn_real sni_tendon_length(const sn_model* m, const sn_data* d, const sn_real* q, int t, sn_real* J);
// the tendons' forces at (q, u), d's kinematics at q: springs, dampers and the actuators on
// tendons, J^T f added to tau (nv); record: keep the forces in s->tendon
void sni_tendon_forces(sn_system* s, const sn_real* q, const sn_real* u, sn_real* tau, int record);

#endif
