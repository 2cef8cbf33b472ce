// SPDX-License-Identifier: Apache-2.0
// load.c: a model file read by its content (sn_setup.h). The first element of the document names
// the format: <mujoco> is MJCF, <robot> is URDF; a '#usda' header is USD's text form (and USD's
// binary headers are USD's, for its reader to refuse). A new format plugs in here.
#include "base/base.h"
#include "sinew/sn_setup.h"

#include <stdio.h>
#include <string.h>

#define SNIFF_BYTES 65536 // enough for a long licence comment before the root element

// the name of the first element of an XML document in buf (n bytes): skips a byte-order mark,
// the declaration, processing instructions, comments and the doctype; "" when there is none
static void root_element(const char* buf, size_t n, char* name, size_t cap) {
    size_t i = 0;
    name[0] = 0;
    if (n >= 3 && (unsigned char)buf[0] == 0xef && (unsigned char)buf[1] == 0xbb &&
        (unsigned char)buf[2] == 0xbf)
        i = 3;
    while (i < n) {
        if (buf[i] != '<') {
            i++;
            continue;
        }
        if (i + 1 < n && (buf[i + 1] == '?' || buf[i + 1] == '!')) {
            // a declaration, processing instruction, doctype or comment: to its end
            const char* end =
                i + 3 < n && buf[i + 1] == '!' && buf[i + 2] == '-' && buf[i + 3] == '-' ? "-->"
                                                                                         : ">";
            const char* hit = NULL;
            for (size_t k = i + 2; k + strlen(end) <= n && !hit; k++)
                if (!strncmp(buf + k, end, strlen(end))) hit = buf + k;
            if (!hit) return;
            i = (size_t)(hit - buf) + strlen(end);
            continue;
        }
        size_t k = 0;
        for (i++; i < n && k + 1 < cap; i++, k++) {
            char c = buf[i];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '>' || c == '/') break;
            name[k] = c;
        }
        name[k] = 0;
        return;
    }
}


sn_status sn_file_format(const char* path, sn_format* out, sn_error* err) {
    if (!path) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_file_format: path is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_file_format: out is NULL");
    if (!path || !out)
        return sni_error(err, SN_ERR_ARG, path ? path : "", 0, "",
                         "sn_file_format needs a path and an output");
    FILE* f = fopen(path, "rb");
    if (!f) return sni_error(err, SN_ERR_IO, path, 0, "", "cannot open '%s'", path);
    static const size_t cap = SNIFF_BYTES;
    char buf[SNIFF_BYTES];
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    // USD: its text form by its header, its binary forms refused by the reader with a message
    size_t bom = n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0;
    if ((n >= bom + 5 && !memcmp(buf + bom, "#usda", 5)) ||
        (n >= 8 && !memcmp(buf, "PXR-USDC", 8)) || (n >= 4 && !memcmp(buf, "PK\003\004", 4))) {
        *out = SN_FORMAT_USD;
        return SN_OK;
    }
    char name[64];
    root_element(buf, n, name, sizeof name);
    if (!strcmp(name, "mujoco")) {
        *out = SN_FORMAT_MJCF;
        return SN_OK;
    }
    if (!strcmp(name, "robot")) {
        *out = SN_FORMAT_URDF;
        return SN_OK;
    }
    if (!name[0])
        return sni_error(err, SN_ERR_PARSE, path, 0, "",
                         "no XML element in the first %zu bytes and no '#usda' header: not a "
                         "URDF, MJCF or USD file",
                         cap);
    return sni_error(err, SN_ERR_PARSE, path, 0, name,
                     "the root element is <%s>: neither URDF (<robot>) nor MJCF (<mujoco>)", name);
}


sn_status sn_load(const char* path, const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (out) *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load: path is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load: out is NULL");
    if (out) *out = NULL;
    sn_format fmt;
    sn_status st = sn_file_format(path, &fmt, err);
    if (st != SN_OK) return st;
    return fmt == SN_FORMAT_MJCF  ? sn_load_mjcf(path, opts, out, err)
           : fmt == SN_FORMAT_USD ? sn_load_usd(path, opts, out, err)
                                  : sn_load_urdf(path, opts, out, err);
}
