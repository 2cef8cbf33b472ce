// SPDX-License-Identifier: Apache-2.0
// mjcf_loop.c: an MJCF model with a loop MuJoCo would close softly. A crank and a rocker hang from
// the world; a coupler hangs from the crank, and a <connect> between two sites joins its end to
// the rocker. The file's key starts the joints at 0 with the sites 5 cm apart, as MJCF files
// often leave them. One call, sn_system_apply_file, does what the file says, as `sinew run`
// does: the file's 1 ms step, the key, the assembly (the joints move until the sites meet), and
// the crank's position actuator (kp 50 N m/rad, a servo in sinew) holding the assembled pose
// while the mechanism settles under gravity. Prints the gap before and after assembly and the
// loop's closure while it runs.
#include <math.h>
#include <sinew/sn.h>
#include <stdio.h>
#include <string.h>

static const char* const xml =
    "<mujoco model=\"four-bar\">\n"
    "  <compiler angle=\"radian\"/>\n"
    "  <option timestep=\"0.001\"/>\n"
    "  <default><geom type=\"capsule\" size=\"0.02\" density=\"500\"/></default>\n"
    "  <worldbody>\n"
    "    <body name=\"crank\">\n"
    "      <joint name=\"crank\" axis=\"0 1 0\" damping=\"0.05\"/>\n"
    "      <geom fromto=\"0 0 0 0.2 0 0\"/>\n"
    "      <body name=\"coupler\" pos=\"0.2 0 0\">\n"
    "        <joint name=\"knee\" axis=\"0 1 0\"/>\n"
    "        <geom fromto=\"0 0 0 0.45 0 0.05\"/>\n"
    "        <site name=\"coupler_end\" pos=\"0.45 0 0.05\"/>\n"
    "      </body>\n"
    "    </body>\n"
    "    <body name=\"rocker\" pos=\"0.5 0 0\">\n"
    "      <joint name=\"rocker\" axis=\"0 1 0\"/>\n"
    "      <geom fromto=\"0 0 0 0.15 0 0.1\"/>\n"
    "      <site name=\"rocker_end\" pos=\"0.15 0 0.1\"/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <equality><connect site1=\"coupler_end\" site2=\"rocker_end\"/></equality>\n"
    "  <actuator><position joint=\"crank\" kp=\"50\"/></actuator>\n"
    "  <keyframe><key name=\"rest\" qpos=\"0 0 0\"/></keyframe>\n"
    "</mujoco>\n";

int main(void) {
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_mjcf_string(xml, strlen(xml), "four-bar.xml", NULL, NULL, &m, &err) != SN_OK) {
        fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
        return 1;
    }
    sn_world* w = NULL;
    sn_system* s = NULL;
    if (sn_world_create(NULL, &w, &err) != SN_OK || sn_world_add_system(w, m, &s, &err) != SN_OK)
        return 1;
    sn_setup_opts setup = {0};
    setup.key = "rest";
    sn_setup_report rep;
    if (sn_system_apply_file(s, &setup, &rep) != SN_OK || rep.assembly != SN_OK) {
        fprintf(stderr, "setup: %s\n", sn_world_last_error(w));
        return 1;
    }
    double rms, gap0 = rep.open_before, gap1 = rep.open_after;
    printf("time step %g s; the sites start %.3f m apart; assembled: %.1e m; crank at %.4f rad\n",
           sn_world_timestep(w), gap0, gap1, sn_system_q(s)[0]);
    double worst = 0;
    for (int k = 0; k < 3000; k++) {
        if (sn_world_integrate(w) != SN_OK) return 1;
        double wst;
        sn_system_loop_error(s, &rms, &wst);
        worst = fmax(worst, wst);
        if (k % 1000 == 999)
            printf("t = %.0f s: crank %.4f rad, rocker %.4f rad, closure %.1e m\n",
                   sn_world_time(w), sn_system_q(s)[0], sn_system_q(s)[2], wst);
    }
    printf("worst closure over 3 s: %.1e m\n", worst);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return gap1 < 1e-9 && worst < 1e-3 ? 0 : 1;
}
