// SPDX-License-Identifier: Apache-2.0
// html.c: the replay of `sinew run --html FILE`: frames of the run recorded at about 60 per
// simulated second (body poses, contacts with their forces, loop anchors) and written into one
// self-contained HTML file: viewer/template.html with the data as JSON and the viewer bundle
// (viewer/dist/viewer.js: the viewer and three.js), both embedded in the CLI at build time.
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char sn_viewer_template[];
extern const unsigned long sn_viewer_template_len;
extern const unsigned char sn_viewer_js[];
extern const unsigned long sn_viewer_js_len;

typedef struct dbuf {
    double* v;
    size_t n, cap;
} dbuf;

static int dpush(dbuf* b, double x) {
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        double* v = realloc(b->v, cap * sizeof(double));
        if (!v) return 1;
        b->v = v, b->cap = cap;
    }
    b->v[b->n++] = x;
    return 0;
}

struct cli_replay {
    const sn_model* m;
    sn_data* d;   // the recorder's own kinematics (the system's are left alone)
    double every; // simulated seconds between frames
    double next;  // the next frame's time
    int ground, nframe, max_contacts, failed;
    int nsoft;           // soft contact points (fixed at the first frame)
    dbuf t, pose;        // per frame: t; per body position (3) and rotation (9)
    dbuf contacts;       // per frame: position (3) and force (3) of each contact
    dbuf coff;           // per frame: the first contact's index in contacts (frames + 1)
    dbuf anchors;        // per frame: body1's and body2's anchor of each constraint (6 each),
                         // then each soft point's anchor and the point (6 each)
    double fsum;         // the contact forces' magnitudes, summed
    long fcount;         // and counted
    double lo[3], hi[3]; // the bodies' extent over the run
};

cli_replay* cli_replay_begin(const sn_model* m, int ground, double every) {
    cli_replay* r = calloc(1, sizeof *r);
    if (!r) return NULL;
    if (sn_data_create(m, NULL, &r->d, NULL) != SN_OK) {
        free(r);
        return NULL;
    }
    r->m = m;
    r->ground = ground;
    r->every = every > 0 ? every : 1.0 / 60;
    r->next = -INFINITY;
    for (int i = 0; i < 3; i++)
        r->lo[i] = INFINITY, r->hi[i] = -INFINITY;
    dpush(&r->coff, 0);
    return r;
}

// a frame's time and the bodies' poses at q (the recorder's kinematics left at q); 1: no memory
static int record_poses(cli_replay* r, const double* q, double t) {
    const sn_model* m = r->m;
    sn_data* d = r->d;
    memcpy(d->q, q, (size_t)m->nq * sizeof(double));
    sn_fk(m, d);
    int bad = dpush(&r->t, t);
    for (int b = 0; b < m->nbody; b++) {
        for (int i = 0; i < 3; i++) {
            double x = d->body_pos[3 * b + i];
            bad |= dpush(&r->pose, x);
            if (b > 0) r->lo[i] = fmin(r->lo[i], x), r->hi[i] = fmax(r->hi[i], x);
        }
        // the rotation as a unit quaternion w x y z (7 numbers a body instead of 12)
        const double* R = d->body_rot + 9 * b;
        double qr[4], tr = R[0] + R[4] + R[8];
        if (tr > 0) {
            double k = 2 * sqrt(1 + tr);
            qr[0] = k / 4, qr[1] = (R[7] - R[5]) / k, qr[2] = (R[2] - R[6]) / k,
            qr[3] = (R[3] - R[1]) / k;
        } else if (R[0] > R[4] && R[0] > R[8]) {
            double k = 2 * sqrt(1 + R[0] - R[4] - R[8]);
            qr[0] = (R[7] - R[5]) / k, qr[1] = k / 4, qr[2] = (R[1] + R[3]) / k,
            qr[3] = (R[2] + R[6]) / k;
        } else if (R[4] > R[8]) {
            double k = 2 * sqrt(1 + R[4] - R[0] - R[8]);
            qr[0] = (R[2] - R[6]) / k, qr[1] = (R[1] + R[3]) / k, qr[2] = k / 4,
            qr[3] = (R[5] + R[7]) / k;
        } else {
            double k = 2 * sqrt(1 + R[8] - R[0] - R[4]);
            qr[0] = (R[3] - R[1]) / k, qr[1] = (R[2] + R[6]) / k, qr[2] = (R[5] + R[7]) / k,
            qr[3] = k / 4;
        }
        for (int i = 0; i < 4; i++)
            bad |= dpush(&r->pose, qr[i]);
    }
    return bad;
}

void cli_replay_frame_q(cli_replay* r, const double* q, double t) {
    if (!r || r->failed || t + 1e-9 < r->next) return;
    r->next = t + r->every;
    int bad = record_poses(r, q, t);
    bad |= dpush(&r->coff, (double)(r->contacts.n / 6)); // no contacts, loops or soft points
    r->nframe++;
    r->failed = bad;
}

void cli_replay_frame(cli_replay* r, sn_system* s, double t, double dt) {
    if (!r || r->failed || t + 1e-9 < r->next) return;
    r->next = t + r->every;
    const sn_model* m = r->m;
    sn_data* d = r->d;
    int bad = record_poses(r, sn_system_q(s), t);
    int nc = sn_system_contact_count(s);
    for (int i = 0; i < nc; i++) {
        sn_contact c;
        if (sn_system_contact(s, i, &c) != SN_OK) continue;
        double f[3];
        for (int e = 0; e < 3; e++)
            f[e] = dt > 0 ? c.impulse[e] / dt : 0;
        r->fsum += sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        r->fcount++;
        for (int e = 0; e < 3; e++)
            bad |= dpush(&r->contacts, c.position[e]);
        for (int e = 0; e < 3; e++)
            bad |= dpush(&r->contacts, f[e]);
    }
    // soft contacts: the active points' forces (N), as the hard contacts' above
    if (r->nframe == 0) r->nsoft = sn_system_soft_point_count(s);
    for (int i = 0; i < r->nsoft; i++) {
        sn_soft_point p;
        if (sn_system_soft_point(s, i, &p) != SN_OK || !p.active) continue;
        r->fsum +=
            sqrt(p.force[0] * p.force[0] + p.force[1] * p.force[1] + p.force[2] * p.force[2]);
        r->fcount++;
        nc++;
        for (int e = 0; e < 3; e++)
            bad |= dpush(&r->contacts, p.position[e]);
        for (int e = 0; e < 3; e++)
            bad |= dpush(&r->contacts, p.force[e]);
    }
    if (nc > r->max_contacts) r->max_contacts = nc;
    bad |= dpush(&r->coff, (double)(r->contacts.n / 6));
    for (int c = 0; c < m->nconstraint; c++) {
        double p[3], R[9];
        // body1's anchor, and body2's point that the step drives onto it
        sn_frame_pose(m, d, m->constraint_frame1[c], p, R);
        const double* a = m->constraint_anchor + 3 * c;
        for (int e = 0; e < 3; e++)
            bad |= dpush(&r->anchors,
                         p[e] + R[3 * e] * a[0] + R[3 * e + 1] * a[1] + R[3 * e + 2] * a[2]);
        double sep[3] = {0, 0, 0};
        sn_system_constraint(s, c, NULL, sep);
        for (int e = 0; e < 3; e++)
            bad |= dpush(&r->anchors, r->anchors.v[r->anchors.n - 3] - sep[e]);
    }
    // each soft point's anchor p0 (yellow, where its spring is held) and the point (blue), as a
    // loop's pair; a point out of contact has no anchor: both at the point (from this frame's
    // kinematics, also before the first step)
    for (int i = 0; i < r->nsoft; i++) {
        sn_soft_point p;
        sn_system_soft_point(s, i, &p);
        double x[3];
        const double *bp = d->body_pos + 3 * p.body, *R = d->body_rot + 9 * p.body;
        for (int e = 0; e < 3; e++)
            x[e] = bp[e] + R[3 * e] * p.offset[0] + R[3 * e + 1] * p.offset[1] +
                   R[3 * e + 2] * p.offset[2];
        for (int e = 0; e < 3; e++)
            bad |= dpush(&r->anchors, p.active ? p.anchor[e] : x[e]);
        for (int e = 0; e < 3; e++)
            bad |= dpush(&r->anchors, x[e]);
    }
    r->nframe++;
    r->failed = bad;
}

static const char* kind_name(int type) {
    switch (type) {
    case SN_GEOM_BOX:
        return "box";
    case SN_GEOM_CYLINDER:
        return "cylinder";
    case SN_GEOM_SPHERE:
        return "sphere";
    case SN_GEOM_CAPSULE:
        return "capsule";
    case SN_GEOM_ELLIPSOID:
        return "ellipsoid";
    default:
        return "mesh";
    }
}

static void num(FILE* f, double v) {
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("0", f);
}

static void nums(FILE* f, const double* v, size_t n) {
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i) fputc(',', f);
        num(f, v[i]);
    }
    fputc(']', f);
}

// a JSON string (quotes and backslashes escaped, control characters dropped)
static void jstr(FILE* f, const char* s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fputc('\\', f), fputc(c, f);
        else if (c == '<')
            fputs("\\u003c", f); // never "</script>" inside the page's script element
        else if (c >= 0x20)
            fputc(c, f);
    }
    fputc('"', f);
}

// a visual mesh with more triangles is not drawn (the replay's file would grow too large)
#define MESH_MAX_TRIANGLES 400000

// the visual meshes read for the replay (sn_mesh_read), each file (at one scale) once
typedef struct mesh_entry {
    const char* path;
    double scale[3];
    sn_mesh_data mesh;
    int ok;
} mesh_entry;

typedef struct mesh_set {
    mesh_entry* e;
    int n, cap;
} mesh_set;

// the mesh's index in the set (read on first use), or -1 when it cannot be read
static int mesh_index(mesh_set* ms, const char* path, const double* scale) {
    for (int i = 0; i < ms->n; i++)
        if (!strcmp(ms->e[i].path, path) && !memcmp(ms->e[i].scale, scale, sizeof ms->e[i].scale))
            return ms->e[i].ok ? i : -1;
    if (ms->n == ms->cap) return -1;
    mesh_entry* e = &ms->e[ms->n++];
    e->path = path;
    memcpy(e->scale, scale, sizeof e->scale);
    // a mesh that cannot be read, or has more than MESH_MAX_TRIANGLES, is not drawn
    e->ok = sn_mesh_read(path, scale, &e->mesh, NULL) == SN_OK;
    if (e->ok && e->mesh.ntri > MESH_MAX_TRIANGLES) {
        sn_mesh_data_free(&e->mesh);
        e->ok = 0;
    }
    if (!e->ok) fprintf(stderr, "sinew: the replay draws no visual mesh '%s' (not read)\n", path);
    return e->ok ? ms->n - 1 : -1;
}

// the geometries of body b, placed in the body frame
static void body_geoms(FILE* f, const sn_model* m, int b, mesh_set* ms) {
    int first = 1;
    fputc('[', f);
    for (int g = 0; g < m->ngeom; g++) {
        int fr = m->geom_frame[g];
        if (m->frame_body[fr] != b) continue;
        // body <- geom = (body <- link)(link <- geom)
        const double *Rf = m->frame_rot + 9 * fr, *pf = m->frame_pos + 3 * fr;
        const double *Rg = m->geom_rot + 9 * g, *pg = m->geom_pos + 3 * g;
        double R[9], p[3];
        for (int i = 0; i < 3; i++) {
            p[i] = pf[i];
            for (int k = 0; k < 3; k++) {
                p[i] += Rf[3 * i + k] * pg[k];
                R[3 * i + k] = 0;
                for (int j = 0; j < 3; j++)
                    R[3 * i + k] += Rf[3 * i + j] * Rg[3 * j + k];
            }
        }
        int type = m->geom_type[g], mesh = -1;
        if (type == SN_GEOM_MESH && m->geom_is_visual[g]) {
            // a visual mesh is drawn with its own triangles
            if (m->geom_mesh[g] < 0) continue;
            mesh = mesh_index(ms, m->names + m->geom_mesh[g], m->geom_size + 3 * g);
            if (mesh < 0) continue;
        } else if (type == SN_GEOM_MESH && (m->geom_vert_adr[g] < 0 || m->geom_vert_num[g] < 4)) {
            continue;
        }
        if (!first) fputc(',', f);
        first = 0;
        fprintf(f,
                "{\"type\":\"%s\",\"visual\":%s,\"size\":", mesh >= 0 ? "trimesh" : kind_name(type),
                m->geom_is_visual[g] ? "true" : "false");
        nums(f, m->geom_size + 3 * g, 3);
        if (mesh >= 0) fprintf(f, ",\"meshIndex\":%d", mesh);
        fputs(",\"pos\":", f);
        nums(f, p, 3);
        fputs(",\"rot\":", f);
        nums(f, R, 9);
        int mat = m->geom_material[g];
        if (mat >= 0) {
            fputs(",\"rgba\":", f);
            nums(f, m->material_rgba + 4 * mat, 4);
        }
        if (type == SN_GEOM_MESH && mesh < 0) {
            // a collision mesh: its hull's vertices (the viewer draws their convex hull)
            fputs(",\"mesh\":", f);
            nums(f, m->mesh_vert + 3 * (size_t)m->geom_vert_adr[g],
                 3 * (size_t)m->geom_vert_num[g]);
        }
        fputc('}', f);
    }
    fputc(']', f);
}

static void write_data(FILE* f, const cli_replay* r, const char* title) {
    const sn_model* m = r->m;
    double extent = 0;
    for (int i = 0; i < 3; i++)
        if (r->hi[i] >= r->lo[i]) extent = fmax(extent, r->hi[i] - r->lo[i]);
    fputs("{\"title\":", f);
    jstr(f, title);
    fprintf(f, ",\"ground\":%s,\"extent\":", r->ground ? "true" : "false");
    num(f, fmax(extent, 0.5));
    // the viewer draws "nconstraint" pairs of anchors: the loops' and the soft points'
    fprintf(f, ",\"nconstraint\":%d,\"nloop\":%d,\"nsoft\":%d,\"maxContacts\":%d,\"forceScale\":",
            m->nconstraint + r->nsoft, m->nconstraint, r->nsoft, r->max_contacts);
    // the mean contact force drawn a sixth of the bodies' extent long (impacts: longer)
    double fmean = r->fcount ? r->fsum / (double)r->fcount : 0;
    num(f, fmean > 0 ? fmax(extent, 0.5) / (6 * fmean) : 1);
    mesh_set ms = {calloc((size_t)m->ngeom + 1, sizeof(mesh_entry)), 0, m->ngeom};
    if (!ms.e) ms.cap = 0;
    fputs(",\"bodies\":[", f);
    for (int b = 0; b < m->nbody; b++) {
        if (b) fputc(',', f);
        fputs("{\"name\":", f);
        jstr(f, sn_model_name(m, SN_OBJ_BODY, b));
        fputs(",\"geoms\":", f);
        body_geoms(f, m, b, &ms);
        fputc('}', f);
    }
    fputs("],\"meshes\":[", f);
    for (int i = 0; i < ms.n; i++) {
        mesh_entry* e = &ms.e[i];
        if (i) fputc(',', f);
        fputs("{\"v\":[", f);
        // single precision is what the viewer draws with
        for (int k = 0; e->ok && k < 3 * e->mesh.nvert; k++)
            fprintf(f, k ? ",%.5g" : "%.5g", (double)(float)e->mesh.vert[k]);
        fputs("],\"f\":[", f);
        for (int k = 0; e->ok && k < 3 * e->mesh.ntri; k++)
            fprintf(f, k ? ",%d" : "%d", e->mesh.tri[k]);
        fputs("]}", f);
        sn_mesh_data_free(&e->mesh);
    }
    free(ms.e);
    fputs("],\"t\":", f);
    nums(f, r->t.v, r->t.n);
    fputs(",\"pose\":[", f);
    size_t per = 7 * (size_t)m->nbody;
    for (int k = 0; k < r->nframe; k++) {
        if (k) fputc(',', f);
        nums(f, r->pose.v + per * k, per);
    }
    fputs("],\"contacts\":[", f);
    for (int k = 0; k < r->nframe; k++) {
        if (k) fputc(',', f);
        size_t a = (size_t)r->coff.v[k], b = (size_t)r->coff.v[k + 1];
        nums(f, r->contacts.v + 6 * a, 6 * (b - a));
    }
    fputs("],\"anchors\":[", f);
    size_t pa = 6 * ((size_t)m->nconstraint + (size_t)r->nsoft);
    for (int k = 0; k < r->nframe; k++) {
        if (k) fputc(',', f);
        nums(f, pa ? r->anchors.v + pa * k : NULL, pa);
    }
    fputs("]}", f);
}

int cli_replay_write(const cli_replay* r, const char* path, const char* title,
                     const char* summary) {
    if (!r || r->failed) {
        fprintf(stderr, "sinew: out of memory for the replay\n");
        return 1;
    }
    FILE* f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "sinew: cannot write the replay '%s'\n", path);
        return 1;
    }
    // the template with its four marks replaced
    const char* tpl = (const char*)sn_viewer_template;
    const char* marks[] = {"@TITLE@", "@SUMMARY@", "@DATA@", "@VIEWER@"};
    const char* at = tpl;
    while (*at) {
        const char* next = NULL;
        int which = -1;
        for (int i = 0; i < 4; i++) {
            const char* p = strstr(at, marks[i]);
            if (p && (!next || p < next)) next = p, which = i;
        }
        if (!next) {
            fputs(at, f);
            break;
        }
        fwrite(at, 1, (size_t)(next - at), f);
        if (which == 0 || which == 1) {
            for (const char* c = which ? summary : title; c && *c; c++) {
                if (*c == '<')
                    fputs("&lt;", f);
                else if (*c == '&')
                    fputs("&amp;", f);
                else
                    fputc(*c, f);
            }
        } else if (which == 2) {
            write_data(f, r, title);
        } else {
            fwrite(sn_viewer_js, 1, (size_t)sn_viewer_js_len, f);
        }
        at = next + strlen(marks[which]);
    }
    int err = ferror(f);
    if (fclose(f) || err) {
        fprintf(stderr, "sinew: cannot write the replay '%s'\n", path);
        return 1;
    }
    return 0;
}

void cli_replay_free(cli_replay* r) {
    if (!r) return;
    sn_data_destroy(r->d);
    free(r->t.v), free(r->pose.v), free(r->contacts.v), free(r->coff.v), free(r->anchors.v);
    free(r);
}
