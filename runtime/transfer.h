/* SPDX-License-Identifier: MIT */
/* The bodies of the transfer commands, and the geometry checks they share. */
#ifndef LANES_RUNTIME_TRANSFER_H
#define LANES_RUNTIME_TRANSFER_H

#include "event.h"

/* Copies cmd.u.copy (reads, writes, buffer copies); big ones on all workers. */
cl_int lanes_transfer_copy(cl_event cmd);

/* Copies the rectangle cmd.u.rect, row by row. */
cl_int lanes_transfer_rect(cl_event cmd);

/* Fills cmd.u.fill with its pattern. */
cl_int lanes_transfer_fill(cl_event cmd);

/* Fills the rectangle cmd.u.fill_rect with its pattern, row by row. */
cl_int lanes_transfer_fill_rect(cl_event cmd);

/* A rectangle of bytes: where it starts and how rows and slices advance. */
struct lanes_rect {
    size_t start;      /* byte offset of its first byte */
    size_t row, slice; /* pitches */
};

/*
 * True when two rectangles of the same `region` in one address space share
 * a byte (the test of the specification's appendix, exact for equal pitches).
 */
bool lanes_rect_overlap(struct lanes_rect a, struct lanes_rect b, const size_t region[3]);

#endif
