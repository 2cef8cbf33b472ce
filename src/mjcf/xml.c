// SPDX-License-Identifier: Apache-2.0
// xml.c: the MJCF reader's element tree. The file is read with libexpat into a small tree of
// elements (names and attributes in one string pool); <include> files are spliced in where they
// are named, each file once and never from outside the model's folder. Limits on depth, element
// count and included files are this file's (expat has none). A DOCTYPE is refused.
#include "mjcf/mjcf.h"

#include <stdio.h>
#include <string.h>

// ---- errors ----

long sni_mjcf_pool_add(reader* r, const char* s) {
    return sni_buf_push(&r->pool, s, strlen(s) + 1);
}

void sni_mjcf_fail(reader* r, int node, sn_status code, const char* element, const char* fmt, ...) {
    if (r->st != SN_OK) return;
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    const char* file = r->s->file;
    int line = 0;
    if (node >= 0 && node < NNODE(r)) {
        line = NODE(r, node).line;
        file = r->files[NODE(r, node).file];
    }
    sni_error(r->err, code, file, line, element, "%s", text);
    r->st = code;
}

void sni_mjcf_warn(reader* r, int node, const char* element, const char* fmt, ...) {
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sni_spec_warn(r->s, node >= 0 ? NODE(r, node).line : 0, element, "%s", text);
}

// ---- reading XML into the tree ----

static void on_start(void* ud, const char* el, const char** atts) {
    reader* r = ud;
    if (r->st != SN_OK) return;
    if (r->depth >= MAX_DEPTH || NNODE(r) >= MAX_NODES) {
        sni_error(
            r->err, SN_ERR_LIMIT, r->files[r->cur_file], (int)XML_GetCurrentLineNumber(r->xp), el,
            r->depth >= MAX_DEPTH ? "elements nested deeper than %d" : "more than %d elements",
            r->depth >= MAX_DEPTH ? MAX_DEPTH : MAX_NODES);
        r->st = SN_ERR_LIMIT;
        XML_StopParser(r->xp, XML_FALSE);
        return;
    }
    xnode n;
    memset(&n, 0, sizeof n);
    n.name = sni_mjcf_pool_add(r, el);
    n.line = (int)XML_GetCurrentLineNumber(r->xp);
    n.file = r->cur_file;
    n.attr0 = (int)(r->attrs.len / (2 * sizeof(long)));
    for (int i = 0; atts[i]; i += 2) {
        long kv[2] = {sni_mjcf_pool_add(r, atts[i]), sni_mjcf_pool_add(r, atts[i + 1])};
        sni_buf_push(&r->attrs, kv, sizeof kv);
        n.nattr++;
    }
    n.parent = r->depth ? r->stack[r->depth - 1] : -1;
    n.first = n.last = n.next = -1;
    int id = NNODE(r);
    if (sni_buf_push(&r->nodes, &n, sizeof n) < 0 || r->pool.failed || r->attrs.failed) {
        r->st = sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, el, "out of memory");
        XML_StopParser(r->xp, XML_FALSE);
        return;
    }
    if (n.parent >= 0) {
        xnode* p = &NODE(r, n.parent);
        if (p->last >= 0)
            NODE(r, p->last).next = id;
        else
            p->first = id;
        p->last = id;
    }
    r->stack[r->depth++] = id;
}

static void on_end(void* ud, const char* el) {
    (void)el;
    reader* r = ud;
    if (r->depth > 0) r->depth--;
}

static void on_doctype(void* ud, const XML_Char* name, const XML_Char* sysid, const XML_Char* pubid,
                       int has_internal) {
    (void)name, (void)sysid, (void)pubid, (void)has_internal;
    reader* r = ud;
    sni_error(r->err, SN_ERR_PARSE, r->files[r->cur_file], (int)XML_GetCurrentLineNumber(r->xp),
              "DOCTYPE", "a DOCTYPE is not accepted in MJCF");
    r->st = SN_ERR_PARSE;
    XML_StopParser(r->xp, XML_FALSE);
}

// parse one file's text; its root's children are appended under `under` (-1: a new root)
sn_status sni_mjcf_parse_text(reader* r, const char* xml, size_t len, int file, int under) {
    XML_Parser xp = XML_ParserCreate(NULL);
    if (!xp) return sni_error(r->err, SN_ERR_NOMEM, r->files[file], 0, "", "out of memory");
    XML_Parser saved = r->xp;
    int saved_file = r->cur_file, saved_depth = r->depth;
    r->xp = xp;
    r->cur_file = file;
    if (under >= 0) {
        // an include's root element is spliced away: its children land under `under`
        r->stack[0] = under;
        r->depth = 1;
    } else {
        r->depth = 0;
    }
    int first_new = NNODE(r);
    XML_SetUserData(xp, r);
    XML_SetElementHandler(xp, on_start, on_end);
    XML_SetStartDoctypeDeclHandler(xp, on_doctype);
    XML_SetParamEntityParsing(xp, XML_PARAM_ENTITY_PARSING_NEVER);
    if (XML_Parse(xp, xml, (int)len, 1) == XML_STATUS_ERROR && r->st == SN_OK)
        r->st = sni_error(r->err, SN_ERR_PARSE, r->files[file], (int)XML_GetCurrentLineNumber(xp),
                          "", "XML: %s", XML_ErrorString(XML_GetErrorCode(xp)));
    XML_ParserFree(xp);
    r->xp = saved;
    r->cur_file = saved_file;
    r->depth = saved_depth;
    if (r->st == SN_OK && under >= 0 && NNODE(r) > first_new) {
        // the include file's root (<mujoco>) became a child of `under`: lift its children
        int root = first_new;
        xnode* u = &NODE(r, under);
        int prev = -1;
        for (int c = u->first; c >= 0; c = NODE(r, c).next) {
            if (c == root) break;
            prev = c;
        }
        int kids = NODE(r, root).first;
        for (int c = kids; c >= 0; c = NODE(r, c).next)
            NODE(r, c).parent = under;
        int after = NODE(r, root).next;
        if (kids >= 0) {
            if (prev >= 0)
                NODE(r, prev).next = kids;
            else
                u->first = kids;
            NODE(r, NODE(r, root).last).next = after;
            if (u->last == root) u->last = NODE(r, root).last;
        } else {
            if (prev >= 0)
                NODE(r, prev).next = after;
            else
                u->first = after;
            if (u->last == root) u->last = prev;
        }
    }
    return r->st;
}

// ---- includes ----

// the <include> elements, recursively, each file once and from inside the model's folder
sn_status sni_mjcf_includes(reader* r, size_t max) {
    for (int i = 0; i < NNODE(r) && r->st == SN_OK; i++) {
        if (strcmp(ename(r, i), "include") || NODE(r, i).name < 0) continue;
        const char* f = get(r, i, "file");
        if (!f || !f[0]) {
            sni_mjcf_fail(r, i, SN_ERR_PARSE, "include", "missing attribute 'file'");
            break;
        }
        if (f[0] == '/' || strstr(f, "..")) {
            sni_mjcf_fail(r, i, SN_ERR_MODEL, "include",
                          "file=\"%s\": an include must stay inside the model's folder", f);
            break;
        }
        if (NODE(r, i).first >= 0) {
            sni_mjcf_fail(r, i, SN_ERR_MODEL, "include", "an include element cannot have children");
            break;
        }
        if (r->nfile > MAX_INCLUDES) {
            sni_mjcf_fail(r, i, SN_ERR_LIMIT, "include", "more than %d included files",
                          MAX_INCLUDES);
            break;
        }
        char full[600];
        snprintf(full, sizeof full, "%s/%s", r->dir, f);
        int again = 0;
        for (int k = 0; k < r->nfile && !again; k++)
            again = !strcmp(r->files[k], full) ||
                    (k == 0 && !strcmp(strrchr(r->files[0], '/') ? strrchr(r->files[0], '/') + 1
                                                                 : r->files[0],
                                       f));
        if (again) {
            sni_mjcf_fail(r, i, SN_ERR_MODEL, "include", "file '%s' is already included (a cycle?)",
                          f);
            break;
        }
        int id = r->nfile++;
        snprintf(r->files[id], sizeof r->files[id], "%s", full);
        size_t n = 0;
        char* text = NULL;
        if (sni_read_file(r->files[id], max, NULL, r->a, &text, &n, NULL) != SN_OK) {
            sni_mjcf_fail(r, i, SN_ERR_IO, "include", "cannot read '%s'", r->files[id]);
            break;
        }
        int parent = NODE(r, i).parent;
        if (parent < 0) { // the document's root
            sni_free(r->a, text, n + 1);
            sni_mjcf_fail(r, i, SN_ERR_MODEL, "include", "an include must be inside <mujoco>");
            break;
        }
        // the include element itself is dropped from its parent's children
        xnode* p = &NODE(r, parent);
        int prev = -1;
        for (int c = p->first; c >= 0; c = NODE(r, c).next) {
            if (c == i) break;
            prev = c;
        }
        if (prev >= 0)
            NODE(r, prev).next = NODE(r, i).next;
        else
            p->first = NODE(r, i).next;
        if (p->last == i) p->last = prev;
        NODE(r, i).name = sni_mjcf_pool_add(r, "#included");
        sni_mjcf_parse_text(r, text, n, id, parent);
        sni_free(r->a, text, n + 1);
    }
    return r->st;
}
