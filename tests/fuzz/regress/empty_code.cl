// options: -w
// Undefined behaviour on every path: the launcher compiled to an empty
// function, which the JIT gave no address, and CL_KERNEL_PRIVATE_MEM_SIZE
// crashed the process (source fuzzer, seed 3 case 40).
__kernel void k(__global int *out)
{
    out[get_global_id(-1e308)] = 1;
}
