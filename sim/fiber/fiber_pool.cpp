#include "sim/fiber/fiber_pool.hpp"

#include <boost/context/detail/fcontext.hpp>
#include <algorithm>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>

namespace scopesim::fiber {

namespace ctx = boost::context::detail;

namespace {

// How much of a reused stack, from the top, starts zeroed.
constexpr std::size_t clear_bytes = 16 * 1024;

struct Stack {
  void* base = nullptr;  // lowest address: the guard page
  std::size_t bytes = 0;
  bool used = false;     // a fiber ran on it since it was mapped (zero) or cleared
  void* top() const { return static_cast<char*>(base) + bytes; }

  // Zeroes the outermost `n` bytes, where a fiber's own frames live, so
  // that what a fiber finds in a slot it has not written yet is the same in
  // every run. A fiber writes its stack from the top down, so below the lowest
  // nonzero chunk of that part, it is still zero: only the rest is cleared.
  // (Chunks are compared with memcmp, which reads them many words at a time.)
  void clear(std::size_t n) {
    if (!used) return;
    used = false;
    static constexpr std::size_t chunk = 512;
    static const char zero[chunk] = {};
    char* const low = static_cast<char*>(top()) - n;
    std::size_t k = 0;
    while (k + chunk <= n && std::memcmp(low + k, zero, chunk) == 0) k += chunk;
    std::memset(low + k, 0, n - k);
  }
};

struct Fiber {
  ctx::fcontext_t context = nullptr;
  std::function<void()> body;
  Status status = Status::ready;
  std::size_t stack = 0;
  const void* top = nullptr;
  std::string fault;
};

// Per OS thread: who runs now, where to return, where a fault jumps to.
struct Running {
  Fiber* fiber = nullptr;
  ctx::fcontext_t caller = nullptr;
  sigjmp_buf fault_jump;
  volatile sig_atomic_t signal = 0;
};
thread_local Running running;

std::size_t page_size() {
  static const std::size_t p = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "segmentation fault (invalid memory access or stack overflow)";
    case SIGBUS: return "bus error";
    case SIGFPE: return "arithmetic fault (e.g. integer division by zero)";
    case SIGILL: return "illegal instruction";
    default: return "signal";
  }
}

void on_fault(int sig, siginfo_t*, void*) {
  if (running.fiber == nullptr) {
    // Not a kernel fault: restore the default action and let it happen.
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  running.signal = sig;
  siglongjmp(running.fault_jump, 1);
}

void install_handlers() {
  thread_local bool done = false;
  if (done) return;
  done = true;
  // The handler runs on an alternate stack: the fiber's own may be exhausted.
  static thread_local std::vector<char> alt(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, nullptr);
}

void entry(ctx::transfer_t t) {
  running.caller = t.fctx;
  Fiber* f = static_cast<Fiber*>(t.data);
  try {
    f->body();
    f->status = Status::finished;
  } catch (const std::exception& e) {
    f->status = Status::faulted;
    f->fault = e.what();
  } catch (...) {
    f->status = Status::faulted;
    f->fault = "unknown exception";
  }
  ctx::jump_fcontext(running.caller, nullptr);  // never resumed again
}

}  // namespace

struct FiberPool::Impl {
  std::size_t stack_bytes;
  std::vector<Stack> stacks;  // all stacks ever mapped
  std::vector<std::size_t> free_stacks;
  // fibers[0, live) are this round's; the rest are kept for reuse after reset().
  std::vector<std::unique_ptr<Fiber>> fibers;
  std::size_t live = 0;

  Fiber& at(Id id) const {
    if (id >= live) throw std::out_of_range("no fiber " + std::to_string(id));
    return *fibers[id];
  }

  std::size_t take_stack() {
    if (!free_stacks.empty()) {
      std::size_t s = free_stacks.back();
      free_stacks.pop_back();
      return s;
    }
    const std::size_t guard = page_size();
    void* base = mmap(nullptr, stack_bytes + guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                      -1, 0);
    if (base == MAP_FAILED) throw std::runtime_error("cannot map a fiber stack");
    if (mprotect(base, guard, PROT_NONE) != 0) throw std::runtime_error("cannot protect a fiber stack's guard page");
    stacks.push_back({base, stack_bytes + guard});
    return stacks.size() - 1;
  }
};

FiberPool::FiberPool(std::size_t stack_bytes) : impl_(std::make_unique<Impl>()) {
  const std::size_t p = page_size();
  impl_->stack_bytes = (stack_bytes + p - 1) / p * p;
  install_handlers();
}

FiberPool::~FiberPool() {
  for (const Stack& s : impl_->stacks) munmap(s.base, s.bytes);
}

FiberPool::Id FiberPool::create(std::function<void()> body) {
  if (impl_->live == impl_->fibers.size()) impl_->fibers.push_back(std::make_unique<Fiber>());
  Fiber* f = impl_->fibers[impl_->live].get();
  f->body = std::move(body);
  f->status = Status::ready;
  f->fault.clear();
  f->stack = impl_->take_stack();
  const Stack& s = impl_->stacks[f->stack];
  f->top = s.top();
  impl_->stacks[f->stack].clear(std::min<std::size_t>(clear_bytes, s.bytes - page_size()));
  impl_->stacks[f->stack].used = true;
  f->context = ctx::make_fcontext(s.top(), s.bytes - page_size(), entry);
  return static_cast<Id>(impl_->live++);
}

Status FiberPool::resume(Id id) {
  Fiber* f = &impl_->at(id);
  if (f->status == Status::finished || f->status == Status::faulted) return f->status;
  Fiber* outer = running.fiber;
  ctx::fcontext_t outer_caller = running.caller;
  running.fiber = f;
  if (sigsetjmp(running.fault_jump, 0) == 0) {
    const bool first = f->status == Status::ready;
    f->status = Status::suspended;
    ctx::transfer_t t = ctx::jump_fcontext(f->context, first ? static_cast<void*>(f) : nullptr);
    f->context = t.fctx;
  } else {
    // A signal inside the fiber: abandon it.
    f->status = Status::faulted;
    f->fault = signal_name(running.signal);
    f->context = nullptr;
  }
  running.fiber = outer;
  running.caller = outer_caller;
  return f->status;
}

void FiberPool::suspend() {
  if (running.fiber == nullptr) throw std::logic_error("FiberPool::suspend outside a fiber");
  ctx::transfer_t t = ctx::jump_fcontext(running.caller, nullptr);
  running.caller = t.fctx;
}

bool FiberPool::inside() { return running.fiber != nullptr; }
const void* FiberPool::stack_top() { return running.fiber ? running.fiber->top : nullptr; }

Status FiberPool::status(Id id) const { return impl_->at(id).status; }
const std::string& FiberPool::fault(Id id) const { return impl_->at(id).fault; }
std::size_t FiberPool::size() const { return impl_->live; }

void FiberPool::reset() {
  for (std::size_t k = 0; k < impl_->live; ++k) impl_->free_stacks.push_back(impl_->fibers[k]->stack);
  impl_->live = 0;
}

}  // namespace scopesim::fiber
