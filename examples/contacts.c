// SPDX-License-Identifier: Apache-2.0
// contacts.c: a box dropped onto the ground with friction: hard contacts with an exact Coulomb
// cone. It lands, slides, stops; the contacts and their impulses are read back.
#include <sinew/sn.h>
#include <stdio.h>

int main(void) {
    sn_world_opts opts = {0};
    sn_world* w = NULL;
    sn_system* box = NULL;
    sn_error err;
    if (sn_world_create(&opts, &w, &err) != SN_OK) return 1;
    sn_world_set_ground(w, 1, 0);
    sn_world_set_material(w, 0.5, 0, 0); // friction 0.5, no bounce
    const double size[3] = {0.2, 0.2, 0.1};
    if (sn_world_add_box(w, size, 1.0, &box) != SN_OK) return 1;
    // q: position, then the quaternion w x y z; u: linear, then angular velocity (world)
    const double q[7] = {0, 0, 0.3, 1, 0, 0, 0}, u[6] = {2, 0, 0, 0, 0, 0};
    sn_system_set_state(box, q, 7, u, 6);
    for (int k = 0; k < 2000; k++)
        if (sn_world_integrate(w) != SN_OK) return 1;
    printf("after %.1f s the box is at x = %.4f m, z = %.4f m, moving at %.2e m/s\n",
           sn_world_time(w), sn_system_q(box)[0], sn_system_q(box)[2], sn_system_u(box)[0]);
    for (int i = 0; i < sn_system_contact_count(box); i++) {
        sn_contact c;
        sn_system_contact(box, i, &c);
        printf("contact %d at (%.3f %.3f %.3f), impulse (%.4f %.4f %.4f) N s%s\n", i, c.position[0],
               c.position[1], c.position[2], c.impulse[0], c.impulse[1], c.impulse[2],
               c.sliding ? ", sliding" : "");
    }
    sn_world_destroy(w);
    return 0;
}
