// Switches with fall-through, defaults and per-work-item selectors.
int classify(int op, int a, int b)
{
    switch (op & 7) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: a *= 2;
    /* fall through */
    case 3: return a * b;
    case 4:
        if (b == 0)
            return 0;
        return a / b;
    case 5: return a << (b & 31);
    default: break;
    }
    return op;
}

__kernel void interpret(__global const int *ops, __global const int2 *args, __global int *out)
{
    size_t i = get_global_id(0);
    int2 ab = args[i];
    int r = classify(ops[i], ab.x, ab.y);
    switch (r % 4) {
    case -3:
    case 3: r = ~r; break;
    case 1: r = abs(r); break;
    }
    out[i] = r;
}
