// options: -cl-std=CL3.0
// Generic pointers: one helper serves global, local and private data.
static float sum3(const float *p)
{
    return p[0] + p[1] + p[2];
}

static void bump(int *counter)
{
    if (to_global(counter))
        *counter += 10;
    else if (to_local(counter))
        *counter += 100;
    else
        *counter += 1;
}

__kernel void spaces(__global float *g, __global int *flags)
{
    __local float tile[48];
    __local int lcount;
    float priv[3] = {1.0f, 2.0f, (float)get_global_id(0)};
    size_t lid = get_local_id(0);
    tile[lid % 48] = g[get_global_id(0)];
    if (lid == 0)
        lcount = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    float *lp = &tile[(lid / 2) % 45];
    float *pp = priv;
    float *p = (lid & 1) ? lp : pp;
    g[get_global_id(0)] = sum3(p) + sum3(g + get_global_id(0) / 4);
    int mine = 0;
    bump(&mine);
    if (lid == 0) {
        bump(&lcount);
        bump(&flags[get_group_id(0)]);
    }
    flags[get_global_id(0) + 64] = mine + (get_fence(p) == CLK_LOCAL_MEM_FENCE);
}
