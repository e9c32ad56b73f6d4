#include "sim/fiber/fiber_pool.hpp"

#include <boost/context/detail/fcontext.hpp>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <ucontext.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <sys/mman.h>
#include <unistd.h>

// The switches call Boost.Context's functions through their GOT entries, not
// through a PLT stub as well (an instruction less a switch).
namespace boost::context::detail {
extern "C" [[gnu::noplt]] transfer_t jump_fcontext(fcontext_t const to, void* vp);
extern "C" [[gnu::noplt]] fcontext_t make_fcontext(void* sp, std::size_t size, void (*fn)(transfer_t));
}  // namespace boost::context::detail

namespace scopesim::fiber {

namespace ctx = boost::context::detail;

namespace {

std::size_t page_size() {
  static const std::size_t p = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

// Why the system refused a stack: errno's text, and the limit that a run of
// many threads meets first (each stack takes up to three mappings).
std::string cannot(const char* what) {
  std::string s = std::string("cannot ") + what + ": " + std::strerror(errno);
  if (std::FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
    long n = 0;
    if (std::fscanf(f, "%ld", &n) == 1)
      s += " (the system allows " + std::to_string(n) + " memory mappings, vm.max_map_count, and each fiber stack takes up to three)";
    std::fclose(f);
  }
  return s;
}

// Maps `total` bytes for a stack whose lowest page is a guard (no access), or
// throws, naming `what` ("a fiber stack").
char* map_guarded(std::size_t total, const char* what) {
  const std::string map = std::string("map ") + what, protect = std::string("protect the guard page of ") + what;
  void* b = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (b == MAP_FAILED) throw std::runtime_error(cannot(map.c_str()));
  if (mprotect(b, page_size(), PROT_NONE) != 0) {
    const std::string why = cannot(protect.c_str());
    munmap(b, total);
    throw std::runtime_error(why);
  }
  return static_cast<char*>(b);
}

// Zeroes [low, low + n) with wide stores, a chunk of `zero_step` bytes at a
// time (the open part of a stack that did not trip is one chunk). Not memset:
// from 2 KB glibc clears with `rep stosb`, which callgrind counts one
// instruction a byte. `low` and `n` are multiples of zero_step. With AVX2
// where the processor has it, chosen by a flag, not by the compiler's
// clones: a static executable runs their resolver before the profile's
// counters of a build instrumented for one (SCOPESIM_PGO) can be written,
// and faulted there.
constexpr std::size_t zero_step = 2048;
using Words = std::uint64_t __attribute__((vector_size(32), may_alias));
[[gnu::always_inline]] inline void zero_chunks(char* low, std::size_t n) {
  for (std::size_t k = 0; k < n; k += zero_step) {
    Words* w = reinterpret_cast<Words*>(low + k);
#pragma GCC unroll 64
    for (std::size_t i = 0; i < zero_step / sizeof(Words); ++i) {
      w[i] = Words{};
      asm("" : : : "memory");  // (else the compiler makes the loop a call of memset)
    }
  }
}
[[gnu::target("avx2")]] void zero_avx2(char* low, std::size_t n) { zero_chunks(low, n); }
void zero_plain(char* low, std::size_t n) { zero_chunks(low, n); }
const bool has_avx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();
void zero(char* low, std::size_t n) {
  if (has_avx2)
    zero_avx2(low, n);
  else
    zero_plain(low, n);
}

// A fiber's stack: an mmap'd range with a guard page at its lowest address.
// Invariant: when a fiber (create()) starts on it, its outermost `region`
// bytes (where a fiber's own frames live) are zero, so that what a fiber
// finds in a slot it has not written yet is the same in every run (the local
// state that spin-assume compares, semantics.md "Spin loops and progress").
// To restore that without reading the whole region after every fiber, only
// its outermost `reach` bytes are open; the rest of the region is closed
// (PROT_NONE), a tripwire: a fiber that touches it faults once, the fault
// handler opens it and marks the stack `tripped`. So a stack that did not
// trip was written only in its open part, and only that part is cleared;
// one that tripped is cleared whole, and its reach widened to where
// its fiber first touched the closed part, and by a page at least. (Not to
// all its fiber wrote: a deep fiber is often a one-off, a first call that
// formats a text, and would leave the stack wide for every fiber after it; a
// fiber that comes back as deep trips again, once for each page it newly
// reaches, at most. Rare deep work that recurs, its user can do aside().)
// Protection goes by whole pages, so the open part ends at a page boundary;
// the top lies `opening` bytes above one, not at one, so that what is
// cleared after a fiber that writes less than that is less than a page. The
// opening holds what the fibers of the shipped models write (most of them
// 512 bytes, few more than 2 KB), so a trip stays rare. It has to: under
// valgrind, a push or call that faults is resumed with its stack pointer
// already moved, and under callgrind (which keeps only the stack pointer
// exact at a memory access) any faulting access is resumed from the start of
// its block, so a trip can derail a run measured there. (Hence too the
// executables link with -z now: a lazy binding, the first call of a shared
// library's function, saves the vector registers in a frame of a kilobyte or
// more on the fiber's stack.)
struct Stack {
  static constexpr std::size_t opening = 2 * 1024;
  char* base = nullptr;          // lowest address: the guard page
  std::size_t bytes = 0;         // the mapping, guard page included
  char* top = nullptr;           // where a fiber's stack pointer starts, `opening` above a page boundary
  std::size_t region = 0;        // the outermost bytes that start zeroed
  std::size_t reach = 0;         // of them, the outermost that are open: `opening` and whole pages below, or all
  volatile sig_atomic_t tripped = 0;  // a fiber touched the closed part (opened since)
  const char* touched = nullptr;      // where it did first

  // The closed part: the whole pages below the open part that hold some of the region.
  char* closed_low() const {
    const std::size_t p = page_size();
    return base + static_cast<std::size_t>(top - region - base) / p * p;
  }
  std::size_t closed() const { return reach < region ? static_cast<std::size_t>(top - reach - closed_low()) : 0; }
  bool in_closed(const void* a) const {
    auto c = static_cast<const char*>(a);
    return closed() > 0 && !tripped && c >= closed_low() && c < closed_low() + closed();
  }
  // The reach that leaves the outermost `b` bytes open.
  std::size_t reach_for(std::size_t b) const {
    const std::size_t p = page_size();
    return std::min(region, b <= opening ? opening : opening + (b - opening + p - 1) / p * p);
  }

  void map(std::size_t usable) {
    // (A page more than asked: the top lies inside the last one.)
    const std::size_t guard = page_size();
    const std::size_t total = guard + usable + page_size();
    base = map_guarded(total, "a fiber stack");
    bytes = total;
    top = base + guard + usable + opening;
    region = std::min(FiberPool::zeroed_bytes, usable);
    reach = reach_for(0);
    close();
  }
  // (Should the system refuse, the whole region stays open and is cleared whole.)
  void close() {
    if (closed() > 0 && mprotect(closed_low(), closed(), PROT_NONE) != 0) reach = region;
  }
  // From the fault handler: the running fiber touched the closed part. False:
  // it could not be opened (then the access is a fault).
  bool trip(const void* at) {
    if (mprotect(closed_low(), closed(), PROT_READ | PROT_WRITE) != 0) return false;
    touched = static_cast<const char*>(at);
    tripped = 1;
    return true;
  }

  // Restores the invariant: the part the fibers before may have written is
  // cleared whole, unread. (Finding the zeros below its lowest write first
  // would read each of them with one instruction for as many bytes as a
  // store clears: most fibers write only the top of the open part, and the
  // check cost more than the stores it saved. Nor is it asked whether a
  // fiber was made on it since: on every stack but a fresh one, one was.)
  void clear() {
    const std::size_t n = tripped ? region : reach;
    zero(top - n, n);
    if (tripped) [[unlikely]]
      widen();
  }
  // After a trip: the reach widened, the rest closed again. (Out of line: a
  // trip is rare, and create() saves no registers for this.)
  [[gnu::noinline, gnu::cold]] void widen() {
    reach = std::max(reach_for(reach + page_size()), reach_for(static_cast<std::size_t>(top - touched)));
    tripped = 0;
    close();
  }
};
static_assert(Stack::opening % zero_step == 0);

struct Fiber {
  ctx::fcontext_t context = nullptr;
  FiberPool::Body body = nullptr;
  void* body_context = nullptr;
  Status status = Status::ready;
  Stack stack;  // this fiber's, and that of every fiber with its id after a reset
  std::string fault;
};

// Per OS thread: who runs now, and where to return: its resumer's context
// (`caller`), where a fault or an overrun jumps too, from its handler, with
// the `signal` that stopped the fiber (and `library_pc`, where in a system
// library, if there: Status::stranded).
// `slice` counts resumes and passes (pass_to()): a slice is the thread's
// time from one to the next, in a fiber until it suspends or passes on.
// `limit` tells the watchdog (below) how long a slice may last; the
// watchdog asks the thread to stop the fiber
// of slice `stop` (SIGXCPU), which it does only if that fiber still runs.
// A stop that finds the fiber inside a system library is put off (see
// on_overrun()): the thread's `retry` timer asks again shortly, up to
// kDeclines times in one slice (`declined` of slice `declining`).
// (Trivially destructible, so that a use needs no check that it is made.)
struct Running {
  Fiber* fiber = nullptr;
  ctx::fcontext_t caller = nullptr;
  volatile sig_atomic_t signal = 0;
  std::uintptr_t library_pc = 0;  // where in a system library it stopped the fiber, if there
  std::atomic<std::uint64_t> slice{0};
  std::atomic<double> limit{0};
  std::atomic<std::uint64_t> stop{~std::uint64_t{0}};
  timer_t retry{};
  bool can_retry = false;  // (retry made)
  std::uint64_t declining = ~std::uint64_t{0};
  unsigned declined = 0;
  std::uint64_t trips = 0;  // FiberPool::trips()
};
// Stops put off in one slice before the fiber is stopped wherever it is, and
// how soon each is asked again: some 4 s in all.
constexpr unsigned kDeclines = 20000;
constexpr long kRetryNanoseconds = 200000;
thread_local Running running;

// Stops fibers that overrun their slice limit: one thread for the process,
// started by the first thread given a limit, that wakes every 50 ms and reads
// each watched thread's CPU-time clock. A thread whose `slice` has not moved
// for longer than its limit is sent SIGXCPU, once a slice; its handler stops
// the fiber only if one of that slice still runs (not if the thread has
// since returned to its own code).
class Watchdog {
 public:
  static Watchdog& get() {
    static Watchdog* w = new Watchdog;  // never destroyed: its thread runs to the process's end
    return *w;
  }
  // Watches the calling thread, once, until it ends.
  void watch(Running* r) {
    // Ends the watch as the thread ends.
    thread_local struct Watch {
      Running* r = nullptr;
      ~Watch() {
        if (!r) return;
        get().unwatch(r);
        if (r->can_retry) {
          r->can_retry = false;
          timer_delete(r->retry);
        }
      }
    } watch;
    if (watch.r) return;
    // The thread's retry timer (on_overrun()): SIGXCPU to this thread alone.
    sigevent to_me{};
    to_me.sigev_notify = SIGEV_THREAD_ID;
    to_me.sigev_signo = SIGXCPU;
#ifdef sigev_notify_thread_id
    to_me.sigev_notify_thread_id = gettid();
#else
    to_me._sigev_un._tid = gettid();  // (a C library that does not name it yet)
#endif
    r->can_retry = timer_create(CLOCK_MONOTONIC, &to_me, &r->retry) == 0;
    std::lock_guard lock(mutex_);
    Watched w{r, pthread_self(), {}};
    if (pthread_getcpuclockid(w.thread, &w.clock) != 0) return;
    watched_.push_back(w);
    watch.r = r;
    if (!started_) {
      started_ = true;
      std::thread([this] { loop(); }).detach();
    }
  }
  void unwatch(Running* r) {
    std::lock_guard lock(mutex_);
    std::erase_if(watched_, [r](const Watched& w) { return w.running == r; });
  }

 private:
  struct Watched {
    Running* running;
    pthread_t thread;
    clockid_t clock;
    std::uint64_t slice = ~std::uint64_t{0};  // the slice seen running since `since`
    double since = 0;                          // (CPU seconds of the thread)
    std::uint64_t sent = ~std::uint64_t{0};   // the slice it was asked to stop
  };
  void loop() {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      std::lock_guard lock(mutex_);
      for (Watched& w : watched_) {
        timespec ts{};
        if (clock_gettime(w.clock, &ts) != 0) continue;
        const double now = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
        const std::uint64_t slice = w.running->slice.load(std::memory_order_relaxed);
        const double limit = w.running->limit.load(std::memory_order_relaxed);
        if (slice != w.slice || limit <= 0) {
          w.slice = slice;
          w.since = now;
        } else if (now - w.since >= limit && w.sent != slice) {
          w.sent = slice;
          w.running->stop.store(slice, std::memory_order_relaxed);
          pthread_kill(w.thread, SIGXCPU);
        }
      }
    }
  }
  std::mutex mutex_;
  std::vector<Watched> watched_;
  bool started_ = false;
};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "segmentation fault (invalid memory access or stack overflow)";
    case SIGBUS: return "bus error";
    case SIGFPE: return "arithmetic fault (e.g. integer division by zero)";
    case SIGILL: return "illegal instruction";
    case SIGABRT: return "aborted (a failed assert, or abort())";
    default: return "signal";
  }
}

// The executable code of the system's libraries (the C and C++ runtimes, the
// dynamic loader), as loaded when the first handlers were installed: a
// fiber stopped there may hold one of their locks (malloc's arena, a
// stream's), and the thread, going on without it, would wait for that lock
// forever. (A static build has its runtime inside the executable: none.)
struct LibraryCode {
  static constexpr std::size_t most = 32;
  std::uintptr_t low[most], high[most];
  std::size_t n = 0;
  bool holds(std::uintptr_t pc) const {
    for (std::size_t k = 0; k < n; ++k)
      if (pc >= low[k] && pc < high[k]) return true;
    return false;
  }
};
LibraryCode library_code;

void find_library_code() {
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) {
        const std::string_view name = info->dlpi_name ? info->dlpi_name : "";
        const auto base = name.substr(name.rfind('/') + 1);
        if (!base.starts_with("libc.so") && !base.starts_with("libstdc++.so") && !base.starts_with("libm.so") &&
            !base.starts_with("libgcc_s.so") && !base.starts_with("ld-linux"))
          return 0;
        for (int k = 0; k < info->dlpi_phnum && library_code.n < LibraryCode::most; ++k) {
          const ElfW(Phdr)& h = info->dlpi_phdr[k];
          if (h.p_type != PT_LOAD || (h.p_flags & PF_X) == 0) continue;
          library_code.low[library_code.n] = info->dlpi_addr + h.p_vaddr;
          library_code.high[library_code.n] = info->dlpi_addr + h.p_vaddr + h.p_memsz;
          ++library_code.n;
        }
        return 0;
      },
      nullptr);
}

std::uintptr_t interrupted_at(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

// From a handler: back to the running fiber's resumer, which abandons it (the
// handler's context is never resumed). Like a longjmp out of the handler,
// without a sigreturn: the handlers block no signal (SA_NODEFER, empty mask).
// `context`: where the fiber was, which strands it if inside a system
// library. (Not for SIGABRT: abort() releases its locks before it raises the
// signal, and a kernel's failed assert() stops there.)
[[noreturn]] void stop_fiber(int sig, const void* context) {
  running.signal = sig;
  const std::uintptr_t pc = interrupted_at(context);
  running.library_pc = sig != SIGABRT && library_code.holds(pc) ? pc : 0;
  ctx::jump_fcontext(running.caller, &running);
  __builtin_unreachable();
}

void on_fault(int sig, siginfo_t* info, void* context) {
  if (running.fiber != nullptr && sig == SIGSEGV && running.fiber->stack.in_closed(info->si_addr) &&
      running.fiber->stack.trip(info->si_addr)) {
    ++running.trips;
    return;  // the access runs again, on an open page
  }
  if (running.fiber == nullptr) {
    // Not a kernel fault: restore the default action and let it happen.
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  stop_fiber(sig, context);
}

void on_overrun(int, siginfo_t*, void* context) {
  // Not the slice the watchdog saw overrun (it has since ended): nothing to stop.
  const std::uint64_t slice = running.slice.load(std::memory_order_relaxed);
  if (running.fiber == nullptr || slice != running.stop.load(std::memory_order_relaxed)) return;
  // Inside a system library: asked again shortly (a loop that runs code of
  // its own between its calls is stopped there), until kDeclines.
  if (running.can_retry && library_code.holds(interrupted_at(context))) {
    if (running.declining != slice) {
      running.declining = slice;
      running.declined = 0;
    }
    if (++running.declined < kDeclines) {
      const itimerspec soon{{0, 0}, {0, kRetryNanoseconds}};
      timer_settime(running.retry, 0, &soon, nullptr);  // (async-signal-safe)
      return;
    }
  }
  stop_fiber(SIGXCPU, context);
}

// The fiber an OS thread probes its allocator on (allocator_answers()),
// its stack mapped at its first probe. (Made as handlers are installed: its
// destructor is registered then, with an allocation, not after an abort().)
struct Probe {
  static constexpr std::size_t stack_bytes = 64 * 1024;
  Fiber fiber;
  bool probing = false;
  ~Probe() {
    if (fiber.stack.base != nullptr) munmap(fiber.stack.base, fiber.stack.bytes);
  }
};
thread_local Probe probe;

void install_handlers() {
  thread_local bool done = false;
  if (done) return;
  done = true;
  probe.probing = false;
  static std::once_flag found;
  std::call_once(found, find_library_code);
  // The handler runs on an alternate stack: the fiber's own may be exhausted.
  // (Left unwritten, as a stack needs.)
  constexpr std::size_t alt_bytes = std::size_t{1} << 16;
  static thread_local std::unique_ptr<char[]> alt = std::make_unique_for_overwrite<char[]>(alt_bytes);
  stack_t ss{};
  ss.ss_sp = alt.get();
  ss.ss_size = alt_bytes;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  // SIGABRT too: glibc's abort() unlocks and resets its stage before it raises
  // the signal, so a handler that jumps out of it leaves abort() usable again.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
  // SIGXCPU: the watchdog's request; system calls it interrupts go on.
  sa.sa_sigaction = on_overrun;
  sa.sa_flags |= SA_RESTART;
  sigaction(SIGXCPU, &sa, nullptr);
}

// A fiber runs, from its start or on, handed `t`: by its resumer (the data
// is the fiber itself), whose context it keeps as the one to suspend to, or by
// a fiber that passed on to it (FiberPool::pass_to(); the data is that
// fiber), whose context goes back into that fiber's record.
void took_over(ctx::transfer_t t) {
  if (t.data == running.fiber) [[likely]]
    running.caller = t.fctx;
  else
    static_cast<Fiber*>(t.data)->context = t.fctx;
}

// Fiber `f`'s body threw: `why`. (Out of line: entry() then keeps no more
// than the fiber across its body.)
[[gnu::noinline, gnu::cold]] void faulted(Fiber& f, const char* why) {
  f.status = Status::faulted;
  f.fault = why;
}

// A fiber's first run: by its resumer or by a fiber that passed on to it
// (took_over() tells which).
void entry(ctx::transfer_t t) {
  took_over(t);
  Fiber* f = running.fiber;
  try {
    f->body(f->body_context);
    f->status = Status::finished;
  } catch (const std::exception& e) {
    faulted(*f, e.what());
  } catch (...) {
    faulted(*f, "unknown exception");
  }
  ctx::jump_fcontext(running.caller, nullptr);  // never resumed again
}

// A call of FiberPool::aside(): its body runs on the aside stack, then
// returns to `back` (the fiber's context) with what it threw, if anything.
struct Aside {
  FiberPool::Body body = nullptr;
  void* context = nullptr;
  ctx::fcontext_t back = nullptr;
  std::exception_ptr thrown;
};
// The stack the OS thread's calls of FiberPool::aside() run on, one at a
// time (a nested call runs in place): mapped at its first use, with a guard
// page below; each call starts at its top.
struct AsideStack {
  char* base = nullptr;
  std::size_t bytes = 0;
  ~AsideStack() {
    if (base) munmap(base, bytes);
  }
  bool holds(const void* a) const {
    auto c = static_cast<const char*>(a);
    return c >= base && c < base + bytes;
  }
};
thread_local AsideStack aside_stack;

void aside_entry(ctx::transfer_t t) {
  Aside* a = static_cast<Aside*>(t.data);
  a->back = t.fctx;
  try {
    a->body(a->context);
  } catch (...) {
    a->thrown = std::current_exception();
  }
  ctx::jump_fcontext(a->back, nullptr);  // never resumed again: the next aside() makes its context anew
}

// A slice starts (Running).
void next_slice() {
  // (Only this thread writes `slice`: no atomic read-modify-write needed.)
  running.slice.store(running.slice.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}


// Text written out before anything that may wait on a library's lock (no
// allocation, no stream), for a signal handler to write.
struct Text {
  char text[512];
  std::size_t n = 0;
  void add(const char* s) {
    while (*s != '\0' && n < sizeof text - 1) text[n++] = *s++;
  }
  void write_out() const {
    ssize_t w = write(STDERR_FILENO, text, n);
    (void)w;  // (nothing to do if it fails: the process ends either way)
  }
};

// The last resort: SIGALRM's handler writes why and ends the process (exit
// code 2). Once a fiber is stranded (Status::stranded), `armed` for good,
// with `stranded` written; while the allocator is probed after an abort()
// (allocator_answers()), for as long as a probe lasts (`probes` under way
// in the process), with `unanswered`.
struct LastWords {
  std::atomic<bool> armed{false};
  Text stranded;
  Text unanswered;  // (written once, before the first probe: probe_text)
  std::once_flag probe_text;
  std::mutex alarm;  // over alarm() and `probes`: no probe ends another's alarm, or the stranded one
  int probes = 0;
};
LastWords last_words;

void on_last_resort(int) {
  (last_words.armed ? last_words.stranded : last_words.unanswered).write_out();
  _exit(2);
}

void catch_alarm() {
  struct sigaction sa {};
  sa.sa_handler = on_last_resort;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, nullptr);
}

// Arms the last resort for a fiber stranded `why` (a signal's name): once in
// the process, by the first thread stranded.
void arm_last_resort(const char* why) {
  if (last_words.armed.exchange(true)) return;
  Text& t = last_words.stranded;
  t.add(program_invocation_short_name);
  t.add(": error: a simulated thread stopped inside a system library (");
  t.add(why);
  t.add("), which it may have left holding a lock: the process could not end by itself and ends here\n");
  catch_alarm();
  std::lock_guard lock(last_words.alarm);
  alarm(FiberPool::stranded_grace_seconds);
}

// Where in a system library `pc` lies: its function and file, as far as the
// loader knows them.
std::string library_place(std::uintptr_t pc) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(pc), &info) == 0 || info.dli_fname == nullptr) return "a system library";
  const std::string_view file = info.dli_fname;
  const std::string base(file.substr(file.rfind('/') + 1));
  return info.dli_sname != nullptr ? std::string(info.dli_sname) + " of " + base : base;
}

// A handler stopped fiber `f` (stop_fiber()) inside a system library.
// (Out of line: see abandon().)
[[gnu::noinline, gnu::cold]] void strand(Fiber& f) {
  const bool overran = running.signal == SIGXCPU;
  const char* why = overran ? "stopped at its CPU-time limit" : signal_name(running.signal);
  arm_last_resort(why);  // (first: what follows allocates)
  f.status = Status::stranded;
  f.fault = std::string(overran ? "ran past its CPU-time limit" : "faulted") + " inside " +
            library_place(running.library_pc) + (overran ? "" : std::string(": ") + why);
}

inline Status run(Fiber* f);

// After an abort() in a fiber: can the C library's allocator still allocate
// and free a block too large for its per-thread cache? The library aborts
// when it finds its heap damaged, at times holding its lock, which the
// aborted fiber never releases: the thread's next allocation would wait on
// it forever. So the probe runs on a fiber of its own under the last resort
// (a wait ends the process, with why), and a fault or an abort() there
// answers no. (Nothing here allocates.)
bool allocator_answers() {
  if (probe.probing || last_words.armed) return true;  // (the probe's own abort: its prober tells; stranded: ending)
  std::call_once(last_words.probe_text, [] {
    Text& t = last_words.unanswered;
    t.add(program_invocation_short_name);
    t.add(": error: a simulated thread aborted (a failed assert, abort(), or the C library's own on its heap, "
          "damaged by a write past the end of an allocation or a double free), and the library's allocator then "
          "never answered: the process could not go on and ends here\n");
  });
  catch_alarm();
  {
    std::lock_guard lock(last_words.alarm);
    ++last_words.probes;
    alarm(FiberPool::stranded_grace_seconds);
  }
  Fiber& f = probe.fiber;
  Status s = Status::finished;  // (no stack to probe on, its error allocating: as if it answered)
  try {
    if (f.stack.base == nullptr) f.stack.map(Probe::stack_bytes);
    f.body = [](void*) {
      void* volatile block = std::malloc(16 * 1024);
      std::free(block);
    };
    f.status = Status::ready;
    f.context = ctx::make_fcontext(f.stack.top, Probe::stack_bytes, entry);
    probe.probing = true;
    s = run(&f);
  } catch (const std::exception&) {
  }
  probe.probing = false;
  {
    std::lock_guard lock(last_words.alarm);
    if (--last_words.probes == 0 && !last_words.armed) alarm(0);
  }
  return s == Status::finished;
}

// A handler stopped fiber `f` (stop_fiber()): it is abandoned, and why kept.
// (Out of line, with its texts: resume() saves no registers for them.)
[[gnu::noinline, gnu::cold]] void abandon(Fiber& f) {
  // After an abort(), first (nothing allocates before it): the C library
  // may have aborted on its own heap, damaged, with its allocator's lock held.
  if (running.signal == SIGABRT && !allocator_answers()) {
    arm_last_resort(signal_name(SIGABRT));  // (first: what follows allocates)
    f.status = Status::stranded;
    f.fault = std::string(signal_name(SIGABRT)) +
              ", and the C library's allocator then failed: its heap is damaged (a write past the end of an "
              "allocation, or a double free)";
  } else if (running.library_pc != 0) {
    strand(f);
  } else if (running.signal == SIGXCPU) {
    // The watchdog stopped it.
    f.status = Status::overran;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", running.limit.load(std::memory_order_relaxed));
    f.fault = std::string("ran ") + seconds + " s of CPU time without returning to its resumer";
  } else {
    // A signal inside the fiber.
    f.status = Status::faulted;
    f.fault = signal_name(running.signal);
  }
  f.context = nullptr;
}

// suspend() where no fiber runs. (Out of line, with its text: see abandon().)
[[noreturn, gnu::noinline, gnu::cold]] void suspend_outside() {
  throw std::logic_error("FiberPool::suspend outside a fiber");
}

// limit_slices() to a limit other than the thread's. (Out of line: a run
// mostly sets the one there, and limit_slices() saves no registers for this.)
[[gnu::noinline]] void change_limit(double seconds) {
  install_handlers();  // (SIGXCPU's default action would end the process)
  running.limit.store(seconds, std::memory_order_relaxed);
  if (seconds > 0) Watchdog::get().watch(&running);
}

}  // namespace

struct FiberPool::Impl {
  std::size_t stack_bytes;
  // fibers[0, live) are this round's; the rest are kept for reuse after
  // reset(). A fiber record keeps its stack: the fiber with id k runs on the
  // same stack in every round.
  std::vector<std::unique_ptr<Fiber>> fibers;
  std::size_t live = 0;

  Fiber& at(Id id) const {
    if (id >= live) [[unlikely]] no_fiber(id);
    return *fibers[id];
  }
  // A fiber record more, with its stack, then `pool`'s create() of the
  // fiber on it. (Out of line, create() ending in it: past the first rounds,
  // create() reuses one, and keeps no argument across a call for this.)
  [[gnu::noinline]] Id add(FiberPool& pool, Body body, void* context) {
    auto f = std::make_unique<Fiber>();
    f->stack.map(stack_bytes);
    fibers.push_back(std::move(f));
    return pool.create(body, context);
  }
  // Fiber `id` runs on in place of the running fiber, which is returned
  // (pass_to(), end_to(): the jump to `id` is theirs).
  Fiber* pass(Id id) {
    Fiber* to = &at(id);
    if (to->status > Status::suspended || running.fiber == nullptr || to == running.fiber) [[unlikely]]
      cannot_pass(id);
    Fiber* from = running.fiber;
    running.fiber = to;
    next_slice();
    to->status = Status::suspended;  // (started, if it was not)
    return from;
  }
  // (Out of line, with its text: see abandon().)
  [[noreturn, gnu::noinline, gnu::cold]] static void no_fiber(Id id) {
    throw std::out_of_range("no fiber " + std::to_string(id));
  }
  [[noreturn, gnu::noinline, gnu::cold]] static void cannot_pass(Id id) {
    throw std::logic_error("FiberPool::pass_to fiber " + std::to_string(id) +
                           ": only a running fiber passes on, and only to one that has not ended");
  }
};

FiberPool::FiberPool(std::size_t stack_bytes) : impl_(std::make_unique<Impl>()) {
  const std::size_t p = page_size();
  impl_->stack_bytes = (stack_bytes + p - 1) / p * p;
  install_handlers();
}

FiberPool::~FiberPool() {
  for (const auto& f : impl_->fibers) munmap(f->stack.base, f->stack.bytes);
}

FiberPool::Id FiberPool::create(Body body, void* context) {
  if (impl_->live == impl_->fibers.size()) [[unlikely]]
    return impl_->add(*this, body, context);
  Fiber* f = impl_->fibers[impl_->live].get();
  f->body = body;
  f->body_context = context;
  f->status = Status::ready;
  f->fault.clear();
  f->stack.clear();
  f->context = ctx::make_fcontext(f->stack.top, impl_->stack_bytes, entry);
  return static_cast<Id>(impl_->live++);
}

namespace {
// Runs fiber `f` (not ended) until it, or a fiber it passed to, suspends,
// ends or is stopped; that fiber's status.
[[gnu::always_inline]] inline Status run(Fiber* f) {
  Fiber* outer = running.fiber;
  ctx::fcontext_t outer_caller = running.caller;
  running.fiber = f;
  next_slice();
  f->status = Status::suspended;
  // (Data there: the fiber, which took_over() tells from a fiber that
  // passed on. Data back: none when the fiber running now suspends or ends,
  // stop_fiber()'s when a handler stopped it.)
  const ctx::transfer_t t = ctx::jump_fcontext(f->context, f);
  Fiber* last = running.fiber;
  if (t.data == nullptr) [[likely]]
    last->context = t.fctx;
  else
    abandon(*last);
  running.fiber = outer;
  running.caller = outer_caller;
  return last->status;
}
}  // namespace

Status FiberPool::resume(Id id) {
  Fiber* f = &impl_->at(id);
  if (f->status >= Status::finished) return f->status;  // (it ended)
  return run(f);
}


void FiberPool::limit_slices(double seconds) {
  // (A thread's runs set one limit run after run: the first set all that it needs.)
  if (seconds == running.limit.load(std::memory_order_relaxed)) return;
  change_limit(seconds);
}

void FiberPool::progress() { next_slice(); }

void FiberPool::suspend() {
  if (running.fiber == nullptr) [[unlikely]]
    suspend_outside();
  took_over(ctx::jump_fcontext(running.caller, nullptr));
}

void FiberPool::pass_to(Id id) {
  Fiber* from = impl_->pass(id);
  // (Data there: the fiber that passed on, whose context `id` keeps.)
  took_over(ctx::jump_fcontext(running.fiber->context, from));
}

void FiberPool::end_to(Id id) {
  Fiber* from = impl_->pass(id);
  from->status = Status::finished;  // (its context, which `id` keeps, is never jumped to)
  ctx::jump_fcontext(running.fiber->context, from);
  __builtin_unreachable();
}

void FiberPool::aside(Body body, void* context) {
  AsideStack& s = aside_stack;
  // (A fault in a body abandons its fiber and the aside stack's frames with it.)
  if (running.fiber == nullptr || s.holds(__builtin_frame_address(0))) {
    body(context);
    return;
  }
  if (s.base == nullptr) {
    const std::size_t total = page_size() + default_stack_bytes;
    s.base = map_guarded(total, "a stack to work aside on");
    s.bytes = total;
  }
  Aside a{body, context, nullptr, nullptr};
  ctx::jump_fcontext(ctx::make_fcontext(s.base + s.bytes, s.bytes - page_size(), aside_entry), &a);
  if (a.thrown) std::rethrow_exception(a.thrown);
}

std::uint64_t FiberPool::trips() { return running.trips; }
bool FiberPool::inside() { return running.fiber != nullptr; }
const void* FiberPool::stack_top() { return running.fiber ? running.fiber->stack.top : nullptr; }

Status FiberPool::status(Id id) const { return impl_->at(id).status; }
const std::string& FiberPool::fault(Id id) const { return impl_->at(id).fault; }
std::size_t FiberPool::size() const { return impl_->live; }

void FiberPool::reset() { impl_->live = 0; }

}  // namespace scopesim::fiber
