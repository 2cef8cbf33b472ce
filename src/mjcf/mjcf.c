// SPDX-License-Identifier: Apache-2.0
// mjcf.c: the MJCF reader (MuJoCo's format), its entry points and the document. The file is read
// into an element tree (xml.c, with its includes), default classes are collected (classes.c),
// the sections are read in the order MuJoCo's compiler needs them (assets, the body tree in
// bodies.c, equalities, actuators, keyframes: sections.c) into the same spec as the URDF reader
// (spec.h), and sni_compile turns it into a model:
//   - a free joint on the first body of <worldbody> makes the floating base; without one, the
//     world is a link of its own and the bodies hang from it;
//   - the nominal configuration (MuJoCo's qpos0) holds free bodies where the file puts them and
//     each joint at its ref.
// Elements and attributes sinew does not read are refused by name, or listed in one warning when
// they only matter to MuJoCo (rendering, softness, sensors). docs/mjcf.md lists what is read.
#include "mjcf/mjcf.h"

#include "sinew/sn_data.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// ---- the document ----

static sn_status load_tree_in(reader* r, loader* L);

static sn_status load_tree(reader* r) {
    loader* L = sni_alloc(r->a, sizeof(loader));
    if (!L) return sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, "", "out of memory");
    memset(L, 0, sizeof *L);
    L->r = r;
    L->main_class = -1;
    L->sites.alloc = L->free_poses.alloc = L->meshes.alloc = r->a;
    sn_status st = load_tree_in(r, L);
    if (L->classes) sni_free(r->a, L->classes, sizeof(dclass) * (size_t)L->nclass);
    sni_buf_free(&L->sites);
    sni_buf_free(&L->free_poses);
    sni_buf_free(&L->meshes);
    sni_free(r->a, L, sizeof(loader));
    return st;
}

// the document: its sections in the order the spec needs them (compiler, defaults and options
// first, then assets, the floating base's choice, the body tree, equalities, the nominal
// configuration, actuators and keyframes). Long (about 165 lines) because it is that list, read
// top to bottom; each section is a call into bodies.c, assets.c or sections.c
static sn_status load_tree_in(reader* r, loader* L) {
    int root = 0;
    if (NNODE(r) == 0 || strcmp(ename(r, root), "mujoco")) {
        sni_mjcf_fail(r, NNODE(r) ? root : -1, SN_ERR_PARSE, "mujoco",
                      "the root element must be <mujoco>");
        return r->st;
    }
    int world = -1, nequality = 0, equalities[16], nworld = 0, worlds[16], nkeyframe = 0,
        keyframes[16], nactuator = 0, actuators[16], nasset = 0, asset_nodes[16], ntendon = 0,
        tendons[16], nsensor = 0, sensors[16];
    for (int k = NODE(r, root).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        if (!strcmp(e, "compiler")) {
            sni_mjcf_compiler_settings(r, k);
        } else if (!strcmp(e, "default")) {
            if (L->main_class >= 0) {
                sni_mjcf_fail(r, k, SN_ERR_MODEL, "default", "more than one top-level <default>");
                break;
            }
            L->main_class = sni_mjcf_collect_defaults(L, k, -1);
        } else if (!strcmp(e, "worldbody")) {
            // several (a scene that includes its robot) read as one, in order
            if (nworld == 16) {
                sni_mjcf_fail(r, k, SN_ERR_LIMIT, "worldbody", "more than 16 <worldbody> elements");
                break;
            }
            worlds[nworld++] = k;
            if (world < 0) world = k;
        } else if (!strcmp(e, "equality")) {
            if (nequality < 16) equalities[nequality++] = k;
        } else if (!strcmp(e, "option")) {
            sni_mjcf_option(L, k);
        } else if (!strcmp(e, "actuator")) {
            if (nactuator < 16) actuators[nactuator++] = k;
        } else if (!strcmp(e, "keyframe")) {
            if (nkeyframe < 16) keyframes[nkeyframe++] = k;
        } else if (!strcmp(e, "tendon")) {
            if (ntendon < 16) tendons[ntendon++] = k;
        } else if (!strcmp(e, "sensor")) {
            if (nsensor < 16) sensors[nsensor++] = k;
        } else if (!strcmp(e, "contact")) {
            sni_mjcf_contact_section(r, k);
        } else if (!strcmp(e, "asset")) {
            if (nasset < 16) asset_nodes[nasset++] = k;
        } else if (!strcmp(e, "custom")) {
            sni_mjcf_custom(r, k);
        } else if (!strcmp(e, "size") || !strcmp(e, "visual") || !strcmp(e, "statistic") ||
                   !strcmp(e, "asset") || !strcmp(e, "contact") || !strcmp(e, "keyframe") ||
                   !strcmp(e, "actuator")) {
            sni_mjcf_note_ignored(r, e);
        } else {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "<%s> is not supported", e);
        }
    }
    if (r->st == SN_OK && L->main_class < 0) {
        // no <default>: an empty main class
        dclass* c = sni_alloc(r->a, sizeof(dclass));
        if (!c) return sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, "", "out of memory");
        c->name = sni_mjcf_pool_add(r, "main");
        c->node = root; // its children hold no default element kinds that matter
        c->parent = -1;
        L->classes = c;
        L->nclass = 1;
        L->main_class = 0;
    }
    if (r->st == SN_OK && world < 0)
        sni_mjcf_fail(r, root, SN_ERR_MODEL, "mujoco", "no <worldbody>");
    for (int i = 0; i < nasset && r->st == SN_OK; i++)
        sni_mjcf_assets(L, asset_nodes[i]);
    // the floating base: a free joint on the one body of <worldbody>
    int first_body = -1, nbody_top = 0;
    for (int w = 0; w < nworld; w++)
        for (int k = NODE(r, worlds[w]).first; k >= 0; k = NODE(r, k).next)
            if (!strcmp(ename(r, k), "body")) {
                if (first_body < 0) first_body = k;
                nbody_top++;
            }
    if (r->st == SN_OK && nbody_top == 1) {
        for (int k = NODE(r, first_body).first; k >= 0; k = NODE(r, k).next) {
            const char* e = ename(r, k);
            if (!strcmp(e, "freejoint") ||
                (!strcmp(e, "joint") &&
                 sni_mjcf_joint_kind(sni_mjcf_attr_of(L, k, sni_mjcf_class_of(L, k, L->main_class),
                                                      "type")) == SN_JOINT_FLOATING))
                L->floating = 1;
        }
    }
    // an equality constraint on the world keeps the world a link (the free body hangs from it)
    for (int i = 0; i < nequality && L->floating; i++)
        for (int k = NODE(r, equalities[i]).first; k >= 0; k = NODE(r, k).next) {
            const char *b1 = get(r, k, "body1"), *b2 = get(r, k, "body2");
            const char *s1 = get(r, k, "site1"), *s2 = get(r, k, "site2");
            int on_world = (b1 && !strcmp(b1, "world")) || (b2 && !strcmp(b2, "world")) ||
                           (b1 && !b2 && strcmp(ename(r, k), "joint"));
            for (int w = 0; w < nworld && !on_world; w++)
                for (int c = NODE(r, worlds[w]).first; c >= 0; c = NODE(r, c).next) {
                    const char* sn = strcmp(ename(r, c), "site") ? NULL : get(r, c, "name");
                    if (sn && ((s1 && !strcmp(sn, s1)) || (s2 && !strcmp(sn, s2)))) on_world = 1;
                }
            if (on_world) L->floating = 0;
        }
    long world_link = -1;
    if (r->st == SN_OK && !L->floating) {
        world_link = sni_spec_name(r->s, "world");
        if (!sni_mjcf_new_link(L, world_link, NODE(r, world).line))
            return sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, "", "out of memory");
    }
    for (int w = 0; w < nworld && r->st == SN_OK; w++)
        for (int k = NODE(r, worlds[w]).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
            const char* e = ename(r, k);
            if (!strcmp(e, "body")) {
                sni_mjcf_body(L, k, world_link, L->main_class, L->floating && k == first_body, 1);
            } else if (!strcmp(e, "geom")) {
                const char* t =
                    sni_mjcf_attr_of(L, k, sni_mjcf_class_of(L, k, L->main_class), "type");
                if (t && !strcmp(t, "plane"))
                    sni_mjcf_world_plane(L, k);
                else if (t && !strcmp(t, "hfield"))
                    sni_mjcf_warn(
                        r, k, "geom",
                        "a height field in <worldbody> is not loaded: terrain is the world's "
                        "(sn_world_set_heightfield; `sinew run --heightfield`)");
                else if (L->floating)
                    sni_mjcf_warn(r, k, "geom",
                                  "a geom of <worldbody> is not loaded with a floating base");
                else
                    sni_mjcf_one_geom(L, k, L->main_class, 0);
            } else if (!strcmp(e, "site")) {
                sni_mjcf_one_site(L, k, L->main_class, world_link);
            } else if (!strcmp(e, "light") || !strcmp(e, "camera")) {
                sni_mjcf_note_ignored(r, e);
            } else {
                sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "<%s> inside <worldbody> is not supported", e);
            }
        }
    for (int i = 0; i < nequality && r->st == SN_OK; i++)
        sni_mjcf_equality(L, equalities[i]);
    if (r->st == SN_OK && L->has_ref && SNI_NJOINT(r->s) > MAX_REF_JOINTS)
        sni_mjcf_fail(r, world, SN_ERR_LIMIT, "joint", "ref with more than %d joints",
                      MAX_REF_JOINTS);
    if (r->st == SN_OK && (L->floating || L->has_ref || L->free_poses.len)) {
        // the nominal configuration (MuJoCo's qpos0): the floating base and free bodies where
        // the file puts them, each joint at its ref
        int nq = L->floating ? 7 : 0;
        const sni_joint* j = (const sni_joint*)r->s->joints.data;
        for (int i = 0; i < SNI_NJOINT(r->s); i++)
            nq += sni_mjcf_spec_nq(j[i].type);
        r->s->nominal = sni_alloc(r->a, (size_t)nq * sizeof(sn_real));
        if (!r->s->nominal)
            return sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, "", "out of memory");
        r->s->nominal_bytes = (size_t)nq * sizeof(sn_real);
        memset(r->s->nominal, 0, r->s->nominal_bytes);
        if (L->floating) memcpy(r->s->nominal, L->root_pose, sizeof L->root_pose);
        int a = L->floating ? 7 : 0;
        const free_rec* fr = (const free_rec*)L->free_poses.data;
        int nfree = (int)(L->free_poses.len / sizeof(free_rec)), f = 0;
        for (int i = 0; i < SNI_NJOINT(r->s); i++) {
            if (j[i].type == SN_JOINT_SPHERICAL) r->s->nominal[a] = 1;
            if (j[i].type == SN_JOINT_FLOATING && f < nfree && fr[f].joint == i)
                memcpy(r->s->nominal + a, fr[f++].pose, 7 * sizeof(sn_real));
            if ((j[i].type == SN_JOINT_REVOLUTE || j[i].type == SN_JOINT_CONTINUOUS ||
                 j[i].type == SN_JOINT_PRISMATIC) &&
                i < MAX_REF_JOINTS)
                r->s->nominal[a] = L->ref[i];
            a += sni_mjcf_spec_nq(j[i].type);
        }
        r->s->nnominal = nq;
        r->s->has_nominal = 1;
    }
    if (r->st == SN_OK) r->s->base = L->floating ? SN_BASE_FLOATING : SN_BASE_FIXED;
    for (int i = 0; i < ntendon && r->st == SN_OK; i++)
        sni_mjcf_tendons(L, tendons[i]);
    for (int i = 0; i < nactuator && r->st == SN_OK; i++)
        sni_mjcf_actuator_section(L, actuators[i]);
    for (int i = 0; i < nsensor && r->st == SN_OK; i++)
        sni_mjcf_sensors(L, sensors[i]);
    if (r->st == SN_OK && nkeyframe) sni_mjcf_read_keys(L, keyframes, nkeyframe);
    if (r->st == SN_OK && r->ignored[0])
        sni_spec_warn(r->s, 0, "mujoco", "not read (MuJoCo's own settings): %s", r->ignored);
    return r->st;
}

// ---- loading ----

static sn_status load(const char* xml, size_t len, const char* name, const char* dir,
                      const sn_load_opts* opts, sn_model** out, sn_error* err) {
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : DEFAULT_MAX_FILE;
    if (len > max)
        return sni_error(
            err, SN_ERR_LIMIT, name, 0, "",
            "input of %zu bytes exceeds the limit of %zu (sn_load_opts.max_file_bytes)", len, max);
    sni_spec s;
    sni_spec_init(&s, opts ? opts->allocator : NULL, name);
    s.format = SN_FORMAT_MJCF;
    s.balance_inertia = opts ? opts->balance_inertia : 0;
    s.strict_inertia = opts ? opts->strict_inertia : 0;
    s.log = opts ? opts->log : NULL;
    s.log_ctx = opts ? opts->log_ctx : NULL;
    reader r;
    memset(&r, 0, sizeof r);
    r.s = &s;
    r.err = err;
    r.a = opts ? opts->allocator : NULL;
    r.dir = dir;
    r.degree = 1;
    memcpy(r.eulerseq, "xyz", 4);
    r.inertia_from_geom = 2;
    r.autolimits = 0; // MuJoCo 2.2's default
    snprintf(r.files[0], sizeof r.files[0], "%s", name);
    r.nfile = 1;
    sn_status st = sni_mjcf_parse_text(&r, xml, len, 0, -1);
    if (st == SN_OK) st = sni_mjcf_includes(&r, max);
    if (st == SN_OK) st = load_tree(&r);
    if (st == SN_OK && (s.names.failed || s.links.failed || s.joints.failed || s.geoms.failed))
        st = sni_error(err, SN_ERR_NOMEM, name, 0, "", "out of memory");
    if (st == SN_OK) st = sni_compile(&s, r.a, out, err);
    if (st != SN_OK && *out) {
        sn_model_destroy(*out);
        *out = NULL;
    }
    sni_buf_free(&r.pool);
    sni_buf_free(&r.nodes);
    sni_buf_free(&r.attrs);
    sni_spec_free(&s);
    return st;
}

sn_status sn_load_mjcf_string(const char* xml, size_t len, const char* name, const char* base_dir,
                              const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (out) *out = NULL;
    if (!xml) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_mjcf_string: xml is NULL");
    if (len == 0)
        return sni_error(err, SN_ERR_PARSE, name, 0, "",
                         "sn_load_mjcf_string: len is 0: the input is empty (no element found)");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_mjcf_string: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, name, 0, "", "out is NULL");
    *out = NULL;
    if (!xml) return sni_error(err, SN_ERR_ARG, name, 0, "", "xml is NULL");
    return load(xml, len, name ? name : "<string>", base_dir ? base_dir : ".", opts, out, err);
}

sn_status sn_load_mjcf(const char* path, const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (out) *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_mjcf: path is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_mjcf: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, path, 0, "", "out is NULL");
    *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, "", 0, "", "path is NULL");
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : DEFAULT_MAX_FILE;
    const sn_allocator* a = opts ? opts->allocator : NULL;
    char* buf = NULL;
    size_t n = 0;
    sn_status st = sni_read_file(path, max, "sn_load_opts.max_file_bytes", a, &buf, &n, err);
    if (st != SN_OK) return st;
    char dir[1024];
    sni_dir_of(path, dir, sizeof dir);
    sn_status s = load(buf, n, path, dir, opts, out, err);
    sni_free(a, buf, n + 1);
    return s;
}
