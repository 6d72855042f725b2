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

/*
 * Base names: exact, or a prefix when `prefix`. `alias`: the base (or
 * prefix) of the vector form when another function's serves, as the
 * non-uniform functions take the forms of the uniform ones (the forms
 * already leave inactive lanes out).
 */
static const struct {
    const char *base;
    bool prefix;
    const char *alias;
    struct vz_sg_form form;
} forms[] = {
    {"sub_group_all", false, NULL, {'u', "b"}},
    {"sub_group_any", false, NULL, {'u', "b"}},
    {"sub_group_broadcast", false, NULL, {'u', "vu"}},
    {"sub_group_reduce_", true, NULL, {'u', "v"}},
    {"sub_group_scan_inclusive_", true, NULL, {'v', "v"}},
    {"sub_group_scan_exclusive_", true, NULL, {'v', "v"}},
    /* cl_khr_subgroup_non_uniform_vote */
    {"sub_group_elect", false, NULL, {'v', ""}},
    {"sub_group_non_uniform_all", false, "sub_group_all", {'u', "b"}},
    {"sub_group_non_uniform_any", false, "sub_group_any", {'u', "b"}},
    {"sub_group_non_uniform_all_equal", false, NULL, {'u', "v"}},
    /* cl_khr_subgroup_ballot (the rest of it is per work-item, builtins/subgroup) */
    {"sub_group_non_uniform_broadcast", false, "sub_group_broadcast", {'u', "vu"}},
    {"sub_group_broadcast_first", false, NULL, {'u', "v"}},
    {"sub_group_ballot", false, NULL, {'u', "b"}},
    /* cl_khr_subgroup_non_uniform_arithmetic */
    {"sub_group_non_uniform_reduce_", true, "sub_group_reduce_", {'u', "v"}},
    {"sub_group_non_uniform_scan_inclusive_", true, "sub_group_scan_inclusive_", {'v', "v"}},
    {"sub_group_non_uniform_scan_exclusive_", true, "sub_group_scan_exclusive_", {'v', "v"}},
    /* cl_khr_subgroup_shuffle, _shuffle_relative, _clustered_reduce and _rotate */
    {"sub_group_shuffle", false, NULL, {'v', "vv"}},
    {"sub_group_shuffle_xor", false, NULL, {'v', "vv"}},
    {"sub_group_shuffle_up", false, NULL, {'v', "vv"}},
    {"sub_group_shuffle_down", false, NULL, {'v', "vv"}},
    {"sub_group_clustered_reduce_", true, NULL, {'v', "vu"}},
    {"sub_group_rotate", false, NULL, {'v', "vu"}},
    {"sub_group_clustered_rotate", false, NULL, {'v', "vuu"}},
};

/* The identifier of mangled `name` and what follows it (the parameter types). */
static bool split_mangled(const char *name, const char **base, size_t *n, const char **params)
{
    if (!(*base = lanes_mangled_identifier(name, strlen(name), n)))
        return false;
    *params = *base + *n;
    return true;
}

/* The entry of `name` in forms[], or -1; its identifier and parameter types. */
static int lookup(const char *name, const char **base, size_t *n, const char **params)
{
    if (!split_mangled(name, base, n, params))
        return -1;
    for (size_t k = 0; k < sizeof forms / sizeof *forms; k++) {
        size_t len = strlen(forms[k].base);
        if (forms[k].prefix ? *n > len && memcmp(*base, forms[k].base, len) == 0
                            : *n == len && memcmp(*base, forms[k].base, len) == 0)
            return (int)k;
    }
    return -1;
}

bool vz_sg_form(const char *name, struct vz_sg_form *form)
{
    const char *base, *params;
    size_t n;
    int k = lookup(name, &base, &n, &params);
    if (k < 0)
        return false;
    *form = forms[k].form;
    return true;
}

bool vz_sg_form_name(const char *name, unsigned w, char *out, size_t size)
{
    const char *base, *params;
    size_t n;
    int k = lookup(name, &base, &n, &params);
    if (k < 0)
        return false;
    /* The alias replaces the matched part of the identifier; a prefix keeps the rest. */
    const char *head = forms[k].alias ? forms[k].alias : forms[k].base;
    size_t matched = strlen(forms[k].base);
    int len = snprintf(out, size, "__lanes_sg%u_%s%.*s_%s", w, head, (int)(n - matched),
                       base + matched, params);
    return len > 0 && (size_t)len < size;
}

bool vz_sg_function(const char *name)
{
    return lanes_name_deferred(name, strlen(name));
}
