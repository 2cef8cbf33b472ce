// SPDX-License-Identifier: Apache-2.0
// urdf.h: the URDF reader's internal header (src/urdf/*.c only): the SAX parser's state and the
// functions the expat callbacks (urdf.c) call as elements open and close. A failure is recorded
// once in p->st and p->err and stops the parser; callers check p->st.
#ifndef SNI_URDF_H
#define SNI_URDF_H

#include "base/base.h"
#include "base/smath.h"
#include "model/spec.h"
#include "sinew/sn_sensor.h"

#include <expat.h>

#define MAX_DEPTH 64
#define MAX_ATTR_LEN (1u << 20)
#define MAX_ATTRS 256 // attributes on one element
#define DEFAULT_MAX_FILE ((size_t)64 << 20)
#define DEFAULT_MAX_LINKS 200000
#define MAX_PACKAGE_STRIP 16 // leading path components tried away in a package:// lookup

// element contexts
enum {
    C_DOC,
    C_ROBOT,
    C_LINK,
    C_INERTIAL,
    C_VISUAL,
    C_COLLISION,
    C_GEOMETRY,
    C_GMATERIAL,
    C_JOINT,
    C_MATERIAL,
    C_CONSTRAINTS,
    C_PIN,
    C_EQUALITY,
    C_ACTUATOR,
    C_LEAF,
    C_SKIP,
};

typedef struct parser {
    XML_Parser xp;
    sni_spec* s;
    sn_error* err;
    sn_status st;
    const char* base_dir;
    const char* package_dir;
    int depth;
    int ctx[MAX_DEPTH + 1];
    int skip_from; // depth at which an ignored subtree started, 0 when none
    int seen_robot;
    int max_links;
    int link, joint, geom, material, constraint, actuator; // current element indices, -1
    int has_mass, has_inertia;
    int mass_line, inertia_line;
    sn_real inertial_rot[9];
    sn_real inertia_raw[9];
    char owner[160];              // "link 'x'", "joint 'y'" or "actuator 'z'" for messages
    char open[MAX_DEPTH + 1][40]; // names of the open elements, for XML errors
    int open_line[MAX_DEPTH + 1];
} parser;

// the joint, link and geom being read
static inline sni_joint* cur_joint(parser* p) {
    return (sni_joint*)p->s->joints.data + p->joint;
}
static inline sni_link* cur_link(parser* p) {
    return (sni_link*)p->s->links.data + p->link;
}
static inline sni_geom* cur_geom(parser* p) {
    return (sni_geom*)p->s->geoms.data + p->geom;
}

#define RETURN_FAIL(...)                                                                           \
    do {                                                                                           \
        sni_urdf_fail(__VA_ARGS__);                                                                \
        return;                                                                                    \
    } while (0)

// ---- urdf.c: errors and attributes ----

// an error at the current position of the parser
void sni_urdf_fail(parser* p, sn_status code, const char* element, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
// an error about an element seen earlier (its line is given)
void sni_urdf_fail_at(parser* p, int line, sn_status code, const char* element, const char* fmt,
                      ...) __attribute__((format(printf, 5, 6)));
// a warning at the current position of the parser, or at an element seen earlier
void sni_urdf_warn(parser* p, const char* element, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sni_urdf_warn_at(parser* p, int line, const char* element, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
// the value of attribute `name`, NULL when absent
const char* sni_urdf_attr(const char** atts, const char* name);
// parse n numbers of attribute `name`; returns 1 if present and valid, 0 if absent, -1 on error
int sni_urdf_attr_reals(parser* p, const char* el, const char** atts, const char* name,
                        sn_real* out, int n);
// a required name attribute: non-empty
const char* sni_urdf_need_name(parser* p, const char* el, const char** atts, const char* name);
// 1 when v >= 0, else 0 after failing ("must not be negative")
int sni_urdf_reals_nonneg(parser* p, const char* el, const char* name, sn_real v);

// ---- elements.c: links, joints, inertials, geometry, materials (the expat callbacks call
// these as elements open and close) ----

// <origin xyz rpy> into pos and rot
void sni_urdf_parse_origin(parser* p, const char** atts, sn_real* pos, sn_real* rot);
void sni_urdf_start_link(parser* p, const char** atts);
void sni_urdf_start_joint(parser* p, const char** atts);
void sni_urdf_joint_child(parser* p, const char* el, const char** atts);
void sni_urdf_start_inertial(parser* p);
void sni_urdf_inertial_child(parser* p, const char* el, const char** atts);
// validate the inertia of the link just closed; rotate it into the link frame. Messages point
// at the <inertia> element (at <inertial> when it is missing).
void sni_urdf_end_inertial(parser* p);
void sni_urdf_start_geom(parser* p, int is_visual);
void sni_urdf_shape(parser* p, const char* el, const char** atts);
// <material name> with optional <color rgba>; at top level it defines, inside <visual> it
// refers to or defines
void sni_urdf_start_material(parser* p, const char** atts, int in_visual);
void sni_urdf_material_child(parser* p, const char* el, const char** atts);

// ---- extensions.c: <constraints> and <actuator> ----

void sni_urdf_start_constraints(parser* p, const char** atts);
void sni_urdf_start_loop(parser* p, const char* el, const char** atts);
void sni_urdf_equality_axis(parser* p, const char** atts);
void sni_urdf_start_actuator(parser* p, const char** atts);
// <coupling joint ratio>: the coupled joint's velocity adds ratio * u_c to the motor speed, and
// the actuator adds ratio * tau_m to that joint. The joint is resolved by the compiler.
void sni_urdf_actuator_coupling(parser* p, const char** atts);
// sinew's soft contacts (docs/expo.md "Soft parameters"), children of <robot>:
// <sinew:soft_contact [contact="soft|hard"] [material1 material2] [kn kt bn bt mu bilateral]/>
// the world's soft parameters (and contact model), or a material pair's;
// <sinew:material link id/> a link's contact material id; <sinew:soft_point link xyz/> a soft
// point in a link's frame
void sni_urdf_soft_contact(parser* p, const char** atts);
void sni_urdf_soft_material(parser* p, const char** atts);
void sni_urdf_soft_point(parser* p, const char** atts);
// <sinew:sensor name type link|joint xyz rpy cutoff/>: a sensor of the model (docs/sensors.md)
void sni_urdf_sensor(parser* p, const char** atts);

#endif
