/* SPDX-License-Identifier: MIT */
#include "program.h"

#include "../compiler/program.h"
#include "context.h"
#include "ndrange.h"

#include <stdlib.h>

bool lanes_program_valid(cl_program p)
{
    return lanes_object_is(p, LANES_MAGIC_PROGRAM);
}

void lanes_program_retain(cl_program p)
{
    lanes_object_retain(&p->obj);
}

void lanes_program_release(cl_program p)
{
    if (!lanes_object_release(&p->obj))
        return;
    lanes_ndrange_free_launchers(p->launchers);
    lanes_program_module_free(p->module);
    free(p->source);
    free(p->options);
    free(p->log);
    pthread_mutex_destroy(&p->lock);
    cl_context c = p->context;
    free(p);
    lanes_context_release(c);
}
