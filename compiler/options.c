/* SPDX-License-Identifier: MIT */
/*
 * The options of OpenCL 3.0 §5.8.6 (build and compile) and §5.8.7 (link).
 * Everything not listed there is refused: a typo must not be silently lost.
 */
#include "options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COMPILE = 1, LINK = 2 };

/* Flags without a value: which entries accept them, what they set, and whether Clang sees them. */
static const struct flag {
    const char *name;
    unsigned where;
    size_t field; /* offset of the bool in struct lanes_options */
    bool to_clang;
} flags[] = {
#define F(name, where, field, to_clang)                                                            \
    {                                                                                              \
        name, where, offsetof(struct lanes_options, field), to_clang                               \
    }
    F("-cl-single-precision-constant", COMPILE, single_precision_constant, true),
    F("-cl-denorms-are-zero", COMPILE | LINK, denorms_are_zero, true),
    F("-cl-fp32-correctly-rounded-divide-sqrt", COMPILE, fp32_correctly_rounded_divide_sqrt, true),
    F("-cl-opt-disable", COMPILE, opt_disable, true),
    F("-cl-mad-enable", COMPILE, mad_enable, true),
    F("-cl-no-signed-zeros", COMPILE | LINK, no_signed_zeros, true),
    F("-cl-unsafe-math-optimizations", COMPILE | LINK, unsafe_math, true),
    F("-cl-finite-math-only", COMPILE | LINK, finite_math_only, true),
    F("-cl-fast-relaxed-math", COMPILE | LINK, fast_relaxed_math, true),
    F("-cl-uniform-work-group-size", COMPILE, uniform_work_group_size, true),
    F("-cl-no-subgroup-ifp", COMPILE | LINK, no_subgroup_ifp, false),
    F("-cl-kernel-arg-info", COMPILE, kernel_arg_info, false),
    /* OpenCL 1.0, deprecated since 1.1; other drivers accept and ignore it, so does Lanes. */
    F("-cl-strict-aliasing", COMPILE, strict_aliasing, false),
    F("-g", COMPILE, debug_info, false),
    F("-create-library", LINK, create_library, false),
    F("-enable-link-options", LINK, enable_link_options, false),
#undef F
};

static void set_error(struct lanes_options *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(o->error);
    o->error = strdup(buf);
}

static int add_arg(struct lanes_options *o, const char *a)
{
    char **grown = realloc(o->clang_args, (o->num_clang_args + 1) * sizeof *grown);
    if (!grown)
        return -1;
    o->clang_args = grown;
    if (!(grown[o->num_clang_args] = strdup(a)))
        return -1;
    o->num_clang_args++;
    return 0;
}

/*
 * Splits `text` into words at blanks; double quotes group (for paths with
 * spaces) and are removed. Returns a NULL-terminated array, or NULL.
 */
static char **split_words(const char *text, size_t *count)
{
    size_t cap = 8, n = 0;
    char **words = malloc(cap * sizeof *words);
    const char *p = text ? text : "";
    while (words) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        char *w = malloc(strlen(p) + 1), *q = w;
        if (!w)
            goto fail;
        bool quoted = false;
        for (; *p && (quoted || !strchr(" \t\n\r", *p)); p++)
            if (*p == '"')
                quoted = !quoted;
            else
                *q++ = *p;
        *q = '\0';
        if (n + 1 >= cap) {
            char **grown = realloc(words, (cap *= 2) * sizeof *words);
            if (!grown) {
                free(w);
                goto fail;
            }
            words = grown;
        }
        words[n++] = w;
    }
    if (words)
        words[n] = NULL;
    *count = n;
    return words;
fail:
    for (size_t i = 0; i < n; i++)
        free(words[i]);
    free(words);
    return NULL;
}

/* -cl-std=CLx.y: accepted when the device lists OpenCL C x.y. */
static int parse_std(const char *value, const cl_name_version *versions, size_t num_versions,
                     struct lanes_options *o)
{
    unsigned major, minor;
    char end;
    if (sscanf(value, "CL%u.%u%c", &major, &minor, &end) != 2) {
        set_error(o, "-cl-std=%s: not of the form CLx.y", value);
        return -1;
    }
    for (size_t i = 0; i < num_versions; i++) {
        if (CL_VERSION_MAJOR(versions[i].version) == major &&
            CL_VERSION_MINOR(versions[i].version) == minor) {
            o->cl_std = CL_MAKE_VERSION(major, minor, 0);
            char arg[32];
            snprintf(arg, sizeof arg, "-cl-std=CL%u.%u", major, minor);
            return add_arg(o, arg);
        }
    }
    set_error(o, "-cl-std=%s: OpenCL C %u.%u is not supported by the device", value, major, minor);
    return -1;
}

int lanes_options_parse(const char *text, enum lanes_options_kind kind,
                        const cl_name_version *versions, size_t num_versions,
                        struct lanes_options *o)
{
    memset(o, 0, sizeof *o);
    unsigned accepted = kind == LANES_OPTIONS_COMPILE ? COMPILE
                        : kind == LANES_OPTIONS_LINK  ? LINK
                                                      : COMPILE | LINK;
    size_t n;
    char **words = split_words(text, &n);
    int rc = -1;
    if (!words) {
        set_error(o, "out of host memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const char *w = words[i];
        const struct flag *f = NULL;
        for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
            if (strcmp(w, flags[k].name) == 0 && (flags[k].where & accepted))
                f = &flags[k];
        if (f) {
            *(bool *)((char *)o + f->field) = true;
            /*
             * Clang's cc1 knows -cl-denorms-are-zero only through its driver, as
             * single-precision denormals that may be flushed (OpenCL allows, not
             * requires, the flush).
             */
            if (f->to_clang && strcmp(w, "-cl-denorms-are-zero") == 0) {
                if (add_arg(o, "-fdenormal-fp-math-f32=preserve-sign"))
                    goto oom;
            } else if (f->to_clang && add_arg(o, w)) {
                goto oom;
            }
            continue;
        }
        if ((accepted & COMPILE) && (w[0] == '-' && (w[1] == 'D' || w[1] == 'I'))) {
            /* -D name[=value] and -I dir, the value attached or as the next word */
            const char *value = w[2] ? w + 2 : (i + 1 < n ? words[++i] : NULL);
            if (!value || !*value) {
                set_error(o, "%s: missing its argument", w);
                goto out;
            }
            char opt[3] = {'-', w[1], '\0'};
            if (add_arg(o, opt) || add_arg(o, value))
                goto oom;
            continue;
        }
        if ((accepted & COMPILE) && (strcmp(w, "-w") == 0 || strcmp(w, "-Werror") == 0)) {
            if (add_arg(o, w))
                goto oom;
            continue;
        }
        if ((accepted & COMPILE) && strncmp(w, "-cl-std=", 8) == 0) {
            if (parse_std(w + 8, versions, num_versions, o))
                goto out;
            continue;
        }
        set_error(o, "%s: unknown option", w);
        goto out;
    }
    /* The fast-relaxed-math family implies its parts (OpenCL 3.0 §5.8.6.4). */
    if (o->fast_relaxed_math)
        o->finite_math_only = o->unsafe_math = true;
    if (o->unsafe_math)
        o->no_signed_zeros = o->mad_enable = true;
    /* Without -cl-std=, OpenCL C 1.2 (the highest 1.x the device accepts). */
    if (!o->cl_std && (accepted & COMPILE)) {
        o->cl_std = CL_MAKE_VERSION(1, 2, 0);
        if (add_arg(o, "-cl-std=CL1.2"))
            goto oom;
    }
    rc = 0;
    goto out;
oom:
    set_error(o, "out of host memory");
out:
    for (size_t i = 0; i < n; i++)
        free(words[i]);
    free(words);
    return rc;
}

void lanes_options_free(struct lanes_options *o)
{
    for (size_t i = 0; i < o->num_clang_args; i++)
        free(o->clang_args[i]);
    free(o->clang_args);
    free(o->error);
    memset(o, 0, sizeof *o);
}
