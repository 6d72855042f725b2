// Structures by value and through pointers, arrays of them in private memory.
typedef struct {
    float2 pos;
    float2 vel;
    int alive;
} particle;

typedef struct {
    float dt;
    float drag;
    uint count;
} params;

static particle step(particle p, params q)
{
    p.vel *= (1.0f - q.drag * q.dt);
    p.pos += p.vel * q.dt;
    p.alive = p.alive && fabs(p.pos.x) < 100.0f && fabs(p.pos.y) < 100.0f;
    return p;
}

__kernel void integrate(__global particle *ps, params q)
{
    size_t i = get_global_id(0);
    if (i >= q.count)
        return;
    particle history[4];
    history[0] = ps[i];
    for (int k = 1; k < 4; k++)
        history[k] = step(history[k - 1], q);
    ps[i] = history[3];
}

union bits {
    float f;
    uint u;
};

__kernel void sign_bits(__global const float *in, __global uint *out)
{
    union bits b;
    b.f = in[get_global_id(0)];
    out[get_global_id(0)] = b.u >> 31;
}
