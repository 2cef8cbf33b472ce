// SPDX-License-Identifier: Apache-2.0
// load_and_step.c: load a URDF, put it in a world and step it. The double pendulum swings from
// a raised pose for 2 s; its energy barely changes (semi-implicit Euler at 1 ms).
//   ./load_and_step [MODEL.urdf]   (default: the bundled double pendulum)
#include <sinew/sn.h>
#include <stdio.h>

#ifndef SN_EXAMPLE_MODELS
#define SN_EXAMPLE_MODELS "models"
#endif

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : SN_EXAMPLE_MODELS "/double_pendulum.urdf";
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_urdf(path, NULL, &m, &err) != SN_OK) {
        // every load error names the file, the line and the element
        fprintf(stderr, "%s:%d: <%s>: %s\n", err.file, err.line, err.element, err.msg);
        return 1;
    }
    sn_world_opts opts = {0};
    opts.timestep = 0.001;
    sn_world* w = NULL;
    sn_system* s = NULL;
    if (sn_world_create(&opts, &w, &err) != SN_OK || sn_world_add_system(w, m, &s, &err) != SN_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    // a raised start: every coordinate at 1 rad (the pendulum's two hinges)
    double q[64] = {0};
    for (int i = 0; i < m->nq && i < 64; i++)
        q[i] = m->nq == m->nv ? 1.0 : sn_system_q(s)[i];
    sn_system_set_q(s, q, m->nq);
    double e0 = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
    for (int k = 0; k < 2000; k++)
        if (sn_world_integrate(w) != SN_OK) {
            fprintf(stderr, "step failed: %s\n", sn_world_last_error(w));
            return 1;
        }
    double e1 = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
    printf("%s: t = %.3f s, q[0] = %.6f rad, energy %.6f J -> %.6f J\n", path, sn_world_time(w),
           sn_system_q(s)[0], e0, e1);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}
