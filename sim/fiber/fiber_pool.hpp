// Fibers for simulated GPU threads, on Boost.Context's fcontext: create,
// resume, suspend. Every fiber runs on its own mmap'd stack with a guard page
// below it; stacks are kept and reused across resets. A fiber that throws, or
// faults (segmentation fault, bus error, arithmetic or illegal instruction:
// also a stack overflow into the guard page) or aborts, ends as `faulted`
// with a message and is abandoned; the pool goes on (after an abort, once
// the C library's allocator has answered: see Status). So does one that runs past the pool's
// slice limit without suspending (`overran`): a loop that never returns to
// its resumer. A fiber that faults or is stopped inside a system library
// (the C or C++ runtime, the dynamic loader) ends `stranded`: the library may
// be left holding a lock, so the process has to end (see Status). Knows
// nothing of the simulator.
// One pool per OS thread; a fiber must be resumed by the thread that created it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace scopesim::fiber {

// `stranded`: the fiber faulted, or was stopped, inside a system library,
// and may have left it holding a lock (malloc's arena, a stream's) or with
// its heap damaged: nothing more can be trusted to run in the process, whose
// next allocation may wait forever. Its resumer should report and end. As a
// last resort the process ends by itself `FiberPool::stranded_grace_seconds`
// later (exit code 2, why on stderr, written by a signal handler that needs no
// lock), so that a wait on that lock is never a hang. (A static build has its
// runtime inside the executable: no code counts as a system library's.)
// A fiber that aborts is `stranded` too if the C library's allocator then
// fails (the library aborts on its heap found damaged, at times holding
// its lock): the pool asks it for a block on a fiber of its own, under the
// same last resort, before it allocates anything itself.
// (Ordered: from `finished` on, the fiber has ended.)
enum class Status : std::uint8_t { ready, suspended, finished, faulted, overran, stranded };

class FiberPool {
 public:
  using Id = std::uint32_t;
  static constexpr std::size_t default_stack_bytes = 256 * 1024;
  // A fiber starts with the outermost this many bytes of its stack zero (all
  // of a smaller stack): what it finds in a slot of its frames it has not
  // written is the same in every round.
  static constexpr std::size_t zeroed_bytes = 16 * 1024;
  static constexpr unsigned stranded_grace_seconds = 5;

  explicit FiberPool(std::size_t stack_bytes = default_stack_bytes);
  ~FiberPool();
  FiberPool(const FiberPool&) = delete;
  FiberPool& operator=(const FiberPool&) = delete;

  // What a fiber runs: body(context).
  using Body = void (*)(void* context);
  // A new fiber that runs body(context) when first resumed. Ids are dense from 0 after reset().
  Id create(Body body, void* context);
  // Runs the fiber until it (or a fiber it passed to, pass_to()) suspends,
  // finishes or faults.
  Status resume(Id id);
  Status status(Id id) const;
  // Why the fiber faulted (exception text or signal name), overran or was stranded.
  const std::string& fault(Id id) const;
  // On the calling OS thread: a fiber (of any pool) that runs `seconds` of
  // the thread's CPU time between a resume and its next suspend is stopped
  // there and abandoned (Status::overran). 0 (the default): no limit. A
  // watchdog thread checks the running fibers a few times a second, so the
  // stop comes that much later; fibers that suspend in time cost a few
  // relaxed stores a switch.
  static void limit_slices(double seconds);
  // From inside a running fiber: it reached a point its owner counts as
  // progress (where it would mostly have suspended), and its slice starts
  // over there, as at a resume: the limit bounds the time between two such
  // points, not the time a fiber runs on alone through many.
  static void progress();
  std::size_t size() const;
  // Abandons every fiber (no unwinding); their stacks go back to the pool.
  void reset();

  // From inside a running fiber: back to whoever resumed it.
  static void suspend();
  // From inside a running fiber of this pool: it suspends, and fiber `id`
  // (suspended, or not yet started) runs on in its place, one switch where
  // a suspend() and a resume() would take two. The resume() that ran the first returns once
  // the fiber running then suspends, ends or faults, with that fiber's status.
  void pass_to(Id id);
  // The same from a running fiber whose body has nothing left to do: it ends
  // there (Status::finished, as if its body had returned), and fiber `id`
  // runs on in its place, one switch where an end and a resume() would take
  // two.
  [[noreturn]] void end_to(Id id);
  // How often a fiber of the calling OS thread (of any pool) has touched the
  // closed part of its stack (fiber_pool.cpp, Stack): each time a fault, two
  // system calls, and a wider clear on that stack at every fiber after.
  // The engine keeps its texts and its deep work off the fibers' stacks: a
  // shipped model's fibers trip at most where a search's first runs grow
  // the engine's buffers.
  static std::uint64_t trips();
  // Is the caller running on a fiber of some pool?
  static bool inside();
  // The highest address of the running fiber's stack (its outermost frame
  // lies just below), or nullptr outside a fiber.
  static const void* stack_top();
  // From inside a running fiber: body(context) on a stack the OS thread keeps
  // for this, not the fiber's, then back. For rare work in deep frames (one
  // that starts an external program, say): on the fiber, it would leave the
  // stack written far down, and every later zeroed fiber on that stack would
  // clear as far (a stack's cleared part widens, never narrows). The body
  // must not suspend; an exception it throws is thrown on here. Outside a
  // fiber, or from within such a body: body(context) in place.
  static void aside(Body body, void* context);
  template <class F>
  static void aside(F&& f) {
    aside([](void* c) { (*static_cast<std::remove_reference_t<F>*>(c))(); }, &f);
  }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scopesim::fiber
