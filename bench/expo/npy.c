// SPDX-License-Identifier: Apache-2.0
// npy.c: .npy and .npz readers (npy.h). The header dict is parsed as a small Python literal:
// quoted keys, values that are quoted strings, True/False or tuples of integers; keys other than
// descr, fortran_order and shape are refused (numpy writes no others).
#include "npy.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAX_FILE ((size_t)1 << 30) // 1 GiB: the scenario files are a few MB

static int fail(char* err, const char* name, const char* fmt, ...) {
    char msg[280];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (err) snprintf(err, EXPO_ERR_LEN, "%.220s: %s", name ? name : "(null)", msg);
    return -1;
}

void expo_array_free(expo_array* a) {
    if (!a) return;
    free(a->data);
    free(a->str);
    memset(a, 0, sizeof *a);
}

unsigned expo_crc32(const unsigned char* p, size_t n) {
    static unsigned table[256];
    static int ready = 0;
    if (!ready) {
        for (unsigned i = 0; i < 256; i++) {
            unsigned c = i;
            for (int k = 0; k < 8; k++)
                c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = 1;
    }
    unsigned c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

// ---- the header dict ----

typedef struct hdr {
    const char* s;
    size_t n, i;
} hdr;

static void skip_ws(hdr* h) {
    while (h->i < h->n && (h->s[h->i] == ' ' || h->s[h->i] == '\t' || h->s[h->i] == '\n'))
        h->i++;
}

static int eat(hdr* h, char c) {
    skip_ws(h);
    if (h->i < h->n && h->s[h->i] == c) {
        h->i++;
        return 1;
    }
    return 0;
}

// a quoted string into out (at most cap - 1 characters)
static int quoted(hdr* h, char* out, size_t cap) {
    skip_ws(h);
    if (h->i >= h->n || (h->s[h->i] != '\'' && h->s[h->i] != '"')) return -1;
    char q = h->s[h->i++];
    size_t k = 0;
    while (h->i < h->n && h->s[h->i] != q) {
        if (k + 1 >= cap) return -1;
        out[k++] = h->s[h->i++];
    }
    if (h->i >= h->n) return -1;
    h->i++;
    out[k] = 0;
    return 0;
}

static int word(hdr* h, const char* w) {
    skip_ws(h);
    size_t l = strlen(w);
    if (h->n - h->i >= l && memcmp(h->s + h->i, w, l) == 0) {
        h->i += l;
        return 1;
    }
    return 0;
}

static int shape_tuple(hdr* h, expo_array* a, const char* name, char* err) {
    if (!eat(h, '(')) return fail(err, name, "header: shape is not a tuple");
    a->ndim = 0;
    for (;;) {
        skip_ws(h);
        if (eat(h, ')')) break;
        if (h->i >= h->n || h->s[h->i] < '0' || h->s[h->i] > '9')
            return fail(err, name, "header: shape holds something other than integers");
        long v = 0;
        while (h->i < h->n && h->s[h->i] >= '0' && h->s[h->i] <= '9') {
            if (v > (LONG_MAX - 9) / 10) return fail(err, name, "header: an extent overflows");
            v = 10 * v + (h->s[h->i++] - '0');
        }
        if (a->ndim >= EXPO_NPY_MAXDIM)
            return fail(err, name, "header: more than %d dimensions", EXPO_NPY_MAXDIM);
        a->shape[a->ndim++] = v;
        if (eat(h, ',')) continue;
        if (eat(h, ')')) break;
        return fail(err, name, "header: shape tuple is malformed");
    }
    return 0;
}

static int parse_header(const char* s, size_t n, const char* name, expo_array* a, char* descr,
                        int* fortran, char* err) {
    hdr h = {s, n, 0};
    int have_descr = 0, have_fortran = 0, have_shape = 0;
    if (!eat(&h, '{')) return fail(err, name, "header is not a dict");
    for (;;) {
        if (eat(&h, '}')) break;
        char key[32];
        if (quoted(&h, key, sizeof key) != 0) return fail(err, name, "header: malformed key");
        if (!eat(&h, ':')) return fail(err, name, "header: no ':' after '%s'", key);
        if (strcmp(key, "descr") == 0) {
            if (quoted(&h, descr, 16) != 0)
                return fail(err, name, "header: descr is not a short string (structured dtype?)");
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (word(&h, "True"))
                *fortran = 1;
            else if (word(&h, "False"))
                *fortran = 0;
            else
                return fail(err, name, "header: fortran_order is neither True nor False");
            have_fortran = 1;
        } else if (strcmp(key, "shape") == 0) {
            if (shape_tuple(&h, a, name, err) != 0) return -1;
            have_shape = 1;
        } else {
            return fail(err, name, "header: unknown key '%s'", key);
        }
        if (eat(&h, ',')) continue;
        if (eat(&h, '}')) break;
        return fail(err, name, "header: expected ',' or '}' after '%s'", key);
    }
    if (!have_descr || !have_fortran || !have_shape)
        return fail(err, name, "header lacks %s",
                    !have_descr     ? "descr"
                    : !have_fortran ? "fortran_order"
                                    : "shape");
    return 0;
}

int expo_npy_parse(const unsigned char* buf, size_t len, const char* name, expo_array* out,
                   char err[EXPO_ERR_LEN]) {
    if (!out) return fail(err, name, "no output array");
    memset(out, 0, sizeof *out);
    if (!buf) return fail(err, name, "no data");
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0)
        return fail(err, name, "not a .npy file (no \\x93NUMPY magic)");
    int major = buf[6];
    size_t hl, start;
    if (major == 1) {
        hl = (size_t)buf[8] | (size_t)buf[9] << 8;
        start = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12) return fail(err, name, "truncated header");
        hl = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        start = 12;
    } else {
        return fail(err, name, "unsupported .npy version %d.%d", major, buf[7]);
    }
    if (hl > len - start)
        return fail(err, name, "truncated: header of %zu bytes, %zu left", hl, len - start);
    for (size_t i = 0; i < hl; i++)
        if (buf[start + i] == 0 || buf[start + i] > 126)
            return fail(err, name, "header holds a non-ASCII byte at %zu", start + i);
    char descr[16] = {0};
    int fortran = 0;
    if (parse_header((const char*)buf + start, hl, name, out, descr, &fortran, err) != 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    if (fortran) {
        memset(out, 0, sizeof *out);
        return fail(err, name, "Fortran order is not read (C order only)");
    }
    size_t item;
    int width = 0;
    if (strcmp(descr, "<f8") == 0) {
        item = 8;
    } else if (descr[0] == '<' && descr[1] == 'U' && descr[2] >= '1' && descr[2] <= '9') {
        char* end;
        long w = strtol(descr + 2, &end, 10);
        if (*end || w < 1 || w > 4096) {
            memset(out, 0, sizeof *out);
            return fail(err, name, "unsupported dtype '%s'", descr);
        }
        width = (int)w;
        item = 4 * (size_t)w;
    } else {
        memset(out, 0, sizeof *out);
        return fail(err, name, "unsupported dtype '%s' (read: '<f8', '<Un')", descr);
    }
    size_t count = 1;
    for (int i = 0; i < out->ndim; i++) {
        size_t e = (size_t)out->shape[i];
        if (e != 0 && count > SIZE_MAX / item / e) {
            memset(out, 0, sizeof *out);
            return fail(err, name, "shape overflows");
        }
        count *= e;
    }
    size_t body = len - start - hl;
    if (count * item != body) {
        long sh[EXPO_NPY_MAXDIM];
        memcpy(sh, out->shape, sizeof sh);
        int nd = out->ndim;
        memset(out, 0, sizeof *out);
        char s[96] = "";
        for (int i = 0; i < nd; i++)
            snprintf(s + strlen(s), sizeof s - strlen(s), "%s%ld", i ? ", " : "", sh[i]);
        return fail(err, name, "%s: shape (%s) needs %zu bytes of data, the file has %zu",
                    count * item > body ? "truncated" : "trailing bytes", s, count * item, body);
    }
    out->size = (long)count;
    const unsigned char* p = buf + start + hl;
    if (width == 0) {
        out->data = malloc(count ? count * sizeof(double) : 1);
        if (!out->data) {
            memset(out, 0, sizeof *out);
            return fail(err, name, "out of memory");
        }
        for (size_t i = 0; i < count; i++) {
            uint64_t b = 0;
            for (int k = 7; k >= 0; k--)
                b = b << 8 | p[8 * i + (size_t)k];
            memcpy(&out->data[i], &b, sizeof b);
        }
    } else {
        out->str_width = width;
        out->str = calloc(count ? count : 1, (size_t)width + 1);
        if (!out->str) {
            memset(out, 0, sizeof *out);
            return fail(err, name, "out of memory");
        }
        for (size_t i = 0; i < count; i++)
            for (int c = 0; c < width; c++) {
                const unsigned char* q = p + item * i + 4 * (size_t)c;
                uint32_t cp = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                              (uint32_t)q[3] << 24;
                if (cp > 126 || (cp != 0 && cp < 32)) {
                    expo_array_free(out);
                    return fail(err, name, "string %zu holds code point %u (ASCII only)", i,
                                (unsigned)cp);
                }
                out->str[i * ((size_t)width + 1) + (size_t)c] = (char)cp;
            }
    }
    return 0;
}

static int read_file(const char* path, unsigned char** buf, size_t* len, char* err) {
    *buf = NULL;
    *len = 0;
    if (!path) return fail(err, "(null)", "no path");
    FILE* f = fopen(path, "rb");
    if (!f) return fail(err, path, "cannot open: %s", strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return fail(err, path, "cannot seek");
    }
    long n = ftell(f);
    if (n < 0 || (size_t)n > NPY_MAX_FILE) {
        fclose(f);
        return fail(err, path, n < 0 ? "cannot tell its size" : "larger than 1 GiB");
    }
    rewind(f);
    unsigned char* b = malloc(n ? (size_t)n : 1);
    if (!b) {
        fclose(f);
        return fail(err, path, "out of memory");
    }
    if (fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        fclose(f);
        return fail(err, path, "read error");
    }
    fclose(f);
    *buf = b;
    *len = (size_t)n;
    return 0;
}

int expo_npy_read(const char* path, expo_array* out, char err[EXPO_ERR_LEN]) {
    if (out) memset(out, 0, sizeof *out);
    unsigned char* buf;
    size_t len;
    if (read_file(path, &buf, &len, err) != 0) return -1;
    int r = expo_npy_parse(buf, len, path, out, err);
    free(buf);
    return r;
}

// ---- zip ----

static unsigned rd16(const unsigned char* p) {
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}
static uint32_t rd32(const unsigned char* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const unsigned char* p) {
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static const char* method_name(unsigned m) {
    switch (m) {
    case 8:
        return "deflate (np.savez_compressed?)";
    case 9:
        return "deflate64";
    case 12:
        return "bzip2";
    case 14:
        return "lzma";
    default:
        return "an unknown method";
    }
}

// the zip64 extra field (id 1) of a central directory entry: the 8-byte values of the fields
// whose 32-bit slots hold 0xFFFFFFFF, in the order usize, csize, offset
static int zip64_fields(const unsigned char* ex, size_t exn, uint64_t* usize, uint64_t* csize,
                        uint64_t* off) {
    size_t i = 0;
    while (i + 4 <= exn) {
        unsigned id = rd16(ex + i), sz = rd16(ex + i + 2);
        if (i + 4 + sz > exn) return -1;
        if (id == 1) {
            size_t k = i + 4, end = i + 4 + sz;
            uint64_t* want[3] = {usize, csize, off};
            for (int f = 0; f < 3; f++) {
                if (*want[f] != 0xFFFFFFFFu) continue;
                if (k + 8 > end) return -1;
                *want[f] = rd64(ex + k);
                k += 8;
            }
            return 0;
        }
        i += 4 + sz;
    }
    return (*usize == 0xFFFFFFFFu || *csize == 0xFFFFFFFFu || *off == 0xFFFFFFFFu) ? -1 : 0;
}

static int npz_directory(expo_npz* z, char* err) {
    const unsigned char* b = z->buf;
    size_t n = z->len;
    const char* path = z->path;
    if (n < 22) return fail(err, path, "not a zip archive (%zu bytes)", n);
    // the end-of-central-directory record: the last "PK\5\6" whose comment reaches the end
    size_t eocd = SIZE_MAX;
    size_t lo = n > 22 + 65535 ? n - 22 - 65535 : 0;
    for (size_t i = n - 22 + 1; i-- > lo;) {
        if (rd32(b + i) == 0x06054b50u && i + 22 + rd16(b + i + 20) == n) {
            eocd = i;
            break;
        }
    }
    if (eocd == SIZE_MAX) return fail(err, path, "not a zip archive (no end of central directory)");
    uint64_t count = rd16(b + eocd + 10), cd_size = rd32(b + eocd + 12),
             cd_off = rd32(b + eocd + 16);
    if (rd16(b + eocd + 4) != 0 || rd16(b + eocd + 6) != 0)
        return fail(err, path, "multi-disk archives are not read");
    if (count == 0xFFFFu || cd_off == 0xFFFFFFFFu || cd_size == 0xFFFFFFFFu) {
        // zip64: a locator 20 bytes before, pointing at the zip64 end record
        if (eocd < 20 || rd32(b + eocd - 20) != 0x07064b50u)
            return fail(err, path, "zip64 archive without its locator");
        uint64_t r = rd64(b + eocd - 20 + 8);
        if (r > n - 56 || rd32(b + r) != 0x06064b50u)
            return fail(err, path, "zip64 end record out of the file");
        count = rd64(b + r + 32);
        cd_size = rd64(b + r + 40);
        cd_off = rd64(b + r + 48);
    }
    if (cd_off > n || cd_size > n - cd_off)
        return fail(err, path, "central directory (offset %llu, %llu bytes) beyond the file",
                    (unsigned long long)cd_off, (unsigned long long)cd_size);
    if (count > 4096) return fail(err, path, "%llu members: too many", (unsigned long long)count);
    z->member = calloc(count ? (size_t)count : 1, sizeof *z->member);
    if (!z->member) return fail(err, path, "out of memory");
    size_t p = (size_t)cd_off, end = (size_t)(cd_off + cd_size);
    for (uint64_t k = 0; k < count; k++) {
        if (p + 46 > end || rd32(b + p) != 0x02014b50u)
            return fail(err, path, "central directory entry %llu is malformed",
                        (unsigned long long)k);
        unsigned flags = rd16(b + p + 8), method = rd16(b + p + 10);
        uint32_t crc = rd32(b + p + 16);
        uint64_t csize = rd32(b + p + 20), usize = rd32(b + p + 24), loff = rd32(b + p + 42);
        size_t nl = rd16(b + p + 28), el = rd16(b + p + 30), cl = rd16(b + p + 32);
        if (p + 46 + nl + el + cl > end)
            return fail(err, path, "central directory entry %llu overruns the directory",
                        (unsigned long long)k);
        expo_npz_member* m = &z->member[k];
        if (nl == 0 || nl >= sizeof m->name)
            return fail(err, path, "member %llu has a name of %zu bytes", (unsigned long long)k,
                        nl);
        memcpy(m->name, b + p + 46, nl);
        m->name[nl] = 0;
        if (memchr(m->name, 0, nl))
            return fail(err, path, "member %llu: NUL in its name", (unsigned long long)k);
        if (zip64_fields(b + p + 46 + nl, el, &usize, &csize, &loff) != 0)
            return fail(err, path, "member %s: malformed zip64 extra field", m->name);
        if (method != 0)
            return fail(err, path,
                        "member %s is compressed with %s (method %u): only stored "
                        "members are read (write the file with np.savez, not savez_compressed)",
                        m->name, method_name(method), method);
        if (flags & 1u) return fail(err, path, "member %s is encrypted", m->name);
        if (csize != usize)
            return fail(err, path, "member %s is stored but its sizes differ (%llu, %llu)", m->name,
                        (unsigned long long)csize, (unsigned long long)usize);
        if (loff > n || n - loff < 30 || rd32(b + loff) != 0x04034b50u)
            return fail(err, path, "member %s: no local header at offset %llu", m->name,
                        (unsigned long long)loff);
        size_t lnl = rd16(b + loff + 26), lel = rd16(b + loff + 28);
        size_t data = (size_t)loff + 30 + lnl + lel;
        if (data > n || usize > n - data)
            return fail(err, path, "member %s: %llu bytes at offset %zu run past the end (%zu)",
                        m->name, (unsigned long long)usize, data, n);
        m->data_offset = data;
        m->size = (size_t)usize;
        m->crc = crc;
        z->nmember++;
        p += 46 + nl + el + cl;
    }
    return 0;
}

int expo_npz_open(const char* path, expo_npz* z, char err[EXPO_ERR_LEN]) {
    if (!z) return fail(err, path, "no archive struct");
    memset(z, 0, sizeof *z);
    if (read_file(path, &z->buf, &z->len, err) != 0) return -1;
    snprintf(z->path, sizeof z->path, "%s", path);
    if (npz_directory(z, err) != 0) {
        expo_npz_close(z);
        return -1;
    }
    return 0;
}

int expo_npz_get(const expo_npz* z, const char* name, expo_array* out, char err[EXPO_ERR_LEN]) {
    if (out) memset(out, 0, sizeof *out);
    if (!z || !z->buf || !name) return fail(err, name, "no archive or no member name");
    char want[140];
    size_t l = strlen(name);
    if (l >= 4 && strcmp(name + l - 4, ".npy") == 0)
        snprintf(want, sizeof want, "%s", name);
    else
        snprintf(want, sizeof want, "%s.npy", name);
    char label[400];
    snprintf(label, sizeof label, "%s:%s", z->path, want);
    for (int i = 0; i < z->nmember; i++) {
        const expo_npz_member* m = &z->member[i];
        if (strcmp(m->name, want) != 0) continue;
        const unsigned char* p = z->buf + m->data_offset;
        unsigned c = expo_crc32(p, m->size);
        if (c != m->crc)
            return fail(err, label, "CRC-32 %08x, the directory says %08x: the archive is corrupt",
                        c, m->crc);
        return expo_npy_parse(p, m->size, label, out, err);
    }
    return fail(err, label, "no such member (%d members)", z->nmember);
}

void expo_npz_close(expo_npz* z) {
    if (!z) return;
    free(z->buf);
    free(z->member);
    memset(z, 0, sizeof *z);
}

int expo_array_expect(const expo_array* a, const char* name, int ndim, const long* want,
                      char err[EXPO_ERR_LEN]) {
    char got[128] = "", exp[128] = "";
    int ok = a && a->data && a->ndim == ndim;
    for (int i = 0; ok && i < ndim; i++)
        if (want[i] >= 0 && a->shape[i] != want[i]) ok = 0;
    if (ok) return 0;
    if (a)
        for (int i = 0; i < a->ndim; i++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%ld", i ? ", " : "",
                     a->shape[i]);
    for (int i = 0; i < ndim; i++) {
        if (want[i] >= 0)
            snprintf(exp + strlen(exp), sizeof exp - strlen(exp), "%s%ld", i ? ", " : "", want[i]);
        else
            snprintf(exp + strlen(exp), sizeof exp - strlen(exp), "%sN", i ? ", " : "");
    }
    return fail(err, name, "%s of shape (%s), expected float64 (%s)",
                a && a->str ? "strings" : "array", got, exp);
}
