// simt seed 5097 dim 1 global 24 1 local 24 1
// tree: { s3.0.0.1 e4.0.0.0.0.0 e0.0.0.0.0.1 e0.0.0.0.0.1 - { s1.0.0.0 e4.4.0.0.0.0 e4.0.0.0.0.0 e2.1.0.0.0.0 e1.0.0.0.0.0 - e0.0.0.0.0.3 - { s5.0.0.0 - { } { } } { } s0.1.1.0 e5.4.1.0.0.1581743041 e0.0.0.0.0.1 - - { } { } s6.0.0.0 - { } { } } { } }
// fails at width 8, 1D global 24 local 24
#define LLID ((uint)(get_local_id(1) * get_local_size(0) + get_local_id(0)))
#define GID ((uint)(get_global_id(1) * get_global_size(0) + get_global_id(0)))
#define GRP ((uint)(get_group_id(1) * get_num_groups(0) + get_group_id(0)))
#define W64(e) ((ulong)(e) * 0x9e3779b97f4a7c15ul)
#define F64(r) ((uint)((ulong)(r) ^ ((ulong)(r) >> 32)))
#define MASKIF(g, r) ((uint)(r) & (0u - (uint)((g) != 0)))
#define ACTIVE(l) sub_group_ballot_bit_extract(sub_group_ballot(1), (uint)(l) & 127u)
#define STORE() (out[GID * 5u] = v0, out[GID * 5u + 1u] = v1, out[GID * 5u + 2u] = v2, \
    out[GID * 5u + 3u] = v3, out[GID * 5u + 4u] = get_max_sub_group_size())
uint bits(uint4 b) { return b.x ^ ((b.y | b.z | b.w) << 1); }
uint full_cluster(uint cs)
{
    uint m = (1u << cs) - 1u;
    return (sub_group_ballot(1).x >> (get_sub_group_local_id() & ~(cs - 1u)) & m) == m;
}
__kernel void simt(__global const uint *in, __global uint *out)
{
    uint v0 = in[GID * 4u], v1 = in[GID * 4u + 1u], v2 = in[GID * 4u + 2u], v3 = in[GID * 4u + 3u];
    {
        uint i1 = 0u, n1 = (1u + 1u);
        do {
            if (((i1 + v0) & 3u)) {
                continue;
            }
            v1 += sub_group_ballot_inclusive_scan(sub_group_ballot((int)(1u)));
            STORE();
            return;
        } while (++i1 < n1);
    }
    STORE();
}
