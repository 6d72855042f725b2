// options: -w
// #pragma unroll with a huge count on a loop over a runtime bound: LLVM's
// unroller honoured it over the launcher pipeline's options, and the build
// of the launchers ran for minutes (source fuzzer, seed 12 case 4622).
kernel void k(global int *out, global const int *in, int n) {
  int s = 0;
  #pragma unroll 268435456
  for (int i = 0; i < n; i++)
    s += in[(get_global_id(0) + i) % 64] * i;
  out[get_global_id(0)] = s;
}
