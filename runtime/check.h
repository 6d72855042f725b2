/* SPDX-License-Identifier: MIT */
/* The one validation idiom of the API entries. */
#ifndef LANES_RUNTIME_CHECK_H
#define LANES_RUNTIME_CHECK_H

#include <CL/cl.h>
#include <stddef.h>

/* Logs a refused call when LANES_DEBUG asks for it (runtime/debug.c). */
void lanes_refuse(const char *func, const char *error, const char *reason);

/* Stores `err` through an errcode_ret pointer that may be NULL. */
static inline void lanes_set_error(cl_int *errcode_ret, cl_int err)
{
    if (errcode_ret)
        *errcode_ret = err;
}

/* Returns `err` from the calling entry unless `cond` holds. */
#define LANES_CHECK(cond, err, reason)                                                             \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            lanes_refuse(__func__, #err, reason);                                                  \
            return (err);                                                                          \
        }                                                                                          \
    } while (0)

/* Returns `err` from the calling entry unconditionally. */
#define LANES_FAIL(err, reason)                                                                    \
    do {                                                                                           \
        lanes_refuse(__func__, #err, reason);                                                      \
        return (err);                                                                              \
    } while (0)

/* The same for entries that return an object and report through errcode_ret. */
#define LANES_CHECK_OBJ(cond, err, errcode_ret, reason)                                            \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            lanes_refuse(__func__, #err, reason);                                                  \
            lanes_set_error((errcode_ret), (err));                                                 \
            return NULL;                                                                           \
        }                                                                                          \
    } while (0)

/* Reports `err` through errcode_ret and returns NULL unconditionally. */
#define LANES_FAIL_OBJ(err, errcode_ret, reason)                                                   \
    do {                                                                                           \
        lanes_refuse(__func__, #err, reason);                                                      \
        lanes_set_error((errcode_ret), (err));                                                     \
        return NULL;                                                                               \
    } while (0)

#endif
