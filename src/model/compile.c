// SPDX-License-Identifier: Apache-2.0
// compile.c: turns a spec into the flat, immutable model. The passes (compile.h) check the
// topology without recursion, merge links joined by fixed joints into bodies, order bodies,
// joints and DOFs depth-first with children in file order, and resolve the parts that refer to
// them by name; this file lays everything out in one allocation and runs the passes in order.
// Every pass is linear in the model (hash tables for names, no per-link recursion, a mass check
// in O(nbody)), so a 100 000-link chain compiles in a fraction of a second.
#include "model/compile.h"

#include <stdio.h>
#include <string.h>

sn_status sni_compile_error(compiler* c, sn_status code, int line, const char* el, const char* fmt,
                            ...) {
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return sni_error(c->err, code, c->s->file, line, el, "%s", text);
}

// ---- layout of the single block ----

#define carve sni_carve

#define CARVE(c, field, n) (m->field = carve(c, (size_t)(n), sizeof *m->field))

static void layout(sn_model* m, carver* c, size_t names_len, size_t warn_len, int nwarn,
                   int has_nominal) {
    int nb = m->nbody, nj = m->njoint, nv = m->nv, nf = m->nframe, nu = m->nujoint;
    int ng = m->ngeom, nc = m->nconstraint, nm = m->nmaterial, na = m->nactuator;
    int nac = SN_ACTUATOR_MAX_COUPLINGS * na;
    CARVE(c, body_parent, nb), CARVE(c, body_joint, nb), CARVE(c, body_name, nb);
    CARVE(c, body_mass, nb), CARVE(c, body_com, 3 * nb), CARVE(c, body_inertia, 9 * nb);
    CARVE(c, subtree_mass, nb);
    CARVE(c, soft_material, 2 * m->nsoft), CARVE(c, soft_param, 5 * m->nsoft);
    CARVE(c, soft_bilateral, m->nsoft), CARVE(c, body_material, nb);
    CARVE(c, soft_point_frame, m->nsoft_point), CARVE(c, soft_point_offset, 3 * m->nsoft_point);
    CARVE(c, joint_type, nj), CARVE(c, joint_body, nj), CARVE(c, joint_qadr, nj);
    CARVE(c, joint_vadr, nj), CARVE(c, joint_nq, nj), CARVE(c, joint_nv, nj);
    CARVE(c, joint_name, nj), CARVE(c, joint_ujoint, nj), CARVE(c, joint_pos, 3 * nj);
    CARVE(c, joint_rot, 9 * nj), CARVE(c, joint_axis, 3 * nj), CARVE(c, joint_mimic, nj);
    CARVE(c, joint_mimic_multiplier, nj), CARVE(c, joint_mimic_offset, nj);
    CARVE(c, joint_spring_ref, nj);
    CARVE(c, dof_joint, nv), CARVE(c, dof_parent, nv), CARVE(c, dof_body, nv);
    CARVE(c, dof_armature, nv), CARVE(c, dof_damping, nv), CARVE(c, dof_friction, nv);
    CARVE(c, dof_stiffness, nv), CARVE(c, dof_limited, nv), CARVE(c, dof_lower, nv);
    CARVE(c, dof_upper, nv), CARVE(c, dof_velocity_limit, nv), CARVE(c, dof_effort_limit, nv);
    CARVE(c, dof_kp, nv), CARVE(c, dof_kd, nv);
    CARVE(c, frame_body, nf), CARVE(c, frame_parent, nf), CARVE(c, frame_name, nf);
    CARVE(c, frame_order, nf);
    CARVE(c, frame_pos, 3 * nf), CARVE(c, frame_rot, 9 * nf), CARVE(c, frame_mass, nf);
    CARVE(c, frame_com, 3 * nf), CARVE(c, frame_inertia, 9 * nf);
    CARVE(c, ujoint_type, nu), CARVE(c, ujoint_parent, nu), CARVE(c, ujoint_child, nu);
    CARVE(c, ujoint_joint, nu), CARVE(c, ujoint_name, nu);
    CARVE(c, geom_type, ng), CARVE(c, geom_frame, ng), CARVE(c, geom_is_visual, ng);
    CARVE(c, geom_material, ng), CARVE(c, geom_mesh, ng), CARVE(c, geom_size, 3 * ng);
    CARVE(c, geom_friction, ng), CARVE(c, geom_condim, ng);
    CARVE(c, exclude_body, 2 * m->nexclude);
    CARVE(c, geom_pos, 3 * ng), CARVE(c, geom_rot, 9 * ng);
    CARVE(c, geom_vert_adr, ng), CARVE(c, geom_vert_num, ng), CARVE(c, mesh_vert, 3 * m->nmeshvert);
    CARVE(c, material_name, nm), CARVE(c, material_rgba, 4 * nm);
    CARVE(c, constraint_type, nc), CARVE(c, constraint_frame1, nc);
    CARVE(c, constraint_frame2, nc), CARVE(c, constraint_naxis, nc);
    CARVE(c, constraint_anchor, 3 * nc), CARVE(c, constraint_axes, 6 * nc);
    CARVE(c, constraint_anchor2, 3 * nc), CARVE(c, constraint_rot2, 9 * nc);
    CARVE(c, actuator_name, na), CARVE(c, actuator_joint, na), CARVE(c, actuator_gear, na);
    CARVE(c, actuator_kt, na), CARVE(c, actuator_vbus, na), CARVE(c, actuator_resistance, na);
    CARVE(c, actuator_kv, na), CARVE(c, actuator_peak_torque, na);
    CARVE(c, actuator_output_damping, na), CARVE(c, actuator_output_friction, na);
    CARVE(c, actuator_ncoupling, na), CARVE(c, actuator_coupling_joint, nac);
    CARVE(c, actuator_coupling_ratio, nac);
    CARVE(c, key_name, m->nkey), CARVE(c, key_q, (size_t)m->nkey * m->nq);
    CARVE(c, key_u, (size_t)m->nkey * nv);
    CARVE(c, nominal_config, has_nominal ? m->nq : 0);
    if (!has_nominal) m->nominal_config = NULL;
    int nt = m->ntendon, ntp = m->ntpath, nta = m->ntactuator;
    CARVE(c, tendon_name, nt), CARVE(c, tendon_type, nt), CARVE(c, tendon_adr, nt);
    CARVE(c, tendon_num, nt), CARVE(c, tendon_limited, nt), CARVE(c, tendon_range, 2 * nt);
    int ns = m->nsensor;
    CARVE(c, sensor_type, ns), CARVE(c, sensor_frame, ns), CARVE(c, sensor_ujoint, ns);
    CARVE(c, sensor_name, ns), CARVE(c, sensor_pos, 3 * ns), CARVE(c, sensor_rot, 9 * ns);
    CARVE(c, sensor_cutoff, ns);
    CARVE(c, tendon_stiffness, nt), CARVE(c, tendon_damping, nt), CARVE(c, tendon_length0, nt);
    CARVE(c, tpath_type, ntp), CARVE(c, tpath_joint, ntp), CARVE(c, tpath_frame, ntp);
    CARVE(c, tpath_coef, ntp), CARVE(c, tpath_pos, 3 * ntp), CARVE(c, tpath_geom, ntp);
    CARVE(c, tactuator_name, nta), CARVE(c, tactuator_tendon, nta), CARVE(c, tactuator_gear, nta);
    CARVE(c, tactuator_gain, nta), CARVE(c, tactuator_bias, 3 * nta);
    CARVE(c, tactuator_ctrlrange, 2 * nta), CARVE(c, tactuator_forcerange, 2 * nta);
    CARVE(c, q0, m->nq);
    CARVE(c, names, names_len);
    CARVE(c, warnings, nwarn);
    // warning texts follow the pointer array
    if (warn_len) carve(c, warn_len, 1);
}

// a floating base or a fixed one, from the spec's request and the root link's name
static sn_status choose_base(compiler* c, int* floating) {
    sni_spec* s = c->s;
    const char* rootname = LNAME(c, c->root);
    int root_is_world = strcmp(rootname, "world") == 0;
    if (s->base == SN_BASE_FLOATING && root_is_world)
        return sni_compile_error(c, SN_ERR_MODEL, c->links[c->root].line, "link",
                                 "a floating base was "
                                 "requested but the root link is named 'world'");
    *floating = s->base == SN_BASE_FLOATING || (s->base == SN_BASE_AUTO && !root_is_world);
    for (int i = 0; i < c->nj && *floating; i++)
        if (!strcmp(JNAME(c, i), "ROOT"))
            return sni_compile_error(c, SN_ERR_MODEL, c->joints[i].line, "joint",
                                     "the joint name 'ROOT' is "
                                     "reserved for the floating base of link '%s'",
                                     rootname);
    return SN_OK;
}

// the model's block for the sizes in tmp, laid out, with the names and the meshes copied in
static sn_status new_block(compiler* c, const sn_model* tmp, size_t warn_len, const sni_buf* verts,
                           const int* adr, const int* num, sn_model** out) {
    sni_spec* s = c->s;
    carver cv = {NULL, sizeof(sn_model)};
    sn_model probe = *tmp;
    layout(&probe, &cv, s->names.len, warn_len, 64, s->has_nominal);
    size_t total = cv.off;
    char* block = sni_alloc(c->alloc, total);
    if (!block)
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory (%zu bytes)", total);
    sn_model* m = (sn_model*)block;
    *m = *tmp;
    m->size_ = total;
    m->allocator_ = sni_allocator_or_default(c->alloc);
    carver cv2 = {block, sizeof(sn_model)};
    layout(m, &cv2, s->names.len, warn_len, 64, s->has_nominal);
    memcpy(m->names, s->names.data, s->names.len);
    if (m->ngeom) {
        memcpy(m->geom_vert_adr, adr, (size_t)m->ngeom * sizeof(int));
        memcpy(m->geom_vert_num, num, (size_t)m->ngeom * sizeof(int));
    }
    if (verts->len) memcpy(m->mesh_vert, verts->data, verts->len);
    *out = m;
    return SN_OK;
}

// the keyframes, read with the model's sizes
static sn_status copy_keys(compiler* c, sn_model* m) {
    sni_spec* s = c->s;
    if (m->nkey && (s->key_nq != m->nq || s->key_nv != m->nv))
        return sni_compile_error(
            c, SN_ERR_MODEL, 0, "keyframe",
            "keyframes read with %d coordinates and %d velocities; the model has %d and %d",
            s->key_nq, s->key_nv, m->nq, m->nv);
    for (int i = 0; i < m->nkey; i++) {
        m->key_name[i] = (int)s->key_name[i];
        memcpy(m->key_q + (size_t)i * m->nq, s->key_q + (size_t)i * m->nq,
               (size_t)m->nq * sizeof(sn_real));
        memcpy(m->key_u + (size_t)i * m->nv, s->key_u + (size_t)i * m->nv,
               (size_t)m->nv * sizeof(sn_real));
    }
    return SN_OK;
}

// the passes that fill the block, in order; the first failure stops them
static sn_status run_passes(compiler* c, sn_model* m, name_table* lt, int floating,
                            long base_name) {
    sn_status st = sni_compile_tree(c, m, floating, base_name);
    for (int j = 0; j < m->njoint && st == SN_OK; j++)
        if (m->joint_type[j] == SN_JOINT_FLOATING) m->is_floating = 1;
    if (st == SN_OK) sni_compile_check_springs(c, m);
    if (st == SN_OK) st = sni_compile_mimic(c, m);
    if (st == SN_OK) st = sni_compile_actuators(c, m);
    if (st == SN_OK) st = sni_compile_constraints(c, m, lt);
    if (st == SN_OK) st = sni_compile_excludes(c, m, lt);
    if (st == SN_OK) st = sni_compile_soft(c, m, lt);
    if (st == SN_OK) st = sni_compile_geoms(c, m);
    if (st == SN_OK) st = sni_compile_check_mass(c, m);
    if (st == SN_OK) st = sni_compile_springdampers(c, m);
    if (st == SN_OK) st = sni_compile_tendons(c, m);
    if (st == SN_OK) st = sni_compile_sensors(c, m, lt);
    return st;
}

// the passes warned more than the room left: move to a larger block (the layout is the same up
// to the warning texts, which come last). tmp holds the sizes the block was made for. On failure
// *mp is destroyed and NULL.
static sn_status grow_for_warnings(compiler* c, sn_model** mp, const sn_model* tmp) {
    sni_spec* s = c->s;
    sn_model* m = *mp;
    size_t warn_len = s->warnings.len;
    carver cv3 = {NULL, sizeof(sn_model)};
    sn_model probe = *tmp;
    layout(&probe, &cv3, s->names.len, warn_len, 64, s->has_nominal);
    char* bigger = sni_alloc(c->alloc, cv3.off);
    if (!bigger) {
        sn_model_destroy(m);
        *mp = NULL;
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory (%zu bytes)", cv3.off);
    }
    memcpy(bigger, m, m->size_);
    sn_model_destroy(m);
    m = (sn_model*)bigger;
    m->size_ = cv3.off;
    // lay out with the counts the block was sized for (the geometry pass lowered nmaterial)
    int nmaterial = m->nmaterial;
    m->nmaterial = tmp->nmaterial;
    carver cv4 = {bigger, sizeof(sn_model)};
    layout(m, &cv4, s->names.len, warn_len, 64, s->has_nominal);
    m->nmaterial = nmaterial;
    *mp = m;
    return SN_OK;
}

// warnings (the spec keeps the texts of the first 64; they follow the pointer array)
static void store_warnings(const sni_spec* s, sn_model* m) {
    char* text = (char*)(m->warnings + 64);
    size_t off = 0;
    int stored = 0;
    const char* w = s->warnings.data;
    for (size_t pos = 0; pos < s->warnings.len && stored < 64;) {
        size_t len = strlen(w + pos) + 1;
        memcpy(text + off, w + pos, len);
        m->warnings[stored++] = text + off;
        off += len;
        pos += len;
    }
    m->nwarning = s->nwarning;
}

// the file's format and its <option> settings
static void copy_options(const sni_spec* s, sn_model* m) {
    m->format = s->format;
    m->option_timestep = s->option_timestep;
    memcpy(m->option_gravity, s->option_gravity, sizeof m->option_gravity);
    m->option_has_gravity = s->option_has_gravity;
    m->option_scheme = s->option_scheme;
    m->option_contact_off = s->option_contact_off;
    m->option_has_ground = s->option_has_ground;
    m->option_ground_height = s->option_ground_height;
    m->option_ground_friction = s->option_ground_friction;
    m->option_ground_condim = s->option_ground_condim;
    m->option_contact_model = s->option_contact_model;
    m->has_option = s->option_timestep > 0 || s->option_has_gravity || s->option_scheme >= 0 ||
                    s->option_contact_off || s->option_has_ground || s->option_contact_model >= 0;
}

static sn_status build_model(compiler* c, name_table* lt, sn_model** out, const sni_buf* verts,
                             const int* adr, const int* num) {
    sni_spec* s = c->s;
    int floating = 0;
    sn_status st = choose_base(c, &floating);
    if (st != SN_OK) return st;
    counts k;
    st = sni_compile_count(c, floating, &k);
    if (st != SN_OK) return st;
    long root_name = sni_spec_name(s, floating ? "ROOT" : "world");
    long world_name = sni_spec_name(s, "world");
    if (s->names.failed) return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    sn_model tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.nbody = k.nbody, tmp.njoint = k.njoint, tmp.nq = k.nq, tmp.nv = k.nv;
    tmp.nframe = c->nl, tmp.nujoint = k.nujoint, tmp.ngeom = SNI_NGEOM(s);
    tmp.nconstraint = SNI_NCON(s), tmp.nmaterial = SNI_NMAT(s), tmp.nactuator = SNI_NACT(s);
    tmp.nexclude = SNI_NEXCL(s);
    tmp.nsoft = SNI_NSOFT(s);
    for (int i = 0; i < SNI_NSOFTREF(s); i++)
        tmp.nsoft_point += ((const sni_soft_ref*)(void*)s->soft_refs.data)[i].id < 0;
    tmp.is_floating = floating;
    tmp.nmeshvert = (int)(verts->len / (3 * sizeof(sn_real)));
    tmp.nkey = s->nkey;
    tmp.ntendon = SNI_NTENDON(s), tmp.ntpath = SNI_NTENDON_ELEM(s);
    tmp.ntactuator = SNI_NTENDON_ACT(s);
    tmp.nsensor = SNI_NSENSOR(s);
    // room for the 64 warning pointers and for the texts so far plus a few raised below; the
    // block grows at the end if those need more
    size_t warn_len = s->warnings.len + 8 * 900;
    sn_model* m = NULL;
    st = new_block(c, &tmp, warn_len, verts, adr, num, &m);
    if (st != SN_OK) return st;
    st = copy_keys(c, m);
    if (st == SN_OK) st = run_passes(c, m, lt, floating, floating ? root_name : world_name);
    if (st != SN_OK) {
        sn_model_destroy(m);
        return st;
    }
    if (s->warnings.len > warn_len) {
        st = grow_for_warnings(c, &m, &tmp);
        if (st != SN_OK) return st;
    }
    store_warnings(s, m);
    copy_options(s, m);
    *out = m;
    return SN_OK;
}

static sn_status build(compiler* c, name_table* lt, sn_model** out) {
    int ng = SNI_NGEOM(c->s);
    size_t bytes = (size_t)(ng ? ng : 1) * 2 * sizeof(int);
    int* adr = sni_alloc(c->alloc, bytes);
    if (!adr) return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    sni_buf verts = {NULL, 0, 0, c->alloc, 0};
    sn_status st = sni_compile_meshes(c, &verts, adr, adr + ng);
    if (st == SN_OK) st = build_model(c, lt, out, &verts, adr, adr + ng);
    sni_buf_free(&verts);
    sni_free(c->alloc, adr, bytes);
    return st;
}

sn_status sni_compile(sni_spec* s, const sn_allocator* a, sn_model** out, sn_error* err) {
    compiler c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.err = err;
    c.alloc = a;
    c.nl = SNI_NLINK(s);
    c.nj = SNI_NJOINT(s);
    c.links = (sni_link*)s->links.data;
    c.joints = (sni_joint*)s->joints.data;
    if (c.nl == 0)
        return sni_error(err, SN_ERR_MODEL, s->file, 0, "robot", "the robot has no <link>");
    size_t ints = (size_t)c.nl * 3 + 1 + (size_t)c.nj;
    int* mem = sni_alloc(a, ints * sizeof(int));
    if (!mem) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    c.parent_joint = mem;
    c.child_start = mem + c.nl;
    c.order = mem + 2 * c.nl + 1;
    c.child_list = mem + 3 * c.nl + 1;
    name_table lt;
    sn_status st = sni_compile_table_init(&lt, a, c.nl) == SN_OK
                       ? SN_OK
                       : sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    if (st == SN_OK) st = sni_compile_resolve_names(&c, &lt);
    if (st == SN_OK) st = sni_compile_order_links(&c);
    if (st == SN_OK) {
        // names may move when the pool grows: links/joints hold offsets, so this is safe
        st = build(&c, &lt, out);
    }
    if (lt.slot) sni_compile_table_free(&lt);
    sni_free(a, mem, ints * sizeof(int));
    return st;
}
