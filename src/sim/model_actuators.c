// SPDX-License-Identifier: Apache-2.0
// model_actuators.c: actuators declared in the model file become actuators of a system when it
// is added to a world.
#include "sim/sim.h"


sn_status sni_system_actuators_from_model(sn_system* s) {
    (void)s;
    return SN_OK;
}
