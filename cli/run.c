// SPDX-License-Identifier: Apache-2.0
// run.c: `sinew run [MODEL]`: simulate the model from an initial state, print a summary and
// write an HTML replay. One world with the model's system, stepped with sn_world_integrate: the
// PD controller of seed 000 (--kp, --kd, --target, --vtarget), any of the four integration
// schemes, a ground plane or a heightfield and their contacts. Without a model: the bundled
// Strandbeest walking on its crank.
#include "cli.h"
#include "sinew/sn_maximal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void run_usage(void) {
    fprintf(stderr,
            "usage: sinew run [MODEL] [--dt S] [--duration S] [--scheme NAME] [--q0 \"...\"]\n"
            "                 [--u0 \"...\"] [--kp \"...\"] [--kd \"...\"] [--target \"...\"]\n"
            "                 [--vtarget \"...\"] [--gravity \"gx gy gz\"] [--no-ground]\n"
            "                 [--friction MU] [--restitution E] [--heightfield FILE] [--cell S]\n"
            "                 [--record FILE.csv] [--contacts FILE.csv] [--html FILE.html]\n"
            "                 [--no-html] [--plot DIR] [--key NAME] [--no-assemble] [--ground]\n"
            "                 [--self-collision] [--save-state FILE] [--load-state FILE]\n"
            "                 [--gyroscopic explicit|midpoint] [--quiet]\n"
            "                 [--contact hard|soft] [--stiffness K] [--damping B]\n"
            "                 [--integrator expo|euler|rk4|implicit_euler] [--substeps N]\n"
            "                 [--soft-points NAME[@x:y:z],...] [--bilateral]\n"
            "                 [--soft-pair A:B:K[:Kt:B:Bt:MU],...] [--materials LINK:ID,...]\n"
            "                 [--expo-products N] [--expo-full] [--expo-modal on|off]\n"
            "                 [--expo-slip on|off] [--soft-events] [--maximal]\n"
            "                 [--maximal-alone] [--rotor DOF:INERTIA:RATIO]...\n");
    fprintf(stderr,
            "  MODEL       a URDF, MJCF or USD (.usda) file; without one, the bundled Strandbeest "
            "walks\n"
            "              for 5 s (its crank driven at -3 rad/s, 2 ms steps)\n"
            "  --dt        time step in seconds (default 0.001)\n"
            "  --duration  simulated time in seconds (default 5)\n"
            "  --scheme    semi_implicit (default), trapezoid, euler or rk4\n"
            "  --gyroscopic  the gyroscopic couple w x (I w) of bodies on spherical and floating\n"
            "              joints: explicit (default, seed 000: a fast spin blows up under\n"
            "              semi_implicit) or midpoint (at the step's mean velocity: does no work;\n"
            "              semi_implicit only)\n"
            "  --rotor     a rotor spinning on DOF's 1-DOF joint (repeatable): spin inertia\n"
            "              INERTIA kg m^2, gear ratio RATIO, carried by the joint's parent; its\n"
            "              gyroscopic couple by a Cayley step (sn_system_set_rotor; semi_implicit\n"
            "              only; the reflected inertia is the file's armature, not added)\n"
            "  --q0, --u0  initial generalized coordinates (nq) and velocities (nv)\n"
            "  --kp, --kd  PD gains: nv numbers, or one number for every joint (a floating base\n"
            "              is never actuated); they turn the PD controller on\n"
            "  --target    PD position target (nq numbers; default: the initial q)\n"
            "  --vtarget   PD velocity target (nv numbers; default 0)\n"
            "  --gravity   gravity vector (default 0 0 -9.81)\n"
            "  --record    write t, q, u, kinetic and potential energy (gravity and joint\n"
            "              springs), one row per step\n"
            "  --no-ground no ground plane (default: a ground plane at z = 0; an MJCF file's own\n"
            "              plane, none when it has none or turns contacts off)\n"
            "  --ground    a ground plane even where an MJCF file has none\n"
            "  --self-collision  contacts between the model's own bodies (not between bodies a\n"
            "              joint joins; off by default)\n"
            "  --friction, --restitution  the ground's material (default 0.8 and 0, or an MJCF\n"
            "              plane's friction; MJCF bodies take their geoms' friction, a pair the\n"
            "              larger of its two)\n"
            "  --heightfield  terrain heights: one row of numbers per line (x along a row, y down\n"
            "              the lines; '#' starts a comment), centred on the origin; outside it\n"
            "              the ground plane holds\n"
            "  --cell      the heightfield's spacing in metres (default 0.1)\n"
            "  --contacts  write every contact of every step: t, body, position, normal,\n"
            "              depth, impulse\n"
            "  --html      the replay's file (default: the model's name with .html, in the\n"
            "              current directory): open it in a browser\n"
            "  --no-html   no replay\n"
            "  --key       start from a state the file names (MJCF <keyframe>: a name or an\n"
            "              index); --q0 and --u0 still win\n"
            "  --no-assemble  keep loops that start open as they are (by default q is moved to\n"
            "              close them first: sn_system_assemble)\n"
            "  --plot      a directory for PNG plots of the run (energy, joints, contacts, loop\n"
            "              error; it records DIR/run.csv and DIR/contacts.csv unless --record and\n"
            "              --contacts name other files); needs gnuplot\n"
            "  --save-state  write the world's checkpoint at the end of the run to FILE (docs/\n"
            "              state.md): everything the next step depends on, warm start included\n"
            "  --load-state  start from the checkpoint in FILE (saved by --save-state with the\n"
            "              same model and options): its time, state and warm start replace the\n"
            "              file's key and the initial state (--key, --q0, --u0); the run goes on\n"
            "              from there for --duration, bit for bit as if it had not stopped\n"
            "  --quiet     no progress bar\n");
    fprintf(
        stderr,
        "  --maximal   the model in maximal coordinates (docs/constraints.md): each body a\n"
        "              free rigid body carrying its collision geometry, each joint a world\n"
        "              constraint (hinge, slider, ball; loops balls or welds), stepped by the\n"
        "              world with the file's ground, contacts, friction, time step and gravity\n"
        "              (the options of the articulated run for those). No joint limits,\n"
        "              damping, springs, actuators, PD control or mimic joints. --record\n"
        "              writes the equivalent joint coordinates under the same columns (t,\n"
        "              q0.., u0.., energies, contacts) plus the constraint error c_rms,\n"
        "              c_worst (m or rad)\n"
        "  --maximal-alone  the same model in maximal coordinates stepped alone by the seed's\n"
        "              acceleration-level method, semi_implicit (default) or rk4, with mimic\n"
        "              joints as gears. NO CONTACTS: the standalone system has none (no\n"
        "              ground, no heightfield); the same record\n");
    fprintf(
        stderr,
        "soft contacts (docs/expo.md, \"Command line\"):\n"
        "  --contact   hard (default: seed 000's contact solver) or soft: stiff\n"
        "              spring-damper contacts of points against the ground plane, each\n"
        "              held to an anchor set where the contact started (seed 004)\n"
        "  --stiffness K, or \"K_normal K_tangential\", N/m (default 1e5)\n"
        "  --damping   B, or \"B_normal B_tangential\", N s/m (default 300)\n"
        "  --friction  also the soft contacts' mu (default 1 on soft contacts)\n"
        "  --bilateral the soft contacts pull as well and never slip or end\n"
        "  --soft-pair the soft parameters of material pair A:B (ids 0 .. 15, the ground\n"
        "              is 0, the order irrelevant): K_normal, then optionally K_tangential,\n"
        "              B_normal, B_tangential and mu; the ones left out are the world's\n"
        "              (the values above); comma-separated for several pairs\n"
        "  --materials the contact material id of a link's body (default 0):\n"
        "              LINK:ID,... (also the hard contacts' material pairs)\n"
        "  --expo-products  Expo's exponential with at most N matrix products (0 .. 4:\n"
        "              Pade orders 1, 2, 3, 5, 7, no scaling; default: scaling and\n"
        "              squaring to full accuracy)\n"
        "  --expo-full Expo's full-accuracy exponential (to rounding; a reference)\n"
        "  --soft-events  split each sub-step at a predicted touch-down, so a contact\n"
        "              starts when its point reaches the ground, not at the sub-step's\n"
        "              end (sn_system_set_soft_events; default off, the paper's method)\n"
        "  --expo-modal on|off  Expo's modal path when every contact's damping is the\n"
        "              same multiple of its stiffness (default on; docs/expo.md)\n"
        "  --expo-slip on (default): Expo's slipping contacts follow Coulomb's law\n"
        "              within the sub-step; off: their springs (the paper's variant)\n"
        "  a model file may put the world on soft contacts and give these parameters\n"
        "  (docs/expo.md, \"Soft parameters\"); the options above replace the file's\n"
        "  --integrator  expo (default: exponential), euler, rk4 or implicit_euler\n"
        "  --substeps  sub-steps of the integrator per --dt step (default 1); the PD\n"
        "              torque is held over the step\n"
        "  --soft-points  the contact points: URDF link names, comma-separated, a point\n"
        "              at each link's origin or NAME@x:y:z at that offset in the link's\n"
        "              frame (e.g. FL_FOOT,FR_FOOT,HL_FOOT,HR_FOOT). Without it, the library's\n"
        "              points of each collision geometry on a moving body\n"
        "              (sn_system_add_soft_geometry_points): a box's 8 corners, a\n"
        "              cylinder's 16 rim points (8 on each end circle), a collision mesh's\n"
        "              vertices, all fixed to the body; a sphere's lowest point, and a\n"
        "              capsule's two end spheres', taken afresh as it rolls; ellipsoids\n"
        "              give none yet\n"
        "  a soft run does not take --heightfield, --self-collision, --restitution,\n"
        "  --scheme or --gyroscopic; --record adds soft<i>_pen (m, positive below the\n"
        "  ground), soft<i>_fx, _fy, _fz (N, world axes) per point i; --contacts writes a\n"
        "  row per active point; the replay draws each point (blue), its anchor (yellow)\n"
        "  and its force\n");
}

// --record's header: t, q0.., u0.., the energies, the contacts, then `extra` (",a,b" or "")
static void record_header(FILE* f, int nq, int nv, const char* extra) {
    cli_record_state_header(f, nq, nv);
    fprintf(f, ",kinetic_energy,potential_energy,contacts%s", extra);
}

// a row's columns of record_header (before `extra`)
static void record_values(FILE* f, double t, const double* q, int nq, const double* u, int nv,
                          double ke, double pe, int ncontact) {
    cli_record_state_values(f, t, q, nq, u, nv);
    fprintf(f, ",%.17g,%.17g,%d", ke, pe, ncontact);
}

static void record_row(FILE* f, const sn_model* m, sn_system* s, double t, double ke, double pe,
                       int ncontact) {
    const sn_data* d = sn_system_data(s);
    record_values(f, t, d->q, m->nq, d->u, m->nv, ke, pe, ncontact);
    if (m->nconstraint) {
        double rms = 0, worst = 0;
        sn_system_loop_error(s, &rms, &worst);
        fprintf(f, ",%.9g,%.9g", rms, worst);
    }
}


// the sensors' columns (docs/sensors.md): NAME_x, NAME_y, NAME_z for a sensor of three values,
// NAME0, NAME1, ... for the other sizes
static void sensor_header(FILE* f, const sn_system* s) {
    for (int i = 0; i < sn_system_sensor_count(s); i++) {
        sn_sensor_info info;
        if (sn_system_sensor_info(s, i, &info) != SN_OK) continue;
        if (info.dim == 3)
            fprintf(f, ",%s_x,%s_y,%s_z", info.name, info.name, info.name);
        else
            for (int c = 0; c < info.dim; c++)
                fprintf(f, ",%s%d", info.name, c);
    }
}

// the sensors' values of the step just made, which describe its start: they end the row of the
// state before it (nan: no step from that state)
static void sensor_columns(FILE* f, const sn_system* s, int stepped) {
    const double* v = stepped ? sn_system_sensor_values(s) : NULL;
    for (int k = 0; k < sn_system_sensor_value_count(s); k++)
        if (v)
            fprintf(f, ",%.17g", v[k]);
        else
            fprintf(f, ",nan");
}


// one row per contact of the last step
static void contact_rows(FILE* f, const sn_model* m, sn_system* s, double t) {
    for (int i = 0; i < sn_system_contact_count(s); i++) {
        sn_contact c;
        if (sn_system_contact(s, i, &c) != SN_OK) continue;
        fprintf(f, "%.9g,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", t,
                sn_model_name(m, SN_OBJ_BODY, c.body), c.position[0], c.position[1], c.position[2],
                c.normal[0], c.normal[1], c.normal[2], c.depth, c.impulse[0], c.impulse[1],
                c.impulse[2]);
    }
}

typedef struct run_args {
    const char* path;
    const char *q0, *u0, *gravity, *record, *kp, *kd, *target, *vtarget, *scheme, *contacts,
        *hfield, *html, *plot, *key, *save_state, *load_state;
    double dt, duration, friction, restitution, cell;
    double ground_z; // the file's ground plane's height (MJCF), else 0
    int quiet, no_ground, no_html, demo, dt_given, no_assemble, ground, friction_given,
        self_collision;
    const char* gyroscopic; // --gyroscopic
    // soft contacts (docs/expo.md, "Command line"): --contact, --stiffness, --damping,
    // --integrator, --substeps, --soft-points, --bilateral
    const char *contact, *stiffness, *damping, *integrator, *soft_points;
    int substeps, bilateral, restitution_given;
    // --soft-pair, --materials, --expo-products (-1: not given), --expo-full, --expo-modal and
    // --expo-slip (-1: not given)
    const char *soft_pairs, *materials;
    int expo_products, expo_full, expo_modal, expo_slip;
    int soft_events; // --soft-events
    // ---- --rotor DOF:INERTIA:RATIO (repeatable) ----
    int nrotor;
    int rotor_dof[64];
    double rotor_val[64][2]; // spin inertia, gear ratio
    int maximal; // the model in maximal coordinates: 1 --maximal (in the world, with the
                 // contacts), 2 --maximal-alone (the sn_maximal stepped alone, no contacts)
} run_args;

// the bundled scene of `sinew run` without a model
#define DEMO_MODEL "strandbeest.urdf"
#define DEMO_CRANK "crank_joint"
#define DEMO_CRANK_SPEED -3.0
#define DEMO_CRANK_KD 200.0

static int parse_args(int argc, char** argv, run_args* a) {
    memset(a, 0, sizeof *a);
    a->dt = 0.001;
    a->friction = 0.8;
    a->duration = 5;
    a->cell = 0.1;
    a->expo_products = -1;
    a->expo_modal = -1;
    a->expo_slip = -1;
    for (int i = 0; i < argc; i++) {
        const char* s = argv[i];
        const char** str = !strcmp(s, "--q0")            ? &a->q0
                           : !strcmp(s, "--u0")          ? &a->u0
                           : !strcmp(s, "--gravity")     ? &a->gravity
                           : !strcmp(s, "--record")      ? &a->record
                           : !strcmp(s, "--kp")          ? &a->kp
                           : !strcmp(s, "--kd")          ? &a->kd
                           : !strcmp(s, "--target")      ? &a->target
                           : !strcmp(s, "--vtarget")     ? &a->vtarget
                           : !strcmp(s, "--html")        ? &a->html
                           : !strcmp(s, "--plot")        ? &a->plot
                           : !strcmp(s, "--key")         ? &a->key
                           : !strcmp(s, "--scheme")      ? &a->scheme
                           : !strcmp(s, "--gyroscopic")  ? &a->gyroscopic
                           : !strcmp(s, "--contacts")    ? &a->contacts
                           : !strcmp(s, "--heightfield") ? &a->hfield
                           : !strcmp(s, "--save-state")  ? &a->save_state
                           : !strcmp(s, "--load-state")  ? &a->load_state
                           : !strcmp(s, "--contact")     ? &a->contact
                           : !strcmp(s, "--stiffness")   ? &a->stiffness
                           : !strcmp(s, "--damping")     ? &a->damping
                           : !strcmp(s, "--integrator")  ? &a->integrator
                           : !strcmp(s, "--soft-points") ? &a->soft_points
                           : !strcmp(s, "--soft-pair")   ? &a->soft_pairs
                           : !strcmp(s, "--materials")   ? &a->materials
                                                         : NULL;
        double* num = !strcmp(s, "--dt")         ? &a->dt
                      : !strcmp(s, "--duration") ? &a->duration
                      : !strcmp(s, "--cell")     ? &a->cell
                                                 : NULL;
        if (str || num) {
            if (i + 1 >= argc) {
                fprintf(stderr, "sinew run: %s needs a value\n", s);
                return CLI_USAGE;
            }
            if (str)
                *str = argv[++i];
            else if (cli_parse_vector(argv[++i], num, 1) != 1 || !(*num > 0)) {
                fprintf(stderr, "sinew run: %s needs one positive number\n", s);
                return CLI_USAGE;
            }
            if (num == &a->dt) a->dt_given = 1;
        } else if (!strcmp(s, "--friction") || !strcmp(s, "--restitution")) {
            double* dst = s[2] == 'f' ? &a->friction : &a->restitution;
            if (s[2] == 'f') a->friction_given = 1;
            if (s[2] == 'r') a->restitution_given = 1;
            if (i + 1 >= argc || cli_parse_vector(argv[i + 1], dst, 1) != 1 || !(*dst >= 0)) {
                fprintf(stderr, "sinew run: %s needs one number >= 0\n", s);
                return CLI_USAGE;
            }
            i++;
        } else if (!strcmp(s, "--substeps")) {
            char* end = NULL;
            long n = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || end == argv[i + 1] || *end || n < 1 || n > (1 << 20)) {
                fprintf(stderr, "sinew run: --substeps needs a whole number 1 .. %d\n", 1 << 20);
                return CLI_USAGE;
            }
            a->substeps = (int)n;
            i++;
        } else if (!strcmp(s, "--expo-products")) {
            char* end = NULL;
            long n = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
            if (i + 1 >= argc || end == argv[i + 1] || *end || n < 0 || n > 4) {
                fprintf(stderr, "sinew run: --expo-products needs a whole number 0 .. 4\n");
                return CLI_USAGE;
            }
            a->expo_products = (int)n;
            i++;
        } else if (!strcmp(s, "--expo-full")) {
            a->expo_full = 1;
        } else if (!strcmp(s, "--expo-modal") || !strcmp(s, "--expo-slip")) {
            const char* v = i + 1 < argc ? argv[i + 1] : "";
            if (strcmp(v, "on") && strcmp(v, "off")) {
                fprintf(stderr, "sinew run: %s needs on or off\n", s);
                return CLI_USAGE;
            }
            *(!strcmp(s, "--expo-modal") ? &a->expo_modal : &a->expo_slip) = !strcmp(v, "on");
            i++;
        } else if (!strcmp(s, "--rotor")) {
            // ---- --rotor DOF:INERTIA:RATIO ----
            const char* v = i + 1 < argc ? argv[i + 1] : "";
            char *e1 = NULL, *e2 = NULL, *e3 = NULL;
            long dof = strtol(v, &e1, 10);
            double in = *e1 == ':' ? strtod(e1 + 1, &e2) : 0;
            double ra = e2 && *e2 == ':' ? strtod(e2 + 1, &e3) : 0;
            if (e1 == v || !e3 || e3 == e2 + 1 || *e3 || dof < 0 || dof > (1 << 20) ||
                a->nrotor >= 64) {
                fprintf(stderr, "sinew run: --rotor needs DOF:INERTIA:RATIO (a DOF index, kg m^2, "
                                "the gear ratio; at most 64 rotors)\n");
                return CLI_USAGE;
            }
            a->rotor_dof[a->nrotor] = (int)dof;
            a->rotor_val[a->nrotor][0] = in;
            a->rotor_val[a->nrotor++][1] = ra;
            i++;
            // ---- end of --rotor ----
        } else if (!strcmp(s, "--soft-events")) {
            a->soft_events = 1;
        } else if (!strcmp(s, "--maximal")) {
            a->maximal = 1;
        } else if (!strcmp(s, "--maximal-alone")) {
            a->maximal = 2;
        } else if (!strcmp(s, "--bilateral")) {
            a->bilateral = 1;
        } else if (!strcmp(s, "--no-html")) {
            a->no_html = 1;
        } else if (!strcmp(s, "--no-ground")) {
            a->no_ground = 1;
        } else if (!strcmp(s, "--self-collision")) {
            a->self_collision = 1;
        } else if (!strcmp(s, "--quiet")) {
            a->quiet = 1;
        } else if (!strcmp(s, "--no-assemble")) {
            a->no_assemble = 1;
        } else if (!strcmp(s, "--ground")) {
            a->ground = 1;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            run_usage();
            exit(0);
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "sinew run: unknown option '%s'\n", s);
            return CLI_USAGE;
        } else if (!a->path) {
            a->path = s;
        } else {
            fprintf(stderr, "sinew run: more than one model given\n");
            return CLI_USAGE;
        }
    }
    if (!a->path) a->demo = 1;
    return 0;
}


// the bundled models: beside the source tree this CLI was built from, else where it was
// installed
static const char* models_dir(void) {
#ifdef SN_SOURCE_MODELS
    if (access(SN_SOURCE_MODELS "/" DEMO_MODEL, R_OK) == 0) return SN_SOURCE_MODELS;
#endif
    // installed: PREFIX/bin/sinew and PREFIX/share/sinew/models, wherever PREFIX went
    static char dir[4096];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 64);
    if (n > 0) {
        dir[n] = 0;
        char* slash = strrchr(dir, '/');
        if (slash) {
            strcpy(slash, "/../share/sinew/models");
            char probe[4200];
            snprintf(probe, sizeof probe, "%s/%s", dir, DEMO_MODEL);
            if (access(probe, R_OK) == 0) return dir;
        }
    }
#ifdef SN_INSTALL_MODELS
    if (access(SN_INSTALL_MODELS "/" DEMO_MODEL, R_OK) == 0) return SN_INSTALL_MODELS;
#endif
    return NULL;
}

// a vector option of n entries; one number stands for every entry when `broadcast`
static int vector_option(const char* text, const char* name, double* out, int n, int broadcast) {
    int cap = n + 8;
    double* buf = calloc((size_t)cap, sizeof(double));
    int got = cli_parse_vector(text, buf, cap), rc = 0;
    if (got == n) {
        memcpy(out, buf, (size_t)n * sizeof(double));
    } else if (broadcast && got == 1) {
        for (int i = 0; i < n; i++)
            out[i] = buf[0];
    } else {
        fprintf(stderr, "sinew run: %s needs %d finite numbers%s\n", name, n,
                broadcast ? " (or one for all)" : "");
        rc = CLI_USAGE;
    }
    free(buf);
    return rc;
}


// the world's warnings, on stderr
static void print_warning(sn_log_level level, const char* msg, void* ctx) {
    (void)ctx;
    if (level >= SN_LOG_WARNING) fprintf(stderr, "\nsinew run: warning: %s\n", msg);
}


// --gyroscopic explicit|midpoint
static int set_gyroscopic(sn_system* s, const char* name) {
    int midpoint = !strcmp(name, "midpoint");
    if (!midpoint && strcmp(name, "explicit")) {
        fprintf(stderr, "sinew run: unknown gyroscopic treatment '%s' (explicit, midpoint)\n",
                name);
        return CLI_USAGE;
    }
    sn_system_set_gyroscopic(s, midpoint ? SN_GYROSCOPIC_MIDPOINT : SN_GYROSCOPIC_EXPLICIT);
    return 0;
}


static int parse_scheme(const char* name, sn_scheme* out) {
    static const char* names[] = {"semi_implicit", "trapezoid", "euler", "rk4"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, names[i])) {
            *out = (sn_scheme)i;
            return 0;
        }
    fprintf(stderr, "sinew run: unknown scheme '%s' (semi_implicit, trapezoid, euler, rk4)\n",
            name);
    return CLI_USAGE;
}


// a heightfield file: rows of heights, x along a row and y down the lines, centred on the
// origin with spacing `cell`; 0 or 1 (message printed with the file and line)
static int load_heightfield(sn_world* w, const char* path, double cell) {
    FILE* f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "sinew run: cannot read '%s'\n", path);
        return 1;
    }
    size_t cap = 1024, n = 0;
    double* z = malloc(cap * sizeof(double));
    char line[65536];
    int nx = 0, ny = 0, lineno = 0, rc = z ? 0 : 1;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "%s:%d: line longer than %zu characters\n", path, lineno,
                    sizeof line - 1);
            rc = 1;
            break;
        }
        char* hash = strchr(line, '#');
        if (hash) *hash = 0;
        double row[8192];
        int got = cli_parse_vector(line, row, 8192);
        if (got == 0) continue;
        if (got < 0) {
            fprintf(stderr, "%s:%d: not a row of finite numbers (at most 8192)\n", path, lineno);
            rc = 1;
        } else if (nx && got != nx) {
            fprintf(stderr, "%s:%d: %d heights where the first row has %d\n", path, lineno, got,
                    nx);
            rc = 1;
        } else {
            nx = got, ny++;
            if (n + (size_t)got > cap) {
                while (n + (size_t)got > cap)
                    cap *= 2;
                double* more = realloc(z, cap * sizeof(double));
                if (!more) {
                    rc = 1;
                    break;
                }
                z = more;
            }
            memcpy(z + n, row, (size_t)got * sizeof(double));
            n += (size_t)got;
        }
    }
    fclose(f);
    if (!rc && (nx < 2 || ny < 2)) {
        fprintf(stderr, "%s: a heightfield needs at least 2 x 2 heights (found %d x %d)\n", path,
                nx, ny);
        rc = 1;
    }
    if (!rc && sn_world_set_heightfield(w, nx, ny, -0.5 * cell * (nx - 1), -0.5 * cell * (ny - 1),
                                        cell, cell, z) != SN_OK) {
        fprintf(stderr, "%s: %s\n", path, sn_world_last_error(w));
        rc = 1;
    }
    free(z);
    return rc;
}


static int set_materials(sn_world* w, sn_system* s, const char* list);

// the command line's start state and the library's setup options from it; 0 or CLI_USAGE
static int setup_opts(const sn_model* m, const run_args* a, sn_setup_opts* o, double* q,
                      double* u) {
    memset(o, 0, sizeof *o);
    int rc = 0;
    if (a->q0 && !(rc = vector_option(a->q0, "--q0", q, m->nq, 0))) o->q0 = q;
    if (!rc && a->u0 && !(rc = vector_option(a->u0, "--u0", u, m->nv, 0))) o->u0 = u;
    o->key = a->key;
    o->ground = a->no_ground ? SN_GROUND_OFF : a->ground ? SN_GROUND_ON : SN_GROUND_FROM_FILE;
    o->friction_set = a->friction_given;
    o->friction = a->friction;
    o->restitution = a->restitution;
    o->self_collision = a->self_collision;
    o->no_assemble = a->no_assemble;
    o->no_servos = a->kp || a->kd;
    return rc;
}


// the file's settings through the library (sn_system_apply_file), then the command line's
// options over them; 0, CLI_USAGE or 1
static int configure(sn_world* w, sn_system* s, run_args* a, sn_setup_report* rep) {
    const sn_model* m = sn_system_model(s);
    int nq = m->nq, nv = m->nv, rc = 0;
    double* q = calloc((size_t)nq + 1, sizeof(double));
    double* u = calloc((size_t)nv + 1, sizeof(double));
    double* kp = calloc((size_t)nv + 1, sizeof(double));
    double* kd = calloc((size_t)nv + 1, sizeof(double));
    double g[3];
    sn_setup_opts o;
    rc = setup_opts(m, a, &o, q, u);
    if (!rc && sn_system_apply_file(s, &o, rep) != SN_OK) {
        const char* msg = sn_world_last_error(w);
        if (a->key && !strncmp(msg, "no key", 6))
            fprintf(stderr, "sinew run: --key '%s': %s\n", a->key, msg);
        else
            fprintf(stderr, "sinew run: %s\n", msg);
        rc = CLI_USAGE;
    }
    if (!rc && rep->assembled)
        printf("assembly  the constraints started open by %.3g (worst; m, or rad for joints and "
               "welds): "
               "%s to %.3g (--no-assemble keeps them open)\n",
               rep->open_before, rep->assembly == SN_OK ? "closed" : "closed as far as they go",
               rep->open_after);
    if (!rc) memcpy(q, sn_system_q(s), (size_t)nq * sizeof(double));
    // the command line's time step and the bundled scene's win over the file's
    if (!rc && (a->dt_given || a->demo)) sn_world_set_timestep(w, a->dt);
    a->dt = sn_world_timestep(w);
    if (!rc && a->gravity && !(rc = vector_option(a->gravity, "--gravity", g, 3, 0)))
        sn_world_set_gravity(w, g);
    if (!rc && a->hfield) rc = load_heightfield(w, a->hfield, a->cell);
    sn_scheme sc = SN_SCHEME_SEMI_IMPLICIT;
    if (!rc && a->scheme && !(rc = parse_scheme(a->scheme, &sc))) sn_system_set_scheme(s, sc);
    if (!rc && a->gyroscopic) rc = set_gyroscopic(s, a->gyroscopic);
    for (int k = 0; k < a->nrotor && !rc; k++) // --rotor
        if (sn_system_set_rotor(s, a->rotor_dof[k], a->rotor_val[k][0], a->rotor_val[k][1])) {
            fprintf(stderr, "sinew run: --rotor: %s\n", sn_world_last_error(w));
            rc = CLI_USAGE;
        }
    if (!rc && a->materials) rc = set_materials(w, s, a->materials);
    int crank = a->demo ? sn_model_find(m, SN_OBJ_JOINT, DEMO_CRANK) : -1;
    memset(u, 0, (size_t)nv * sizeof(double));
    if (crank >= 0 && !a->kd && !a->vtarget) {
        // the bundled scene: a velocity servo on the crank
        kd[m->joint_vadr[crank]] = DEMO_CRANK_KD;
        u[m->joint_vadr[crank]] = DEMO_CRANK_SPEED;
    }
    // the file's servos (applied by the library) unless --kp or --kd says otherwise
    if (rep->servos) {
        memcpy(kp, m->dof_kp, (size_t)nv * sizeof(double));
        memcpy(kd, m->dof_kd, (size_t)nv * sizeof(double));
    }
    if (!rc && (a->kp || a->kd || a->target || a->vtarget || crank >= 0)) {
        if (a->kp) rc = vector_option(a->kp, "--kp", kp, nv, 1);
        if (!rc && a->kd) rc = vector_option(a->kd, "--kd", kd, nv, 1);
        if (!rc && sn_system_set_pd_gains(s, kp, kd, nv) != SN_OK) {
            fprintf(stderr, "sinew run: %s\n", sn_world_last_error(w));
            rc = CLI_USAGE;
        }
        if (!rc && a->target) rc = vector_option(a->target, "--target", q, nq, 0);
        if (crank < 0 || a->kd || a->vtarget) memset(u, 0, (size_t)nv * sizeof(double));
        if (!rc && a->vtarget) rc = vector_option(a->vtarget, "--vtarget", u, nv, 0);
        if (!rc && sn_system_set_pd_target(s, q, nq, u, nv) != SN_OK) {
            fprintf(stderr, "sinew run: %s\n", sn_world_last_error(w));
            rc = CLI_USAGE;
        }
    }
    free(q), free(u), free(kp), free(kd);
    return rc;
}


// ---- soft contacts (seed 004; docs/expo.md, "Command line") ----

#define SOFT_NAME 96
#define SOFT_MAX_DERIVED 256 // more points from the geometry: refused (name them)
#define SOFT_MANY 32         // more points than this: a warning (Expo's cost grows as (3 n)^3)

// the run's soft points (names for the summary) and what the run saw of them
typedef struct soft_run {
    int on, n;
    char (*name)[SOFT_NAME];
    sn_data* d;      // the points' kinematics at the start (the system's data are left alone)
    double ground_z; // the ground's height (penetrations are measured from it)
    double pen_max;  // the largest penetration over the points and the steps
    double pen_t;    // when
    int pen_pt;      // of which point (-1: none yet)
    long active_sum; // active points summed over the steps
    int active_max;  // the most in one step
} soft_run;

static void soft_run_free(soft_run* r) {
    free(r->name);
    sn_data_destroy(r->d);
    memset(r, 0, sizeof *r);
}

static const char* soft_integrator_name(sn_soft_integrator i) {
    static const char* names[] = {"expo", "euler", "rk4", "implicit_euler"};
    return i >= SN_SOFT_EXPO && i <= SN_SOFT_IMPLICIT_EULER ? names[i] : "?";
}

// the soft-only options on hard contacts, and the hard-only ones on soft contacts (`soft`:
// --contact soft, or the file's soft contacts without --contact hard); 0 or CLI_USAGE
static int soft_check_args(const run_args* a, int soft) {
    const char* only = a->stiffness            ? "--stiffness"
                       : a->damping            ? "--damping"
                       : a->integrator         ? "--integrator"
                       : a->substeps           ? "--substeps"
                       : a->soft_points        ? "--soft-points"
                       : a->bilateral          ? "--bilateral"
                       : a->soft_pairs         ? "--soft-pair"
                       : a->expo_products >= 0 ? "--expo-products"
                       : a->expo_full          ? "--expo-full"
                       : a->soft_events        ? "--soft-events"
                       : a->expo_modal >= 0    ? "--expo-modal"
                       : a->expo_slip >= 0     ? "--expo-slip"
                                               : NULL;
    if (!soft && only) {
        fprintf(stderr, "sinew run: %s is an option of soft contacts: add --contact soft\n", only);
        return CLI_USAGE;
    }
    const char* hard = !soft               ? NULL
                       : a->hfield         ? "--heightfield (soft contacts touch the ground "
                                             "plane only)"
                       : a->self_collision ? "--self-collision (soft contacts are between "
                                             "points and the ground only)"
                       : a->restitution_given
                           ? "--restitution (soft contacts bounce by their stiffness and damping)"
                       : a->scheme     ? "--scheme (a soft world integrates with --integrator)"
                       : a->gyroscopic ? "--gyroscopic (an option of the hard-contact schemes)"
                                       : NULL;
    if (hard) {
        fprintf(stderr, "sinew run: --contact soft does not take %s\n", hard);
        return CLI_USAGE;
    }
    return 0;
}

// --contact's value, and the options that do not go with it (without --contact, the file
// decides: soft_configure checks them); 0 or CLI_USAGE
static int soft_check_contact(const run_args* a) {
    if (a->contact && strcmp(a->contact, "soft") && strcmp(a->contact, "hard")) {
        fprintf(stderr, "sinew run: unknown contact model '%s' (hard, soft)\n", a->contact);
        return CLI_USAGE;
    }
    return a->contact ? soft_check_args(a, !strcmp(a->contact, "soft")) : 0;
}

// one or two numbers (normal [tangential]) > 0 (or >= 0 when `zero_ok`)
static int soft_pair(const char* text, const char* flag, int zero_ok, double* n, double* t) {
    double v[3];
    int got = cli_parse_vector(text, v, 3);
    if (got == 1) v[1] = v[0];
    if ((got != 1 && got != 2) || !(zero_ok ? v[0] >= 0 && v[1] >= 0 : v[0] > 0 && v[1] > 0) ||
        !isfinite(v[0]) || !isfinite(v[1])) {
        fprintf(stderr,
                "sinew run: %s needs one number, or two (\"normal tangential\"), finite and %s "
                "(%s)\n",
                flag, zero_ok ? ">= 0" : "> 0", zero_ok ? "N s/m" : "N/m");
        return CLI_USAGE;
    }
    *n = v[0], *t = v[1];
    return 0;
}

static int soft_add(sn_world* w, sn_system* s, soft_run* r, int frame, const double off[3],
                    const char* name) {
    if (sn_system_add_soft_point_frame(s, frame, off, NULL) != SN_OK) {
        fprintf(stderr, "sinew run: soft point '%s': %s\n", name, sn_world_last_error(w));
        return 1;
    }
    char(*more)[SOFT_NAME] = realloc(r->name, (size_t)(r->n + 1) * sizeof *r->name);
    if (!more) return 1;
    r->name = more;
    snprintf(r->name[r->n++], SOFT_NAME, "%s", name);
    return 0;
}

// --soft-points NAME[@x:y:z],...: points at URDF links' origins (or offsets in their frames)
static int soft_named_points(sn_world* w, sn_system* s, soft_run* r, const char* list) {
    const sn_model* m = sn_system_model(s);
    const char* at = list;
    for (;;) {
        const char* comma = strchr(at, ',');
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        char tok[512];
        while (len && (*at == ' ' || *at == '\t'))
            at++, len--;
        while (len && (at[len - 1] == ' ' || at[len - 1] == '\t'))
            len--;
        if (!len || len >= sizeof tok) {
            fprintf(stderr, "sinew run: --soft-points: %s entry in '%s'\n",
                    len ? "a too long" : "an empty", list);
            return CLI_USAGE;
        }
        memcpy(tok, at, len);
        tok[len] = 0;
        double off[3] = {0, 0, 0};
        char* o = strchr(tok, '@');
        if (o) {
            *o++ = 0;
            char* p = o;
            for (int k = 0; k < 3; k++) {
                char* end = NULL;
                off[k] = strtod(p, &end);
                if (end == p || !isfinite(off[k]) || *end != (k < 2 ? ':' : 0)) {
                    fprintf(stderr,
                            "sinew run: --soft-points: '%s@%s': the offset is x:y:z, three "
                            "finite numbers (m, in the link's frame)\n",
                            tok, o);
                    return CLI_USAGE;
                }
                p = end + 1;
            }
        }
        int fr = sn_model_find(m, SN_OBJ_FRAME, tok);
        if (fr < 0) {
            fprintf(stderr, "sinew run: --soft-points: the model has no link named '%s'\n", tok);
            return CLI_USAGE;
        }
        if (m->frame_body[fr] == 0) {
            fprintf(stderr,
                    "sinew run: --soft-points: link '%s' is fixed to the world (a soft point "
                    "must be on a moving body)\n",
                    tok);
            return CLI_USAGE;
        }
        char name[SOFT_NAME];
        if (o)
            snprintf(name, sizeof name, "%.40s@%.4g:%.4g:%.4g", tok, off[0], off[1], off[2]);
        else
            snprintf(name, sizeof name, "%.80s", tok);
        if (soft_add(w, s, r, fr, off, name)) return 1;
        if (!comma) break;
        at = comma + 1;
    }
    return 0;
}

// the points of the model's collision geometry, by the library (sn_system_add_soft_geometry_points:
// the rules are run --help's), named after their bodies
static int soft_geometry_points(sn_world* w, sn_system* s, soft_run* r) {
    const sn_model* m = sn_system_model(s);
    // their number first, by the library's rules: a model whose meshes have thousands of
    // vertices is refused here, before the library sizes a workspace for them
    long count = 0;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_is_visual[g] || m->frame_body[m->geom_frame[g]] < 1) continue;
        int t = m->geom_type[g];
        count += t == SN_GEOM_BOX        ? 8
                 : t == SN_GEOM_CYLINDER ? 16
                 : t == SN_GEOM_MESH     ? (m->geom_vert_num[g] > 0 ? m->geom_vert_num[g] : 0)
                 : t == SN_GEOM_SPHERE   ? 1
                 : t == SN_GEOM_CAPSULE  ? 2
                                         : 0;
    }
    if (count > SOFT_MAX_DERIVED) {
        fprintf(stderr,
                "sinew run: --contact soft: the collision geometry gives %ld contact points "
                "(more than %d: Expo's cost grows as (3 n)^3); name the points with "
                "--soft-points\n",
                count, SOFT_MAX_DERIVED);
        return CLI_USAGE;
    }
    int first = sn_system_soft_point_count(s), added = 0;
    if (sn_system_add_soft_geometry_points(s, &added) != SN_OK) {
        fprintf(stderr,
                "sinew run: --contact soft: the points of the collision geometry: %s (name the "
                "contact points with --soft-points)\n",
                sn_world_last_error(w));
        return 1;
    }
    char(*names)[SOFT_NAME] = calloc((size_t)added + 1, sizeof *names);
    if (!names) return 1;
    free(r->name);
    r->name = names;
    int* per_body = calloc((size_t)m->nbody, sizeof(int));
    for (int i = 0; i < added; i++) {
        sn_soft_point p;
        sn_system_soft_point(s, first + i, &p);
        int k = per_body ? per_body[p.body]++ : i;
        snprintf(r->name[r->n++], SOFT_NAME, "%.80s:%d", sn_model_name(m, SN_OBJ_BODY, p.body), k);
    }
    free(per_body);
    if (!r->n) {
        fprintf(stderr,
                "sinew run: --contact soft: the model has no collision geometry on a moving body "
                "to take contact points from; name links with --soft-points\n");
        return CLI_USAGE;
    }
    return 0;
}


// --soft-pair A:B:K[:Kt:B:Bt:MU],...: each pair's parameters over the world's p; 0 or CLI_USAGE
static int soft_pairs(sn_world* w, const char* list, const sn_soft_params* p) {
    for (const char* at = list;;) {
        const char* comma = strchr(at, ',');
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        char tok[256];
        if (len >= sizeof tok) {
            fprintf(stderr, "sinew run: --soft-pair: an entry of %zu characters (at most %zu)\n",
                    len, sizeof tok - 1);
            return CLI_USAGE;
        }
        memcpy(tok, at, len);
        tok[len] = 0;
        double v[7];
        int n = 0, trail = 0;
        char* c = tok;
        for (; n < 7; n++) {
            char* end = NULL;
            v[n] = strtod(c, &end);
            if (end == c || !isfinite(v[n]) || (*end && *end != ':')) break;
            c = end;
            if (!*c) {
                n++;
                break;
            }
            c++;
            if (!*c) { // a trailing ':' (an empty value)
                trail = 1;
                break;
            }
        }
        // whole ids in int's range (the library says which it takes)
        int ok = n >= 3 && n <= 7 && !*c && !trail && v[0] == floor(v[0]) && v[1] == floor(v[1]) &&
                 fabs(v[0]) <= 1e6 && fabs(v[1]) <= 1e6;
        sn_soft_params q = *p;
        double* dst[5] = {&q.k_normal, &q.k_tangent, &q.b_normal, &q.b_tangent, &q.mu};
        for (int k = 2; ok && k < n; k++)
            *dst[k - 2] = v[k];
        if (ok && n == 3) q.k_tangent = p->k_tangent;
        if (!ok || sn_world_set_soft_pair(w, (int)v[0], (int)v[1], &q) != SN_OK) {
            fprintf(stderr, "sinew run: --soft-pair '%s': %s\n", tok,
                    ok ? sn_world_last_error(w)
                       : "A:B:K_normal[:K_tangential:B_normal:B_tangential:mu], material ids A "
                         "and B whole numbers 0 .. 15");
            return CLI_USAGE;
        }
        if (!comma) return 0;
        at = comma + 1;
    }
}

// --materials LINK:ID,...: the contact material of each link's body; 0 or CLI_USAGE
static int set_materials(sn_world* w, sn_system* s, const char* list) {
    const sn_model* m = sn_system_model(s);
    for (const char* at = list;;) {
        const char* comma = strchr(at, ',');
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        char tok[256];
        if (len >= sizeof tok) {
            fprintf(stderr, "sinew run: --materials: an entry of %zu characters (at most %zu)\n",
                    len, sizeof tok - 1);
            return CLI_USAGE;
        }
        memcpy(tok, at, len);
        tok[len] = 0;
        char* colon = strrchr(tok, ':');
        char* end = NULL;
        long id = colon ? strtol(colon + 1, &end, 10) : -1;
        if (!colon || end == colon + 1 || *end || id < 0 || id > 15) {
            fprintf(stderr, "sinew run: --materials '%s': LINK:ID, the id a whole number 0 .. 15\n",
                    tok);
            return CLI_USAGE;
        }
        *colon = 0;
        int fr = sn_model_find(m, SN_OBJ_FRAME, tok);
        if (fr < 0) {
            fprintf(stderr, "sinew run: --materials: the model has no link named '%s'\n", tok);
            return CLI_USAGE;
        }
        if (sn_system_set_body_material(s, m->frame_body[fr], (int)id) != SN_OK) {
            fprintf(stderr, "sinew run: --materials '%s': %s\n", tok, sn_world_last_error(w));
            return CLI_USAGE;
        }
        if (!comma) return 0;
        at = comma + 1;
    }
}

// the soft points a model file gave (sn_system_apply_file), named after their bodies and offsets
static int soft_file_points(sn_system* s, soft_run* r) {
    const sn_model* m = sn_system_model(s);
    int n = sn_system_soft_point_count(s);
    r->name = calloc((size_t)n + 1, sizeof *r->name);
    if (!r->name) return 1;
    for (int i = 0; i < n; i++) {
        sn_soft_point p;
        sn_system_soft_point(s, i, &p);
        snprintf(r->name[r->n++], SOFT_NAME, "%.40s@%.4g:%.4g:%.4g",
                 sn_model_name(m, SN_OBJ_BODY, p.body), p.offset[0], p.offset[1], p.offset[2]);
    }
    return 0;
}


// --contact soft and its options through the public API; 0, CLI_USAGE or 1
static int soft_configure(sn_world* w, sn_system* s, const run_args* a, double ground_z,
                          soft_run* r) {
    memset(r, 0, sizeof *r);
    r->pen_pt = -1;
    r->pen_max = -INFINITY;
    r->ground_z = ground_z;
    // soft: --contact soft, or the file's soft contacts (applied by the library) unless
    // --contact hard
    int soft =
        a->contact ? !strcmp(a->contact, "soft") : sn_world_contact_model(w) == SN_CONTACT_SOFT;
    if (!a->contact && soft_check_args(a, soft)) return CLI_USAGE;
    if (!soft) return sn_world_set_contact_model(w, SN_CONTACT_HARD) == SN_OK ? 0 : 1;
    r->on = 1;
    const sn_model* m = sn_system_model(s);
    sn_soft_params p = sn_world_soft_params(w); // the defaults, or the file's
    if (a->stiffness && soft_pair(a->stiffness, "--stiffness", 0, &p.k_normal, &p.k_tangent))
        return CLI_USAGE;
    if (a->damping && soft_pair(a->damping, "--damping", 1, &p.b_normal, &p.b_tangent))
        return CLI_USAGE;
    if (a->friction_given) p.mu = a->friction;
    if (a->bilateral) p.bilateral = 1;
    sn_soft_integrator integ = sn_system_soft_integrator(s);
    if (a->integrator) {
        int k = SN_SOFT_EXPO;
        while (k <= SN_SOFT_IMPLICIT_EULER && strcmp(a->integrator, soft_integrator_name(k)))
            k++;
        if (k > SN_SOFT_IMPLICIT_EULER) {
            fprintf(stderr,
                    "sinew run: unknown soft integrator '%s' (expo, euler, rk4, implicit_euler)\n",
                    a->integrator);
            return CLI_USAGE;
        }
        integ = (sn_soft_integrator)k;
    }
    if (sn_world_set_contact_model(w, SN_CONTACT_SOFT) != SN_OK ||
        sn_world_set_soft_params(w, &p) != SN_OK ||
        sn_system_set_soft_integrator(s, integ, a->substeps ? a->substeps : 1) != SN_OK ||
        ((a->expo_products >= 0 || a->expo_full) &&
         sn_system_set_expo_options(s, a->expo_products, 1, a->expo_full) != SN_OK) ||
        (a->soft_events && sn_system_set_soft_events(s, 1) != SN_OK) ||
        (a->expo_modal >= 0 && sn_system_set_expo_modal(s, a->expo_modal) != SN_OK) ||
        (a->expo_slip >= 0 && sn_system_set_expo_slip(s, a->expo_slip) != SN_OK)) {
        fprintf(stderr, "sinew run: --contact soft: %s\n", sn_world_last_error(w));
        return CLI_USAGE;
    }
    if (a->soft_pairs && soft_pairs(w, a->soft_pairs, &p)) return CLI_USAGE;
    if (sn_data_create(m, NULL, &r->d, NULL) != SN_OK) return 1;
    memcpy(r->d->q, sn_system_q(s), (size_t)m->nq * sizeof(double));
    sn_fk(m, r->d);
    // the points: --soft-points (after the file's), else the file's, else the geometry's
    int rc = sn_system_soft_point_count(s) ? soft_file_points(s, r) : 0;
    if (!rc)
        rc = a->soft_points                  ? soft_named_points(w, s, r, a->soft_points)
             : sn_system_soft_point_count(s) ? 0
                                             : soft_geometry_points(w, s, r);
    if (!rc && r->n > SOFT_MANY)
        fprintf(stderr,
                "sinew run: warning: %d soft points (Expo's cost grows as (3 n)^3); "
                "--soft-points picks fewer\n",
                r->n);
    return rc;
}

// a point's state; at the start (no step yet) its position from the start pose
static void soft_point_now(const soft_run* r, sn_system* s, int i, int start, sn_soft_point* p) {
    sn_system_soft_point(s, i, p);
    if (!start || p->active) return;
    const sn_model* m = sn_system_model(s);
    memcpy(r->d->q, sn_system_q(s), (size_t)m->nq * sizeof(double));
    sn_fk(m, r->d);
    const double *bp = r->d->body_pos + 3 * p->body, *R = r->d->body_rot + 9 * p->body;
    for (int e = 0; e < 3; e++)
        p->position[e] = bp[e] + R[3 * e] * p->offset[0] + R[3 * e + 1] * p->offset[1] +
                         R[3 * e + 2] * p->offset[2];
    p->penetration = r->ground_z - p->position[2];
}

// --record's soft columns: penetration and force of each point
static void soft_header(FILE* f, const soft_run* r) {
    for (int i = 0; i < r->n; i++)
        fprintf(f, ",soft%d_pen,soft%d_fx,soft%d_fy,soft%d_fz", i, i, i, i);
}

static void soft_columns(FILE* f, const soft_run* r, sn_system* s, int start) {
    for (int i = 0; i < r->n; i++) {
        sn_soft_point p;
        soft_point_now(r, s, i, start, &p);
        fprintf(f, ",%.9g,%.9g,%.9g,%.9g", p.penetration, p.force[0], p.force[1], p.force[2]);
    }
}

// after a step: the active count and the largest penetration
static void soft_track(soft_run* r, sn_system* s, double t) {
    int act = sn_system_soft_contact_count(s);
    r->active_sum += act;
    if (act > r->active_max) r->active_max = act;
    for (int i = 0; i < r->n; i++) {
        sn_soft_point p;
        if (sn_system_soft_point(s, i, &p) == SN_OK && p.penetration > r->pen_max)
            r->pen_max = p.penetration, r->pen_t = t, r->pen_pt = i;
    }
}

// --contacts in a soft world: a row per active point (depth: its penetration; impulse: its
// force times the step)
static void soft_contact_rows(FILE* f, const sn_model* m, sn_system* s, double t, double dt) {
    for (int i = 0; i < sn_system_soft_point_count(s); i++) {
        sn_soft_point p;
        if (sn_system_soft_point(s, i, &p) != SN_OK || !p.active) continue;
        fprintf(f, "%.9g,%s,%.9g,%.9g,%.9g,0,0,1,%.9g,%.9g,%.9g,%.9g\n", t,
                sn_model_name(m, SN_OBJ_BODY, p.body), p.position[0], p.position[1], p.position[2],
                p.penetration, p.force[0] * dt, p.force[1] * dt, p.force[2] * dt);
    }
}

static void soft_summary(const soft_run* r, sn_world* w, sn_system* s, long steps) {
    sn_soft_params p = sn_world_soft_params(w);
    printf("soft contacts    %d point%s: ", r->n, r->n == 1 ? "" : "s");
    for (int i = 0; i < r->n && i < 8; i++)
        printf("%s%d %s", i ? ", " : "", i, r->name[i]);
    printf("%s\n", r->n > 8 ? ", ..." : "");
    printf("soft parameters  K %g / %g N/m, B %g / %g N s/m (normal / tangential), mu %g%s, "
           "%s, %d sub-step%s per step%s\n",
           p.k_normal, p.k_tangent, p.b_normal, p.b_tangent, p.mu, p.bilateral ? ", bilateral" : "",
           soft_integrator_name(sn_system_soft_integrator(s)), sn_system_soft_substeps(s),
           sn_system_soft_substeps(s) > 1 ? "s" : "",
           sn_system_soft_events(s) ? ", contact events on" : "");
    for (int x = 0; x < SN_SOFT_MATERIALS; x++)
        for (int y = x; y < SN_SOFT_MATERIALS; y++) {
            sn_soft_params q;
            int set = 0;
            if (sn_world_soft_pair(w, x, y, &q, &set) != SN_OK || !set) continue;
            printf("soft pair %2d %2d  K %g / %g N/m, B %g / %g N s/m, mu %g%s\n", x, y, q.k_normal,
                   q.k_tangent, q.b_normal, q.b_tangent, q.mu, q.bilateral ? ", bilateral" : "");
        }
    printf("soft active      %.3g points per step on average, at most %d\n",
           steps ? (double)r->active_sum / (double)steps : 0.0, r->active_max);
    if (r->pen_pt >= 0 && r->pen_max > 0)
        printf("penetration      largest %.6g m (point %d %s, t = %.6g s)\n", r->pen_max, r->pen_pt,
               r->name[r->pen_pt], r->pen_t);
    else
        printf("penetration      none: no point went below the ground\n");
}


static const char* scheme_name(sn_scheme s) {
    static const char* names[] = {"semi-implicit", "trapezoid", "Euler", "RK4"};
    return names[s];
}


// ---- --maximal: the model in maximal coordinates, stepped alone (docs/constraints.md) ----

// the options a standalone sn_maximal does not take; 0 or CLI_USAGE
static int maximal_check_args(const run_args* a) {
    if (a->maximal == 1) {
        // in the world: the environment options of the articulated run apply
        const char* no = a->demo          ? "the bundled scene (give a MODEL)"
                         : a->kp || a->kd ? "--kp or --kd (no control in maximal coordinates)"
                         : a->target || a->vtarget ? "--target or --vtarget (no control)"
                         : a->contact              ? "--contact (hard contacts only)"
                         : a->contacts   ? "--contacts (the record's contacts column counts them)"
                         : a->gyroscopic ? "--gyroscopic (the bodies' couples are the free bodies')"
                         : a->save_state || a->load_state ? "--save-state or --load-state"
                         : a->plot                        ? "--plot"
                         : a->scheme && strcmp(a->scheme, "semi_implicit")
                             ? "--scheme other than semi_implicit (--maximal-alone has rk4)"
                             : NULL;
        if (!no) return soft_check_args(a, 0);
        fprintf(stderr, "sinew run: --maximal does not take %s\n", no);
        return CLI_USAGE;
    }
    const char* no = a->demo                   ? "the bundled scene (give a MODEL)"
                     : a->kp || a->kd          ? "--kp or --kd (no control in maximal coordinates)"
                     : a->target || a->vtarget ? "--target or --vtarget (no control)"
                     : a->contact              ? "--contact (no contacts)"
                     : a->hfield               ? "--heightfield (no contacts)"
                     : a->ground               ? "--ground (no contacts)"
                     : a->contacts             ? "--contacts (no contacts)"
                     : a->friction_given || a->restitution_given
                         ? "--friction or --restitution (no contacts)"
                     : a->self_collision ? "--self-collision (no contacts)"
                     : a->gyroscopic     ? "--gyroscopic (the bodies' couples are exact)"
                     : a->save_state || a->load_state ? "--save-state or --load-state"
                     : a->plot                        ? "--plot"
                     : a->materials                   ? "--materials (no contacts)"
                     : a->scheme && strcmp(a->scheme, "semi_implicit") && strcmp(a->scheme, "rk4")
                         ? "--scheme other than semi_implicit or rk4"
                         : NULL;
    if (!no) return soft_check_args(a, 0);
    fprintf(stderr, "sinew run: --maximal-alone does not take %s\n", no);
    return CLI_USAGE;
}

// the joint coordinates of mx into q, u; 1-DOF revolute angles kept continuous with the last
// row's (prev, NULL: the first row)
static void unwrap_joints(const sn_model* m, const double* prev, double* q) {
    for (int j = 0; prev && j < m->njoint; j++) {
        int t = m->joint_type[j], i = m->joint_qadr[j];
        if (t == SN_JOINT_REVOLUTE || t == SN_JOINT_CONTINUOUS)
            q[i] += 2 * M_PI * floor((prev[i] - q[i]) / (2 * M_PI) + 0.5);
    }
}

// contacts of the world's last step (each once)
static int world_contact_count(const sn_world* w) {
    int n = 0;
    for (int i = 0; i < sn_world_contact_row_count(w); i++) {
        sn_contact_row r;
        if (sn_world_contact_row(w, i, &r) == SN_OK && r.kind == SN_ROW_CONTACT) n++;
    }
    return n;
}

// a --maximal run: the sn_maximal, and the world that steps its bodies with the contacts (NULL:
// it steps alone)
typedef struct maximal_run {
    const sn_model* m;
    sn_maximal* mx;
    sn_world* wm;
    int first; // the first of its bodies' systems in wm
} maximal_run;

static double maximal_time(const maximal_run* r) {
    return r->wm ? sn_world_time(r->wm) : sn_maximal_time(r->mx);
}

// the joint coordinates the bodies give, hinge angles continued from the last row's (prev, NULL:
// the first row)
static void maximal_joints(const maximal_run* r, const double* prev, double* q, double* u) {
    if (r->wm)
        sn_world_maximal_joint_state(r->wm, r->mx, r->first, q, r->m->nq, u, r->m->nv);
    else
        sn_maximal_joint_state(r->mx, q, r->m->nq, u, r->m->nv);
    unwrap_joints(r->m, prev, q);
}

// --maximal's row: the joint state, the energies, the contacts (0 alone), the constraint error
static void maximal_row(FILE* f, const maximal_run* r, const double* q, const double* u,
                        double pe0) {
    double rms = 0, worst = 0;
    sn_maximal_constraint_error(r->mx, &rms, &worst);
    record_values(f, maximal_time(r), q, r->m->nq, u, r->m->nv, sn_maximal_kinetic_energy(r->mx),
                  sn_maximal_potential_energy(r->mx) + pe0, r->wm ? world_contact_count(r->wm) : 0);
    fprintf(f, ",%.9g,%.9g\n", rms, worst);
}

// the end of a --maximal run: the constraint error over the run, the record closed, the replay
// written (`what` qualifies "in maximal coordinates" in its summary); rc, or 1 when the replay
// could not be written
static int maximal_finish(const run_args* a, FILE* rec, cli_replay* rep, long k, double sim,
                          double c_sq, double c_rms_max, double c_worst, const char* what, int rc) {
    printf("constraint error rms %.3g over the run (largest step rms %.3g), worst %.3g (m or "
           "rad)\n",
           k ? sqrt(c_sq / (double)k) : 0.0, c_rms_max, c_worst);
    if (rec) {
        fclose(rec);
        printf("recorded         %s (%ld rows after the header)\n", a->record, k + 1);
    }
    if (rep) {
        char path[4096], title[512], summary[1024];
        const char* base = strrchr(a->path, '/');
        snprintf(title, sizeof title, "%s", base ? base + 1 : a->path);
        char* dot = strrchr(title, '.');
        if (dot && dot != title) *dot = 0;
        snprintf(path, sizeof path, "%s%s", a->html ? a->html : title, a->html ? "" : ".html");
        snprintf(summary, sizeof summary,
                 "%s in maximal coordinates%s: %.3g s simulated in %ld steps of %g s", title, what,
                 sim, k, a->dt);
        if (cli_replay_write(rep, path, title, summary) == 0)
            printf("replay           %s (open it in a browser)\n", path);
        else if (!rc)
            rc = 1;
        cli_replay_free(rep);
    }
    return rc;
}

// the sn_maximal of the model at the articulated system's state, and (in_world) the world that
// steps its bodies: the environment of w (sn_world_copy_settings), the bodies' materials and
// filters from s (sn_world_add_maximal_as); alone, w's gravity and the scheme asked for. 0 or 1
static int maximal_open(run_args* a, sn_world* w, sn_system* s, const sn_setup_report* setup,
                        int in_world, maximal_run* r) {
    memset(r, 0, sizeof *r);
    r->m = sn_system_model(s);
    r->first = -1;
    sn_world_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.log = print_warning;
    if (in_world) wo.timestep = a->dt;
    sn_error err;
    if (sn_maximal_from_model(r->m, sn_system_q(s), sn_system_u(s), &wo, &r->mx, &err) != SN_OK) {
        fprintf(stderr, "sinew run: --maximal: %s\n", err.msg);
        return 1;
    }
    if (in_world) {
        if (sn_world_create(&wo, &r->wm, &err) != SN_OK) {
            fprintf(stderr, "sinew run: --maximal: %s\n", err.msg);
            return 1;
        }
        if (sn_world_copy_settings(r->wm, w) != SN_OK ||
            sn_world_add_maximal_as(r->wm, r->mx, s, &r->first)) {
            fprintf(stderr, "sinew run: --maximal: %s\n", sn_world_last_error(r->wm));
            return 1;
        }
        return 0;
    }
    double g[3];
    sn_world_gravity(w, g);
    sn_maximal_set_timestep(r->mx, a->dt);
    sn_maximal_set_gravity(r->mx, g);
    int rk4 = a->scheme && !strcmp(a->scheme, "rk4");
    sn_maximal_set_scheme(r->mx, rk4 ? SN_MAXIMAL_RK4 : SN_MAXIMAL_SEMI_IMPLICIT);
    if (setup->ground)
        fprintf(stderr,
                "sinew run: warning: --maximal: no contacts: the ground at z = %g is not "
                "simulated (the standalone system has none)\n",
                setup->ground_height);
    return 0;
}

// `sinew run --maximal MODEL` (in_world) and `--maximal-alone MODEL`: the world and system
// configured as for the articulated run (the file's dt, gravity, key and assembly, then --q0,
// --u0, --dt, --gravity) give the start state and the settings. In the world a second world
// steps the model's bodies as free-body systems held by world constraints, with the contacts;
// alone the sn_maximal steps by itself. The articulated system only draws the replay at the joint
// coordinates the bodies give. 0 or 1
static int run_maximal(run_args* a, sn_world* w, sn_system* s, const sn_setup_report* setup,
                       int in_world) {
    maximal_run r;
    int opened = maximal_open(a, w, s, setup, in_world, &r) == 0, rc = !opened;
    const sn_model* m = r.m;
    sn_maximal* mx = r.mx;
    // the potential energy of the links welded to the world, which have no maximal body
    double pe0 = rc ? 0 : sn_system_potential_energy(s) - sn_maximal_potential_energy(mx);
    size_t nq = (size_t)m->nq + 1, nv = (size_t)m->nv + 1;
    double *q = calloc(nq, sizeof(double)), *u = calloc(nv, sizeof(double));
    double* prev = calloc(nq, sizeof(double));
    FILE* rec = !rc && a->record ? fopen(a->record, "w") : NULL;
    if (!rc && a->record && !rec) {
        fprintf(stderr, "sinew run: cannot write '%s'\n", a->record);
        rc = 1;
    }
    int ground =
        r.wm && !a->no_ground && sn_world_terrain_height(r.wm, 0, 0, NULL) > (double)-INFINITY;
    cli_replay* rep = !rc && !a->no_html ? cli_replay_begin(m, ground, 1.0 / 60) : NULL;
    if (!rc) maximal_joints(&r, NULL, q, u);
    if (rec) {
        record_header(rec, m->nq, m->nv, ",c_rms,c_worst");
        fputc('\n', rec);
        maximal_row(rec, &r, q, u, pe0);
    }
    if (rep) cli_replay_frame(rep, s, 0, a->dt);
    long steps = (long)floor(a->duration / a->dt + 0.5), k = 0, contact_sum = 0;
    int bar = !a->quiet && isatty(2), contact_max = 0;
    double e0 = rc ? 0 : sn_maximal_kinetic_energy(mx) + sn_maximal_potential_energy(mx);
    double c_sq = 0, c_worst = 0, c_rms_max = 0, t0 = cli_now_seconds();
    for (; !rc && k < steps; k++) {
        sn_status st = r.wm ? sn_world_integrate(r.wm) : sn_maximal_step(mx);
        if (st != SN_OK) {
            fprintf(stderr, "\nsinew run: the step at t = %g s failed: %s\n", maximal_time(&r),
                    r.wm ? sn_world_last_error(r.wm) : sn_maximal_last_error(mx));
            rc = 1;
            break;
        }
        memcpy(prev, q, (size_t)m->nq * sizeof(double));
        maximal_joints(&r, prev, q, u);
        if (rec) maximal_row(rec, &r, q, u, pe0);
        double rms, worst;
        sn_maximal_constraint_error(mx, &rms, &worst);
        if (!isfinite(rms) || !isfinite(worst)) {
            fprintf(stderr, "\nsinew run: the constraint error is not finite at t = %g s\n",
                    maximal_time(&r));
            rc = 1;
            break;
        }
        c_sq += rms * rms, c_rms_max = fmax(c_rms_max, rms), c_worst = fmax(c_worst, worst);
        int nc = r.wm ? world_contact_count(r.wm) : 0;
        contact_sum += nc, contact_max = nc > contact_max ? nc : contact_max;
        if (rep && sn_system_set_state(s, q, m->nq, u, m->nv) == SN_OK)
            cli_replay_frame(rep, s, maximal_time(&r), a->dt);
        if (bar && (k % 256 == 0 || k + 1 == steps)) cli_progress((double)(k + 1) / (double)steps);
    }
    if (opened) {
        double wall = cli_now_seconds() - t0, sim = maximal_time(&r);
        if (bar) fputc('\n', stderr);
        double e1 = sn_maximal_kinetic_energy(mx) + sn_maximal_potential_energy(mx);
        int rk4 = !r.wm && a->scheme && !strcmp(a->scheme, "rk4");
        printf("model            %s (nq %d, nv %d)\n", a->path, m->nq, m->nv);
        printf("maximal          %d bodies, %d constraints, %d rows (%s)\n",
               sn_maximal_body_count(mx), sn_maximal_constraint_count(mx), sn_maximal_row_count(mx),
               r.wm ? "in the world, with contacts; no limits" : "no contacts, no limits");
        printf("simulated time   %.6g s in %ld steps of %.6g s (maximal coordinates, %s)\n", sim, k,
               a->dt,
               r.wm  ? "the world's step"
               : rk4 ? "RK4"
                     : "semi-implicit");
        printf("wall time        %.6g s\n", wall);
        printf("real-time factor %.4g\n", wall > 0 ? sim / wall : (double)INFINITY);
        if (r.wm) {
            printf("energy           %.9g J -> %.9g J (change %+.3g J)\n", e0 + pe0, e1 + pe0,
                   e1 - e0);
            printf("contacts         %.3g per step on average, %d at most\n",
                   k ? (double)contact_sum / (double)k : 0.0, contact_max);
        } else {
            printf("energy           %.9g J -> %.9g J (change %+.3g J, %+.3g %%)\n", e0 + pe0,
                   e1 + pe0, e1 - e0, e0 + pe0 != 0 ? 100 * (e1 - e0) / fabs(e0 + pe0) : 0.0);
        }
        rc = maximal_finish(a, rec, rep, k, sim, c_sq, c_rms_max, c_worst,
                            r.wm ? " with contacts" : "", rc);
    } else {
        if (rec) fclose(rec);
        if (rep) cli_replay_free(rep);
    }
    free(q), free(u), free(prev);
    sn_world_destroy(r.wm);
    sn_maximal_destroy(mx);
    return rc;
}

int cli_run(int argc, char** argv) {
    run_args a;
    int rc = parse_args(argc, argv, &a);
    if (!rc) rc = a.maximal ? maximal_check_args(&a) : soft_check_contact(&a);
    if (rc) {
        run_usage();
        return rc;
    }
    char demo_path[4096 + 64];
    if (a.demo) {
        const char* dir = models_dir();
        if (!dir) {
            fprintf(stderr, "sinew run: no model given, and the bundled %s is not found\n",
                    DEMO_MODEL);
            run_usage();
            return CLI_USAGE;
        }
        snprintf(demo_path, sizeof demo_path, "%s/%s", dir, DEMO_MODEL);
        a.path = demo_path;
        if (!a.dt_given) a.dt = 0.002;
    }
    sn_model* m = cli_load(a.path, 0);
    if (!m) return 1;
    if (a.ground && a.no_ground) {
        fprintf(stderr, "sinew run: --ground and --no-ground contradict each other\n");
        sn_model_destroy(m);
        return CLI_USAGE;
    }
    sn_world_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.timestep = a.dt;
    wo.log = print_warning; // the step's warnings (e.g. the explicit gyroscopic term's)
    sn_world* w = NULL;
    sn_system* s = NULL;
    sn_error err;
    if (sn_world_create(&wo, &w, &err) != SN_OK || sn_world_add_system(w, m, &s, &err) != SN_OK) {
        fprintf(stderr, "sinew run: %s\n", err.msg);
        sn_world_destroy(w);
        sn_model_destroy(m);
        return 1;
    }
    sn_setup_report setup;
    memset(&setup, 0, sizeof setup);
    rc = configure(w, s, &a, &setup);
    if (a.maximal) {
        rc = rc ? rc : run_maximal(&a, w, s, &setup, a.maximal == 1);
        sn_world_destroy(w);
        sn_model_destroy(m);
        return rc;
    }
    soft_run soft;
    int soft_rc = rc ? 0 : soft_configure(w, s, &a, setup.ground ? setup.ground_height : 0, &soft);
    if (rc) memset(&soft, 0, sizeof soft);
    rc = rc ? rc : soft_rc;
    // a checkpoint replaces the start state the options and the file gave
    if (!rc && a.load_state && sn_world_load_state_file(w, a.load_state) != SN_OK) {
        fprintf(stderr, "sinew run: --load-state: %s\n", sn_world_last_error(w));
        rc = 1;
    }
    a.no_ground = !setup.ground;
    a.ground_z = setup.ground_height;
    int file_no_contact = setup.contact_off, file_no_plane = setup.no_plane;
    char plot_run[4200], plot_contacts[4200];
    if (!rc && a.plot) {
        // the plots read the recorded run and contacts: into DIR unless named otherwise
        if (mkdir(a.plot, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "sinew run: cannot make the directory '%s'\n", a.plot);
            rc = 1;
        }
        snprintf(plot_run, sizeof plot_run, "%s/run.csv", a.plot);
        snprintf(plot_contacts, sizeof plot_contacts, "%s/contacts.csv", a.plot);
        if (!a.record) a.record = plot_run;
        if (!a.contacts) a.contacts = plot_contacts;
    }
    FILE* rec = NULL;
    if (!rc && a.record) {
        rec = fopen(a.record, "w");
        if (!rec) {
            fprintf(stderr, "sinew run: cannot write '%s'\n", a.record);
            rc = 1;
        }
    }
    if (rc) {
        soft_run_free(&soft);
        sn_world_destroy(w);
        sn_model_destroy(m);
        return rc;
    }
    if (rec) {
        record_header(rec, m->nq, m->nv, m->nconstraint ? ",loop_error_rms,loop_error_worst" : "");
        soft_header(rec, &soft);
        sensor_header(rec, s);
        fputc('\n', rec);
    }
    long steps = (long)floor(a.duration / a.dt + 0.5);
    int bar = !a.quiet && isatty(2);
    double e0 =
        sn_system_kinetic_energy(s) + sn_system_potential_energy(s) + sn_system_spring_energy(s);
    if (rec) {
        record_row(rec, m, s, sn_world_time(w), sn_system_kinetic_energy(s),
                   sn_system_potential_energy(s) + sn_system_spring_energy(s),
                   soft.on ? sn_system_soft_contact_count(s) : 0);
        soft_columns(rec, &soft, s, 1); // the row ends after the next step (its sensors)
    }
    FILE* cfile = NULL;
    if (a.contacts) {
        cfile = fopen(a.contacts, "w");
        if (!cfile) {
            fprintf(stderr, "sinew run: cannot write '%s'\n", a.contacts);
            if (rec) fclose(rec);
            soft_run_free(&soft);
            sn_world_destroy(w);
            sn_model_destroy(m);
            return 1;
        }
        fprintf(cfile, "t,body,x,y,z,nx,ny,nz,depth,impulse_x,impulse_y,impulse_z\n");
    }
    cli_replay* rep = NULL;
    if (!a.no_html) {
        rep = cli_replay_begin(m, !a.no_ground, 1.0 / 60);
        cli_replay_frame(rep, s, sn_world_time(w), a.dt);
    }
    double t0 = cli_now_seconds();
    double loop_rms = 0, loop_worst = 0, loop_sq = 0;
    long k = 0, contact_sum = 0;
    int contact_max = 0;
    for (; k < steps; k++) {
        if (sn_world_integrate(w) != SN_OK) {
            fprintf(stderr, "\nsinew run: the step at t = %g s failed: %s\n", sn_world_time(w),
                    sn_world_last_error(w));
            rc = 1;
            break;
        }
        if (rec) {
            // the row of the step's start state ends with the step's sensors
            sensor_columns(rec, s, 1);
            fputc('\n', rec);
            record_row(rec, m, s, sn_world_time(w), sn_system_kinetic_energy(s),
                       sn_system_potential_energy(s) + sn_system_spring_energy(s),
                       soft.on ? sn_system_soft_contact_count(s) : sn_system_contact_count(s));
            soft_columns(rec, &soft, s, 0);
        }
        if (soft.on) soft_track(&soft, s, sn_world_time(w));
        if (m->nconstraint) {
            double rms, worst;
            sn_system_loop_error(s, &rms, &worst);
            loop_rms = fmax(loop_rms, rms), loop_worst = fmax(loop_worst, worst);
            loop_sq += rms * rms;
        }
        if (cfile && soft.on) soft_contact_rows(cfile, m, s, sn_world_time(w), a.dt);
        if (cfile && !soft.on) contact_rows(cfile, m, s, sn_world_time(w));
        int nc = sn_system_contact_count(s);
        contact_sum += nc;
        if (nc > contact_max) contact_max = nc;
        if (rep) cli_replay_frame(rep, s, sn_world_time(w), a.dt);
        if (bar && (k % 256 == 0 || k + 1 == steps)) cli_progress((double)(k + 1) / (double)steps);
    }
    double wall = cli_now_seconds() - t0;
    if (rec) {
        sensor_columns(rec, s, 0); // the last state: no step from it
        fputc('\n', rec);
    }
    if (bar) fputc('\n', stderr);
    if (a.save_state && sn_world_save_state_file(w, a.save_state) != SN_OK) {
        fprintf(stderr, "sinew run: --save-state: %s\n", sn_world_last_error(w));
        rc = 1;
    }
    double sim = sn_world_time(w);
    double e1 =
        sn_system_kinetic_energy(s) + sn_system_potential_energy(s) + sn_system_spring_energy(s);
    printf("model            %s (nq %d, nv %d)\n", a.path, m->nq, m->nv);
    char ground[96];
    snprintf(
        ground, sizeof ground, "%s%s%s", a.hfield ? "heightfield, " : "",
        a.no_ground ? "no ground" : "ground at z = ", a.hfield && a.no_ground ? " around it" : "");
    if (!a.no_ground)
        snprintf(ground + strlen(ground), sizeof ground - strlen(ground), "%g%s", a.ground_z,
                 a.hfield ? " around it" : "");
    if (file_no_contact) snprintf(ground, sizeof ground, "no ground: the file turns contacts off");
    if (file_no_plane)
        snprintf(ground, sizeof ground, "no ground: the file has no plane; --ground adds one");
    char soft_scheme[64];
    snprintf(soft_scheme, sizeof soft_scheme, "soft contacts, %s",
             soft_integrator_name(sn_system_soft_integrator(s)));
    printf("simulated time   %.6g s in %ld steps of %.6g s (%s, %s, %s)\n", sim, k, a.dt,
           soft.on ? soft_scheme : scheme_name(sn_system_scheme_used(s)),
           sn_system_control_mode(s) == SN_CONTROL_PD_PLUS_FEEDFORWARD ? "PD control"
                                                                       : "no control",
           ground);
    if (a.hfield) printf("heightfield      %s (%g m cells)\n", a.hfield, a.cell);
    printf("wall time        %.6g s\n", wall);
    printf("real-time factor %.4g\n", wall > 0 ? sim / wall : (double)INFINITY);
    printf("energy           %.9g J -> %.9g J (change %+.3g J, %+.3g %%)\n", e0, e1, e1 - e0,
           e0 != 0 ? 100 * (e1 - e0) / fabs(e0) : 0.0);
    if (m->nconstraint)
        printf(
            "loop closure     %d constraints: rms %.3g m over the run (largest step rms %.3g m), "
            "worst %.3g m\n",
            m->nconstraint, k ? sqrt(loop_sq / (double)k) : 0.0, loop_rms, loop_worst);
    if (soft.on)
        soft_summary(&soft, w, s, k);
    else
        printf("contacts         %.3g per step on average, at most %d\n",
               k ? (double)contact_sum / (double)k : 0.0, contact_max);
    if (a.load_state) printf("started from     %s\n", a.load_state);
    if (a.save_state && !rc) printf("state saved      %s (t = %.9g s)\n", a.save_state, sim);
    if (cfile) fclose(cfile);
    if (rec) {
        fclose(rec);
        printf("recorded         %s (%ld rows after the header)\n", a.record, k + 1);
    }
    if (a.plot && !rc && cli_plot_files(a.record, a.contacts, a.plot) != 0) rc = 1;
    if (rep) {
        // the replay: --html, or the model's file name with .html in the current directory
        char path[4096], title[512], summary[1024];
        const char* base = strrchr(a.path, '/');
        base = base ? base + 1 : a.path;
        snprintf(title, sizeof title, "%s", base);
        char* dot = strrchr(title, '.');
        if (dot && dot != title) *dot = 0;
        if (a.html)
            snprintf(path, sizeof path, "%s", a.html);
        else
            snprintf(path, sizeof path, "%s.html", title);
        snprintf(summary, sizeof summary,
                 "%s: %.3g s simulated in %ld steps of %g s, real-time factor %.3g%s", title, sim,
                 k, a.dt, wall > 0 ? sim / wall : 0.0,
                 m->nconstraint ? ", loops closed by sinew" : "");
        if (cli_replay_write(rep, path, title, summary) == 0)
            printf("replay           %s (open it in a browser)\n", path);
        else if (!rc)
            rc = 1;
        cli_replay_free(rep);
    }
    soft_run_free(&soft);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return rc;
}
