// SPDX-License-Identifier: MIT
// Image and sampler handles (compiler/abi.h): an image argument is the
// address of its descriptor, a sampler its CLK_* bits as a pointer. OpenCL C
// converts neither, so the conversions image.cl declares, __lanes_image(img)
// and __lanes_sampler(smp), are defined here on the plain pointers under
// their mangled names (asm labels): in IR the two sides are the same
// pointers. Kept apart from image.cl, where the same names are declared with
// the image types. __translate_sampler_initializer is what Clang calls for a
// sampler written in the source (a constant, folded once inlined).
#include "lanes_image.h"

#define HANDLE(len, name)                                                                          \
    __global const lanes_image *lanes_handle_##name(__global const lanes_image *p)                 \
        __asm__("_Z13__lanes_image" #len "ocl_" #name);                                            \
    __global const lanes_image *lanes_handle_##name(__global const lanes_image *p)                 \
    {                                                                                              \
        return p;                                                                                  \
    }
#define HANDLES(len, name)                                                                         \
    HANDLE(len, name##_ro)                                                                         \
    HANDLE(len, name##_wo)                                                                         \
    HANDLE(len, name##_rw)

HANDLES(14, image1d)
HANDLES(21, image1d_buffer)
HANDLES(20, image1d_array)
HANDLES(14, image2d)
HANDLES(20, image2d_array)
HANDLES(14, image3d)
HANDLES(20, image2d_depth)
HANDLES(26, image2d_array_depth)

uint lanes_sampler_bits(__constant void *p) __asm__("_Z15__lanes_sampler11ocl_sampler");
uint lanes_sampler_bits(__constant void *p)
{
    return (uint)(ulong)p;
}

__constant void *lanes_sampler_init(int bits) __asm__("__translate_sampler_initializer");
__constant void *lanes_sampler_init(int bits)
{
    return (__constant void *)(ulong)(uint)bits;
}
