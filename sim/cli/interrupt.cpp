#include "sim/cli/interrupt.hpp"

#include <csignal>
#include <cstdio>

#include <fmt/format.h>

namespace scopesim::cli {

namespace {

// Set by the handler; lock-free, so a handler may store to it.
std::atomic<bool> requested_flag{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_interrupt(int) {
  requested_flag.store(true, std::memory_order_relaxed);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process
}

}  // namespace

Interrupt::Interrupt() {
  requested_flag.store(false, std::memory_order_relaxed);
  // On the alternate signal stack: the signal may land on a simulated
  // thread's fiber, whose stack has only its outermost pages open (the
  // fiber pool's tripwire), too few for a signal frame; a frame that faults
  // there would abandon the fiber halfway through the engine's work.
  // A SIGINT ignored from the start (a background job of a script) stays ignored.
  struct sigaction before {};
  sigaction(SIGINT, nullptr, &before);
  if (before.sa_handler == SIG_IGN) return;
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sa.sa_flags = SA_ONSTACK | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  installed_ = sigaction(SIGINT, &sa, nullptr) == 0;
}

Interrupt::~Interrupt() {
  if (installed_) std::signal(SIGINT, SIG_DFL);
}

const std::atomic<bool>* Interrupt::flag() const { return &requested_flag; }

bool Interrupt::requested() const { return requested_flag.load(std::memory_order_relaxed); }

void report_left_out(std::size_t done, std::size_t total, std::string_view what) {
  std::fflush(stdout);
  fmt::print(stderr, "scopesim: interrupted: {} of {} {}, the rest not run\n", done, total, what);
}

}  // namespace scopesim::cli
