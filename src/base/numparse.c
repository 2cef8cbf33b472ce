// SPDX-License-Identifier: Apache-2.0
// numparse.c: locale-independent parsing of decimal numbers for the model loaders.
// Accepted: [+-]digits[.digits][(e|E)[+-]digits]. Rejected: nan, inf, hex floats, "1,5",
// "1.0.0", a lone sign, trailing garbage. strtod does the rounding; the text is first checked
// against the grammar above, and '.' is replaced by the locale's decimal point so that a host
// program's setlocale() cannot change the result.
#include "base/base.h"

#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

// length of a number token matching the grammar at s, 0 if none
static size_t scan_number(const char* s) {
    size_t i = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-') i++;
    while (is_digit(s[i]))
        i++, digits++;
    if (s[i] == '.') {
        i++;
        while (is_digit(s[i]))
            i++, digits++;
    }
    if (digits == 0) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1, edigits = 0;
        if (s[j] == '+' || s[j] == '-') j++;
        while (is_digit(s[j]))
            j++, edigits++;
        if (edigits == 0) return 0;
        i = j;
    }
    return i;
}

// convert one token of length n (it matches the grammar, so strtod reads exactly n characters)
static sni_num_result convert(const char* s, size_t n, sn_real* out) {
    char buf[128];
    const char* dp = localeconv()->decimal_point;
    size_t dl = strlen(dp), k = 0;
    const char* text = s;
    if (!(dl == 1 && dp[0] == '.')) {
        // another decimal point in the C locale of the host program: translate a copy
        for (size_t i = 0; i < n; i++) {
            if (k + dl + 1 >= sizeof buf) return SNI_NUM_BAD; // over 100 digits, in such a locale
            if (s[i] == '.') {
                memcpy(buf + k, dp, dl);
                k += dl;
            } else {
                buf[k++] = s[i];
            }
        }
        buf[k] = 0;
        text = buf;
        n = k;
    }
    errno = 0;
    char* end = NULL;
    double v = strtod(text, &end);
    if (end != text + n) return SNI_NUM_BAD;
    if (errno == ERANGE) {
        if (fabs(v) > 1.0) return SNI_NUM_OVERFLOW;
        *out = v;
        return SNI_NUM_UNDERFLOW;
    }
    if (!isfinite(v)) return SNI_NUM_OVERFLOW;
    if (v != 0 && fabs(v) < DBL_MIN) {
        *out = v;
        return SNI_NUM_UNDERFLOW;
    }
    *out = v;
    return SNI_NUM_OK;
}

sni_num_result sni_parse_real_list(const char* s, sn_real* out, int nmax, int* count) {
    int n = 0;
    sni_num_result worst = SNI_NUM_OK;
    *count = 0;
    if (!s) return SNI_NUM_EMPTY;
    for (;;) {
        while (is_space(*s))
            s++;
        if (!*s) break;
        size_t len = scan_number(s);
        if (len == 0) return SNI_NUM_BAD;
        char next = s[len];
        if (next && !is_space(next)) return SNI_NUM_BAD;
        if (n >= nmax) return SNI_NUM_COUNT;
        sn_real v = 0;
        sni_num_result r = convert(s, len, &v);
        if (r != SNI_NUM_OK && r != SNI_NUM_UNDERFLOW) return r;
        if (r == SNI_NUM_UNDERFLOW) worst = r;
        out[n++] = v;
        s += len;
    }
    *count = n;
    if (n == 0) return SNI_NUM_EMPTY;
    return worst;
}

sni_num_result sni_parse_reals(const char* s, sn_real* out, int n) {
    int count = 0;
    sn_real tmp[16];
    if (n > 16) return SNI_NUM_COUNT;
    sni_num_result r = sni_parse_real_list(s, tmp, n, &count);
    if (r == SNI_NUM_COUNT) return r;
    if (r != SNI_NUM_OK && r != SNI_NUM_UNDERFLOW) return r;
    if (count != n) return SNI_NUM_COUNT;
    memcpy(out, tmp, (size_t)n * sizeof(sn_real));
    return r;
}

const char* sni_num_result_str(sni_num_result r) {
    switch (r) {
    case SNI_NUM_OK:
        return "ok";
    case SNI_NUM_EMPTY:
        return "is empty";
    case SNI_NUM_BAD:
        return "is not a decimal number";
    case SNI_NUM_OVERFLOW:
        return "is too large (or not finite)";
    case SNI_NUM_UNDERFLOW:
        return "underflows to zero or a denormal";
    case SNI_NUM_COUNT:
        return "has the wrong number of components";
    }
    return "?";
}
