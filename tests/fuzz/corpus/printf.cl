// Formatted output from a few work-items, vectors included.
__kernel void report(__global const float4 *v, int verbose)
{
    size_t i = get_global_id(0);
    if (i % 16 == 0)
        printf("item %u of group %u: %v4f\n", (uint)i, (uint)get_group_id(0), v[i]);
    if (verbose && i == 0)
        printf("%s %d %5.2f %x %c\n", "summary", verbose, 3.25f, 0xbeefu, 'z');
}
