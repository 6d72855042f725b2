/* SPDX-License-Identifier: MIT */
/*
 * Transfer command bodies. Memory is shared with the host, so a transfer
 * is a memcpy; big ones are split into pieces that every worker claims
 * (lanes_exec_range), and the command completes when the last piece is done.
 */
#include "transfer.h"

#include <string.h>

/* Below this, one worker copies faster than several can be woken. */
#define PARALLEL_MIN ((size_t)4 << 20)
#define PIECE ((size_t)1 << 20)

static void range_done(void *ctx)
{
    cl_event cmd = ctx;
    lanes_command_complete(cmd, atomic_load(&cmd->cmd.range_status));
}

static void copy_pieces(void *ctx, size_t begin, size_t end)
{
    struct lanes_command *c = &((cl_event)ctx)->cmd;
    size_t from = begin * PIECE, to = end * PIECE;
    if (to > c->u.copy.size)
        to = c->u.copy.size;
    memcpy(c->u.copy.dst + from, c->u.copy.src + from, to - from);
}

cl_int lanes_transfer_copy(cl_event cmd)
{
    struct lanes_command *c = &cmd->cmd;
    const char *d = c->u.copy.dst, *s = c->u.copy.src;
    size_t n = c->u.copy.size;
    /*
     * Host memory may alias a USE_HOST_PTR buffer: the same bytes (allowed,
     * nothing to copy) or, by the application's mistake, overlapping ones,
     * which one memmove keeps defined (the fuzzer's find, under ASan).
     */
    bool overlap = d != s && d < s + n && s < d + n;
    if (n < PARALLEL_MIN || overlap) {
        if (n && d != s)
            memmove(c->u.copy.dst, c->u.copy.src, n);
        return CL_COMPLETE;
    }
    lanes_exec_range(&c->range, (c->u.copy.size + PIECE - 1) / PIECE, 1, copy_pieces, range_done,
                     cmd);
    return LANES_COMMAND_PENDING;
}

/* Copies rows [begin, end) of the rectangle, rows counted across slices. */
static void rect_rows(void *ctx, size_t begin, size_t end)
{
    struct lanes_command *c = &((cl_event)ctx)->cmd;
    const size_t *r = c->u.rect.region;
    for (size_t i = begin; i < end; i++) {
        size_t y = i % r[1], z = i / r[1];
        char *dst = c->u.rect.dst + z * c->u.rect.dst_pitch[1] + y * c->u.rect.dst_pitch[0];
        const char *src = c->u.rect.src + z * c->u.rect.src_pitch[1] + y * c->u.rect.src_pitch[0];
        if (dst != src) /* memmove: a 2D image may copy to the buffer it views */
            memmove(dst, src, r[0]);
    }
}

cl_int lanes_transfer_rect(cl_event cmd)
{
    struct lanes_command *c = &cmd->cmd;
    const size_t *r = c->u.rect.region;
    size_t rows = r[1] * r[2];
    if (rows * r[0] < PARALLEL_MIN) {
        rect_rows(cmd, 0, rows);
        return CL_COMPLETE;
    }
    size_t chunk = PIECE / r[0] ? PIECE / r[0] : 1;
    lanes_exec_range(&c->range, rows, chunk, rect_rows, range_done, cmd);
    return LANES_COMMAND_PENDING;
}

/* Fills `size` bytes at `dst` (a multiple of `p`) with the `p` bytes of `pattern`. */
static void fill_bytes(char *dst, size_t size, const unsigned char *pattern, size_t p)
{
    if (p == 1) {
        memset(dst, pattern[0], size);
        return;
    }
    if (!size)
        return;
    memcpy(dst, pattern, p);
    /* Double what is filled until the span is covered. */
    for (size_t done = p; done < size;) {
        size_t n = done < size - done ? done : size - done;
        memcpy(dst + done, dst, n);
        done += n;
    }
}

/* Fills [from, to) of the destination, `from` a multiple of the pattern size. */
static void fill_span(struct lanes_command *c, size_t from, size_t to)
{
    fill_bytes(c->u.fill.dst + from, to - from, c->u.fill.pattern, c->u.fill.pattern_size);
}

static void fill_pieces(void *ctx, size_t begin, size_t end)
{
    struct lanes_command *c = &((cl_event)ctx)->cmd;
    size_t to = end * PIECE;
    fill_span(c, begin * PIECE, to < c->u.fill.size ? to : c->u.fill.size);
}

cl_int lanes_transfer_fill(cl_event cmd)
{
    struct lanes_command *c = &cmd->cmd;
    if (c->u.fill.size < PARALLEL_MIN) {
        fill_span(c, 0, c->u.fill.size);
        return CL_COMPLETE;
    }
    /* PIECE is a multiple of every pattern size (powers of two up to 128). */
    lanes_exec_range(&c->range, (c->u.fill.size + PIECE - 1) / PIECE, 1, fill_pieces, range_done,
                     cmd);
    return LANES_COMMAND_PENDING;
}

/* Fills rows [begin, end) of the rectangle, rows counted across slices. */
static void fill_rect_rows(void *ctx, size_t begin, size_t end)
{
    struct lanes_command *c = &((cl_event)ctx)->cmd;
    const size_t *r = c->u.fill_rect.region;
    for (size_t i = begin; i < end; i++) {
        size_t y = i % r[1], z = i / r[1];
        fill_bytes(c->u.fill_rect.dst + z * c->u.fill_rect.pitch[1] + y * c->u.fill_rect.pitch[0],
                   r[0], c->u.fill_rect.pattern, c->u.fill_rect.pattern_size);
    }
}

cl_int lanes_transfer_fill_rect(cl_event cmd)
{
    struct lanes_command *c = &cmd->cmd;
    const size_t *r = c->u.fill_rect.region;
    size_t rows = r[1] * r[2];
    if (rows * r[0] < PARALLEL_MIN) {
        fill_rect_rows(cmd, 0, rows);
        return CL_COMPLETE;
    }
    size_t chunk = PIECE / r[0] ? PIECE / r[0] : 1;
    lanes_exec_range(&c->range, rows, chunk, fill_rect_rows, range_done, cmd);
    return LANES_COMMAND_PENDING;
}

/* The bytes [first, last) a rectangle spans. */
static void rect_span(struct lanes_rect a, const size_t region[3], size_t *first, size_t *last)
{
    *first = a.start;
    *last = a.start + (region[2] - 1) * a.slice + (region[1] - 1) * a.row + region[0];
}

bool lanes_rect_overlap(struct lanes_rect a, struct lanes_rect b, const size_t region[3])
{
    size_t a0, a1, b0, b1;
    rect_span(a, region, &a0, &a1);
    rect_span(b, region, &b0, &b1);
    if (a1 <= b0 || b1 <= a0)
        return false;
    if (a.row == b.row && a.slice == b.slice) {
        /* The appendix's test: one width fits in the gap between the other's rows... */
        size_t row = a.row, slice = a.slice, w = region[0];
        size_t adx = a.start % row, bdx = b.start % row;
        if ((bdx >= adx + w && bdx + w <= adx + row) || (adx >= bdx + w && adx + w <= bdx + row))
            return false;
        /* ...or one slice fits in the gap between the other's slices. */
        size_t plane = (region[1] - 1) * row + w;
        size_t ady = a.start % slice, bdy = b.start % slice;
        if ((bdy >= ady + plane && bdy + plane <= ady + slice) ||
            (ady >= bdy + plane && ady + plane <= bdy + slice))
            return false;
        return true;
    }
    /* Different pitches: compare rows pairwise while that stays cheap. */
    size_t rows = region[1] * region[2];
    if (rows > 2048)
        return true; /* spans intersect: refuse rather than risk a torn copy */
    for (size_t i = 0; i < rows; i++) {
        size_t ai = a.start + (i / region[1]) * a.slice + (i % region[1]) * a.row;
        for (size_t j = 0; j < rows; j++) {
            size_t bj = b.start + (j / region[1]) * b.slice + (j % region[1]) * b.row;
            if (ai < bj + region[0] && bj < ai + region[0])
                return true;
        }
    }
    return false;
}
