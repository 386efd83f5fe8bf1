/* json.h: JSON strings and numbers written exactly as `animvm --trace`
 * writes them (serde_json): strings with serde_json's escapes, numbers as
 * the shortest decimal that reads back to the same double, in serde_json's
 * layout (`0.0`, `15.625`, `1e-7`, `1.25e+307`, `-0.0`, `null` for an
 * infinity). Shared by the C test programs. */
#ifndef ANIMKIT_TEST_JSON_H
#define ANIMKIT_TEST_JSON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20) {
                fprintf(out, "\\u%04x", *p);
            } else {
                fputc(*p, out);
            }
        }
    }
    fputc('"', out);
}

/* The shortest round-trip digits of v (not 0, finite) and the exponent of
 * the first digit: v = 0.d1d2d3... * 10^(exp + 1). */
static int shortest_digits(double v, char digits[32], int *exp) {
    char buf[64];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        if (strtod(buf, NULL) == v) {
            break;
        }
    }
    /* buf: [-]d[.ddd]e[+-]xx */
    const char *q = buf;
    if (*q == '-') {
        q++;
    }
    int n = 0;
    for (; *q && *q != 'e'; q++) {
        if (*q != '.') {
            digits[n++] = *q;
        }
    }
    while (n > 1 && digits[n - 1] == '0') {
        n--;
    }
    digits[n] = 0;
    *exp = atoi(q + 1);
    return n;
}

static void json_number(FILE *out, double v) {
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    if (v == 0.0) {
        fputs(signbit(v) ? "-0.0" : "0.0", out);
        return;
    }
    if (v < 0) {
        fputc('-', out);
        v = -v;
    }
    char d[32];
    int e;
    int n = shortest_digits(v, d, &e);
    if (e >= -5 && e <= 15) {
        if (n - 1 <= e) {
            /* 1234e7 -> 12340000000.0 */
            fputs(d, out);
            for (int i = 0; i < e - (n - 1); i++) {
                fputc('0', out);
            }
            fputs(".0", out);
        } else if (e >= 0) {
            /* 1234e-2 -> 12.34 */
            fprintf(out, "%.*s.%s", e + 1, d, d + e + 1);
        } else {
            /* 1234e-6 -> 0.001234 */
            fputs("0.", out);
            for (int i = 0; i < -e - 1; i++) {
                fputc('0', out);
            }
            fputs(d, out);
        }
        return;
    }
    /* 1234e30 -> 1.234e+33 */
    fputc(d[0], out);
    if (n > 1) {
        fprintf(out, ".%s", d + 1);
    }
    fprintf(out, "e%c%d", e < 0 ? '-' : '+', e < 0 ? -e : e);
}

static void json_vector(FILE *out, const double v[3]) {
    fputc('[', out);
    for (int i = 0; i < 3; i++) {
        if (i > 0) {
            fputc(',', out);
        }
        json_number(out, v[i]);
    }
    fputc(']', out);
}

#endif
