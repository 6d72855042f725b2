/* SPDX-License-Identifier: MIT */
/*
 * Work-group memory (wgmem.h). One reservation of address space, made at
 * the first launch and kept for the process:
 *
 *     local region:   slot 0 | slot 1 | ...   each: __local | scratch | guard
 *     private region: slot 0 | slot 1 | ...   each: guard | stack | frames
 *
 * A slot's memory is made usable (readable and writable) when a thread
 * first runs work-groups in it, its frames as they grow; the rest stays
 * reserved and costs nothing. The guards catch a stack that overflows and
 * __local accesses past a slot's end. Workers own slots 0 to workers - 1;
 * the others are borrowed, one call at a time, by threads that are not
 * workers.
 *
 * A thread runs work-groups on its slot's stack: lanes_wgmem_run switches
 * the stack pointer there for the call and back after it, so the private
 * memory of every work-group, on any thread, lies in the private region.
 */
#include "wgmem.h"

#include "../../compiler/abi.h"
#include "exec.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define SWITCHING_STACKS_TELLS_ASAN 1
#endif

/* Slots for threads that are not workers; more such threads at once wait for one. */
enum { HELPER_SLOTS = 8 };

/* Guards and commits come in whole 64 KiB, a multiple of every page size. */
#define GRAIN ((size_t)64 << 10)
#define ROUND(n) (((n) + GRAIN - 1) / GRAIN * GRAIN)
#define LOCAL_BYTES ROUND(LANES_MAX_LOCAL_MEM)
#define SCRATCH_BYTES ROUND(LANES_WG_SCRATCH_SIZE)
#define STACK_BYTES LANES_WORKER_STACK_BYTES
/*
 * Coroutine frames of one work-group (all its sub-groups'), at most: the
 * reservation asks for the most and halves it until the system grants it
 * (a limit on address space, valgrind's).
 */
#define FRAMES_MOST ((size_t)1 << 30)
#define FRAMES_LEAST ((size_t)16 << 20)
#define FRAMES_STEP ((size_t)1 << 20) /* frames are made usable a MiB at a time */

struct slot {
    char *local; /* __local memory, then the scratch */
    char *stack; /* the stack's lowest byte; its top is stack + STACK_BYTES, where frames start */
    char *frames;
    size_t frames_used, frames_usable;
    bool usable; /* local memory, scratch and stack are readable and writable */
};

static struct {
    char *base; /* NULL when nothing could be reserved */
    size_t workers, slots, frames_bytes;
    struct lanes_wg_memory regions;
    struct slot *slot;
    atomic_uint free_helpers; /* bit i set: slot workers + i is free */
} wgmem;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Thread_local struct slot *running; /* the calling thread's slot, inside lanes_wgmem_run */

static_assert(HELPER_SLOTS <= 32, "free_helpers has a bit for each helper slot");

static void reserve(void)
{
    size_t workers = lanes_exec_num_workers(), slots = workers + HELPER_SLOTS;
    size_t local_slot = LOCAL_BYTES + SCRATCH_BYTES + GRAIN;
    char *base = MAP_FAILED;
    size_t frames = FRAMES_MOST, private_slot = 0;
    for (; frames >= FRAMES_LEAST; frames /= 2) {
        private_slot = GRAIN + STACK_BYTES + frames;
        base = mmap(NULL, slots * (local_slot + private_slot), PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base != MAP_FAILED)
            break;
    }
    struct slot *slot = base == MAP_FAILED ? NULL : calloc(slots, sizeof *slot);
    if (!slot) {
        if (base != MAP_FAILED)
            munmap(base, slots * (local_slot + private_slot));
        return;
    }
    char *private_region = base + slots * local_slot;
    for (size_t i = 0; i < slots; i++) {
        slot[i].local = base + i * local_slot;
        slot[i].stack = private_region + i * private_slot + GRAIN;
        slot[i].frames = slot[i].stack + STACK_BYTES;
    }
    wgmem.workers = workers;
    wgmem.slots = slots;
    wgmem.frames_bytes = frames;
    wgmem.slot = slot;
    wgmem.regions = (struct lanes_wg_memory){
        .local_region = base,
        .local_region_size = slots * local_slot,
        .private_region = private_region,
        .private_region_size = slots * private_slot,
    };
    atomic_init(&wgmem.free_helpers, (1u << HELPER_SLOTS) - 1);
    wgmem.base = base;
}

static bool make_usable(struct slot *s)
{
    if (!s->usable)
        s->usable = mprotect(s->local, LOCAL_BYTES + SCRATCH_BYTES, PROT_READ | PROT_WRITE) == 0 &&
                    mprotect(s->stack, STACK_BYTES, PROT_READ | PROT_WRITE) == 0;
    return s->usable;
}

/* A free helper slot, taken; waits while all are in use (each is held for one call). */
static size_t take_helper_slot(void)
{
    for (;;) {
        unsigned free = atomic_load_explicit(&wgmem.free_helpers, memory_order_relaxed);
        if (!free) {
            sched_yield();
            continue;
        }
        unsigned bit = free & -free;
        if (atomic_compare_exchange_weak_explicit(&wgmem.free_helpers, &free, free & ~bit,
                                                  memory_order_acquire, memory_order_relaxed))
            return wgmem.workers + (size_t)__builtin_ctz(bit);
    }
}

static void give_back_helper_slot(size_t index)
{
    atomic_fetch_or_explicit(&wgmem.free_helpers, 1u << (index - wgmem.workers),
                             memory_order_release);
}

/*
 * Calls fn(arg) with the stack pointer at `top` (16-byte aligned) and
 * returns on the caller's stack. The frame pointer keeps the way back, for
 * the return and for debuggers' backtraces (the CFI says where it is).
 */
void lanes_wgmem_call_on_stack(void (*fn)(void *), void *arg, char *top);
#if defined(__x86_64__)
__asm__(".text\n"
        ".p2align 4\n"
        ".globl lanes_wgmem_call_on_stack\n"
        ".hidden lanes_wgmem_call_on_stack\n"
        ".type lanes_wgmem_call_on_stack, @function\n"
        "lanes_wgmem_call_on_stack:\n"
        ".cfi_startproc\n"
        "    pushq %rbp\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset %rbp, -16\n"
        "    movq %rsp, %rbp\n"
        ".cfi_def_cfa_register %rbp\n"
        "    movq %rdx, %rsp\n"
        "    movq %rdi, %rax\n"
        "    movq %rsi, %rdi\n"
        "    callq *%rax\n"
        "    movq %rbp, %rsp\n"
        "    popq %rbp\n"
        ".cfi_def_cfa %rsp, 8\n"
        "    retq\n"
        ".cfi_endproc\n"
        ".size lanes_wgmem_call_on_stack, .-lanes_wgmem_call_on_stack\n");
#else
#error "lanes_wgmem_call_on_stack: no stack switch for this architecture"
#endif

struct trip {
    void (*fn)(void *ctx, const struct lanes_wg_memory *mem);
    void *ctx;
    const struct lanes_wg_memory *mem;
    const void *caller_stack; /* for AddressSanitizer: the stack to return to */
    size_t caller_stack_size;
};

static void on_slot_stack(void *arg)
{
    struct trip *t = arg;
#ifdef SWITCHING_STACKS_TELLS_ASAN
    __sanitizer_finish_switch_fiber(NULL, &t->caller_stack, &t->caller_stack_size);
#endif
    t->fn(t->ctx, t->mem);
#ifdef SWITCHING_STACKS_TELLS_ASAN
    __sanitizer_start_switch_fiber(NULL, t->caller_stack, t->caller_stack_size);
#endif
}

bool lanes_wgmem_run(void (*fn)(void *ctx, const struct lanes_wg_memory *mem), void *ctx)
{
    pthread_once(&once, reserve);
    if (!wgmem.base)
        return false;
    int worker = lanes_exec_worker_index();
    bool own = worker >= 0 && (size_t)worker < wgmem.workers && !running;
    size_t index = own ? (size_t)worker : take_helper_slot();
    struct slot *s = &wgmem.slot[index];
    bool ok = make_usable(s);
    if (ok) {
        struct lanes_wg_memory mem = wgmem.regions;
        mem.local = s->local;
        mem.scratch = s->local + LOCAL_BYTES;
        struct trip t = {fn, ctx, &mem, NULL, 0};
        struct slot *outer = running;
        running = s;
        s->frames_used = 0;
#ifdef SWITCHING_STACKS_TELLS_ASAN
        void *fake_stack = NULL;
        __sanitizer_start_switch_fiber(&fake_stack, s->stack, STACK_BYTES);
#endif
        lanes_wgmem_call_on_stack(on_slot_stack, &t, s->stack + STACK_BYTES);
#ifdef SWITCHING_STACKS_TELLS_ASAN
        __sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
#endif
        running = outer;
    }
    if (!own)
        give_back_helper_slot(index);
    return ok;
}

void *lanes_wgmem_frame_alloc(uint64_t size)
{
    struct slot *s = running;
    size = (size + 63) / 64 * 64;
    if (!s || size > wgmem.frames_bytes - s->frames_used)
        return NULL;
    if (s->frames_used + size > s->frames_usable) {
        size_t want = (s->frames_used + size + FRAMES_STEP - 1) / FRAMES_STEP * FRAMES_STEP;
        if (want > wgmem.frames_bytes)
            want = wgmem.frames_bytes;
        if (mprotect(s->frames + s->frames_usable, want - s->frames_usable,
                     PROT_READ | PROT_WRITE) != 0)
            return NULL;
        s->frames_usable = want;
    }
    s->frames_used += size;
    return s->frames + s->frames_used - size;
}

void lanes_wgmem_frames_reset(void)
{
    if (running)
        running->frames_used = 0;
}
