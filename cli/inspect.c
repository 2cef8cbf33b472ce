// SPDX-License-Identifier: Apache-2.0
// inspect.c: `sinew inspect MODEL`: a readable summary of the model, or with --json the
// dynamics at one state (mass matrix, nonlinear term, inverse mass matrix, ABA accelerations,
// energies) as one JSON object for scripts and outside checks.
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void inspect_usage(void) {
    fprintf(stderr,
            "usage: sinew inspect MODEL [--q \"v1 v2 ...\"] [--u \"...\"] "
            "[--gravity \"gx gy gz\"] [--json]\n"
            "  MODEL      a URDF, MJCF or USD (.usda) file\n"
            "  --q        generalized coordinates (nq numbers; default: zero configuration)\n"
            "  --u        generalized velocities (nv numbers; default: zero)\n"
            "  --gravity  gravity vector (default: the file's, else 0 0 -9.81)\n"
            "  --json     print the dynamics as one JSON object\n");
}

static void json_vec(FILE* f, const double* v, int n) {
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', f);
        cli_json_num(f, v[i]);
    }
    fputc(']', f);
}

static void json_mat(FILE* f, const double* a, int n) {
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', f);
        json_vec(f, a + (size_t)i * n, n);
    }
    fputc(']', f);
}

static int print_json(const sn_model* m, sn_data* d) {
    sn_fk(m, d);
    sn_fk_vel(m, d);
    sn_crba(m, d);
    sn_nonlinear(m, d);
    if (sn_inverse_mass(m, d) != SN_OK || sn_aba(m, d, NULL, NULL) != SN_OK) {
        fprintf(stderr, "error: the mass matrix is singular at this state\n");
        return 1;
    }
    FILE* f = stdout;
    fprintf(f, "{\"nq\":%d,\"nv\":%d,\"joint_names\":[", m->nq, m->nv);
    for (int j = 0; j < m->njoint; j++)
        fprintf(f, "%s\"%s\"", j ? "," : "", m->names + m->joint_name[j]);
    fputs("],\"q\":", f);
    json_vec(f, d->q, m->nq);
    fputs(",\"u\":", f);
    json_vec(f, d->u, m->nv);
    fputs(",\"mass_matrix\":", f);
    json_mat(f, d->mass_matrix, m->nv);
    fputs(",\"nonlinearities\":", f);
    json_vec(f, d->nonlinear, m->nv);
    fputs(",\"inverse_mass_matrix\":", f);
    json_mat(f, d->inverse_mass, m->nv);
    fputs(",\"forward_acceleration\":", f);
    json_vec(f, d->udot, m->nv);
    fputs(",\"kinetic_energy\":", f);
    cli_json_num(f, sn_kinetic_energy(m, d));
    fputs(",\"potential_energy\":", f);
    cli_json_num(f, sn_potential_energy(m, d));
    fputs("}\n", f);
    return 0;
}

static void print_summary(const char* path, const sn_model* m, sn_data* d) {
    sn_fk(m, d);
    sn_fk_vel(m, d);
    double com[3];
    double mass = sn_com(m, d, com);
    printf("model     %s\n", path);
    printf("base      %s\n", m->is_floating ? "floating" : "fixed");
    printf("size      nq %d, nv %d, %d bodies (world included), %d links, %d movable joints\n",
           m->nq, m->nv, m->nbody, m->nframe, m->njoint);
    printf("mass      %.6g kg, centre of mass (%.4g, %.4g, %.4g) m at q\n", mass, com[0], com[1],
           com[2]);
    printf("geometry  %d (collision and visual), %d loop constraints\n", m->ngeom, m->nconstraint);
    printf("\n%-4s %-28s %-11s %-6s %-6s %-24s %s\n", "id", "joint", "type", "q", "u", "range",
           "body mass (kg)");
    for (int j = 0; j < m->njoint; j++) {
        char range[64] = "-";
        int v = m->joint_vadr[j];
        if (m->joint_nv[j] == 1 && m->dof_limited[v])
            snprintf(range, sizeof range, "[%.4g, %.4g]", m->dof_lower[v], m->dof_upper[v]);
        printf("%-4d %-28s %-11s %-6d %-6d %-24s %.6g", j, m->names + m->joint_name[j],
               sn_joint_type_str(m->joint_type[j]), m->joint_qadr[j], v, range,
               m->body_mass[m->joint_body[j]]);
        int l = m->joint_mimic ? m->joint_mimic[j] : SN_NONE;
        if (l == j)
            printf("  (held at %.6g)", m->joint_mimic_offset[j]);
        else if (l != SN_NONE)
            printf("  (= %.6g %s %+.6g)", m->joint_mimic_multiplier[j], m->names + m->joint_name[l],
                   m->joint_mimic_offset[j]);
        putchar('\n');
    }
    // the file's servos (MJCF position and velocity actuators) and effort limits
    int nservo = 0;
    for (int v = 0; v < m->nv; v++)
        nservo += m->dof_kp[v] > 0 || m->dof_kd[v] > 0 || isfinite(m->dof_effort_limit[v]);
    if (nservo) {
        printf("\n%-4s %-28s %-12s %-12s %s\n", "dof", "joint", "servo kp", "servo kd",
               "effort limit");
        for (int v = 0; v < m->nv; v++) {
            if (!(m->dof_kp[v] > 0 || m->dof_kd[v] > 0 || isfinite(m->dof_effort_limit[v])))
                continue;
            printf("%-4d %-28s %-12.6g %-12.6g %.6g\n", v,
                   m->names + m->joint_name[m->dof_joint[v]], m->dof_kp[v], m->dof_kd[v],
                   m->dof_effort_limit[v]);
        }
    }
    // the loop constraints, in the step's order
    if (m->nconstraint) {
        static const char* const kinds[] = {"pin", "equality", "orientation"};
        printf("\n%-4s %-12s %-28s %-28s %s\n", "id", "constraint", "body1 (link)", "body2 (link)",
               "anchor in body1");
        for (int c = 0; c < m->nconstraint; c++) {
            int t = m->constraint_type[c];
            const sn_real* a = m->constraint_anchor + 3 * c;
            printf("%-4d %-12s %-28s %-28s", c, t >= 0 && t <= 2 ? kinds[t] : "?",
                   m->names + m->frame_name[m->constraint_frame1[c]],
                   m->names + m->frame_name[m->constraint_frame2[c]]);
            if (t == SN_CONSTRAINT_ORIENTATION)
                printf(" -\n");
            else
                printf(" (%.4g, %.4g, %.4g)\n", a[0], a[1], a[2]);
        }
    }
    if (m->nwarning) printf("\n%d warning(s) while loading\n", m->nwarning);
}

int cli_inspect(int argc, char** argv) {
    const char* path = NULL;
    const char *qs = NULL, *us = NULL, *gs = NULL;
    int json = 0;
    for (int i = 0; i < argc; i++) {
        const char* a = argv[i];
        const char** dst = !strcmp(a, "--q")         ? &qs
                           : !strcmp(a, "--u")       ? &us
                           : !strcmp(a, "--gravity") ? &gs
                                                     : NULL;
        if (dst) {
            if (i + 1 >= argc) {
                fprintf(stderr, "sinew inspect: %s needs a value\n", a);
                inspect_usage();
                return CLI_USAGE;
            }
            *dst = argv[++i];
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            inspect_usage();
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sinew inspect: unknown option '%s'\n", a);
            inspect_usage();
            return CLI_USAGE;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "sinew inspect: more than one model given\n");
            inspect_usage();
            return CLI_USAGE;
        }
    }
    if (!path) {
        inspect_usage();
        return CLI_USAGE;
    }
    sn_model* m = cli_load(path, json);
    if (!m) return 1;
    sn_data* d = NULL;
    sn_error derr;
    memset(&derr, 0, sizeof derr);
    if (sn_data_create(m, NULL, &d, &derr) != SN_OK) {
        fprintf(stderr, "error: %s: %s\n", path, derr.msg[0] ? derr.msg : "cannot make its data");
        sn_model_destroy(m);
        return 1;
    }
    int rc = 0;
    // the file's gravity (MJCF <option>) unless --gravity says otherwise
    if (m->option_has_gravity) memcpy(d->gravity, m->option_gravity, 3 * sizeof(double));
    int cap = m->nq + m->nv + 8;
    double* buf = calloc((size_t)cap, sizeof(double));
    struct {
        const char* s;
        const char* name;
        int n;
    } vecs[3] = {{qs, "--q", m->nq}, {us, "--u", m->nv}, {gs, "--gravity", 3}};
    for (int k = 0; k < 3 && rc == 0; k++) {
        if (!vecs[k].s) continue;
        int n = cli_parse_vector(vecs[k].s, buf, cap);
        if (n != vecs[k].n) {
            fprintf(stderr, "sinew inspect: %s needs %d finite numbers%s\n", vecs[k].name,
                    vecs[k].n, n < 0 ? " (a value is not a number)" : "");
            inspect_usage();
            rc = CLI_USAGE;
        } else if (k == 0) {
            if (sn_set_state(m, d, buf, m->nq, NULL, m->nv) != SN_OK) {
                fprintf(stderr, "sinew inspect: --q has a zero quaternion\n");
                rc = CLI_USAGE;
            }
        } else if (k == 1) {
            memcpy(d->u, buf, (size_t)m->nv * sizeof(double));
        } else {
            memcpy(d->gravity, buf, 3 * sizeof(double));
        }
    }
    if (rc == 0) {
        if (json)
            rc = print_json(m, d);
        else
            print_summary(path, m, d);
    }
    free(buf);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return rc;
}
