/* SPDX-License-Identifier: MIT */
/*
 * The vectorizer's driver: shapes, then (when some branch diverges)
 * linearization and shapes again, then widening; the vector function
 * takes the scalar one's place. LANES_DUMP=shapes prints every
 * instruction's shape, LANES_DUMP=ir the vectorized function (golden
 * tests read both).
 */
#include "vectorize.h"

#include "vz.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What LANES_DUMP asks for ("shapes", "ir"), read once. */
static const char *dump(void)
{
    static const char *what;
    static bool read;
    if (!read) {
        what = getenv("LANES_DUMP");
        read = true;
    }
    return what ? what : "";
}

static const char *kind_name(enum vz_kind k)
{
    switch (k) {
    case VZ_UNIFORM: return "uniform";
    case VZ_CONTIGUOUS: return "contiguous";
    case VZ_VARYING: return "varying";
    default: return "unknown";
    }
}

/* One line per instruction that has a value: "<shape>: <instruction>". */
static void print_shapes(struct vz *v)
{
    size_t len;
    fprintf(stderr, "; lanes shapes: %s at width %u%s\n", LLVMGetValueName2(v->fn, &len), v->w,
            v->linearized ? " (linearized)" : "");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind)
                continue;
            struct vz_shape s = vz_shape_of(v, i);
            char *text = LLVMPrintValueToString(i);
            const char *t = text;
            while (*t == ' ')
                t++;
            if (s.kind == VZ_CONTIGUOUS)
                fprintf(stderr, "contiguous(%lld): %s\n", (long long)s.stride, t);
            else
                fprintf(stderr, "%s: %s\n", kind_name(s.kind), t);
            LLVMDisposeMessage(text);
        }
}

int lanes_vectorize(LLVMValueRef *sg, const struct lanes_specialization *spec, char **why)
{
    struct vz v = {.fn = *sg, .spec = spec, .w = spec->width};
    v.m = LLVMGetGlobalParent(v.fn);
    v.ctx = LLVMGetModuleContext(v.m);
    v.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(v.m));
    v.b = LLVMCreateBuilderInContext(v.ctx);
    v.i1 = LLVMInt1TypeInContext(v.ctx);
    v.i32 = LLVMInt32TypeInContext(v.ctx);
    v.i64 = LLVMInt64TypeInContext(v.ctx);
    uint64_t items = 1;
    for (unsigned d = 0; d < 3; d++)
        items *= lanes_spec_group_size(spec, d);
    /* Every sub-group full: tier 0 knows it only from whole rows. */
    v.full = spec->dynamic ? lanes_spec_rows(spec) : items % v.w == 0;

    if (strstr(dump(), "scalar")) {
        char *text = LLVMPrintValueToString(v.fn);
        fprintf(stderr, "; lanes: before vectorizing\n%s\n", text);
        LLVMDisposeMessage(text);
    }
    int rc = vz_shapes(&v);
    if (rc == 0 && vz_divergent(&v)) {
        vz_map_free(&v.shapes);
        rc = vz_linearize(&v);
        if (rc == 0 && strstr(dump(), "linear")) {
            char *text = LLVMPrintValueToString(v.fn);
            fprintf(stderr, "; lanes: linearized\n%s\n", text);
            LLVMDisposeMessage(text);
        }
        if (rc == 0)
            rc = vz_shapes(&v);
    }
    if (rc == 0 && strstr(dump(), "shapes"))
        print_shapes(&v);
    if (rc == 0)
        rc = vz_widen(&v);
    char *message = NULL;
    if (rc == 0 && LLVMVerifyModule(v.m, LLVMReturnStatusAction, &message)) {
        /* A bug of the vectorizer's: the kernel still runs, at width 1, and the log says so. */
        char buf[400];
        snprintf(buf, sizeof buf, "internal error: the vectorized function is not valid IR: %.300s",
                 message ? message : "");
        for (char *c = buf; *c; c++)
            if (*c == '\n')
                *c = ' ';
        vz_refuse(&v, NULL, buf);
        if (strstr(dump(), "ir")) {
            char *text = LLVMPrintValueToString(v.vfn);
            fprintf(stderr, "; lanes: invalid vectorized function\n%s\n", text);
            LLVMDisposeMessage(text);
        }
        LLVMDeleteFunction(v.vfn);
        rc = -1;
    }
    LLVMDisposeMessage(message);
    if (rc == 0) {
        size_t len;
        char *name = strdup(LLVMGetValueName2(v.fn, &len));
        LLVMDeleteFunction(v.fn);
        LLVMSetValueName2(v.vfn, name, strlen(name));
        free(name);
        *sg = v.vfn;
        if (strstr(dump(), "ir")) {
            char *text = LLVMPrintValueToString(v.vfn);
            fprintf(stderr, "; lanes vectorized at width %u\n%s\n", v.w, text);
            LLVMDisposeMessage(text);
        }
    } else {
        *why = v.why ? v.why : strdup("unknown reason");
        v.why = NULL;
    }
    free(v.why);
    vz_map_free(&v.shapes);
    vz_map_free(&v.synced);
    vz_map_free(&v.vals);
    vz_map_free(&v.vecs);
    vz_map_free(&v.blocks);
    vz_map_free(&v.block_end);
    vz_map_free(&v.aos);
    LLVMDisposeBuilder(v.b);
    LLVMDisposeTargetData(v.td);
    return rc;
}
