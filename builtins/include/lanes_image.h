/* SPDX-License-Identifier: MIT */
/*
 * An image as the built-ins see it: the descriptor an image argument points
 * at (compiler/abi.h, struct lanes_image_abi, whose static assertions hold
 * this layout).
 */
#ifndef LANES_IMAGE_H
#define LANES_IMAGE_H

typedef struct {
    __global uchar *data; /* texel (0, 0, 0) */
    ulong pitch[2];       /* bytes from a row to the next, a slice (or layer) to the next */
    int dims[3];          /* the box: width, rows (or 1D layers), slices (or 2D layers) */
    int elem_size;        /* bytes of one texel */
    uint order;           /* CLK_R, CLK_RG, ... */
    uint type;            /* CLK_UNORM_INT8, ... */
    int channels;         /* stored channels: 1, 2 or 4 */
    int pad;
} lanes_image;

#endif
