/* SPDX-License-Identifier: MIT */
/*
 * Shared by every built-in source: the declarations that generate the
 * overload families. A family is written once as a macro over a type (and,
 * where needed, its width suffix); the lists below instantiate it for every
 * scalar and vector type of its gentype.
 */
#ifndef LANES_BUILTINS_H
#define LANES_BUILTINS_H

/* Built-ins are overloaded, pure functions of their arguments. */
#define OVL __attribute__((overloadable))
#define CONST __attribute__((overloadable, const))

/*
 * M(n, k, ...) for every width suffix n ("" for the scalar) with k the kind
 * of the type: SCAL or VEC (some operations differ, see CVT below).
 */
#define FOR_WIDTHS(M, ...)                                                                         \
    M(, SCAL, __VA_ARGS__)                                                                         \
    M(2, VEC, __VA_ARGS__)                                                                         \
    M(3, VEC, __VA_ARGS__)                                                                         \
    M(4, VEC, __VA_ARGS__) M(8, VEC, __VA_ARGS__) M(16, VEC, __VA_ARGS__)
#define FOR_VECTOR_WIDTHS(M, ...)                                                                  \
    M(2, VEC, __VA_ARGS__)                                                                         \
    M(3, VEC, __VA_ARGS__) M(4, VEC, __VA_ARGS__) M(8, VEC, __VA_ARGS__) M(16, VEC, __VA_ARGS__)

/*
 * The integer element types: M(S, U, bits, n, k) with S the type, U its
 * unsigned twin, for every width.
 */
#define INT_TYPE_AT(n, k, M)                                                                       \
    M(char, uchar, 8, n, k)                                                                        \
    M(uchar, uchar, 8, n, k)                                                                       \
    M(short, ushort, 16, n, k)                                                                     \
    M(ushort, ushort, 16, n, k)                                                                    \
    M(int, uint, 32, n, k)                                                                         \
    M(uint, uint, 32, n, k) M(long, ulong, 64, n, k) M(ulong, ulong, 64, n, k)
#define FOR_INT_TYPES(M) FOR_WIDTHS(INT_TYPE_AT, M)

/* Value conversion between same-shape types; casts for scalars. */
#define CVT_SCAL(x, T) ((T)(x))
#define CVT_VEC(x, T) __builtin_convertvector((x), T)
#define CVT(k, x, T) CVT_##k(x, T)

/* A comparison result as an all-ones mask (vectors already are; scalars give 1). */
#define MASK_SCAL(c) (-(c))
#define MASK_VEC(c) (c)
#define MASK(k, c) MASK_##k(c)

/* Token pasting after expansion. */
#define PASTE(a, b) PASTE_(a, b)
#define PASTE_(a, b) a##b

/* Per element type: its range and whether it is signed (s) or not (u). */
#define MIN_char CHAR_MIN
#define MAX_char CHAR_MAX
#define MIN_uchar 0
#define MAX_uchar UCHAR_MAX
#define MIN_short SHRT_MIN
#define MAX_short SHRT_MAX
#define MIN_ushort 0
#define MAX_ushort USHRT_MAX
#define MIN_int INT_MIN
#define MAX_int INT_MAX
#define MIN_uint 0u
#define MAX_uint UINT_MAX
#define MIN_long LONG_MIN
#define MAX_long LONG_MAX
#define MIN_ulong 0ul
#define MAX_ulong ULONG_MAX
#define SIGN_char s
#define SIGN_uchar u
#define SIGN_short s
#define SIGN_ushort u
#define SIGN_int s
#define SIGN_uint u
#define SIGN_long s
#define SIGN_ulong u
/* The integer type twice as wide (none for 64 bits). */
#define WIDE_char short
#define WIDE_uchar ushort
#define WIDE_short int
#define WIDE_ushort uint
#define WIDE_int long
#define WIDE_uint ulong

/* True when the element type of the (possibly vector) type T is signed. */
#define IS_SIGNED(S) ((S)-1 < (S)0)

#endif
