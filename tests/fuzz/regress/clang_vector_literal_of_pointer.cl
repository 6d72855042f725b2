// options:
// Clang 19 crashes (SIGSEGV in Sema::PrepareScalarCast from
// Sema::BuildVectorLiteral) on a vector literal of one pointer; fixed
// upstream by llvm-project pull request 180318. Lanes contains the crash:
// the build fails with "the compiler crashed" in its log (source fuzzer,
// seed 12 case 618).
__kernel void k(__global float4 *y)
{
    y[0] = (float4)(y);
}
