#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Double precision math built-ins, in scalar and vector forms.
__kernel void physics(__global const double *x, __global double2 *out)
{
    size_t i = get_global_id(0);
    double v = x[i];
    double s = sin(v) * exp(-v * v) + log1p(fabs(v)) - pow(fabs(v) + 1.0, 0.75);
    double2 p = (double2)(hypot(v, 2.0), atan2(v, 1.5));
    out[i] = p * s + sqrt(fma(v, v, 1.0)) + (double2)(cbrt(v), erf(v));
}

__kernel void kahan(__global const double *x, __global double *sum, uint n)
{
    double s = 0.0, c = 0.0;
    for (uint k = get_global_id(0); k < n; k += get_global_size(0)) {
        double y = x[k] - c;
        double t = s + y;
        c = (t - s) - y;
        s = t;
    }
    sum[get_global_id(0)] = s + (double)convert_float(c);
}
