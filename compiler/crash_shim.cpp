// SPDX-License-Identifier: MIT
// Why C++: LLVM's CrashRecoveryContext, which Clang's own driver uses to
// survive a crash of the compiler, has no C API. A crash (a signal, or
// report_fatal_error) inside Clang, the vectorizer or LLVM's passes, while a
// program or a launcher compiles, returns here instead of ending the
// application's process.

#include "crash.h"

#include <llvm/Support/CrashRecoveryContext.h>

#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace
{

// The signals CrashRecoveryContext handles.
const int signals[] = {SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP};
constexpr int num_signals = sizeof signals / sizeof *signals;

// LLVM's handlers, installed only while something compiles: the rest of the
// time the application's own handlers (which it may change at any time, as
// test frameworks and language runtimes do) stay in place, untouched.
struct sigaction llvm_actions[num_signals], app_actions[num_signals];
std::once_flag once;
std::mutex lock;
int compiling; // threads inside lanes_run_safely, under `lock`

// At exit. LLVM's and Clang's function-local statics are destroyed by exit
// handlers registered when each was first used, newest first, and before
// the worker pool's (registered when it started): a compile still running
// then, or one queued and drained by the pool's, would use them destroyed
// (api_fuzz met "pure virtual method called" so, under ASan). So
// stop_compiles, which waits for the compiles running and refuses any
// later one, is registered again after each of the first compiles, when
// most statics were made: it runs before their destructors; the pool's own
// exit handler calls it before draining; and the process's first compile
// runs on the thread that asked for it, even for an asynchronous build
// (runtime/build.c), so that none runs on a worker before it. Left open:
// statics first used by a compile after the first 8.
std::condition_variable idle; // `compiling` went down
bool exiting;                 // under `lock`
int registered;               // times stop_compiles was registered, under `lock`
constexpr int registrations = 8;
thread_local bool inside; // this thread is in lanes_run_safely

void stop_compiles()
{
    // Called also from the pool's handler and the library's unloading.
    std::unique_lock<std::mutex> g(lock);
    exiting = true;
    // exit() called inside a compile (an application's callback cannot be,
    // but a compile's own code could) does not wait for itself.
    idle.wait(g, [] { return compiling == (inside ? 1 : 0); });
}

void take_llvm_handlers()
{
    struct sigaction before[num_signals];
    for (int i = 0; i < num_signals; i++)
        sigaction(signals[i], nullptr, &before[i]);
    llvm::CrashRecoveryContext::Enable();
    for (int i = 0; i < num_signals; i++) {
        sigaction(signals[i], nullptr, &llvm_actions[i]);
        sigaction(signals[i], &before[i], nullptr);
    }
}

// False when the process is exiting: nothing may compile any more.
bool enter()
{
    std::lock_guard<std::mutex> g(lock);
    if (exiting)
        return false;
    if (compiling++ == 0)
        for (int i = 0; i < num_signals; i++)
            sigaction(signals[i], &llvm_actions[i], &app_actions[i]);
    return true;
}

void leave()
{
    bool again;
    {
        std::lock_guard<std::mutex> g(lock);
        if (--compiling == 0)
            for (int i = 0; i < num_signals; i++)
                sigaction(signals[i], &app_actions[i], nullptr);
        again = !exiting && registered < registrations;
        registered += again;
    }
    idle.notify_all();
    if (again) // outside `lock`: exit() takes it in stop_compiles
        std::atexit(stop_compiles);
}

} // namespace

bool lanes_run_safely(void (*fn)(void *), void *ctx, char what[64])
{
    // A signal on another thread while LLVM's handlers are in (the
    // application's own, or a kernel's) finds no recovery context there:
    // LLVM then puts back the handlers it found and raises it again.
    std::call_once(once, take_llvm_handlers);
    bool outer = !inside; // a compile that compiles counts once
    if (outer && !enter()) {
        if (what)
            std::snprintf(what, 64, "%s", LANES_RUN_EXITING);
        return false;
    }
    inside = true;
    llvm::CrashRecoveryContext crc;
    bool ok = crc.RunSafely([&] { fn(ctx); });
    if (outer) {
        inside = false;
        leave();
    }
    if (!ok && what) {
        // A signal's code is 128 + its number; an exit (report_fatal_error) keeps its own.
        int sig = crc.RetCode - 128;
        const char *name = sig > 0 ? sigabbrev_np(sig) : nullptr;
        if (name)
            std::snprintf(what, 64, "SIG%s", name);
        else
            std::snprintf(what, 64, "an LLVM fatal error (exit code %d)", crc.RetCode);
    }
    return ok;
}

void lanes_crash_test(const char *stage)
{
    const char *want = std::getenv("LANES_CRASH_TEST");
    if (want && std::strcmp(want, stage) == 0)
        std::raise(SIGSEGV);
}

bool lanes_compiled_once(void)
{
    std::lock_guard<std::mutex> g(lock);
    return registered > 0;
}

void lanes_compiles_stop(void)
{
    stop_compiles();
}
