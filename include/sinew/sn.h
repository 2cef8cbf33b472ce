// SPDX-License-Identifier: Apache-2.0
// sn.h: umbrella include of the sinew public API.
#ifndef SN_H
#define SN_H
#include "sn_arm.h"
#include "sn_base.h"
#include "sn_data.h"
#include "sn_ik.h"
#include "sn_loopid.h"
#include "sn_maximal.h"
#include "sn_model.h"
#include "sn_sensor.h"
#include "sn_setup.h"
#include "sn_soft.h"
#include "sn_state.h"
#include "sn_world.h"
#endif
