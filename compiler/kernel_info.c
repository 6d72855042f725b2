/* SPDX-License-Identifier: MIT */
/*
 * The kernels' metadata, read from a program module: Clang's kernel_arg_*
 * nodes (each argument's kind, size, qualifiers and names), the attributes
 * (reqd_work_group_size, work_group_size_hint, vec_type_hint,
 * intel_reqd_sub_group_size), the bytes of each kernel's __local variables
 * and whether it reaches printf. What clGetKernelInfo and
 * clGetKernelArgInfo answer, and what a launch needs to lay out arguments.
 */
#include "kernel_info.h"

#include "calls.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The named metadata node of a function, as a value; NULL when absent. */
static LLVMValueRef function_md(LLVMValueRef fn, const char *kind)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    unsigned id = LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind));
    size_t n;
    LLVMValueMetadataEntry *all = LLVMGlobalCopyAllMetadata(fn, &n);
    LLVMValueRef v = NULL;
    for (size_t i = 0; i < n; i++)
        if (LLVMValueMetadataEntriesGetKind(all, (unsigned)i) == id)
            v = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(all, (unsigned)i));
    if (all)
        LLVMDisposeValueMetadataEntries(all);
    return v;
}

/* Operand `i` of a metadata node as a string; "" when it is not one. */
static char *md_string(LLVMValueRef node, unsigned i)
{
    unsigned n = LLVMGetMDNodeNumOperands(node);
    if (i >= n)
        return strdup("");
    LLVMValueRef ops[n];
    LLVMGetMDNodeOperands(node, ops);
    unsigned len = 0;
    const char *s = ops[i] ? LLVMGetMDString(ops[i], &len) : NULL;
    char *r = malloc(len + 1);
    if (r) {
        if (len)
            memcpy(r, s, len);
        r[len] = '\0';
    }
    return r;
}

/* Operand `i` of a metadata node as an integer constant; 0 when it is not one. */
static unsigned long long md_int(LLVMValueRef node, unsigned i)
{
    unsigned n = LLVMGetMDNodeNumOperands(node);
    if (i >= n)
        return 0;
    LLVMValueRef ops[n];
    LLVMGetMDNodeOperands(node, ops);
    return ops[i] && LLVMIsAConstantInt(ops[i]) ? LLVMConstIntGetZExtValue(ops[i]) : 0;
}

static cl_kernel_arg_access_qualifier access_of(const char *s)
{
    if (strcmp(s, "read_only") == 0)
        return CL_KERNEL_ARG_ACCESS_READ_ONLY;
    if (strcmp(s, "write_only") == 0)
        return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    if (strcmp(s, "read_write") == 0)
        return CL_KERNEL_ARG_ACCESS_READ_WRITE;
    return CL_KERNEL_ARG_ACCESS_NONE;
}

static cl_kernel_arg_type_qualifier type_qualifier_of(const char *s)
{
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (strstr(s, "const"))
        q |= CL_KERNEL_ARG_TYPE_CONST;
    if (strstr(s, "restrict"))
        q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (strstr(s, "volatile"))
        q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (strstr(s, "pipe"))
        q |= CL_KERNEL_ARG_TYPE_PIPE;
    return q;
}

/* Clang's SPIR-style address space numbers (the bridge keeps them). */
static cl_kernel_arg_address_qualifier address_of(unsigned long long as)
{
    switch (as) {
    case 1: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case 2: return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case 3: return CL_KERNEL_ARG_ADDRESS_LOCAL;
    }
    return CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

/* The memory object type of an image type ("image2d_t", "image2d_depth_t"...), else 0. */
static cl_mem_object_type image_type_of(const char *base_type)
{
    static const struct {
        const char *name;
        cl_mem_object_type type;
    } types[] = {
        {"image1d_t", CL_MEM_OBJECT_IMAGE1D},
        {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
        {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
        {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
        {"image2d_depth_t", CL_MEM_OBJECT_IMAGE2D},
        {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
        {"image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
        {"image3d_t", CL_MEM_OBJECT_IMAGE3D},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(base_type, types[i].name) == 0)
            return types[i].type;
    return 0;
}

static int read_args(LLVMValueRef fn, LLVMTargetDataRef td, struct lanes_kernel_info *k)
{
    LLVMValueRef as = function_md(fn, "kernel_arg_addr_space");
    LLVMValueRef access = function_md(fn, "kernel_arg_access_qual");
    LLVMValueRef type = function_md(fn, "kernel_arg_type");
    LLVMValueRef base = function_md(fn, "kernel_arg_base_type");
    LLVMValueRef qual = function_md(fn, "kernel_arg_type_qual");
    LLVMValueRef name = function_md(fn, "kernel_arg_name");
    k->num_args = LLVMCountParams(fn);
    if (as && LLVMGetMDNodeNumOperands(as) != k->num_args)
        return -1; /* one parameter per argument is what the launcher relies on */
    k->args = calloc(k->num_args ? k->num_args : 1, sizeof *k->args);
    if (!k->args)
        return -1;
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < k->num_args; i++) {
        struct lanes_kernel_arg *a = &k->args[i];
        LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, i));
        a->address = address_of(as ? md_int(as, i) : 0);
        char *acc = access ? md_string(access, i) : strdup("none");
        char *q = qual ? md_string(qual, i) : strdup("");
        a->type_name = type ? md_string(type, i) : strdup("");
        a->name = name ? md_string(name, i) : strdup("");
        if (!acc || !q || !a->type_name || !a->name) {
            free(acc), free(q);
            return -1;
        }
        a->access = access_of(acc);
        a->type_qualifier = type_qualifier_of(q);
        free(acc), free(q);
        LLVMAttributeRef by = LLVMGetEnumAttributeAtIndex(fn, i + 1, byval);
        /* The base type: an image or sampler type may have a typedef name. */
        char *base_type = base ? md_string(base, i) : NULL;
        const char *b = base_type ? base_type : a->type_name;
        a->image_type = image_type_of(b);
        bool sampler = strcmp(b, "sampler_t") == 0;
        free(base_type);
        if (a->image_type)
            a->kind = LANES_ARG_IMAGE;
        else if (sampler)
            a->kind = LANES_ARG_SAMPLER;
        else if (a->address == CL_KERNEL_ARG_ADDRESS_LOCAL)
            a->kind = LANES_ARG_LOCAL;
        else if (a->address != CL_KERNEL_ARG_ADDRESS_PRIVATE)
            a->kind = LANES_ARG_BUFFER;
        else
            a->kind = LANES_ARG_VALUE;
        /* By-value arguments keep their ABI alignment in the block; the rest are 8 bytes. */
        LLVMTypeRef slot = by ? LLVMGetTypeAttributeValue(by) : t;
        size_t align = sizeof(void *);
        a->size = sizeof(void *);
        if (a->kind == LANES_ARG_VALUE) {
            a->size = LLVMABISizeOfType(td, slot);
            align = LLVMABIAlignmentOfType(td, slot);
        }
        a->offset = (k->args_size + align - 1) / align * align;
        k->args_size = a->offset + a->size;
    }
    return 0;
}

/* The bytes of the kernel's own __local variables, which Clang names "<kernel>.<var>". */
static cl_ulong local_bytes(LLVMModuleRef m, LLVMTargetDataRef td, const char *kernel)
{
    size_t n = strlen(kernel);
    cl_ulong total = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        size_t len;
        const char *name = LLVMGetValueName2(g, &len);
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && len > n && name[n] == '.' &&
            strncmp(name, kernel, n) == 0) {
            unsigned align = LLVMGetAlignment(g);
            if (align)
                total = (total + align - 1) / align * align;
            total += LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
        }
    }
    return total;
}

/*
 * The OpenCL C name of the type in Clang's vec_type_hint node {undef of the
 * type, signedness}, e.g. "uint4"; false when the type is not one OpenCL C has.
 */
static bool vec_type_hint_of(LLVMValueRef node, char *name, size_t size)
{
    if (!node || LLVMGetMDNodeNumOperands(node) < 2)
        return false;
    LLVMValueRef ops[2];
    LLVMGetMDNodeOperands(node, ops);
    if (!ops[0])
        return false;
    LLVMTypeRef t = LLVMTypeOf(ops[0]);
    unsigned n = 1;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
        n = LLVMGetVectorSize(t);
        t = LLVMGetElementType(t);
    }
    bool is_signed = ops[1] && LLVMIsAConstantInt(ops[1]) && LLVMConstIntGetZExtValue(ops[1]);
    const char *base = NULL;
    switch (LLVMGetTypeKind(t)) {
    case LLVMHalfTypeKind: base = "half"; break;
    case LLVMFloatTypeKind: base = "float"; break;
    case LLVMDoubleTypeKind: base = "double"; break;
    case LLVMIntegerTypeKind:
        switch (LLVMGetIntTypeWidth(t)) {
        case 8: base = is_signed ? "char" : "uchar"; break;
        case 16: base = is_signed ? "short" : "ushort"; break;
        case 32: base = is_signed ? "int" : "uint"; break;
        case 64: base = is_signed ? "long" : "ulong"; break;
        }
        break;
    default: break;
    }
    if (!base)
        return false;
    if (n > 1)
        snprintf(name, size, "%s%u", base, n);
    else
        snprintf(name, size, "%s", base);
    return true;
}

/* The kernel attributes as CL_KERNEL_ATTRIBUTES spells them. */
static char *attributes_of(const struct lanes_kernel_info *k, LLVMValueRef vec_type_hint)
{
    char buf[256] = "";
    size_t len = 0;
    char hint[24];
    if (vec_type_hint_of(vec_type_hint, hint, sizeof hint))
        len += (size_t)snprintf(buf + len, sizeof buf - len, "vec_type_hint(%s)", hint);
    if (k->reqd_work_group_size[0] && len < sizeof buf)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%sreqd_work_group_size(%zu,%zu,%zu)",
                                len ? " " : "", k->reqd_work_group_size[0],
                                k->reqd_work_group_size[1], k->reqd_work_group_size[2]);
    if (k->work_group_size_hint[0] && len < sizeof buf)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%swork_group_size_hint(%zu,%zu,%zu)",
                                len ? " " : "", k->work_group_size_hint[0],
                                k->work_group_size_hint[1], k->work_group_size_hint[2]);
    if (k->reqd_sub_group_size && len < sizeof buf)
        snprintf(buf + len, sizeof buf - len, "%sintel_reqd_sub_group_size(%u)", len ? " " : "",
                 k->reqd_sub_group_size);
    return strdup(buf);
}

static int read_kernel(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef fn,
                       struct lanes_kernel_info *k)
{
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    if (!(k->name = strndup(name, len)) || read_args(fn, td, k))
        return -1;
    LLVMValueRef reqd = function_md(fn, "reqd_work_group_size");
    LLVMValueRef hint = function_md(fn, "work_group_size_hint");
    LLVMValueRef sg = function_md(fn, "intel_reqd_sub_group_size");
    for (unsigned d = 0; d < 3; d++) {
        k->reqd_work_group_size[d] = reqd ? (size_t)md_int(reqd, d) : 0;
        k->work_group_size_hint[d] = hint ? (size_t)md_int(hint, d) : 0;
    }
    k->reqd_sub_group_size = sg ? (cl_uint)md_int(sg, 0) : 0;
    k->local_mem_size = local_bytes(m, td, k->name);
    k->attributes = attributes_of(k, function_md(fn, "vec_type_hint"));
    return k->attributes ? 0 : -1;
}

int lanes_read_kernels(LLVMModuleRef m, struct lanes_program_module *pm,
                       const struct lanes_calls *calls)
{
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && function_md(f, "kernel_arg_addr_space"))
            n++;
    pm->kernels = calloc(n ? n : 1, sizeof *pm->kernels);
    int rc = pm->kernels ? 0 : -1;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && rc == 0; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && function_md(f, "kernel_arg_addr_space")) {
            struct lanes_kernel_info *k = &pm->kernels[pm->num_kernels++];
            rc = read_kernel(m, td, f, k);
            k->uses_printf = lanes_calls_reach_printf(calls, f);
        }
    LLVMDisposeTargetData(td);
    return rc;
}
