// SPDX-License-Identifier: Apache-2.0
// file.c: whole-file reading for the loaders (URDF, MJCF and its includes, mesh files). A file
// is read in one piece after its size is checked against the caller's limit, so a huge file is
// refused before any of it is read; errors name the file and never print or exit.
#include "base/base.h"

#include <stdio.h>
#include <sys/stat.h>

sn_status sni_read_file(const char* path, size_t max, const char* limit_name, const sn_allocator* a,
                        char** data, size_t* size, sn_error* err) {
    *data = NULL;
    *size = 0;
    struct stat st;
    if (stat(path, &st) != 0) return sni_error(err, SN_ERR_IO, path, 0, "", "cannot open the file");
    if (!S_ISREG(st.st_mode)) return sni_error(err, SN_ERR_IO, path, 0, "", "not a regular file");
    if ((size_t)st.st_size > max)
        return sni_error(err, SN_ERR_LIMIT, path, 0, "",
                         "file of %lld bytes exceeds the limit of %zu%s%s%s", (long long)st.st_size,
                         max, limit_name ? " (" : "", limit_name ? limit_name : "",
                         limit_name ? ")" : "");
    FILE* f = fopen(path, "rb");
    if (!f) return sni_error(err, SN_ERR_IO, path, 0, "", "cannot open the file");
    size_t n = (size_t)st.st_size;
    char* buf = sni_alloc(a, n + 1);
    if (!buf) {
        fclose(f);
        return sni_error(err, SN_ERR_NOMEM, path, 0, "", "out of memory reading %zu bytes", n);
    }
    size_t got = fread(buf, 1, n, f);
    fclose(f);
    if (got != n) {
        sni_free(a, buf, n + 1);
        return sni_error(err, SN_ERR_IO, path, 0, "", "read %zu of %zu bytes", got, n);
    }
    buf[n] = 0;
    *data = buf;
    *size = n;
    return SN_OK;
}
