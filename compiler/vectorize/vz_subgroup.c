/* SPDX-License-Identifier: MIT */
/*
 * Which sub-group functions have a vector form, and its signature
 * (builtins/subgroup/subgroup.cl says how the forms are written): the
 * vectorizer's whole knowledge of them. Their semantics live in the
 * library, not here.
 */
#include "vz.h"

#include "../names.h"

#include <stdio.h>
#include <string.h>

/* Base names: exact, or a prefix when `prefix`; params: one letter per operand. */
static const struct {
    const char *base;
    bool prefix;
    struct vz_sg_form form;
} forms[] = {
    {"sub_group_all", false, {'u', "v"}},
    {"sub_group_any", false, {'u', "v"}},
    {"sub_group_broadcast", false, {'u', "vu"}},
    {"sub_group_reduce_", true, {'u', "v"}},
    {"sub_group_scan_inclusive_", true, {'v', "v"}},
    {"sub_group_scan_exclusive_", true, {'v', "v"}},
};

/* The identifier of mangled `name` and what follows it (the parameter types). */
static bool split_mangled(const char *name, const char **base, size_t *n, const char **params)
{
    if (!(*base = lanes_mangled_identifier(name, strlen(name), n)))
        return false;
    *params = *base + *n;
    return true;
}

bool vz_sg_form(const char *name, struct vz_sg_form *form)
{
    const char *base, *params;
    size_t n;
    if (!split_mangled(name, &base, &n, &params))
        return false;
    for (size_t k = 0; k < sizeof forms / sizeof *forms; k++) {
        size_t len = strlen(forms[k].base);
        if (forms[k].prefix ? n > len && memcmp(base, forms[k].base, len) == 0
                            : n == len && memcmp(base, forms[k].base, len) == 0) {
            *form = forms[k].form;
            return true;
        }
    }
    return false;
}

bool vz_sg_form_name(const char *name, unsigned w, char *out, size_t size)
{
    const char *base, *params;
    size_t n;
    if (!split_mangled(name, &base, &n, &params))
        return false;
    int len = snprintf(out, size, "__lanes_sg%u_%.*s_%s", w, (int)n, base, params);
    return len > 0 && (size_t)len < size;
}

bool vz_sg_function(const char *name)
{
    return lanes_name_deferred(name, strlen(name));
}
