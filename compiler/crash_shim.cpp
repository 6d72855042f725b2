// SPDX-License-Identifier: MIT
// Why C++: LLVM's CrashRecoveryContext, which Clang's own driver uses to
// survive a crash of the compiler, has no C API. A crash (a signal, or
// report_fatal_error) inside Clang, the vectorizer or LLVM's passes, while a
// program or a launcher compiles, returns here instead of ending the
// application's process.

#include "crash.h"

#include <llvm/Support/CrashRecoveryContext.h>

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

void enter()
{
    std::lock_guard<std::mutex> g(lock);
    if (compiling++ == 0)
        for (int i = 0; i < num_signals; i++)
            sigaction(signals[i], &llvm_actions[i], &app_actions[i]);
}

void leave()
{
    std::lock_guard<std::mutex> g(lock);
    if (--compiling == 0)
        for (int i = 0; i < num_signals; i++)
            sigaction(signals[i], &app_actions[i], nullptr);
}

} // namespace

bool lanes_run_safely(void (*fn)(void *), void *ctx, char what[64])
{
    // A signal on another thread while LLVM's handlers are in (the
    // application's own, or a kernel's) finds no recovery context there:
    // LLVM then puts back the handlers it found and raises it again.
    std::call_once(once, take_llvm_handlers);
    enter();
    llvm::CrashRecoveryContext crc;
    bool ok = crc.RunSafely([&] { fn(ctx); });
    leave();
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
