// SPDX-License-Identifier: Apache-2.0
// test_compile.c: white-box tests of the compiler's passes on specs built by hand (the internal
// spec of src/model/spec.h). The springdamper pass: a spec rebuilt link for link and joint for
// joint from the model that tests/data/mjcf/springs.xml loads into, with the springdamper's time
// constant and damping ratio set on its joints, compiles to the stiffness and damping the MJCF
// loader gives that file, bit for bit.
#include "common.h"
#include "harness/snt.h"
#include "model/spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPRINGS SNT_DATA_DIR "/mjcf/springs.xml"

// the springdampers of springs.xml: joint, time constant, damping ratio
static const struct {
    const char* joint;
    sn_real timeconst, dampratio;
} springdampers[] = {{"elbow", 0.05, 0.7}, {"slide", 0.2, 1.2}, {"wrist", 0.02, 0.5}};
#define NSPRINGDAMPER ((int)(sizeof springdampers / sizeof springdampers[0]))

static int is_identity(const sn_real* r, const sn_real* p) {
    static const sn_real id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    return !memcmp(r, id, sizeof id) && p[0] == 0 && p[1] == 0 && p[2] == 0;
}

// the spec of model a: one link per frame (its own mass properties), one joint per URDF joint
// with the placement the compiler gave it; every frame that a joint hangs from must begin its
// body, so that the placement is the joint's own. Springs and dampers as compiled. 0 on success.
static int spec_of_model(const sn_model* a, sni_spec* s) {
    for (int l = 0; l < a->nframe; l++) {
        sni_link k;
        memset(&k, 0, sizeof k);
        k.name = sni_spec_name(s, a->names + a->frame_name[l]);
        k.line = l + 1;
        k.mass = a->frame_mass[l];
        k.has_inertial = k.mass > 0;
        memcpy(k.com, a->frame_com + 3 * l, sizeof k.com);
        memcpy(k.inertia, a->frame_inertia + 9 * l, sizeof k.inertia);
        if (sni_buf_push(&s->links, &k, sizeof k) < 0) return 1;
    }
    for (int i = 0; i < a->nujoint; i++) {
        if (a->ujoint_parent[i] < 0) return 1; // a floating base: not in springs.xml
        sni_joint j;
        memset(&j, 0, sizeof j);
        int pf = a->ujoint_parent[i], cf = a->ujoint_child[i], mj = a->ujoint_joint[i];
        if (!is_identity(a->frame_rot + 9 * pf, a->frame_pos + 3 * pf)) return 1;
        j.name = sni_spec_name(s, a->names + a->ujoint_name[i]);
        j.line = 100 + i;
        j.type = a->ujoint_type[i];
        j.parent_name = sni_spec_name(s, a->names + a->frame_name[pf]);
        j.child_name = sni_spec_name(s, a->names + a->frame_name[cf]);
        j.mimic_name = -1;
        j.mimic_multiplier = 1;
        j.effort = j.velocity = INFINITY;
        if (mj < 0) {
            memcpy(j.rot, a->frame_rot + 9 * cf, sizeof j.rot);
            memcpy(j.pos, a->frame_pos + 3 * cf, sizeof j.pos);
        } else {
            int v = a->joint_vadr[mj];
            memcpy(j.rot, a->joint_rot + 9 * mj, sizeof j.rot);
            memcpy(j.pos, a->joint_pos + 3 * mj, sizeof j.pos);
            memcpy(j.axis, a->joint_axis + 3 * mj, sizeof j.axis);
            j.armature = a->dof_armature[v];
            j.damping = a->dof_damping[v];
            j.friction = a->dof_friction[v];
            j.stiffness = a->dof_stiffness[v];
            j.spring_ref = a->joint_spring_ref[mj];
            j.lower = a->dof_lower[v], j.upper = a->dof_upper[v];
            j.has_limit = j.has_lower = j.has_upper = a->dof_limited[v];
        }
        if (sni_buf_push(&s->joints, &j, sizeof j) < 0) return 1;
    }
    if (a->nominal_config) {
        s->nominal_bytes = (size_t)a->nq * sizeof(sn_real);
        s->nominal = malloc(s->nominal_bytes);
        if (!s->nominal) return 1;
        memcpy(s->nominal, a->nominal_config, s->nominal_bytes);
        s->nnominal = a->nq;
        s->has_nominal = 1;
    }
    s->base = SN_BASE_AUTO;
    return s->names.failed || s->links.failed || s->joints.failed;
}

// the spec's joint named `name`
static sni_joint* spec_joint(sni_spec* s, const char* name) {
    sni_joint* j = (sni_joint*)(void*)s->joints.data;
    for (int i = 0; i < SNI_NJOINT(s); i++)
        if (!strcmp(SNI_NAME(s, j[i].name), name)) return &j[i];
    return NULL;
}

// the two models have the same bodies and joints, bit for bit (what the mass matrix is made of)
static int same_tree(const sn_model* a, const sn_model* b) {
    int nb = a->nbody, nj = a->njoint;
    return a->nbody == b->nbody && a->njoint == b->njoint && a->nv == b->nv && a->nq == b->nq &&
           !memcmp(a->body_mass, b->body_mass, (size_t)nb * sizeof(sn_real)) &&
           !memcmp(a->body_com, b->body_com, 3 * (size_t)nb * sizeof(sn_real)) &&
           !memcmp(a->body_inertia, b->body_inertia, 9 * (size_t)nb * sizeof(sn_real)) &&
           !memcmp(a->joint_pos, b->joint_pos, 3 * (size_t)nj * sizeof(sn_real)) &&
           !memcmp(a->joint_rot, b->joint_rot, 9 * (size_t)nj * sizeof(sn_real)) &&
           !memcmp(a->joint_axis, b->joint_axis, 3 * (size_t)nj * sizeof(sn_real)) &&
           !memcmp(a->dof_armature, b->dof_armature, (size_t)a->nv * sizeof(sn_real)) &&
           (a->nominal_config == NULL) == (b->nominal_config == NULL) &&
           (!a->nominal_config ||
            !memcmp(a->nominal_config, b->nominal_config, (size_t)a->nq * sizeof(sn_real)));
}

// springs.xml through the MJCF loader, and the same robot compiled from a spec whose joints carry
// the springdampers: the same stiffness and damping on every DOF, exactly
static int test_springdamper_pass_matches_mjcf(void) {
    sn_model* a = NULL;
    sn_error e;
    SNT_CHECK_MSG(sn_load_mjcf(SPRINGS, NULL, &a, &e) == SN_OK, "%s", e.msg);
    sni_spec s;
    sni_spec_init(&s, NULL, "springs-by-hand");
    int bad = spec_of_model(a, &s);
    // the file's class defaults before the pass replaces them (stiffness 2, damping 0.3)
    for (int i = 0; i < NSPRINGDAMPER && !bad; i++) {
        sni_joint* j = spec_joint(&s, springdampers[i].joint);
        if (!j) bad = 1;
        if (bad) break;
        j->stiffness = 2, j->damping = 0.3;
        j->spring_timeconst = springdampers[i].timeconst;
        j->spring_dampratio = springdampers[i].dampratio;
    }
    sn_model* b = NULL;
    sn_status st = bad ? SN_ERR_ARG : sni_compile(&s, NULL, &b, &e);
    sni_spec_free(&s);
    int good = st == SN_OK && same_tree(a, b) &&
               !memcmp(a->dof_stiffness, b->dof_stiffness, (size_t)a->nv * sizeof(sn_real)) &&
               !memcmp(a->dof_damping, b->dof_damping, (size_t)a->nv * sizeof(sn_real));
    for (int v = 0; v < a->nv && st == SN_OK; v++)
        if (a->dof_stiffness[v] != b->dof_stiffness[v] || a->dof_damping[v] != b->dof_damping[v])
            fprintf(stderr, "  dof %d: mjcf k %.17g b %.17g, pass k %.17g b %.17g\n", v,
                    a->dof_stiffness[v], a->dof_damping[v], b->dof_stiffness[v], b->dof_damping[v]);
    // the pass ran: the springdamper joints no longer have the class defaults
    for (int i = 0; i < NSPRINGDAMPER && good; i++) {
        int j = sn_model_find(b, SN_OBJ_JOINT, springdampers[i].joint);
        int v = j >= 0 ? b->joint_vadr[j] : 0;
        good = j >= 0 && b->dof_stiffness[v] != 2 && b->dof_damping[v] != 0.3 &&
               b->dof_stiffness[v] > 0 && b->dof_damping[v] > 0;
    }
    sn_model_destroy(a);
    sn_model_destroy(b);
    SNT_CHECK_MSG(!bad, "springs.xml's model cannot be rebuilt as a spec");
    SNT_CHECK_MSG(st == SN_OK, "%s", e.msg);
    SNT_CHECK(good);
    return 0;
}

// without the springdamper fields the pass leaves the file's stiffness and damping alone, and it
// ignores the fields on a joint with three DOFs (the ball joint)
static int test_springdamper_pass_only_when_asked(void) {
    sn_model* a = NULL;
    sn_error e;
    SNT_CHECK_MSG(sn_load_mjcf(SPRINGS, NULL, &a, &e) == SN_OK, "%s", e.msg);
    sni_spec s;
    sni_spec_init(&s, NULL, "springs-by-hand");
    int bad = spec_of_model(a, &s);
    sni_joint* elbow = bad ? NULL : spec_joint(&s, "elbow");
    sni_joint* ball = bad ? NULL : spec_joint(&s, "ball");
    if (elbow) elbow->stiffness = 2, elbow->damping = 0.3;
    if (ball) ball->spring_timeconst = 0.1, ball->spring_dampratio = 1;
    sn_model* b = NULL;
    sn_status st = !elbow || !ball ? SN_ERR_ARG : sni_compile(&s, NULL, &b, &e);
    sni_spec_free(&s);
    int good = st == SN_OK;
    if (good) {
        int ve = b->joint_vadr[sn_model_find(b, SN_OBJ_JOINT, "elbow")];
        int vb = b->joint_vadr[sn_model_find(b, SN_OBJ_JOINT, "ball")];
        int va = a->joint_vadr[sn_model_find(a, SN_OBJ_JOINT, "ball")];
        good = b->dof_stiffness[ve] == 2 && b->dof_damping[ve] == 0.3 &&
               !memcmp(b->dof_stiffness + vb, a->dof_stiffness + va, 3 * sizeof(sn_real)) &&
               !memcmp(b->dof_damping + vb, a->dof_damping + va, 3 * sizeof(sn_real));
    }
    sn_model_destroy(a);
    sn_model_destroy(b);
    SNT_CHECK_MSG(!bad && elbow && ball, "springs.xml's model cannot be rebuilt as a spec");
    SNT_CHECK_MSG(st == SN_OK, "%s", e.msg);
    SNT_CHECK(good);
    return 0;
}

SNT_SUITE(SNT_TEST(test_springdamper_pass_matches_mjcf),
          SNT_TEST(test_springdamper_pass_only_when_asked))
