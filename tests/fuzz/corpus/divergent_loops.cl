// Loops whose trip counts, breaks and early returns differ per work-item.
__kernel void collatz(__global const uint *start, __global uint *steps, uint limit)
{
    size_t i = get_global_id(0);
    uint x = start[i];
    uint n = 0;
    if (x == 0) {
        steps[i] = 0xffffffffu;
        return;
    }
    while (x != 1) {
        if (n >= limit)
            break;
        x = (x & 1) ? 3 * x + 1 : x / 2;
        n++;
    }
    steps[i] = n;
}

__kernel void nested(__global const int *in, __global int *out, int width)
{
    int gid = (int)get_global_id(0);
    int acc = 0;
    for (int y = 0; y < in[gid] % 7; y++) {
        for (int x = 0; x < width; x++) {
            if ((x + y + gid) % 3 == 0)
                continue;
            acc += x * y - gid;
            if (acc > 1000)
                goto done;
        }
        do {
            acc -= 5;
        } while (acc > 500);
    }
done:
    out[gid] = acc;
}
