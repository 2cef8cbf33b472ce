// SPDX-License-Identifier: Apache-2.0
// usda.c: the text form of a USD layer (.usda) read into prims and properties (docs/usd.md). The
// document is cut into tokens once; prims keep their tree, API schemas and properties, and each
// property keeps the token range of its value, read on demand by the typed getters at the end.
// Composition (references, payloads, inherits, specializes, variants, sublayers) is refused: the
// reader takes one flattened layer.
#include "usd/usd.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// ---- errors ----

sn_status sni_usd_fail(sni_usd_doc* d, int line, sn_status code, const char* element,
                       const char* fmt, ...) {
    if (d->st != SN_OK) return d->st;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->st = sni_error(d->err, code, d->file, line, element ? element : "", "%s", msg);
    return d->st;
}

// ---- tokens ----

static int is_word_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_word(char c) {
    return is_word_start(c) || (c >= '0' && c <= '9') || c == ':' || c == '.';
}
static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

static int push_tok(sni_usd_doc* d, int kind, int line, const char* s, size_t n) {
    sni_usd_tok t = {kind, line, s, (int)n};
    if (sni_buf_push(&d->toks, &t, sizeof t) < 0)
        return sni_usd_fail(d, line, SN_ERR_NOMEM, "", "out of memory"), -1;
    return 0;
}

// a quoted string from text[i] (its quote): the end index past the closing quote, or 0
static size_t quoted(const char* text, size_t len, size_t i, int* line, size_t* s0, size_t* n) {
    char q = text[i];
    int triple = i + 2 < len && text[i + 1] == q && text[i + 2] == q;
    size_t k = i + (triple ? 3 : 1);
    *s0 = k;
    for (; k < len; k++) {
        if (text[k] == '\\' && k + 1 < len) {
            if (text[k + 1] == '\n') (*line)++;
            k++;
            continue;
        }
        if (text[k] == '\n') {
            if (!triple) return 0;
            (*line)++;
        }
        if (text[k] == q && (!triple || (k + 2 < len && text[k + 1] == q && text[k + 2] == q))) {
            *n = k - *s0;
            return k + (triple ? 3 : 1);
        }
    }
    return 0;
}

static sn_status lex(sni_usd_doc* d, const char* text, size_t len) {
    int line = 1;
    size_t i = 0;
    // the header line "#usda 1.0" was checked by the caller: skip it
    while (i < len && text[i] != '\n')
        i++;
    while (i < len && d->st == SN_OK) {
        char c = text[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (c == '#') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == '"' || c == '\'') {
            int start = line;
            size_t s0 = 0, n = 0, e = quoted(text, len, i, &line, &s0, &n);
            if (!e) return sni_usd_fail(d, start, SN_ERR_PARSE, "", "a string is not closed");
            if (push_tok(d, UT_STR, start, text + s0, n)) return d->st;
            i = e;
        } else if (c == '<' || c == '@') {
            char close = c == '<' ? '>' : '@';
            int triple = c == '@' && i + 2 < len && text[i + 1] == '@' && text[i + 2] == '@';
            size_t k = i + (triple ? 3 : 1), s0 = k;
            while (k < len && text[k] != '\n' &&
                   !(text[k] == close &&
                     (!triple || (k + 2 < len && text[k + 1] == '@' && text[k + 2] == '@'))))
                k++;
            if (k >= len || text[k] != close)
                return sni_usd_fail(d, line, SN_ERR_PARSE, "", "%s is not closed on its line",
                                    c == '<' ? "a path <...>" : "an asset path @...@");
            if (push_tok(d, c == '<' ? UT_PATH : UT_ASSET, line, text + s0, k - s0)) return d->st;
            i = k + (triple ? 3 : 1);
        } else if (is_digit(c) || ((c == '-' || c == '+' || c == '.') && i + 1 < len &&
                                   (is_digit(text[i + 1]) || text[i + 1] == '.'))) {
            size_t k = i + 1;
            while (k < len &&
                   (is_digit(text[k]) || text[k] == '.' || text[k] == 'e' || text[k] == 'E' ||
                    ((text[k] == '-' || text[k] == '+') &&
                     (text[k - 1] == 'e' || text[k - 1] == 'E'))))
                k++;
            if (push_tok(d, UT_NUM, line, text + i, k - i)) return d->st;
            i = k;
        } else if (is_word_start(c) ||
                   ((c == '-' || c == '+') && i + 1 < len && is_word_start(text[i + 1]))) {
            size_t k = i + 1;
            while (k < len && is_word(text[k]))
                k++;
            if (push_tok(d, UT_IDENT, line, text + i, k - i)) return d->st;
            i = k;
        } else if (strchr("()[]{}=,;:&", c) && c) {
            if (push_tok(d, UT_PUNCT, line, text + i, 1)) return d->st;
            i++;
        } else {
            if ((unsigned char)c < 32 || (unsigned char)c >= 127)
                return sni_usd_fail(d, line, SN_ERR_PARSE, "", "unexpected byte 0x%02x",
                                    (unsigned)(unsigned char)c);
            return sni_usd_fail(d, line, SN_ERR_PARSE, "", "unexpected character '%c'", c);
        }
    }
    if (d->st == SN_OK) push_tok(d, UT_END, line, text + len, 0);
    return d->st;
}

int sni_usd_tok_is(const sni_usd_doc* d, int i, const char* s) {
    const sni_usd_tok* t = USD_TOK(d, i);
    size_t n = strlen(s);
    return (size_t)t->n == n && !memcmp(t->s, s, n);
}

static int is_punct(const sni_usd_doc* d, int i, char c) {
    const sni_usd_tok* t = USD_TOK(d, i);
    return t->kind == UT_PUNCT && t->s[0] == c;
}

const char* sni_usd_tok_str(const sni_usd_doc* d, int i, char* buf, size_t cap) {
    const sni_usd_tok* t = USD_TOK(d, i);
    size_t n = (size_t)t->n < cap - 1 ? (size_t)t->n : cap - 1;
    memcpy(buf, t->s, n);
    buf[n] = 0;
    return buf;
}

// ---- the grammar ----

typedef struct parse {
    sni_usd_doc* d;
    int i; // the next token
} parse;

#define TK(p) USD_TOK((p)->d, (p)->i)

static sn_status expect(parse* p, char c, const char* where) {
    if (is_punct(p->d, p->i, c)) {
        p->i++;
        return SN_OK;
    }
    char got[48];
    return sni_usd_fail(p->d, TK(p)->line, SN_ERR_PARSE, where, "expected '%c', found %s", c,
                        TK(p)->kind == UT_END ? "the end of the file"
                                              : sni_usd_tok_str(p->d, p->i, got, sizeof got));
}

// one value: an atom, or a bracketed group to its matching bracket
static sn_status skip_value(parse* p, const char* where) {
    sni_usd_doc* d = p->d;
    if (TK(p)->kind == UT_END)
        return sni_usd_fail(d, TK(p)->line, SN_ERR_PARSE, where, "a value is missing at the end");
    if (TK(p)->kind != UT_PUNCT) {
        p->i++;
        return SN_OK;
    }
    char open = TK(p)->s[0];
    if (open != '(' && open != '[' && open != '{') {
        char got[8];
        return sni_usd_fail(d, TK(p)->line, SN_ERR_PARSE, where, "expected a value, found '%s'",
                            sni_usd_tok_str(d, p->i, got, sizeof got));
    }
    char stack[SNI_USD_MAX_DEPTH];
    int depth = 0, line = TK(p)->line;
    do {
        const sni_usd_tok* t = TK(p);
        if (t->kind == UT_END)
            return sni_usd_fail(d, line, SN_ERR_PARSE, where, "a bracket '%c' is not closed", open);
        if (t->kind == UT_PUNCT) {
            char c = t->s[0];
            if (c == '(' || c == '[' || c == '{') {
                if (depth >= SNI_USD_MAX_DEPTH)
                    return sni_usd_fail(d, t->line, SN_ERR_LIMIT, where,
                                        "values nested deeper than %d", SNI_USD_MAX_DEPTH);
                stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
            } else if (c == ')' || c == ']' || c == '}') {
                if (c != stack[depth - 1])
                    return sni_usd_fail(d, t->line, SN_ERR_PARSE, where,
                                        "'%c' closes a bracket opened with '%c'", c, open);
                depth--;
            }
        }
        p->i++;
    } while (depth > 0);
    return SN_OK;
}

static int word_in(const sni_usd_doc* d, int i, const char* const* list) {
    if (USD_TOK(d, i)->kind != UT_IDENT) return 0;
    for (int k = 0; list[k]; k++)
        if (sni_usd_tok_is(d, i, list[k])) return 1;
    return 0;
}

static const char* const LISTOPS[] = {"prepend", "append", "add", "delete", "reorder", NULL};
static const char* const ARCS[] = {"references",  "payload",     "inherits",
                                   "specializes", "variantSets", "variants",
                                   "subLayers",   "relocates",   NULL};

static const struct {
    const char* name;
    unsigned bit;
} APIS[] = {
    {"PhysicsRigidBodyAPI", USD_API_RIGID},         {"PhysicsMassAPI", USD_API_MASS},
    {"PhysicsCollisionAPI", USD_API_COLLISION},     {"PhysicsArticulationRootAPI", USD_API_ARTROOT},
    {"PhysicsDriveAPI:angular", USD_API_DRIVE_ANG}, {"PhysicsDriveAPI:linear", USD_API_DRIVE_LIN},
    {"PhysicsMaterialAPI", USD_API_MATERIAL},
};

// apiSchemas = ["A", "B"]: set (or, deleted, clear) the flags of the ones sinew reads
static sn_status api_schemas(parse* p, sni_usd_prim* pr, int del, const char* where) {
    sni_usd_doc* d = p->d;
    int v0 = p->i;
    if (skip_value(p, where) != SN_OK) return d->st;
    for (int k = v0; k < p->i; k++) {
        if (USD_TOK(d, k)->kind != UT_STR) continue;
        for (size_t a = 0; a < sizeof APIS / sizeof APIS[0]; a++)
            if (sni_usd_tok_is(d, k, APIS[a].name)) {
                if (del)
                    pr->api &= ~APIS[a].bit;
                else
                    pr->api |= APIS[a].bit;
            }
    }
    return SN_OK;
}

// metadata in ( ... ): of the layer (prim < 0), a prim, or a property (skipped)
static sn_status metadata(parse* p, int prim, int is_prop, const char* where) {
    sni_usd_doc* d = p->d;
    if (expect(p, '(', where) != SN_OK) return d->st;
    while (d->st == SN_OK && !is_punct(d, p->i, ')')) {
        const sni_usd_tok* t = TK(p);
        if (t->kind == UT_END)
            return sni_usd_fail(d, t->line, SN_ERR_PARSE, where, "metadata '(' is not closed");
        if (t->kind == UT_STR || is_punct(d, p->i, ';')) { // a doc string, a separator
            p->i++;
            continue;
        }
        int del = 0;
        if (word_in(d, p->i, LISTOPS)) {
            del = sni_usd_tok_is(d, p->i, "delete");
            p->i++;
        }
        int key = p->i;
        if (TK(p)->kind != UT_IDENT) {
            char got[48];
            return sni_usd_fail(d, TK(p)->line, SN_ERR_PARSE, where,
                                "expected a metadata name, found '%s'",
                                sni_usd_tok_str(d, p->i, got, sizeof got));
        }
        p->i++;
        if (!is_prop && word_in(d, key, ARCS)) {
            char k[32];
            return sni_usd_fail(d, USD_TOK(d, key)->line, SN_ERR_MODEL, where,
                                "composition ('%s') is not read: sinew reads one flattened "
                                "layer (usdcat --flatten writes one)",
                                sni_usd_tok_str(d, key, k, sizeof k));
        }
        if (expect(p, '=', where) != SN_OK) return d->st;
        int v0 = p->i;
        if (prim >= 0 && !is_prop && sni_usd_tok_is(d, key, "apiSchemas")) {
            if (api_schemas(p, USD_PRIM(d, prim), del, where) != SN_OK) return d->st;
            continue;
        }
        if (skip_value(p, where) != SN_OK) return d->st;
        sn_real v = 0;
        char buf[64];
        if (prim < 0 && sni_usd_tok_is(d, key, "upAxis")) {
            sni_usd_tok_str(d, v0, buf, sizeof buf);
            if (!strcmp(buf, "Y"))
                d->up_axis = 1;
            else if (!strcmp(buf, "Z"))
                d->up_axis = 2;
            else
                return sni_usd_fail(d, USD_TOK(d, v0)->line, SN_ERR_MODEL, "upAxis",
                                    "upAxis \"%s\": USD knows \"Y\" and \"Z\"", buf);
        } else if (prim < 0 && (sni_usd_tok_is(d, key, "metersPerUnit") ||
                                sni_usd_tok_is(d, key, "kilogramsPerUnit"))) {
            if (USD_TOK(d, v0)->kind != UT_NUM ||
                sni_parse_reals(sni_usd_tok_str(d, v0, buf, sizeof buf), &v, 1) != SNI_NUM_OK ||
                !(v > 0) || !isfinite(v))
                return sni_usd_fail(d, USD_TOK(d, v0)->line, SN_ERR_MODEL,
                                    sni_usd_tok_str(d, key, buf, sizeof buf),
                                    "needs a positive number");
            if (sni_usd_tok_is(d, key, "metersPerUnit"))
                d->meters_per_unit = v;
            else
                d->kilograms_per_unit = v;
        } else if (prim > 0 && !is_prop && sni_usd_tok_is(d, key, "active")) {
            if (sni_usd_tok_is(d, v0, "false") || sni_usd_tok_is(d, v0, "0"))
                USD_PRIM(d, prim)->in_class = 1; // an inactive prim is not on the stage
        }
    }
    if (d->st == SN_OK) p->i++;
    return d->st;
}

static sn_status prim_body(parse* p, int prim);
static sn_status build_index(sni_usd_doc* d);

static int new_prim(sni_usd_doc* d, int parent, int line) {
    sni_usd_prim pr;
    memset(&pr, 0, sizeof pr);
    pr.parent = parent;
    pr.first = pr.last = pr.next = pr.prop_first = pr.prop_last = -1;
    pr.type = pr.name = -1;
    pr.line = line;
    if (parent >= 0) {
        pr.depth = USD_PRIM(d, parent)->depth + 1;
        pr.in_class = USD_PRIM(d, parent)->in_class;
    }
    long off = sni_buf_push(&d->prims, &pr, sizeof pr);
    if (off < 0) return sni_usd_fail(d, line, SN_ERR_NOMEM, "", "out of memory"), -1;
    int id = (int)(off / (long)sizeof pr);
    if (parent >= 0) {
        sni_usd_prim* up = USD_PRIM(d, parent);
        if (up->last >= 0)
            USD_PRIM(d, up->last)->next = id;
        else
            up->first = id;
        up->last = id;
    }
    return id;
}

// def|over|class [Type] "name" [( metadata )] { body }
static sn_status prim_def(parse* p, int parent) {
    sni_usd_doc* d = p->d;
    int line = TK(p)->line;
    int spec = sni_usd_tok_is(d, p->i, "def") ? 0 : sni_usd_tok_is(d, p->i, "over") ? 1 : 2;
    p->i++;
    int type = -1;
    if (TK(p)->kind == UT_IDENT) type = p->i++;
    if (TK(p)->kind != UT_STR)
        return sni_usd_fail(d, TK(p)->line, SN_ERR_PARSE, "prim", "a prim needs a quoted name");
    int name = p->i++;
    const sni_usd_tok* nt = USD_TOK(d, name);
    if (nt->n == 0)
        return sni_usd_fail(d, nt->line, SN_ERR_PARSE, "prim", "a prim's name is empty");
    for (int k = 0; k < nt->n; k++)
        if (!is_word(nt->s[k]) || nt->s[k] == ':' || nt->s[k] == '.')
            return sni_usd_fail(d, nt->line, SN_ERR_PARSE, "prim",
                                "the prim name \"%.*s\" is not an identifier", nt->n, nt->s);
    if (USD_PRIM(d, parent)->depth >= SNI_USD_MAX_DEPTH)
        return sni_usd_fail(d, line, SN_ERR_LIMIT, "prim", "prims nested deeper than %d",
                            SNI_USD_MAX_DEPTH);
    int id = new_prim(d, parent, line);
    if (id < 0) return d->st;
    sni_usd_prim* pr = USD_PRIM(d, id);
    pr->specifier = spec;
    pr->type = type;
    pr->name = name;
    if (spec != 0) pr->in_class = 1; // a class or an over defines nothing on the stage
    char where[160];
    sni_usd_path(d, id, where, sizeof where);
    if (is_punct(d, p->i, '(') && metadata(p, id, 0, where) != SN_OK) return d->st;
    if (expect(p, '{', where) != SN_OK) return d->st;
    return prim_body(p, id);
}

static const char* const QUALIFIERS[] = {"custom", "uniform", "config", "varying", NULL};

// a property: [custom] [uniform] type[[]] name[.field] [= value] [( metadata )], or rel
static sn_status property(parse* p, int prim) {
    sni_usd_doc* d = p->d;
    sni_usd_prop pp;
    memset(&pp, 0, sizeof pp);
    pp.next = -1;
    pp.prim = prim;
    pp.line = TK(p)->line;
    while (word_in(d, p->i, QUALIFIERS) || word_in(d, p->i, LISTOPS)) {
        if (sni_usd_tok_is(d, p->i, "uniform")) pp.uniform = 1;
        p->i++;
    }
    char where[160];
    sni_usd_path(d, prim, where, sizeof where);
    if (TK(p)->kind != UT_IDENT) {
        char got[48];
        return sni_usd_fail(d, TK(p)->line, SN_ERR_PARSE, where,
                            "expected a property or a prim, found '%s'",
                            sni_usd_tok_str(d, p->i, got, sizeof got));
    }
    pp.type = p->i++;
    if (is_punct(d, p->i, '[')) {
        p->i++;
        if (expect(p, ']', where) != SN_OK) return d->st;
        pp.is_array = 1;
    }
    if (TK(p)->kind != UT_IDENT)
        return sni_usd_fail(d, TK(p)->line, SN_ERR_PARSE, where, "a property needs a name");
    pp.name = p->i++;
    const sni_usd_tok* nt = USD_TOK(d, pp.name);
    const char* dot = memchr(nt->s, '.', (size_t)nt->n);
    int field = dot != NULL; // name.timeSamples, name.connect, name.spline: not a default value
    if (is_punct(d, p->i, '=')) {
        p->i++;
        pp.v0 = p->i;
        if (sni_usd_tok_is(d, p->i, "None"))
            p->i++;
        else if (skip_value(p, where) != SN_OK)
            return d->st;
        pp.v1 = p->i;
    } else {
        pp.v0 = pp.v1 = p->i;
    }
    if (is_punct(d, p->i, '(') && metadata(p, prim, 1, where) != SN_OK) return d->st;
    if (field) return SN_OK;
    long off = sni_buf_push(&d->props, &pp, sizeof pp);
    if (off < 0) return sni_usd_fail(d, pp.line, SN_ERR_NOMEM, "", "out of memory");
    int id = (int)(off / (long)sizeof pp);
    sni_usd_prim* pr = USD_PRIM(d, prim);
    if (pr->prop_last >= 0)
        ((sni_usd_prop*)d->props.data + pr->prop_last)->next = id;
    else
        pr->prop_first = id;
    pr->prop_last = id;
    return SN_OK;
}

static sn_status prim_body(parse* p, int prim) {
    sni_usd_doc* d = p->d;
    while (d->st == SN_OK) {
        const sni_usd_tok* t = TK(p);
        if (t->kind == UT_END) {
            char where[160];
            return sni_usd_fail(d, USD_PRIM(d, prim)->line, SN_ERR_PARSE,
                                sni_usd_path(d, prim, where, sizeof where),
                                "the prim's '{' is not closed");
        }
        if (is_punct(d, p->i, '}')) {
            p->i++;
            return SN_OK;
        }
        if (is_punct(d, p->i, ';')) {
            p->i++;
        } else if (sni_usd_tok_is(d, p->i, "def") || sni_usd_tok_is(d, p->i, "over") ||
                   sni_usd_tok_is(d, p->i, "class")) {
            if (prim_def(p, prim) != SN_OK) return d->st;
        } else if (sni_usd_tok_is(d, p->i, "variantSet")) {
            char where[160];
            return sni_usd_fail(d, t->line, SN_ERR_MODEL,
                                sni_usd_path(d, prim, where, sizeof where),
                                "variant sets are not read: sinew reads one flattened layer "
                                "(usdcat --flatten writes one)");
        } else if (sni_usd_tok_is(d, p->i, "reorder")) {
            p->i++;
            if (TK(p)->kind == UT_IDENT) p->i++;
            if (expect(p, '=', "reorder") != SN_OK || skip_value(p, "reorder") != SN_OK)
                return d->st;
        } else if (property(p, prim) != SN_OK) {
            return d->st;
        }
    }
    return d->st;
}

sn_status sni_usd_parse(sni_usd_doc* d, const char* text, size_t len, const sn_allocator* a,
                        const char* file, sn_error* err) {
    memset(d, 0, sizeof *d);
    d->a = a;
    d->file = file;
    d->err = err;
    d->toks.alloc = d->prims.alloc = d->props.alloc = a;
    d->meters_per_unit = d->kilograms_per_unit = 1;
    d->up_axis = 2;
    if (len >= 8 && !memcmp(text, "PXR-USDC", 8))
        return sni_usd_fail(d, 0, SN_ERR_PARSE, "",
                            "a binary USD layer (usdc): sinew reads the text form; convert it "
                            "with usdcat --flatten -o robot.usda");
    if (len >= 4 && !memcmp(text, "PK\003\004", 4))
        return sni_usd_fail(d, 0, SN_ERR_PARSE, "",
                            "a USDZ package (zip): sinew reads the text form; unpack it and "
                            "convert its layer with usdcat --flatten -o robot.usda");
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) { // a UTF-8 byte-order mark
        text += 3;
        len -= 3;
    }
    if (len < 5 || memcmp(text, "#usda", 5))
        return sni_usd_fail(d, 1, SN_ERR_PARSE, "", "a USD text layer starts with '#usda 1.0'");
    const char* nul = memchr(text, 0, len);
    if (nul) {
        int line = 1;
        for (const char* c = text; c < nul; c++)
            line += *c == '\n';
        return sni_usd_fail(d, line, SN_ERR_PARSE, "", "the input contains a NUL byte");
    }
    if (lex(d, text, len) != SN_OK) return d->st;
    if (new_prim(d, -1, 1) < 0) return d->st; // the pseudo-root "/"
    parse p = {d, 0};
    if (is_punct(d, 0, '(') && metadata(&p, -1, 0, "layer") != SN_OK) return d->st;
    while (d->st == SN_OK && USD_TOK(d, p.i)->kind != UT_END) {
        if (sni_usd_tok_is(d, p.i, "def") || sni_usd_tok_is(d, p.i, "over") ||
            sni_usd_tok_is(d, p.i, "class")) {
            prim_def(&p, 0);
        } else {
            char got[48];
            sni_usd_fail(d, USD_TOK(d, p.i)->line, SN_ERR_PARSE, "layer",
                         "expected 'def', 'over' or 'class', found '%s'",
                         sni_usd_tok_str(d, p.i, got, sizeof got));
        }
    }
    if (d->st == SN_OK && (d->toks.failed || d->prims.failed || d->props.failed))
        sni_usd_fail(d, 0, SN_ERR_NOMEM, "", "out of memory");
    if (d->st == SN_OK) build_index(d);
    return d->st;
}

void sni_usd_free(sni_usd_doc* d) {
    if (d->index) sni_free(d->a, d->index, d->index_cap * sizeof(int));
    d->index = NULL;
    sni_buf_free(&d->toks);
    sni_buf_free(&d->prims);
    sni_buf_free(&d->props);
}

// ---- paths ----

const char* sni_usd_path(const sni_usd_doc* d, int prim, char* buf, size_t cap) {
    int chain[SNI_USD_MAX_DEPTH + 2], n = 0;
    for (int k = prim; k > 0 && n < SNI_USD_MAX_DEPTH + 2; k = USD_PRIM(d, k)->parent)
        chain[n++] = k;
    size_t o = 0;
    buf[0] = 0;
    if (n == 0) snprintf(buf, cap, "/");
    for (int i = n - 1; i >= 0 && o + 1 < cap; i--) {
        const sni_usd_tok* t = USD_TOK(d, USD_PRIM(d, chain[i])->name);
        int w = snprintf(buf + o, cap - o, "/%.*s", t->n, t->s);
        if (w < 0) break;
        o += (size_t)w;
    }
    return buf;
}

static size_t child_hash(int parent, const char* name, size_t n) {
    unsigned long long h = 1469598103934665603ull ^ (unsigned long long)(unsigned)parent;
    for (size_t k = 0; k < n; k++)
        h = (h ^ (unsigned char)name[k]) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}

// every prim by its parent and name, for the lookups of relationship targets
static sn_status build_index(sni_usd_doc* d) {
    int n = USD_NPRIM(d);
    size_t cap = 16;
    while (cap < 2 * (size_t)n)
        cap *= 2;
    d->index = sni_alloc(d->a, cap * sizeof(int));
    if (!d->index) return sni_usd_fail(d, 0, SN_ERR_NOMEM, "", "out of memory");
    d->index_cap = cap;
    for (size_t k = 0; k < cap; k++)
        d->index[k] = -1;
    for (int i = 1; i < n; i++) {
        const sni_usd_tok* t = USD_TOK(d, USD_PRIM(d, i)->name);
        size_t k = child_hash(USD_PRIM(d, i)->parent, t->s, (size_t)t->n) & (cap - 1);
        while (d->index[k] >= 0) {
            int o = d->index[k];
            const sni_usd_tok* u = USD_TOK(d, USD_PRIM(d, o)->name);
            if (USD_PRIM(d, o)->parent == USD_PRIM(d, i)->parent && u->n == t->n &&
                !memcmp(u->s, t->s, (size_t)t->n)) {
                char where[160];
                return sni_usd_fail(
                    d, USD_PRIM(d, i)->line, SN_ERR_MODEL, sni_usd_path(d, i, where, sizeof where),
                    "a second prim of this path (the first at line %d)", USD_PRIM(d, o)->line);
            }
            k = (k + 1) & (cap - 1);
        }
        d->index[k] = i;
    }
    return SN_OK;
}

// the child of `parent` named name[0..len), the first in the file when several share it; -1
static int child_named(const sni_usd_doc* d, int parent, const char* name, int len) {
    if (!d->index) return -1;
    size_t k = child_hash(parent, name, (size_t)len) & (d->index_cap - 1);
    int best = -1;
    for (; d->index[k] >= 0; k = (k + 1) & (d->index_cap - 1)) {
        int c = d->index[k];
        const sni_usd_tok* t = USD_TOK(d, USD_PRIM(d, c)->name);
        if (USD_PRIM(d, c)->parent == parent && t->n == len && !memcmp(t->s, name, (size_t)len) &&
            (best < 0 || c < best))
            best = c;
    }
    return best;
}

int sni_usd_find(const sni_usd_doc* d, int from, const char* path, int n) {
    int at = from, i = 0;
    if (n > 0 && path[0] == '/') {
        at = 0;
        i = 1;
    }
    while (i < n && at >= 0) {
        int k = i;
        while (k < n && path[k] != '/')
            k++;
        int len = k - i;
        if (len == 2 && !memcmp(path + i, "..", 2)) {
            at = at > 0 ? USD_PRIM(d, at)->parent : -1;
        } else if (len == 1 && path[i] == '.') {
        } else if (len > 0) {
            at = child_named(d, at, path + i, len);
        }
        i = k + 1;
    }
    return at;
}

int sni_usd_prop_find(const sni_usd_doc* d, int prim, const char* name) {
    for (int k = USD_PRIM(d, prim)->prop_first; k >= 0; k = USD_PROP(d, k)->next)
        if (sni_usd_tok_is(d, USD_PROP(d, k)->name, name)) return k;
    return -1;
}

// ---- values ----

static int value_fail(sni_usd_doc* d, int prop, const char* fmt, const char* what) {
    char name[96];
    const sni_usd_prop* pp = USD_PROP(d, prop);
    sni_usd_tok_str(d, pp->name, name, sizeof name);
    sni_usd_fail(d, pp->line, SN_ERR_MODEL, name, fmt, what);
    return -1;
}

// one number token (inf, -inf accepted), 0 when it is not a number
static int number(const sni_usd_doc* d, int i, sn_real* v) {
    const sni_usd_tok* t = USD_TOK(d, i);
    if (t->kind == UT_IDENT) {
        if (sni_usd_tok_is(d, i, "inf") || sni_usd_tok_is(d, i, "+inf")) {
            *v = (sn_real)INFINITY;
            return 1;
        }
        if (sni_usd_tok_is(d, i, "-inf")) {
            *v = -(sn_real)INFINITY;
            return 1;
        }
        return 0;
    }
    if (t->kind != UT_NUM || t->n >= 64) return 0;
    char buf[64];
    sni_num_result r = sni_parse_reals(sni_usd_tok_str(d, i, buf, sizeof buf), v, 1);
    return r == SNI_NUM_OK || r == SNI_NUM_UNDERFLOW;
}

// the numbers of tokens [v0, v1) inside brackets and commas, up to cap; -1 on a stray token
static int numbers(const sni_usd_doc* d, int v0, int v1, sn_real* out, int cap, int* count) {
    *count = 0;
    for (int k = v0; k < v1; k++) {
        const sni_usd_tok* t = USD_TOK(d, k);
        if (t->kind == UT_PUNCT && strchr("()[],", t->s[0])) continue;
        sn_real v;
        if (!number(d, k, &v)) return -1;
        if (*count < cap) out[*count] = v;
        (*count)++;
    }
    return 0;
}

int sni_usd_reals(sni_usd_doc* d, int prop, sn_real* out, int n) {
    const sni_usd_prop* pp = USD_PROP(d, prop);
    if (pp->v0 == pp->v1 || sni_usd_tok_is(d, pp->v0, "None")) return 0;
    int count;
    if (numbers(d, pp->v0, pp->v1, out, n, &count) < 0)
        return value_fail(d, prop, "%s", "the value is not a number or a tuple of numbers");
    if (count != n) {
        char want[64];
        snprintf(want, sizeof want, "the value needs %d number%s, it has %d", n, n > 1 ? "s" : "",
                 count);
        return value_fail(d, prop, "%s", want);
    }
    for (int k = 0; k < n; k++)
        if (isnan(out[k])) return value_fail(d, prop, "%s", "the value is not a number");
    return 1;
}

int sni_usd_real_array(sni_usd_doc* d, int prop, int w, sn_real* out, int cap, int* count) {
    const sni_usd_prop* pp = USD_PROP(d, prop);
    *count = 0;
    if (pp->v0 == pp->v1 || sni_usd_tok_is(d, pp->v0, "None")) return 0;
    int n;
    if (numbers(d, pp->v0, pp->v1, out, cap * w, &n) < 0 || n % w)
        return value_fail(d, prop, "%s", "the value is not an array of numbers");
    *count = n / w;
    return 1;
}

int sni_usd_token(sni_usd_doc* d, int prop, char* buf, size_t cap) {
    const sni_usd_prop* pp = USD_PROP(d, prop);
    if (pp->v0 == pp->v1 || sni_usd_tok_is(d, pp->v0, "None")) return 0;
    if (pp->v1 - pp->v0 != 1 || USD_TOK(d, pp->v0)->kind != UT_STR)
        return value_fail(d, prop, "%s", "the value is not a quoted token");
    sni_usd_tok_str(d, pp->v0, buf, cap);
    return 1;
}

int sni_usd_bool(sni_usd_doc* d, int prop, int* out) {
    const sni_usd_prop* pp = USD_PROP(d, prop);
    if (pp->v0 == pp->v1 || sni_usd_tok_is(d, pp->v0, "None")) return 0;
    if (pp->v1 - pp->v0 == 1) {
        if (sni_usd_tok_is(d, pp->v0, "true") || sni_usd_tok_is(d, pp->v0, "1")) {
            *out = 1;
            return 1;
        }
        if (sni_usd_tok_is(d, pp->v0, "false") || sni_usd_tok_is(d, pp->v0, "0")) {
            *out = 0;
            return 1;
        }
    }
    return value_fail(d, prop, "%s", "the value is not true or false");
}

int sni_usd_rel(sni_usd_doc* d, int prop, int* target, int* path_tok) {
    const sni_usd_prop* pp = USD_PROP(d, prop);
    *target = -1;
    *path_tok = -1;
    if (pp->v0 == pp->v1 || sni_usd_tok_is(d, pp->v0, "None")) return 0;
    int found = -1, n = 0;
    for (int k = pp->v0; k < pp->v1; k++) {
        const sni_usd_tok* t = USD_TOK(d, k);
        if (t->kind == UT_PUNCT && strchr("[],", t->s[0])) continue;
        if (t->kind != UT_PATH) return value_fail(d, prop, "%s", "the target is not a path <...>");
        found = k;
        n++;
    }
    if (n == 0) return 0;
    if (n > 1)
        return value_fail(d, prop, "%s", "the relationship has several targets, one is read");
    // a relative path starts at the prim that owns the property
    const sni_usd_tok* t = USD_TOK(d, found);
    *path_tok = found;
    *target = sni_usd_find(d, pp->prim, t->s, t->n);
    return 1;
}

int sni_usd_token_array(sni_usd_doc* d, int prop, int* out, int cap, int* count) {
    const sni_usd_prop* pp = USD_PROP(d, prop);
    *count = 0;
    if (pp->v0 == pp->v1 || sni_usd_tok_is(d, pp->v0, "None")) return 0;
    for (int k = pp->v0; k < pp->v1; k++) {
        const sni_usd_tok* t = USD_TOK(d, k);
        if (t->kind == UT_PUNCT && strchr("[],", t->s[0])) continue;
        if (t->kind != UT_STR)
            return value_fail(d, prop, "%s", "the value is not an array of tokens");
        if (*count >= cap) return value_fail(d, prop, "%s", "the array is too long");
        out[(*count)++] = k;
    }
    return 1;
}
