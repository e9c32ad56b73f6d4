#include "sim/engine/execution.hpp"

#include <sys/mman.h>

#include <boost/container/small_vector.hpp>
#include <boost/container/static_vector.hpp>
#include <boost/container/vector.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <bit>
#include <charconv>
#include <deque>
#include <map>
#include <memory_resource>
#include <new>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "sim/core/door.hpp"
#include "sim/core/host_api.hpp"
#include "sim/core/list_index.hpp"
#include "sim/core/lowering.hpp"
#include "sim/core/reused.hpp"
#include "sim/core/same_text.hpp"
#include "sim/core/source_position.hpp"
#include "sim/engine/streams.hpp"
#include "sim/fiber/fiber_pool.hpp"
#include "sim/model/memory_model.hpp"

namespace scopesim {

std::string Finding::key() const {
  std::string k(name(kind));
  boost::container::small_vector<const std::string*, 4> w;
  std::size_t bytes = k.size();
  for (const auto& s : where) {
    w.push_back(&s);
    bytes += 1 + s.size();
  }
  k.reserve(bytes);
  std::sort(w.begin(), w.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  for (const std::string* s : w) k.append("|").append(*s);
  return k;
}

namespace {

// Simulated memory: one reserved address range per OS thread, handed out by a
// bump allocator that starts over every run, so that addresses (and with them
// every decision) are the same in every run. Allocations are separated by
// guard zones; any access inside the range but outside a live allocation is
// out of bounds.
class Arena {
 public:
  static constexpr std::size_t bytes = std::size_t{1} << 30;
  static constexpr std::size_t guard = 64;
  Arena() {
    base_ = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (base_ == MAP_FAILED) throw std::runtime_error("cannot reserve simulated memory");
  }
  void reset() { next_ = guard; }
  // `n` bytes aligned to `align`, a power of two (null: exhausted).
  char* take(std::size_t n, std::size_t align) {
    if (align < 16) align = 16;
    std::size_t at = (next_ + align - 1) & ~(align - 1);
    if (at + n + guard > bytes) return nullptr;
    next_ = at + n + guard;
    return base_ + at;
  }
  // Where `a` lies in the arena: the same for the same run on every thread's arena.
  std::uintptr_t offset(std::uintptr_t a) const { return a - reinterpret_cast<std::uintptr_t>(base_); }
  const char* base() const { return base_; }

 private:
  char* base_ = nullptr;
  std::size_t next_ = guard;
};

// The most threads a run launches in all (SimulatorLimit past it). The
// memory model keeps, for every thread, a view that spans every thread, so
// a run's memory grows with the square of its threads: a run of 13,000 took
// 12 GB; 4096 take about 1 GB.
constexpr std::uint64_t kMaxRunThreads = 4096;

// An allocation of the run. (The run's regions take the places of those of
// the run before it, Reused: clear() keeps the name, for alloc() to replace
// only where it differs, as it seldom does from run to run.)
struct Region {
  std::string name;
  std::uintptr_t begin = 0, end = 0;
  void clear() { begin = end = 0; }
};

// A read's program point, the thread's local state there, and its location.
struct SpinKey {
  std::uint64_t where, state;
  std::uintptr_t addr;
  auto operator<=>(const SpinKey&) const = default;
};

enum class State : std::uint8_t { unborn, fresh, runnable, barrier, spin, sync, wake, done };

// Thrown into a kernel to end its thread after an out-of-bounds access.
struct Fault {
  FindingKind kind;
  std::string message;
};

// The host's thread's name (SimThread::name_).
const std::string host_name = "host";

// The block of no block: stream-operation threads.
inline constexpr std::uint32_t no_block = ~std::uint32_t{0};

// The run's scratch memory (Run::scratch_): a monotonic buffer that starts
// over with each run (release()). Its containers that allocate on a read
// (spin visits) take their memory through ScratchAllocator: from the free
// part of the last block it took, inline, where a polymorphic allocator
// would make a virtual call for each. The first such block is the start of
// the buffer, set aside from the monotonic buffer's part: a run takes it
// again with no call.
class Scratch final : public std::pmr::monotonic_buffer_resource {
 public:
  Scratch(std::byte* buffer, std::size_t bytes)
      : monotonic_buffer_resource(buffer + block, bytes - block), first_(reinterpret_cast<std::uintptr_t>(buffer)) {
    release();
  }
  void* take(std::size_t bytes, std::size_t align) {
    const std::uintptr_t at = (free_ + align - 1) & ~(align - 1);
    if (at + bytes > end_) return take_block(bytes, align);
    free_ = at + bytes;
    return reinterpret_cast<void*>(at);
  }
  void release() {
    free_ = first_;
    end_ = first_ + block;
    monotonic_buffer_resource::release();
  }

 private:
  static constexpr std::size_t block = 4096;
  // A new block to take from (out of line: seldom); a request larger than a
  // quarter of one is allocated by itself.
  [[gnu::noinline]] void* take_block(std::size_t bytes, std::size_t align) {
    if (bytes > block / 4) return allocate(bytes, align);
    const auto b = reinterpret_cast<std::uintptr_t>(allocate(block, alignof(std::max_align_t)));
    free_ = b;
    end_ = b + block;
    return take(bytes, align);
  }
  std::uintptr_t first_;                // the block set aside
  std::uintptr_t free_ = 0, end_ = 0;  // of the block take() allocates in
};
template <class T>
struct ScratchAllocator {
  using value_type = T;
  explicit ScratchAllocator(Scratch* s) : scratch(s) {}
  template <class U>
  ScratchAllocator(const ScratchAllocator<U>& a) : scratch(a.scratch) {}
  T* allocate(std::size_t n) { return static_cast<T*>(scratch->take(n * sizeof(T), alignof(T))); }
  void deallocate(T*, std::size_t) {}  // (all of it at once, when the run starts over)
  bool operator==(const ScratchAllocator&) const = default;
  Scratch* scratch;
};

// A thread of the run. (The run's threads take the records of those of the
// run before it, Reused: clear() keeps the containers' capacity; `visits`,
// in the run's scratch memory, is emptied before that starts over.)
struct SimThread {
  explicit SimThread(Scratch* scratch) : visits(ScratchAllocator<std::pair<const SpinKey, Visit>>(scratch)) {}
  // "b0.t32", "host", or a stream operation's ("copy2"): where the run keeps
  // it (Run::grid_shape(), Run::op_name(), host_name), set by the thread's
  // maker.
  const std::string* name_ = nullptr;
  const std::string& name() const { return *name_; }
  bool host = false;
  OpId op = no_op;   // the stream operation this thread performs, if any
  // The host waiting (State::sync): the stream operations that must finish
  // first. (A kernel's operation waits for its grid: OpData::unfinished.)
  OpList waits_for;
  // A kernel's thread: its entry in its launch's (Run::grid_shape(), kept
  // from run to run); any other: no_coords.
  const Coords* coords = &no_coords;
  static constexpr Coords no_coords{};
  Placement place;
  std::uint32_t block = 0;
  State state = State::unborn;
  bool keyed = false;    // among the thread decision's keys (Run::pending())
  bool waiting = false;  // its bit set in Run::waiting_ (Run::pending())
  fiber::FiberPool::Id fiber = 0;
  // A stream operation's thread that is no copy: its events (the
  // operation's start; a kernel's, the wait for its grid) are known before
  // it starts, so it needs no fiber to come to them, and its steps run in
  // place, on the stack of whichever thread's decision takes them
  // (Run::run_in_place()). No fiber then.
  bool in_place = false;
  // Where run_body()'s frame ends on its fiber: the thread's own frames lie below (local_state()).
  const void* body_frame = nullptr;
  // A kernel's thread: its launch's body (one for the grid). (The host runs
  // the model's program, a copy's thread its copy: run_current(). The other
  // stream operations' threads run in place: `in_place`.)
  const KernelBody* kernel = nullptr;
  // Its event (not local) last performed or waiting to be: in the frame of
  // its perform(), read only while it is suspended there (or runs it); a
  // thread that runs in place, in its operation's record (OpData::start,
  // OpData::end). Its position is kept apart (last_where), for after
  // perform() returned.
  const Event* pending = nullptr;
  StepShape pending_shape;  // what `pending` does to shared state, for the explorer
  Where last_where;         // `pending`'s where (none: no event yet)
  std::uint64_t steps = 0;
  // Spin detection (semantics.md, "Spin loops and progress").
  std::uint64_t mods = 0;  // events other than reads so far
  std::size_t settled_reads = 0;  // of its reads, the first this many no spin wait can count any more
  // A visit is keyed (its state hashed, Run::local_state; in `visits`) only
  // once a second read comes to its spot with the same `mods`, as most reads
  // are the first at theirs: the spot's entry (in `spots`) holds the first
  // read there since `mods` last changed, and that read's state (registers,
  // then stack words), kept to be hashed if a second read comes.
  struct Visit {
    WriteId write;
    std::uint64_t mods;
    std::size_t read_index;
    bool repeated;  // a spot's entry: its visits since `mods` are keyed; else it is the only one
  };
  std::map<SpinKey, Visit, std::less<SpinKey>, ScratchAllocator<std::pair<const SpinKey, Visit>>> visits;
  // A spot's entry: the visit of its first read since `mods` changed, and
  // that read's state, in room kept from epoch to epoch and run to run.
  struct Spot {
    std::uint64_t where;
    std::uintptr_t addr;
    Visit visit;
    std::uint32_t state_words;  // of `state`, those kept (0: LocalState::caller_frame unknown)
    std::uint32_t state_capacity;  // of `state`, those it has room for
    std::unique_ptr<std::uint64_t[]> state;
  };
  // The spots' entries of the reads since `mods` last changed (an epoch),
  // by program point and location (where_key(), address): every read looks
  // its spot up, and nearly every one is the first there in its epoch and
  // makes its entry. An entry of an earlier epoch is dead: an epoch's
  // entries take the places of the one before's, and their kept states'
  // words, which they overwrite where they suffice (at one program point
  // they usually do). An epoch's entries are looked through one by one, as
  // they are mostly few; past `scanned` of them, through a table of their
  // hashes. Kept from run to run, their places too, emptied by clear().
  class Spots {
   public:
    // The entry of spot (where, addr) in the epoch of `mods`, and whether
    // it was there; a new one has the kept state of the one in its place
    // (valid until the next new one).
    std::pair<Spot*, bool> find(std::uint64_t where, std::uintptr_t addr, std::uint64_t mods) {
      if (mods != mods_) {
        mods_ = mods;
        n_ = 0;
        hashed_ = false;
      }
      const std::size_t n = n_;
      if (n > scanned) [[unlikely]]
        return find_hashed(where, addr);
      for (std::size_t k = 0; k < n; ++k)
        if (entries_[k].where == where && entries_[k].addr == addr) return {&entries_[k], true};
      return {&add(where, addr), false};
    }
    void clear() {
      n_ = 0;
      hashed_ = false;
    }

   private:
    static constexpr std::size_t scanned = 16;
    // The epoch's next entry, of spot (where, addr).
    Spot& add(std::uint64_t where, std::uintptr_t addr) {
      if (n_ == made_) [[unlikely]]
        make();
      Spot& k = entries_[n_++];
      k.where = where;
      k.addr = addr;
      return k;
    }
    // A new place for an entry, with no room for a state. (Out of line:
    // seldom past a search's first runs.)
    [[gnu::noinline]] void make() {
      entries_.emplace_back();
      ++made_;
    }
    // find() past `scanned` entries: through the table, made first where
    // it holds another epoch's. (Out of line: seldom.)
    [[gnu::noinline]] std::pair<Spot*, bool> find_hashed(std::uint64_t where, std::uintptr_t addr) {
      if (!hashed_ || 2 * (n_ + 1) > slots_.size()) {
        slots_.assign(std::bit_ceil(std::max({std::size_t{16}, slots_.size(), 4 * n_})), 0);
        for (std::size_t k = 0; k < n_; ++k)
          slots_[free_slot(entries_[k].where, entries_[k].addr)] = static_cast<std::uint32_t>(k + 1);
        hashed_ = true;
      }
      const std::size_t mask = slots_.size() - 1;
      std::size_t i = slot(where, addr) & mask;
      for (; slots_[i] != 0; i = (i + 1) & mask) {
        Spot& k = entries_[slots_[i] - 1];
        if (k.where == where && k.addr == addr) return {&k, true};
      }
      Spot& k = add(where, addr);
      slots_[i] = static_cast<std::uint32_t>(n_);
      return {&k, false};
    }
    static std::size_t slot(std::uint64_t where, std::uintptr_t addr) {
      return ((where ^ addr * 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL) >> 32;
    }
    // The first free slot from (where, addr)'s.
    std::size_t free_slot(std::uint64_t where, std::uintptr_t addr) const {
      const std::size_t mask = slots_.size() - 1;
      std::size_t i = slot(where, addr) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      return i;
    }
    std::vector<Spot> entries_;  // the epoch's first (n_ of them), then dead ones
    std::size_t made_ = 0;  // entries_.size(), counted apart (a size is a division by an entry's)
    std::size_t n_ = 0;
    std::uint64_t mods_ = 0;  // the epoch's `mods`
    // Invariant: where set, slots_ holds the epoch's entries (find_hashed()).
    bool hashed_ = false;
    // Open addressing: 1 + an index into entries_, 0 where free; a power of
    // two, at least twice as many as the entries.
    std::vector<std::uint32_t> slots_;
  } spots;
  // Every read, in order: its location and how many writes to it existed then.
  // (Boost.Container vectors: their emplace_back() is inline, but for its
  // growth, where std::vector's push_back() may be a call.)
  boost::container::vector<std::pair<std::uintptr_t, std::size_t>> reads;
  boost::container::vector<std::size_t> read_steps;  // the step of each read (Step::unknown: none), for the explorer
  std::vector<std::pair<std::uintptr_t, std::size_t>> waiting_for;  // (addr, writes then)
  std::uint64_t barriers_passed = 0;
  std::uint64_t lane_value = 0;  // warp collective: the value given, then the result
  bool reported_spin = false;
  // Back to a new SimThread but for its name: every other field above, but
  // `visits`, which Run::begin() empties (see above), and `pending_shape`,
  // which each event writes (Run::note_shape()) before a thread decision
  // may read it.
  // (The containers first: the fields after them, most of which the
  // thread's maker sets again, are then stored once, not twice.)
  void clear() {
    waits_for.clear();
    spots.clear();
    reads.clear();
    read_steps.clear();
    waiting_for.clear();
    host = false;
    op = no_op;
    coords = &no_coords;
    place = Placement{};
    block = 0;
    state = State::unborn;
    keyed = false;
    waiting = false;
    fiber = 0;
    in_place = false;
    body_frame = nullptr;
    kernel = nullptr;
    pending = nullptr;
    last_where = Where{};
    steps = 0;
    mods = 0;
    settled_reads = 0;
    barriers_passed = 0;
    lane_value = 0;
    reported_spin = false;
  }
};

struct Block {
  OpId grid = no_op;  // the kernel launch it belongs to
  bool launched = false;  // its kernel started: it may be dispatched
  bool dispatched = false;
  std::uint32_t first = 0, count = 0;
  std::uint32_t live = 0;
  // The thread that exited having passed the fewest barriers.
  bool exited_early = false;
  ThreadId first_exit = 0;
  std::uint64_t first_exit_barriers = 0;
  std::uint64_t most_barriers = 0;  // the most barriers any of its threads passed
  std::vector<ThreadId> arrived;
  Where barrier_where;
  // (A run's blocks take the records of those of the run before, Reused:
  // `arrived` keeps its capacity.)
  void clear() {
    grid = no_op;
    launched = dispatched = exited_early = false;
    first = count = live = 0;
    first_exit = 0;
    first_exit_barriers = most_barriers = 0;
    arrived.clear();
    barrier_where = {};
  }
};

// A vector's room for more. (Out of line: seldom past a search's first runs.)
template <class T>
[[gnu::noinline, gnu::cold]] void grow(std::vector<T>& v) {
  v.reserve(2 * v.size() + 8);
}
// Appends `x` to `v`: inline, but for its growth (grow()). (For the lists a
// read appends to, where push_back(), growth and all, is otherwise a call.)
template <class T>
[[gnu::always_inline]] inline void append(std::vector<T>& v, const T& x) {
  if (v.size() == v.capacity()) [[unlikely]]
    grow(v);
  if (v.size() == v.capacity()) __builtin_unreachable();  // (push_back() grows nothing)
  v.push_back(x);
}

std::uint64_t where_key(const Where& w) {
  if (w.file != nullptr) return (reinterpret_cast<std::uintptr_t>(w.file) * 1000003ULL) ^ w.line;
  return w.pc;
}

// One run at a time. A Run is kept from one run to the next on its OS thread
// (run_once()), and begin() clears it for the next: its containers keep their
// capacity, so that a run of a tiny model allocates next to nothing. Nothing
// of a run survives into the next but capacity.
class Run final : public Door, public HostApi {
 public:
  Run() { simulate(arena_.base(), Arena::bytes); }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Runs the model once into `into` (cleared first, its buffers kept).
  void go(const models::Model& m, const models::Config& c, const RunOptions& o, Chooser& ch, RunResult& into) {
    // (Runs of one exploration name one model: another is looked up only
    // when named. The name, a few bytes, is compared in place: same_text().)
    if (mm_ == nullptr || !same_text(o.memory_model, mm_name_)) {
      MemoryModel* mm = memory_model(o.memory_model);
      if (!mm) throw std::invalid_argument("unknown memory model '" + o.memory_model + "'");
      mm_ = mm;
      mm_name_ = o.memory_model;
    }
    mm_->reset();  // (it keeps its buffers)
    begin(m, c, o, ch, into);
    fiber::FiberPool::limit_slices(o.local_time_limit);
    set_current_door(this);
    // The host program is thread 0.
    SimThread& h = new_thread();
    h.name_ = &host_name;
    h.host = true;
    h.place.host = true;
    mm_->spawn(h.place, -1);
    start_fiber(0);
    if (!stopped_) loop();
    if (!limit_.empty()) {
      set_current_door(nullptr);
      throw SimulatorLimit(m.name + " <<<" + std::to_string(c.grid) + "," + std::to_string(c.block) +
                           ">>>: the simulator cannot run it: " + limit_);
    }
    // (Erased past the run's own, not resized: a size is a division by a record's.)
    r_->log.erase(r_->log.begin() + static_cast<std::ptrdiff_t>(decisions_), r_->log.end());
    r_->steps.erase(r_->steps.begin() + static_cast<std::ptrdiff_t>(steps_), r_->steps.end());
    // Each thread decision starts a step (next_thread()), but one the
    // strategy abandons the run at: counted once here, not at each decision.
    r_->scheduling_decisions = steps_ + (r_->abandoned ? 1 : 0);
    set_current_door(nullptr);
    if (cut_) {  // no outcome and no finding of a run cut short
      r_->abandoned = r_->cut = true;
      r_->findings.clear();
      findings_ = 0;
      key_index_.clear();
    }
    finish();
    r_->findings.erase(r_->findings.begin() + static_cast<std::ptrdiff_t>(findings_), r_->findings.end());
    r_->finding_keys.resize(findings_);
    r_->finding_hashes.resize(findings_);
    finding_from_.resize(findings_);
    sizes_ = {decisions_, steps_};
    r_->filled_by = ++filled_;
  }

  // ---- Door ----
  std::uint64_t perform(const Event& e, Lowering low, LocalState local) override {
    if (is_access(e)) [[likely]]
      return perform_access(e, low, local);
    if (is_local(e)) return perform_local(e, low);
    return perform_other(e, low, local);
  }
  // An access, nearly every event, takes its step in a frame of its own with
  // the access inline; the steps of the others keep a small frame under the
  // deeper work they do (a fiber's stack stays within the part FiberPool
  // keeps open). (All three out of line: perform() itself then saves no
  // registers, and passes an event on with a jump. The dialect, which knows
  // an access for one, calls perform_access() itself: Door::perform_access().)
  [[gnu::noinline]] std::uint64_t perform_access(const Event& e, Lowering low, LocalState local) override {
    return take_step<true>(e, low, local);
  }
  [[gnu::noinline]] std::uint64_t perform_other(const Event& e, Lowering low, LocalState local) {
    return take_step<false>(e, low, local);
  }
  // A local event (is_local(): a shared array, or a fence that is no
  // fence.sc), counted and run at once, no step. (Only these two: no second
  // dispatch of execute() for them.)
  [[gnu::noinline]] std::uint64_t perform_local(const Event& e, Lowering low) {
    count_event(e);
    if (e.kind == EventKind::fence) {
      fence(e, low);
      return 0;
    }
    return shared(e);
  }
  // Event `e` of the running thread (returned) counts: towards RunOptions::cut,
  // asked every kCutEvery, and towards the thread's step bound.
  [[gnu::always_inline]] SimThread& count_event(const Event& e) {
    if (cuts_ && (++performed_ & (kCutEvery - 1)) == 0 && o_->cut()) {
      cut_ = true;
      stopped_ = true;
      fiber::FiberPool::suspend();  // never resumed: the run ends here, abandoned (go())
    }
    SimThread& t = current();
    if (++t.steps > max_steps_) past_step_bound(t, e);
    return t;
  }
  // The step of event `e` (an access: `Access`; not local), once its thread
  // is chosen.
  template <bool Access>
  [[gnu::always_inline]] std::uint64_t take_step(const Event& e, Lowering low, LocalState local) {
    SimThread& t = count_event(e);
    // Lowered once, by the caller: the step's shape and its execution read the same PtxOps.
    t.pending = &e;
    t.last_where = e.where;
    note_shape<Access>(t, low);
    // A wait is enabled only once what it waits for has finished. (A thread
    // that took the step before is runnable already, as it mostly stays.)
    if (const State s = !Access && e.kind == EventKind::wait && !wait_over(t) ? State::sync : State::runnable;
        s != t.state) {
      if (t.state == State::fresh || t.state == State::wake) --ready_count_;  // (it ran to its first event)
      t.state = s;
      pending(t, cur_, true);
    }
    if (ready_count_ == 0) {
      // No thread has local code to run (the step is over, or this thread
      // was the last that loop() ran to its first event): the thread
      // decision loop() would make next is made here, on this fiber. When
      // it picks this thread, its event runs with no switch at all.
      // (in_step_ is set once the decision is made: nothing in it asks.)
      ThreadId id = 0;
      scan_ = no_thread;  // (no thread is left to prime: the pass ends)
      const Next n = next_thread(id);
      if (n == Next::step) [[likely]] {
        in_step_ = true;
        if (threads_[id].in_place) [[unlikely]] {
          steps_in_place(id);
        } else if (id != cur_) {
          // Another thread's step: its fiber runs on from here, as loop()
          // would run it (this one runs on once chosen again, below).
          enter(id);
          pool_.pass_to(threads_[id].fiber);
        } else if ((t.steps & 63) == 0) {
          // Its steps on without a switch: the watchdog's slice starts over
          // every 64 of them (a slice bounds the thread's local code, which
          // runs between two steps, not the steps' own work).
          fiber::FiberPool::progress();
        }
      } else {
        in_step_ = false;
        decided_ = {n, id};
        fiber::FiberPool::suspend();
      }
    } else {
      // A thread with local code to run runs next, as loop() would run it,
      // from this fiber. (There is one: ready_count_ counts them.)
      in_step_ = false;
      const ThreadId id = next_to_prime();
      enter(id);
      pool_.pass_to(threads_[id].fiber);
    }
    // Chosen: run it.
    if constexpr (Access)
      return access(e, low, local);
    else
      return execute(e, low);
  }
  // In take_step(), where the thread decision chose `id`, a thread that runs
  // in place: its steps, and those after it the decisions choose for such
  // threads, are taken here (run_in_place()), until this thread is chosen,
  // as the pass of its step on to another would wait for it. (Out of line:
  // a stream operation's steps, a few a run.)
  [[gnu::noinline]] void steps_in_place(ThreadId id) {
    const ThreadId self = cur_;
    id = run_in_place(id);
    if (id == no_thread) {
      in_step_ = false;
      fiber::FiberPool::suspend();  // (resumed once chosen: loop() enters it)
    } else {
      enter(id);
      if (id != self) pool_.pass_to(threads_[id].fiber);
    }
  }
  // The thread ran past the step bound: a finding, and the run ends. (Out of
  // line, as the other cold paths of a step: see out_of_line().)
  [[gnu::noinline, gnu::cold]] void past_step_bound(const SimThread& t, const Event& e) {
    add_finding(FindingKind::non_termination,
                t.name() + " ran past the step bound of " + std::to_string(o_->max_steps) + " events at " +
                    describe(e.where),
                {t.name()}, {describe(e.where)});
    stopped_ = true;
    fiber::FiberPool::suspend();  // never resumed: the run ends here
  }
  std::uint64_t last_event() const override { return events_n_ == 0 ? 0 : events_n_ - 1; }
  void result_discarded(std::uint64_t event) override { note_unused_result(event); }

  // ---- HostApi ----
  void* alloc(std::string_view name, std::size_t bytes, std::size_t align) override {
    char* const p = arena_.take(bytes, align);
    // (Inline where the arena has room and the run before left a region in
    // this one's place, with no call but a last one: alloc() then saves no
    // registers. Else out of line.)
    if (p == nullptr || !regions_.has_left(1)) [[unlikely]]
      return alloc_far(name, bytes, p);
    return make_region(regions_.take_left(), name, bytes, p);
  }
  // The allocation `p` of `bytes` for `name` (null: the arena has no room),
  // its region made where the run before left none in its place.
  [[gnu::noinline, gnu::cold]] void* alloc_far(std::string_view name, std::size_t bytes, char* p) {
    if (p == nullptr) exhausted(name, bytes);
    return make_region(regions_.add(), name, bytes, p);
  }
  // Region `r`, new (cleared, or as the run before left it: every field but
  // its name is set here), is allocation `p` of `bytes` for `name` (returned).
  [[gnu::always_inline]] static void* make_region(Region& r, std::string_view name, std::size_t bytes, char* p) {
    // (Its bounds before its name: clear()'s stores of them are then dead, no call in between.)
    r.begin = reinterpret_cast<std::uintptr_t>(p);
    r.end = r.begin + bytes;
    if (!same_text(r.name, name)) [[unlikely]]
      return rename(r, name, p);
    return p;
  }
  // A region of the run named otherwise than the one in its place in the run
  // before, of allocation `p` (returned). (Out of line: seldom; called last,
  // alloc() saves no registers for it.)
  [[gnu::noinline, gnu::cold]] static void* rename(Region& r, std::string_view name, char* p) {
    r.name = name;
    return p;
  }
  // Simulated memory has no room for `bytes` more for `name`: a limit of the
  // simulator. (Out of line, with its text: see out_of_line().)
  [[gnu::noinline, gnu::cold]] void exhausted(std::string_view name, std::size_t bytes) {
    reach_limit("simulated memory exhausted (" + std::to_string(bytes) + " bytes for " + std::string(name) + ")");
  }
  void launch(std::string_view kernel, Dim3 grid, Dim3 block, KernelBody body, std::uint32_t stream,
              Where where) override {
    check_launch(kernel, grid, block, where);
    OpData& d = next_op(OpKind::kernel, stream, where);
    if (!same_text(d.kernel, kernel)) d.kernel = kernel;  // (as in the run before, mostly: compared in place)
    d.grid = grid;
    d.block = block;
    d.body = std::move(body);
    enqueue();
  }
  // Faults the host at a launch CUDA or the simulator would refuse. (Its
  // texts out of line: see out_of_line().)
  void check_launch(std::string_view kernel, Dim3 grid, Dim3 block, Where where) {
    // CUDA refuses such a launch (cudaErrorInvalidConfiguration): the host's
    // launch fails, a fault of the host program at the launch.
    if (const LaunchFault f = launch_fault(grid, block); f != LaunchFault::none) [[unlikely]]
      refuse_launch(kernel, grid, block, where, f);
    launched_threads_ += std::uint64_t{grid.x} * grid.y * grid.z * block.x * block.y * block.z;
    if (launched_threads_ > kMaxRunThreads) [[unlikely]]
      too_many_threads();
  }
  // Why CUDA would refuse a launch of `grid` blocks of `block` threads, if it would.
  enum class LaunchFault : std::uint8_t { none, no_block, no_thread, grid_too_large, block_too_large };
  static LaunchFault launch_fault(Dim3 grid, Dim3 block) {
    if (grid.x == 0 || grid.y == 0 || grid.z == 0) return LaunchFault::no_block;
    if (block.x == 0 || block.y == 0 || block.z == 0) return LaunchFault::no_thread;
    if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535) return LaunchFault::grid_too_large;
    if (block.x > 1024 || block.y > 1024 || block.z > 64 || std::uint64_t{block.x} * block.y * block.z > 1024)
      return LaunchFault::block_too_large;
    return LaunchFault::none;
  }
  [[noreturn, gnu::noinline, gnu::cold]] static void refuse_launch(std::string_view kernel, Dim3 grid, Dim3 block,
                                                                   Where where, LaunchFault f) {
    const auto dims = [](Dim3 d) {
      return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
    };
    std::string why;
    switch (f) {
      case LaunchFault::no_block: why = "a grid " + dims(grid) + " with no block"; break;
      case LaunchFault::no_thread: why = "a block " + dims(block) + " with no thread"; break;
      case LaunchFault::grid_too_large: why = "a grid " + dims(grid) + " beyond CUDA's (2^31-1, 65535, 65535)"; break;
      case LaunchFault::block_too_large:
      case LaunchFault::none:
        why = "a block " + dims(block) + " beyond CUDA's 1024 threads (x, y at most 1024, z at most 64)";
        break;
    }
    throw std::runtime_error("launch of " + std::string(kernel) + " at " + describe(where) + ": " + why);
  }
  [[gnu::noinline, gnu::cold]] void too_many_threads() {
    reach_limit("its launches make " + std::to_string(launched_threads_) + " threads in a run, more than the " +
                std::to_string(kMaxRunThreads) + " it runs (each thread's view spans every thread: memory grows " +
                "with the square)");
  }
  void copy(void* dst, const void* src, std::size_t count, ValueType type, std::uint32_t size, std::uint32_t stream,
            Where where) override {
    OpData& d = next_op(OpKind::copy, stream, where);
    d.dst = reinterpret_cast<std::uintptr_t>(dst);
    d.src = reinterpret_cast<std::uintptr_t>(src);
    d.count = count;
    d.type = type;
    d.size = size;
    enqueue();
  }
  std::uint32_t create_stream() override { return streams_.create_stream(); }
  std::uint32_t create_event() override { return streams_.create_event(); }
  void record_event(std::uint32_t event, std::uint32_t stream, Where where) override {
    next_op(OpKind::record, stream, where).event = event;
    enqueue();
  }
  void wait_event(std::uint32_t stream, std::uint32_t event, Where where) override {
    next_op(OpKind::wait, stream, where).event = event;
    enqueue();
  }
  void synchronize_stream(std::uint32_t stream, Where where) override {
    streams_.enqueued_in(check_stream(stream), current().waits_for);
    host_wait("cudaStreamSynchronize", where);
  }
  void synchronize_event(std::uint32_t event, Where where) override {
    streams_.recorded(check_event(event), current().waits_for);
    host_wait("cudaEventSynchronize", where);
  }
  void synchronize(Where where) override {
    streams_.enqueued(current().waits_for);
    host_wait("cudaDeviceSynchronize", where);
  }
  void observe(std::string_view name, ValueType t, std::uint64_t bits) override {
    r_->outcome.set(observed_++, name, t, bits);
  }

 private:
  // One enqueued stream operation and the thread that performs it.
  struct OpData {
    OpKind kind = OpKind::kernel;
    std::uint32_t stream = 0, event = 0;
    Where where;
    ThreadId thread = 0;
    // kernel
    std::string kernel;
    Dim3 grid, block;
    KernelBody body;
    ThreadId first_thread = 0;
    std::uint32_t threads = 0;
    std::uint32_t unfinished = 0;  // of its threads, those not done
    // Its thread's events, where that thread runs in place (SimThread::in_place):
    // the start, and a kernel's wait for its grid (its `pending` points here).
    Event start, end;
    // copy
    std::uintptr_t dst = 0, src = 0;
    std::size_t count = 0;
    ValueType type = ValueType::u32;
    std::uint32_t size = 4;
    // Back to a new operation but for the kernel's name and body, which only
    // a kernel's launch() sets (its name only where it differs, as from run
    // to run it seldom does) and only a kernel's reads: every other field.
    void clear() {
      kind = OpKind::kernel;
      stream = event = 0;
      where = Where{};
      thread = 0;
      grid = block = Dim3{};
      first_thread = 0;
      threads = unfinished = 0;
      dst = src = 0;
      count = 0;
      type = ValueType::u32;
      size = 4;
    }
  };

  // One memory model per OS thread and name (null: no model of that name).
  static MemoryModel* memory_model(const std::string& name) {
    thread_local std::map<std::string, std::unique_ptr<MemoryModel>, std::less<>> models;
    auto it = models.find(name);
    if (it == models.end()) {
      std::unique_ptr<MemoryModel> mm = make_memory_model(name);
      if (!mm) return nullptr;
      it = models.emplace(name, std::move(mm)).first;
    }
    return it->second.get();
  }

  // A load, store or RMW: nearly every event. (Asked first wherever
  // perform() looks at an event's kind: an access is told there by one
  // comparison, not through a jump table or the rarer kinds' tests.)
  static bool is_access(const Event& e) {
    return e.kind == EventKind::load || e.kind == EventKind::store || e.kind == EventKind::rmw;
  }
  bool is_local(const Event& e) const {
    if (is_access(e)) [[likely]]
      return false;
    if (e.kind == EventKind::shared_alloc) return true;
    if (e.kind == EventKind::fence) return e.order != Order::seq_cst;
    return false;
  }

  // What `t`'s pending event (lowered: `l`; an access, known where `Access`)
  // does to shared state, into its pending_shape.
  template <bool Access>
  void note_shape(SimThread& t, const Lowering& l) const {
    StepShape& s = t.pending_shape;
    s = StepShape{};
    const Event& e = *t.pending;
    if (Access || is_access(e)) [[likely]] {
      // An offset: shapes of runs made on different threads are compared (parallel exploration).
      s.addr = arena_.offset(e.addr);
      s.reads = e.kind != EventKind::store;
      s.writes = e.kind != EventKind::load;
    } else {
      switch (e.kind) {
        case EventKind::barrier:
        case EventKind::syncwarp:
        case EventKind::shfl:
        case EventKind::ballot: s.barrier = true; s.block = t.block; break;
        // Enqueueing or starting stream work touches no memory: the enqueue
        // spawns the operation's thread (Step::spawned), whose start learns
        // the operations before it (Step::learns); a kernel's start spawns its
        // grid. Only a kernel that may compete for block slots with another
        // running kernel is dependent with everything (kernel_competes()).
        // Waiting commutes; it learns what it waited for (Step::learns).
        case EventKind::stream_op: s.global = kernel_competes(t); break;
        default: break;
      }
    }
    if (l.count > 0 && l.ops[0].kind == PtxKind::fence_sc) {  // (a fence.sc leads its lowering)
      s.fence_sc = true;
      s.sc_scope = mm_->scope(l.ops[0].scope);
      s.where = t.place;
    }
  }

  void start_fiber(ThreadId id) {
    SimThread& t = threads_[id];
    if (t.op != no_op && ops_[t.op].kind != OpKind::copy) return start_in_place(id);
    try {
      t.fiber = pool_.create(&Run::run_current, this);
    } catch (const std::exception& e) {
      no_fiber(id, e);
      return;
    }
    ++live_;
    ready(t, id, State::fresh);
  }
  // Stream operation thread `id`, no copy's, starts: it comes to its first
  // event at once (SimThread::in_place).
  void start_in_place(ThreadId id) {
    SimThread& t = threads_[id];
    t.in_place = true;
    make_op_events(ops_[t.op]);
    ++live_;
    arrive_in_place(id, ops_[t.op].start);
  }
  // Thread `id`, which runs in place, comes to event `e`: what take_step()
  // does before the thread decision. (Its two events, the operation's own,
  // run none of the program's code: the step bound, which finds code that
  // never ends, leaves them out, and RunOptions::cut is asked at the other
  // threads' events.)
  void arrive_in_place(ThreadId id, const Event& e) {
    SimThread& t = threads_[id];
    ++t.steps;
    t.pending = &e;
    t.last_where = e.where;
    note_shape<false>(t, {});
    t.state = e.kind == EventKind::wait && !wait_over(t) ? State::sync : State::runnable;
    pending(t, id, true);
  }
  // What runs next where a step is over: a thread with local code to run
  // (not in_step_), else the one the thread decision chose (in_step_),
  // whose fiber then runs on; a thread that runs in place has its step
  // taken first, here (run_in_place()). no_thread: the run stopped, or no
  // step is left to take (decided_, for loop()).
  [[gnu::always_inline]] ThreadId next_to_run() {
    in_step_ = false;
    ThreadId id = next_to_prime();
    if (id != no_thread) return id;
    if (const Next n = next_thread(id); n != Next::step) {
      decided_ = {n, id};
      return no_thread;
    }
    in_step_ = true;
    if (threads_[id].in_place) [[unlikely]]
      return run_in_place(id);
    return id;
  }
  // Takes the step a thread decision chose for thread `id`, which runs in
  // place, and then what runs next (next_to_run(): the steps the decisions
  // choose for such threads, each taken here in turn).
  [[gnu::noinline]] ThreadId run_in_place(ThreadId id) {
    step_in_place(id);
    if (stopped_) return no_thread;
    return next_to_run();
  }
  // The step of thread `id` that runs in place, chosen: its event, then
  // what its operation does up to its next event, or its end.
  void step_in_place(ThreadId id) {
    enter(id);
    const Event& e = *threads_[id].pending;
    const OpId op = threads_[id].op;
    if (&e != &ops_[op].start) {
      execute(e, {});
      return exit_thread();
    }
    if (threads_.size() <= threads_high_) [[likely]] {
      execute(e, {});
    } else {
      // A start with more threads in the run than any before it on this
      // OS thread grows the buffers for them (the memory model's views, the
      // fibers), which runs deep: aside, off the stack of the fiber whose
      // decision chose it, mostly the host's, deep in its launch call, where
      // it would reach past the part that fiber keeps open (FiberPool).
      threads_high_ = threads_.size();
      out_of_line([&] { execute(e, {}); });
    }
    if (ops_[op].kind == OpKind::kernel) return arrive_in_place(id, ops_[op].end);
    exit_thread();
  }
  // The pool could not give thread `id` a fiber: a limit of the simulator.
  // (Out of line, with its text: see out_of_line().)
  [[gnu::noinline, gnu::cold]] void no_fiber(ThreadId id, const std::exception& e) {
    reach_limit(std::string(e.what()) + " (for thread " + std::to_string(id + 1) + " of the run)");
  }
  // Every thread's fiber: runs the body of the thread advance() resumes.
  static void run_current(void* run) {
    Run& r = *static_cast<Run*>(run);
    try {
      run_body(r, r.threads_[r.cur_]);
      r.end_current();
    } catch (const std::bad_alloc&) {
      r.reach_limit("out of memory");
    }
  }
  // The body of thread `t`, the one that runs, in a frame of its own, which
  // ends at the thread's body_frame: the slot of the return address of its
  // call below. Above it the fiber holds nothing of the thread's own, and
  // nothing that changes while the thread runs: that return address, this
  // frame and run_current()'s, which only they write (so spin-assume,
  // local_state(), neither copies nor hashes them).
  [[gnu::noinline]] static void run_body(Run& r, SimThread& t) {
#if defined(__x86_64__)
    const char* sp;
    asm volatile("mov %%rsp, %0" : "=r"(sp));
    t.body_frame = sp - sizeof(void*);  // (a call puts its return address just below)
#elif defined(__aarch64__)
    const char* sp;
    asm volatile("mov %0, sp" : "=r"(sp));
    t.body_frame = sp;  // (a call leaves its return address in a register)
#else
    t.body_frame = __builtin_frame_address(0);
#endif
    if (t.kernel != nullptr)
      (*t.kernel)();
    else if (t.op != no_op)
      r.perform_op(t.op);
    else
      r.m_->program(r, *r.c_);
    asm volatile("");  // (no tail call: the frame stays, under the body's, while it runs)
  }
  // The running thread's body returned: the thread ends on its own fiber
  // (pass_on()).
  void end_current() {
    exit_thread();
    pass_on<true>();
  }
  // The running thread waits (at a barrier, in a warp collective, in a spin
  // loop) on its fiber (pass_on()), until it runs on from here. (Out of
  // line: its callers keep a small frame.)
  [[gnu::noinline]] void wait_here() {
    if (!pass_on<false>()) fiber::FiberPool::suspend();
  }
  // The running thread stops: it ended (`Ends`), or it waits. What loop()
  // would run next runs on from its fiber, in its place (one switch, where a
  // return to loop() and a resume from it would take two), or, where that is
  // the thread itself (a spin wait woken at once), it runs on. Unless the run
  // stopped, or a thread decision found no step to run (left to loop():
  // decided_, as perform()'s are): false then, for the thread to go back to
  // loop().
  template <bool Ends>
  [[gnu::always_inline]] bool pass_on() {
    if (stopped_) return false;
    const ThreadId self = cur_;
    const ThreadId id = next_to_run();
    if (id == no_thread) return false;
    enter(id);
    if constexpr (Ends)
      pool_.end_to(threads_[id].fiber);
    else if (id != self)
      pool_.pass_to(threads_[id].fiber);
    return true;
  }
  // The run stops at a limit of the simulator (SimulatorLimit, thrown by go()).
  // On a fiber it never returns: the fiber is not resumed again.
  void reach_limit(std::string why) {
    if (limit_.empty()) limit_ = std::move(why);
    stopped_ = true;
    if (fiber::FiberPool::inside()) fiber::FiberPool::suspend();
  }

  // The record of the run's next thread (its id: the number before it), unborn.
  [[gnu::always_inline]] SimThread& new_thread() {
    SimThread& t = add_thread();
    threads_moved();
    return t;
  }
  // The same, where the records may have moved (threads_moved() not called
  // yet: a grid's threads call it once, after the last).
  [[gnu::always_inline]] SimThread& add_thread() {
    if (threads_.size() % 64 == 0) waiting_.emplace_back(0);
    return threads_.add(&scratch_);
  }
  // The thread records may have moved: what points into them is made again.
  void threads_moved() {
    next_thread_.next = NextSteps(threads_.begin(), &SimThread::pending_shape);
    current_ = threads_.begin() + cur_;
  }

  // Files thread `id` (its record `t`) by the state it was just given: on,
  // it is State::runnable (among the thread decision's keys:
  // SimThread::keyed), or sync or spin (waiting_); off, none of these (in
  // neither).
  // (Inline: every thread's end clears its bits, most of them none set.)
  [[gnu::always_inline]] void pending(SimThread& t, ThreadId id, bool on) {
    const bool runnable = on && t.state == State::runnable;
    if (t.keyed != runnable) {
      t.keyed = runnable;
      if (runnable)
        add_key(id);
      else
        drop_key(id);
    }
    if (const bool waiting = on && !runnable; t.waiting != waiting) {
      t.waiting = waiting;
      waiting_[id / 64] ^= std::uint64_t{1} << (id % 64);
    }
  }
  // Thread `id` became runnable: into the thread decision's keys, in id
  // order (mostly the last: threads start in id order). (Inline, as
  // drop_key(): in a step's frame, pending() calls neither.)
  [[gnu::always_inline]] void add_key(ThreadId id) {
    std::vector<std::uint64_t>& keys = next_thread_.keys;
    if (!keys.empty() && keys.back() > id) [[unlikely]]
      return insert_key(id);
    if (keys.size() == keys.capacity()) [[unlikely]]
      grow(keys);
    // (There is room now: push_back() grows nothing, and need not carry a
    // growth of its own, for which add_key() would save registers.)
    if (keys.size() == keys.capacity()) __builtin_unreachable();
    keys.push_back(id);
  }
  // The same where `id` is below the last key (a thread woken at a barrier
  // whose last arrival runs on; a block's threads woken at once may all come
  // below another block's keys): the keys after its place move up in one
  // memmove. (Out of line: seldom.)
  [[gnu::noinline]] void insert_key(ThreadId id) {
    std::vector<std::uint64_t>& keys = next_thread_.keys;
    // (Room made first, as insert() would make it: insert() then carries no
    // growth of its own, for which insert_key() would save registers. Its
    // place is below the last key.)
    if (keys.size() == keys.capacity()) [[unlikely]]
      keys.reserve(2 * keys.size());
    if (keys.size() == keys.capacity()) __builtin_unreachable();
    keys.insert(std::upper_bound(keys.begin(), keys.end() - 1, std::uint64_t{id}), id);
  }
  // Thread `id` is runnable no more: out of the keys. The keys after it move
  // down one place, in a loop the compiler makes one memmove where there are
  // any: many may follow it (threads mostly end, and the lanes of a warp
  // arrive at a collective, from the lowest).
  [[gnu::always_inline]] void drop_key(ThreadId id) {
    std::vector<std::uint64_t>& keys = next_thread_.keys;
    std::size_t k = 0;
    while (keys[k] != id) [[unlikely]]
      ++k;
    std::uint64_t* const last = &keys.back();
    for (std::uint64_t* to = &keys[k]; to != last; ++to) to[0] = to[1];
    keys.pop_back();
    keys_dropped_ = true;
  }

  // Thread `id` (its record `t`) has local code to run (State::fresh or State::wake).
  void ready(SimThread& t, ThreadId id, State s) {
    t.state = s;
    ++ready_count_;
    lowest_ready_ = std::min(lowest_ready_, id);
  }

  // Thread `id` is the one that runs.
  void enter(ThreadId id) {
    cur_ = id;
    current_ = &threads_[id];
    place(threads_[id].coords);
  }
  // Runs a thread until its next event (or its end): local computation only.
  // (It may pass a step on to another, take_step(): whichever runs when
  // control comes back, cur_, is the one that suspended, ended or faulted.)
  void advance(ThreadId id) {
    enter(id);
    // (A thread whose body returned ended on its fiber: end_current().)
    const fiber::Status s = pool_.resume(threads_[id].fiber);
    if (s == fiber::Status::overran) {
      overran(threads_[cur_]);
    } else if (s == fiber::Status::faulted) {
      faulted(cur_);
    } else if (s == fiber::Status::stranded) {
      stranded(threads_[cur_]);
    }
  }

  // Has `t` made an event (last_where, its last's, names where)?
  static bool has_event(const SimThread& t) { return t.last_where.file != nullptr || t.last_where.pc != 0; }

  // The thread faulted: a finding, and it ends. (Out of line: see out_of_line().)
  [[gnu::noinline, gnu::cold]] void faulted(ThreadId id) {
    SimThread& t = threads_[id];
    const std::string why = pool_.fault(t.fiber);
    if (fault_.kind != FindingKind::kernel_fault || !fault_.message.empty()) {
      add_finding(fault_.kind, fault_.message, {t.name()}, {fault_where_});
      fault_ = {FindingKind::kernel_fault, ""};
    } else {
      // Where it was: after its last event; a thread that faulted before
      // any has no position but the fault's own.
      const bool placed = has_event(t);
      const std::string after = placed ? " after " + describe(t.last_where) : "";
      add_finding(FindingKind::kernel_fault, t.name() + " faulted: " + why + after, {t.name()},
                  placed ? std::vector<std::string>{describe(t.last_where)} : std::vector<std::string>{});
    }
    exit_thread();
  }

  // The thread ran past RunOptions::local_time_limit without an event.
  [[gnu::noinline, gnu::cold]] void overran(const SimThread& t) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", o_->local_time_limit);
    reach_limit(t.name() + " ran " + seconds + " s of CPU time " +
                (has_event(t) ? "after " + describe(t.last_where) : std::string("from its start")) +
                " without reaching a simulated memory operation, barrier or other dialect call: a loop over "
                "locals alone never ends (if it is only slow, raise --local-time-limit)");
  }

  // The thread faulted, or was stopped, inside a system library: nothing
  // more can run in the process (fiber::Status::stranded).
  [[gnu::noinline, gnu::cold]] void stranded(const SimThread& t) {
    reach_limit(t.name() + " " + pool_.fault(t.fiber) +
                (has_event(t) ? " after " + describe(t.last_where) : std::string(" before its first event")) +
                ", which may have left the library holding a lock or with its heap damaged: nothing more can run in "
                "this process (it ends within " + std::to_string(fiber::FiberPool::stranded_grace_seconds) +
                " s if it cannot end by itself)");
  }

  // The next thread that has local code to run (State::fresh or
  // State::wake), in the order of the priming passes: each looks at the
  // threads in id order from scan_ on, and the next starts at lowest_ready_
  // (a block that exits during one may dispatch blocks of lower ids; a pass
  // under way goes on into threads made since it started). None (no_thread)
  // once a pass finds none and none was made ready during it.
  ThreadId next_to_prime() {
    for (;;) {
      if (scan_ == no_thread) {
        if (lowest_ready_ >= threads_.size()) return no_thread;
        scan_ = lowest_ready_;
        lowest_ready_ = no_thread;
      }
      for (; scan_ < threads_.size(); ++scan_)
        if (threads_[scan_].state == State::fresh || threads_[scan_].state == State::wake) return scan_++;
      scan_ = no_thread;  // (the pass is over)
    }
  }

  void loop() {
    for (;;) {
      // Threads that only need to run local code first (next_to_prime()).
      // Mostly they pass on from one to the next, and the last makes the
      // thread decision (perform(), or a thread that ends or waits:
      // pass_on()): control comes back here when a thread faults, or when
      // no thread is left to run, or the run stops.
      in_step_ = false;
      ThreadId id = 0;
      Next n;
      if (decided_) {
        // A decision perform() or pass_on() made is the one made here: it
        // was made with no thread left to prime, and the thread suspended
        // or ended at once.
        std::tie(n, id) = *decided_;
        decided_.reset();
      } else if (id = next_to_prime(); id != no_thread) {
        advance(id);
        if (stopped_) return;
        continue;
      } else {
        n = next_thread(id);
      }
      if (n == Next::none) {
        const bool all_done = live_ == 0;
        if (!all_done || undispatched()) report_deadlock();
        r_->completed = all_done && !undispatched();
        return;
      }
      if (n == Next::abandoned) {
        r_->abandoned = true;
        return;
      }
      in_step_ = true;
      if (threads_[id].in_place) {
        id = run_in_place(id);
        if (stopped_) return;
        if (id == no_thread) continue;  // (decided_)
      }
      advance(id);
      if (stopped_) return;
    }
  }

  // The thread decision once no thread has local code to run: which
  // runnable thread takes the next step (`chosen`; the step is recorded),
  // or none is runnable, or the strategy abandoned the run. Made by loop(),
  // or by perform() at the end of a step (Run::decided_).
  enum class Next : std::uint8_t { step, none, abandoned };
  // (Inline, in loop() and perform(): the waiting threads and the keys are
  // looked at out of line, only where they may have changed.)
  [[gnu::always_inline]] Next next_thread(ThreadId& chosen) {
    if (may_wake_) wake_waiters();
    ChoicePoint& p = next_thread_;
    if (keys_dropped_) {
      keys_dropped_ = false;
      if (p.keys.empty()) return Next::none;
    }
    const unsigned i = decide<ChoiceKind::thread>(p, [&](unsigned k) {
      const SimThread& t = threads_[p.keys[k]];
      return "run " + t.name() + ": " + text(*t.pending);
    });
    if (ch_->abandon()) return Next::abandoned;
    const ThreadId id = static_cast<ThreadId>(p.keys[i]);
    Step& s = next_step();
    s.start(id, p.shape(i), decisions_ - 1);
    step_ = steps_ - 1;
    step_at_ = &s;
    // For the next thread decision: the thread that ran last, and its step.
    p.actor = id;
    p.previous = &s.shape;
    chosen = id;
    return Next::step;
  }
  // Waiters whose work finished (looked at only once some work ended:
  // work_ended_) and spinners whose location got a new write may run again
  // (neither depends on the other); while no work ended and no thread spins
  // (spinning_), next_thread() looks at none (may_wake_).
  [[gnu::noinline]] void wake_waiters() {
    const bool work_ended = work_ended_;
    work_ended_ = false;
    for (std::size_t w = 0; w < waiting_.size(); ++w)
      for (std::uint64_t m = waiting_[w]; m != 0; m &= m - 1) {
        const ThreadId id = static_cast<ThreadId>(w * 64 + static_cast<unsigned>(std::countr_zero(m)));
        SimThread& t = threads_[id];
        if (work_ended && t.state == State::sync && wait_over(t)) t.state = State::runnable;
        if (t.state == State::spin)
          for (auto [addr, n] : t.waiting_for)
            if (mm_->writes_to(addr) > n) {
              t.state = State::runnable;
              --spinning_;
              break;
            }
        if (t.state == State::runnable) pending(t, id, true);
      }
    may_wake_ = spinning_ != 0;
  }
  // Some work (a stream operation, a grid) ended: its waiters may run again.
  void work_ended() {
    work_ended_ = true;
    may_wake_ = true;
  }

  // The run's next step, to start (Step::start()): while the run is shorter
  // than the one before it in r_, that run's step in its place (its vectors
  // keep their capacity); go() drops the steps past the run's own at its end.
  Step& next_step() {
    if (step_next_ == steps_end_) [[unlikely]]
      more_steps();
    ++steps_;
    return *step_next_++;
  }
  // A place for the run's next step past the steps of the run before. (Out
  // of line: seldom past a search's first runs.)
  [[gnu::noinline]] void more_steps() {
    r_->steps.emplace_back();
    step_next_ = r_->steps.data() + steps_;
    steps_end_ = r_->steps.data() + r_->steps.size();
  }
  // The step running or run last (step_ < steps_).
  Step& current_step() { return *step_at_; }
  // The same, to add to its lists (Step::listed).
  Step& listing() {
    step_at_->listed = true;
    return *step_at_;
  }

  // The decision's text is formatted only where texts are kept (a replay
  // that writes a schedule or a trace), beside the log (RunResult::texts):
  // an exploration logs decisions by key.
  // (`Kind`, p's kind, a constant of each caller's: what depends on it folds.
  // `describe_alt` copied into the text's closure, not referred to: it is
  // then built only where a text is.)
  template <ChoiceKind Kind, class Describe>
  [[gnu::always_inline]] unsigned decide(const ChoicePoint& p, Describe describe_alt) {
    unsigned i = 0;
    if (Kind == ChoiceKind::thread || p.keys.size() > 1)
      i = prefix_at_ != prefix_end_ ? *prefix_at_++ : ch_->choose(p);
    if (i >= p.keys.size()) i = 0;
    Decision& d = next_decision();
    d.kind = Kind;
    d.index = i;
    d.alternatives = static_cast<unsigned>(p.keys.size());
    d.key = p.keys[i];
    if (keep_trace_) out_of_line([this, i, describe_alt] { r_->texts.push_back(describe_alt(i)); });
    return i;
  }
  // The run's next decision, in the place of the run before's (as steps:
  // next_step()), for its fields to be written in place (a copy read them
  // back as one word, a stall), after longer_log() (not kept across it).
  [[gnu::always_inline]] Decision& next_decision() {
    if (decision_at_ == log_end_) [[unlikely]]
      longer_log();
    ++decisions_;
    return *decision_at_++;
  }

  // Places for the run's next decisions past the log of the run before: a
  // few (as many as the log has room for, up to 8; at least one), zeroed at
  // once (a Decision is trivial), for go() to drop those the run leaves.
  // (Out of line: seldom.)
  [[gnu::noinline]] void longer_log() {
    ChoiceLog& log = r_->log;
    log.resize(std::max(log.size() + 1, std::min(log.capacity(), log.size() + 8)));
    decision_at_ = r_->log.data() + decisions_;
    log_end_ = r_->log.data() + r_->log.size();
  }

  // `f(args...)`, in a frame of its own, on a stack the OS thread keeps for
  // such work (FiberPool::aside). A step runs on the stack of its thread's
  // fiber, and the next fiber on that stack first clears the part used
  // (FiberPool): the temporaries of texts (decisions, trace lines,
  // findings), inlined into the step's frames, would deepen every step for
  // the sake of the few that format one, and formatted there, deep in a
  // step, they would reach past the part the fiber keeps open and widen it
  // for every fiber after. Cold paths of a step are out of line for the same
  // reason.
  template <class F, class... Args>
  [[gnu::noinline, gnu::cold]] static auto out_of_line(const F& f, Args... args) -> decltype(f(args...)) {
    using R = decltype(f(args...));
    if constexpr (std::is_void_v<R>) {
      fiber::FiberPool::aside([&] { f(args...); });
    } else {
      std::optional<R> r;
      fiber::FiberPool::aside([&] { r.emplace(f(args...)); });
      return std::move(*r);
    }
  }

  // A read or coherence choice point of the running thread, in a buffer kept
  // from one decision to the next (built and decided with no switch between).
  ChoicePoint& choice(ChoiceKind kind) {
    ChoicePoint& p = choice_;
    p.kind = kind;
    p.actor = cur_;
    p.keys.clear();
    p.made.clear();
    return p;
  }

  // ---- events ----
  // `e`, not an access, and its lowering (lower(e)). Only a dispatch: these
  // events run out of line.
  std::uint64_t execute(const Event& e, Lowering low) {
    switch (e.kind) {
      case EventKind::fence: fence(e, low); return 0;
      case EventKind::barrier: barrier(e); return 0;
      case EventKind::syncwarp:
      case EventKind::shfl:
      case EventKind::ballot: return warp_collective(e);
      case EventKind::shared_alloc: return shared(e);
      case EventKind::stream_op: stream_operation(e); return 0;
      case EventKind::wait: wait(e); return 0;
      default: return 0;
    }
  }
  // A fence that orders memory (a fence.sc is a step; others are local).
  [[gnu::noinline]] void fence(const Event& e, const Lowering& low) {
    for (int i = 0; i < low.count; ++i) mm_->fence(cur_, low.ops[i]);
    trace(current(), [&] { return text(e); });
  }

  // A shared array: one allocation per declaration (its site, `e.addr`) and
  // block, made when the block's first thread declares it. (The entry last
  // looked up, last_shared_, is asked first: a block's threads declare theirs
  // one after another.)
  [[gnu::noinline]] std::uint64_t shared(const Event& e) {
    const auto key = std::make_pair(e.addr, current().block);
    if (key == last_shared_.first) return last_shared_.second;
    const auto it = shared_.find(key);
    if (it == shared_.end()) return new_shared(e, key);
    last_shared_ = *it;
    return it->second;
  }
  // (Out of line: once a block and declaration.)
  [[gnu::noinline]] std::uintptr_t new_shared(const Event& e, std::pair<std::uintptr_t, std::uint32_t> key) {
    // Named in a buffer kept from run to run: alloc() compares the name in place.
    std::string& name = shared_name_;
    name.assign(e.label ? e.label : "shared").append("[b");
    char digits[16];
    name.append(digits, std::to_chars(digits, digits + sizeof digits, key.second).ptr).push_back(']');
    const auto p = reinterpret_cast<std::uintptr_t>(alloc(name, e.size, e.operand));
    last_shared_ = *shared_.emplace(key, p).first;
    return p;
  }

  std::string location(std::uintptr_t a) const {
    for (const Region& r : regions_)
      if (a >= r.begin && a < r.end) return a == r.begin ? r.name : r.name + "+" + std::to_string(a - r.begin);
    return "?";
  }

  // An access within one allocation passes. The allocation an access in the
  // same block of Arena::guard bytes (of each 64 such blocks, one hint) was
  // last found in is looked at first: no two allocations meet in one block
  // (a guard zone parts them), so an array's accesses share the hints of its
  // blocks, and no other's. A hint is only a guess, checked as any region
  // is, so one left by another run costs one failed check.
  void check_bounds(const Event& e) {
    std::uint32_t& hint = region_hint_[e.addr / Arena::guard % region_hint_.size()];
    if (hint < regions_.size() && e.addr >= regions_[hint].begin && e.addr + e.size <= regions_[hint].end) [[likely]]
      return;
    for (std::uint32_t k = 0; k < regions_.size(); ++k)
      if (e.addr >= regions_[k].begin && e.addr + e.size <= regions_[k].end) {
        hint = k;
        return;
      }
    out_of_bounds(e);
  }
  // Faults the thread, naming the nearest allocation. (Out of line: see out_of_line().)
  [[noreturn, gnu::noinline, gnu::cold]] void out_of_bounds(const Event& e) {
    SimThread& t = current();
    // Name the nearest allocation.
    std::string near = "outside simulated memory";
    std::uintptr_t best = Arena::guard + 1;
    for (const Region& r : regions_) {
      if (e.addr < r.end && e.addr + e.size > r.begin) {
        near = "straddling the end of " + r.name;
        break;
      }
      const std::uintptr_t d = e.addr < r.begin ? r.begin - e.addr : e.addr - r.end;
      if (d >= best) continue;
      best = d;
      near = e.addr < r.begin ? std::to_string(d) + " bytes before " + r.name
                              : std::to_string(d) + " bytes past the end of " + r.name;
    }
    fault_ = {FindingKind::out_of_bounds,
              t.name() + " " + std::string(name(e.kind)) + " " + near + " at " + describe(e.where)};
    fault_where_ = describe(e.where);
    throw std::runtime_error("out of bounds");
  }

  // Access `e`: its lowering (lower()) is its memory operation, the last,
  // after a fence.sc where it is seq_cst.
  std::uint64_t access(const Event& e, Lowering low, LocalState local) {
    check_bounds(e);
    // No reference into threads_ is held here: a read may wait (spin), and
    // threads_ grows while it waits.
    if (event_next_ == events_end_) [[unlikely]]
      more_events();
    const std::uint32_t ev = events_n_++;
    *event_next_++ = {cur_, e.where, step_, no_write, commuting_family(e, low)};
    // (The operations told apart by a test, not read at an index: the
    // lowering and the operation then stay in registers, not in the frame.)
    if (low.count == 2) mm_->fence(cur_, low.ops[0]);
    const PtxOp op = low.count == 2 ? low.ops[1] : low.ops[0];
    MemOp m;
    m.thread = cur_;
    m.op = op;
    m.addr = e.addr;
    m.size = e.size;
    m.event = ev;
    std::uint64_t result = 0;
    WriteId w = no_write;  // a read: the write it returned
    if (op.kind == PtxKind::st) {
      SimThread& t = current();  // (a store waits for nothing)
      m.value = e.operand;
      place_write(m, e, true);
      changed_shared_state(t);
    } else {
      w = choose_read(m, e, local);
      result = read_value_;
      if (fails_cas(e, result)) {
        // A compare-and-swap that fails writes nothing: it is the load part
        // alone (C++ [atomics.types.operations]: "Otherwise ... atomically
        // loads").
        m.op = load_part(m.op);
      }
      mm_->read(m, w);
      if (m.op.kind == PtxKind::atom) {
        m.value = apply_rmw(e.rmw, e.type, result, e.operand, e.operand2);
        m.rmw_source = w;
        events_[ev].write = place_write(m, e, false);
        changed_shared_state(current());
      }
    }
    if (mm_->has_findings()) collect_findings();
    if (keep_trace_) [[unlikely]]  // (asked first: the line's closure is built only then)
      trace(current(), [&, w, result] {
        // (Lowered again here, as its caller lowered it: `op` need not be kept in memory for the line.)
        const Lowering l = lower(e);
        return ptx_name(l.ops[l.count - 1]) + " " + access_note(e, m, w, result) + " at " + describe(e.where);
      });
    return result;
  }
  // A place for the run's next event past the events of the run before.
  // (Out of line: seldom past a search's first runs.)
  [[gnu::noinline]] void more_events() {
    events_.emplace_back();
    event_next_ = events_.data() + events_n_;
    events_end_ = events_.data() + events_.size();
  }
  // What access `e` did as memory operation `m`, for its trace line: a store
  // (`w` no_write) its value; a read the write `w` it returned, of value
  // `result`, and an RMW's write besides. (Formatted in the trace's own
  // frame: see out_of_line().)
  std::string access_note(const Event& e, const MemOp& m, WriteId w, std::uint64_t result) const {
    if (w == no_write) return location(e.addr) + " = " + format_value(e.type, e.operand);
    std::string note = location(e.addr) + " -> " + format_value(e.type, result) + from(w);
    if (m.op.kind == PtxKind::atom) note += ", writes " + format_value(e.type, m.value);
    return note;
  }

  std::string from(WriteId w) const {
    const WriteInfo& i = mm_->info(w);
    if (i.uninitialised) return " (uninitialised)";
    if (i.initial) return " (initial)";
    return " (from " + threads_[i.thread].name() + " at " + describe(events_[i.event].where) + ")";
  }

  // For the explorer: 1 + the step whose write `w` is, 0 for an initial write.
  std::size_t made_by(WriteId w) const { return made_by(mm_->info(w)); }
  // The same of the write the model tells `i` of.
  std::size_t made_by(const WriteInfo& i) const { return i.initial ? 0 : events_[i.event].step + 1; }

  // Write `m` at a coherence slot the chooser decides. For the explorer, its
  // step also records the earlier steps whose writes it may be placed before
  // (Step::precedes: the model tells them with the placements; a write of
  // one placement precedes none), and a store's the earlier steps whose weak
  // writes coherence leaves unordered with it (Step::unordered). (Inline in
  // access(): as a call of its own, with the registers it saved, it cost a
  // store about 40 instructions of its own.)
  [[gnu::always_inline]] WriteId place_write(MemOp& m, const Event& e, bool store) {
    unsigned n = 1;
    if (!MemoryModel::one_placement(m)) {
      n = mm_->placements(m, in_step_ ? &cand_ : nullptr);
      if (in_step_ && !cand_.empty()) note_precedes();
    }
    unsigned k = 0;  // (one slot: no choice to make)
    if (n > 1) {
      ChoicePoint& p = choice(ChoiceKind::coherence);
      for (unsigned j = 0; j < n; ++j) p.keys.push_back(j);
      k = decide<ChoiceKind::coherence>(p, [&](unsigned j) {
        return current().name() + " " + location(e.addr) + " = " + format_value(e.type, m.value) +
               " coherence slot " + std::to_string(j) + " at " + describe(e.where);
      });
    }
    if (!store || !in_step_) return mm_->write(m, k);
    const WriteId w = mm_->write(m, k, &cand_);
    if (!cand_.empty()) {
      Step& s = listing();
      for (WriteId x : cand_) s.unordered.push_back(made_by(x));
    }
    return w;
  }

  // For the explorer: the steps whose writes (in cand_, from placements())
  // the write may be placed before.
  void note_precedes() {
    Step& s = listing();
    for (WriteId w : cand_)
      if (!mm_->info(w).initial) s.precedes.push_back(made_by(w));
  }

  // The family of RMW `e` among commuting RMWs (StepShape::commutes): a
  // relaxed atom (no fence, no release or acquire) of an integer type whose
  // operation commutes with itself (add and sub together, and, or, xor, min,
  // max), with its scope and, at cta scope, its block (the running thread's:
  // two of one family are then morally strong, atomic with each other). 0:
  // none. (The block is looked up only then.)
  std::uint64_t commuting_family(const Event& e, const Lowering& l) const {
    if (e.kind != EventKind::rmw || l.count != 1 || l.ops[0].kind != PtxKind::atom || l.ops[0].sem != Sem::relaxed)
      return 0;
    if (e.type == ValueType::f32 || e.type == ValueType::f64) return 0;  // rounding depends on the order
    std::uint64_t op = 0;
    switch (e.rmw) {
      case RmwOp::add:
      case RmwOp::sub: op = 1; break;
      case RmwOp::and_: op = 2; break;
      case RmwOp::or_: op = 3; break;
      case RmwOp::xor_: op = 4; break;
      case RmwOp::min: op = 5; break;
      case RmwOp::max: op = 6; break;
      default: return 0;
    }
    const std::uint64_t scope = static_cast<std::uint64_t>(l.ops[0].scope);
    const std::uint64_t in_block = l.ops[0].scope == Scope::cta ? std::uint64_t{current().block} + 1 : 0;
    return op | static_cast<std::uint64_t>(e.type) << 4 | scope << 8 | in_block << 16;
  }

  // The kernel dropped the result of RMW `event` (the dialect's rmw_result).
  // It counts only while the step that performed it runs and nothing else was
  // accessed since: otherwise the step is over and was taken as using it.
  // The memory model has the last word (a write that passes on a release does
  // not commute: reading it synchronizes).
  void note_unused_result(std::uint64_t event) {
    if (!in_step_ || event + 1 != events_n_) return;
    const EventRef& ref = events_[event];
    if (ref.thread != cur_ || ref.step != step_ || ref.commutes == 0 || ref.write == no_write) return;
    if (mm_->commutes(ref.write, ref.commutes)) current_step().shape.commutes = ref.commutes;
  }

  static bool fails_cas(const Event& e, std::uint64_t old) {
    if (e.kind != EventKind::rmw || e.rmw != RmwOp::cas) return false;
    const std::uint64_t mask = e.size >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * e.size)) - 1;
    return (old & mask) != (e.operand & mask);
  }
  static PtxOp load_part(PtxOp op) {
    op.kind = PtxKind::ld;
    op.sem = has_acquire(op.sem) ? Sem::acquire : Sem::relaxed;
    return op;
  }

  // The writes read `m` may return. A compare-and-swap may read any write a
  // load may; those it would succeed on must also keep it atomic.
  // (Into `cand`; the buffers are the run's, used with no switch in between.)
  // What the model tells besides (of a compare-and-swap: of its load).
  Readable readable(const MemOp& m, const Event& e, std::vector<WriteId>& cand) {
    if (e.kind != EventKind::rmw || e.rmw != RmwOp::cas) return mm_->readable(m, cand);
    return readable_cas(m, e, cand);
  }
  // The same of a compare-and-swap. (Out of line: seldom; and inline, it
  // would be inlined with each read.)
  [[gnu::noinline]] Readable readable_cas(const MemOp& m, const Event& e, std::vector<WriteId>& cand) {
    MemOp as_load = m;
    as_load.op = load_part(m.op);
    const Readable seen = mm_->readable(as_load, cand);
    std::vector<WriteId>& atomic = atomic_;
    mm_->readable(m, atomic);
    std::erase_if(cand, [&](WriteId w) {
      return !fails_cas(e, mm_->info(w).value) && std::find(atomic.begin(), atomic.end(), w) == atomic.end();
    });
    return seen;
  }

  // The hash of the thread's local state at an operation (LocalState): its
  // stack from the operation's caller up to the frame that runs its body
  // (`body_frame`, SimThread), and its callee-saved registers (hashed here,
  // for a read only, not for every event). Identical state means an
  // identical future until it reads something new.
  static std::uint64_t local_state(LocalState l, const void* body_frame) {
    if (l.caller_frame == nullptr || body_frame == nullptr) return 0;
    return state_hash(l.registers, static_cast<const std::uint64_t*>(l.caller_frame),
                      static_cast<const std::uint64_t*>(body_frame));
  }
  // The hash of registers `r` (LocalState::saved_registers of them) and stack
  // words [w, end).
  // Not vectorized: SSE2 has no 64-bit multiply, and GCC's vector form of the
  // lanes' multiplies (chains of shifts and adds) is slower than four imuls.
#if defined(__GNUC__) && !defined(__clang__)
  [[gnu::optimize("no-tree-vectorize")]]
#endif
  static std::uint64_t state_hash(const std::uint64_t* r, const std::uint64_t* w, const std::uint64_t* end) {
    // The registers, then the stack. Four lanes, word k into lane k % 4, so
    // that their multiplies overlap; the lanes are mixed in at the end.
    // (Only equal states matter: spin visits are looked up by SpinKey, never
    // listed in its order.)
    // (Lanes as scalars: as an array, GCC kept them in memory, one store
    // and reload a word.)
    auto step = [](std::uint64_t h, std::uint64_t w) { return (h ^ w) * 0x100000001b3ULL + (h >> 29); };
    std::uint64_t h0 = 0xcbf29ce484222325ULL, h1 = 0x9e3779b97f4a7c15ULL, h2 = 0xbf58476d1ce4e5b9ULL,
                  h3 = 0x94d049bb133111ebULL;
    static_assert(LocalState::saved_registers == 6 || LocalState::saved_registers == 7);
    h0 = step(h0, r[0]);
    h1 = step(h1, r[1]);
    h2 = step(h2, r[2]);
    h3 = step(h3, r[3]);
    h0 = step(h0, r[4]);
    h1 = step(h1, r[5]);
    if constexpr (LocalState::saved_registers == 7) h2 = step(h2, r[6]);
    for (; end - w >= 4; w += 4) {
      h0 = step(h0, w[0]);
      h1 = step(h1, w[1]);
      h2 = step(h2, w[2]);
      h3 = step(h3, w[3]);
    }
    if (w < end) h0 = step(h0, *w++);
    if (w < end) h1 = step(h1, *w++);
    if (w < end) h2 = step(h2, *w++);
    return step(step(step(h0, h1), h2), h3);
  }
  // The state of a spot's first read since `mods` changed, kept unhashed in
  // the spot's entry (SimThread::Spot), and its hash once a second comes.
  static void keep_state(const SimThread& t, SimThread::Spot& spot, LocalState l) {
    spot.state_words = 0;
    if (l.caller_frame == nullptr || t.body_frame == nullptr) return;
    const auto* w = static_cast<const std::uint64_t*>(l.caller_frame);
    const auto* end = static_cast<const std::uint64_t*>(t.body_frame);
    const auto words = static_cast<std::uint32_t>(LocalState::saved_registers + (end - w));
    if (words > spot.state_capacity) [[unlikely]]
      make_room(spot, words);
    // (A fixed size: copied inline, where std::copy_n called memmove.)
    std::memcpy(spot.state.get(), l.registers, LocalState::saved_registers * sizeof(std::uint64_t));
    std::copy(w, end, spot.state.get() + LocalState::saved_registers);
    spot.state_words = words;
  }
  // Room in `spot` for a state of `words`. (Out of line: seldom past a
  // search's first runs.)
  [[gnu::noinline]] static void make_room(SimThread::Spot& spot, std::uint32_t words) {
    spot.state = std::make_unique_for_overwrite<std::uint64_t[]>(words);
    spot.state_capacity = words;
  }
  static std::uint64_t kept_state(const SimThread::Spot& spot) {
    if (spot.state_words == 0) return 0;
    const std::uint64_t* r = spot.state.get();
    return state_hash(r, r + LocalState::saved_registers, r + spot.state_words);
  }

  // An event of `t` other than a read (a write, a barrier, __syncwarp).
  // Spin-assume's key then differs from every visit made before it (their
  // `mods`), so no later spin wait of `t` counts its reads so far: they are
  // settled for the explorer (Step::settled).
  void changed_shared_state(SimThread& t) {
    ++t.mods;
    settle_reads(t);
  }
  void settle_reads(SimThread& t) {
    for (std::size_t k = t.settled_reads; k < t.read_steps.size(); ++k)
      if (t.read_steps[k] < steps_) r_->steps[t.read_steps[k]].settled = true;
    t.settled_reads = t.read_steps.size();
  }

  // The writes a read may return, with spin-assume (semantics.md, "Spin loops
  // and progress"): re-reading the write this thread read at the same program
  // point, in the same local state and having changed no shared state since,
  // is skipped; with nothing else to read, the thread waits for a new write.
  // Only a pure read repeats itself: a load, or a compare-and-swap that fails.
  // (`local`: the reading thread's local state there.)
  WriteId choose_read(const MemOp& m, const Event& e, LocalState local) {
    // (Nothing below waits: `t` stays where it is.)
    SimThread& t = current();
    const std::uint64_t where = where_key(e.where);
    const auto [spot, known] = t.spots.find(where, e.addr, t.mods);
    if (known) [[unlikely]]
      return read_again(m, e, local, *spot, where);
    // The first read at its spot since `mods` changed repeats nothing: its
    // visit is the spot's entry, not keyed (SimThread::Visit).
    spot->visit.mods = t.mods;
    spot->visit.repeated = false;
    keep_state(t, *spot, local);
    const Readable seen = readable(m, e, cand_);
    const WriteId w = pick_read(t, m, e, seen);
    spot->visit.write = w;
    spot->visit.read_index = t.reads.size();
    note_read(t, e, seen);
    return w;
  }
  // A read at a spot read before since `mods` last changed (its entry
  // `spot`): a second keys both visits, by their states. (Out of line: most
  // reads are the first at their spot.)
  [[gnu::noinline]] WriteId read_again(const MemOp& m, const Event& e, LocalState local, SimThread::Spot& spot,
                                      std::uint64_t where) {
    SpinKey vkey{where, 0, e.addr};
    {
      SimThread& t = current();
      if (!spot.visit.repeated) {
        if (t.visits.empty()) visitors_.push_back(cur_);
        t.visits.insert_or_assign({vkey.where, kept_state(spot), vkey.addr}, spot.visit);
      }
      spot.visit.repeated = true;
      vkey.state = local_state(local, t.body_frame);
    }
    std::size_t wait = Step::unknown;  // the step that waited, once this read blocked in one
    WriteId waited_past = 0;
    for (;;) {
      SimThread& t = current();
      std::vector<WriteId>& cand = cand_;
      const Readable seen = readable(m, e, cand);
      // (Where the key is, or goes: one search of the map per repeated read.)
      const auto visit = t.visits.lower_bound(vkey);
      const bool visited = visit != t.visits.end() && visit->first == vkey;
      bool spinning = false;
      if (visited && visit->second.mods == t.mods &&
          (m.op.kind == PtxKind::ld || fails_cas(e, mm_->info(visit->second.write).value))) {
        const std::size_t before = t.read_steps[visit->second.read_index];
        if (before < steps_) r_->steps[before].respun = true;
        const WriteId old = visit->second.write;
        auto it = std::find(cand.begin(), cand.end(), old);
        if (it != cand.end()) {
          cand.erase(it);
          spinning = true;
        }
      }
      if (spinning && cand.empty()) {
        // Wait for a write to anything read since the last visit that is
        // newer than that read (it may exist already: then wake at once).
        t.waiting_for.assign(t.reads.begin() + static_cast<std::ptrdiff_t>(visit->second.read_index), t.reads.end());
        for (std::size_t k = visit->second.read_index; k < t.read_steps.size(); ++k)
          if (t.read_steps[k] < steps_) {
            r_->steps[t.read_steps[k]].counted = true;
            if (in_step_) r_->steps[t.read_steps[k]].counted_by = step_;
          }
        t.waiting_for.push_back({e.addr, seen.writes});
        waited_past = visit->second.write;
        t.visits.erase(visit);  // once woken, the old write may be read again
        // The step read nothing: it only waits (its read is the step that
        // runs once woken). Run after a newer write instead, it would read
        // one of the writes the woken read may return (which may also return
        // the old one again): so for the explorer it touches no location.
        if (in_step_) {
          current_step().shape = StepShape{};
          current_step().shape.waits = arena_.offset(e.addr);
          wait = step_;
        }
        t.state = State::spin;
        ++spinning_;
        may_wake_ = true;
        pending(t, cur_, true);
        wait_here();
        continue;
      }
      if (spinning && !t.reported_spin) {
        bool any_ms = false;
        for (WriteId w : cand) any_ms |= mm_->morally_strong(m, w);
        if (!any_ms) unpromised_spin(t, e);
      }
      const WriteId w = pick_read(t, m, e, seen);
      if (wait != Step::unknown) r_->steps[wait].woke_to_newer = w != waited_past;
      const SimThread::Visit now{.write = w, .mods = t.mods, .read_index = t.reads.size()};
      if (visited)
        visit->second = now;
      else
        t.visits.emplace_hint(visit, vkey, now);
      note_read(t, e, seen);
      return w;
    }
  }
  // Which of cand_ (what the model told besides: `seen`) read `m` of `t`
  // returns (its value into read_value_, the model asked once for both):
  // a read decision; the step learns what it read. Most reads have
  // one write to return: their decision, with no choice, is logged with no
  // choice point (as decide() logs one of one alternative: it asks no
  // chooser).
  [[gnu::always_inline]] WriteId pick_read(const SimThread& t, const MemOp& m, const Event& e, const Readable& seen) {
    const std::vector<WriteId>& cand = cand_;
    unsigned i = 0;
    const ChoicePoint* p = nullptr;  // among more than one write
    if (cand.size() == 1) [[likely]] {
      Decision& d = next_decision();
      d.kind = ChoiceKind::read;
      d.index = 0;
      d.alternatives = 1;
      d.key = cand[0];
      if (keep_trace_) out_of_line([&] { r_->texts.push_back(read_text(t, m, e, 0)); });
    } else {
      ChoicePoint& c = choice(ChoiceKind::read);
      for (WriteId w : cand) {
        append<std::uint64_t>(c.keys, w);
        append<std::size_t>(c.made, made_by(w));
      }
      i = decide<ChoiceKind::read>(c, [&](unsigned k) { return read_text(t, m, e, k); });
      p = &c;
    }
    const WriteInfo& read = mm_->info(cand[i]);
    read_value_ = read.value;
    if (in_step_ && (m.op.kind == PtxKind::ld || m.op.kind == PtxKind::atom))
      current_step().reads_from = p != nullptr ? p->made[i] : made_by(read);
    if (in_step_ && m.op.kind == PtxKind::ld) current_step().hidden_by_unknown = seen.hidden_by_unknown;
    return cand[i];
  }
  // The text of the read decision of read `m` of `t` (of event `e`) that
  // returns cand_[k]. (A function, not a lambda of pick_read()'s: its
  // closure would be built at every read, for the few decisions with a text.)
  std::string read_text(const SimThread& t, const MemOp& m, const Event& e, unsigned k) const {
    return t.name() + " " + ptx_name(m.op) + " " + location(e.addr) + " -> " +
           format_value(e.type, mm_->info(cand_[k]).value) + from(cand_[k]) + " at " + describe(e.where);
  }
  // `t` read `e` (what the model told besides: `seen`): into its reads.
  [[gnu::always_inline]] void note_read(SimThread& t, const Event& e, const Readable& seen) {
    t.reads.emplace_back(e.addr, seen.writes);
    t.read_steps.emplace_back(in_step_ ? step_ : Step::unknown);
  }

  // `t` spins on a read that no newer write is morally strong with: a
  // finding, once a thread. (Out of line: see out_of_line().)
  [[gnu::noinline, gnu::cold]] void unpromised_spin(SimThread& t, const Event& e) {
    t.reported_spin = true;
    out_of_line([&] {
      add_finding(FindingKind::possible_non_termination,
                  t.name() + " spins on " + location(e.addr) + " at " + describe(e.where) +
                      ": no newer write is morally strong with its read, so nothing promises it ever sees one",
                  {t.name()}, {describe(e.where)});
    });
  }

  [[gnu::noinline]] void barrier(const Event& e) {
    SimThread& t = current();
    Block& b = blocks_[t.block];
    // semantics.md, "Barriers": every thread of the block executes the same
    // sequence of barriers; one that exited before this one never will.
    if (b.exited_early && b.first_exit_barriers <= t.barriers_passed) out_of_line([&] {
      const SimThread& gone = threads_[b.first_exit];
      divergence(t.name() + " arrives at the barrier at " + describe(e.where) + " that " + gone.name() +
                     " never reaches: it exited after " + std::to_string(gone.barriers_passed) + (gone.barriers_passed == 1 ? " barrier" : " barriers"),
                 {t.name(), gone.name()}, {describe(e.where)});
    });
    if (!b.arrived.empty() && where_key(b.barrier_where) != where_key(e.where)) out_of_line([&] {
      divergence(t.name() + " arrives at the barrier at " + describe(e.where) + " while " +
                     threads_[b.arrived.front()].name() + " waits at " + describe(b.barrier_where),
                 {threads_[b.arrived.front()].name(), t.name()}, {describe(b.barrier_where), describe(e.where)});
    });
    if (b.arrived.empty()) b.barrier_where = e.where;
    b.arrived.push_back(cur_);
    changed_shared_state(t);
    trace(t, [&] { return "bar.sync 0 at " + describe(e.where); });
    if (b.arrived.size() < b.live) {
      t.state = State::barrier;
      pending(t, cur_, false);
      wait_here();
      return;
    }
    complete_barrier(t.block);
  }

  void complete_barrier(std::uint32_t block) {
    Block& b = blocks_[block];
    // (Read in place: nothing below arrives at a barrier.)
    const std::vector<ThreadId>& who = b.arrived;
    mm_->barrier(who);
    for (ThreadId id : who) {
      b.most_barriers = std::max(b.most_barriers, ++threads_[id].barriers_passed);
      if (id != cur_ || threads_[id].state == State::done) {
        if (threads_[id].state == State::barrier) ready(threads_[id], id, State::wake);
      }
    }
    if (step_ < steps_) listing().joins = who;
    b.arrived.clear();
  }

  // Lanes of a warp waiting in a warp collective (warps_).
  // Invariant: bit k of `lanes` is set iff `arrived` holds the warp's lane k.
  struct Warp {
    boost::container::static_vector<ThreadId, 32> arrived;  // (lanes of one warp)
    std::uint32_t lanes = 0;
    std::uint32_t mask = 0;
    EventKind kind = EventKind::syncwarp;
    Where where;
  };

  // __syncwarp, __shfl*_sync, __ballot_sync: the lanes of `mask` meet. Every
  // lane of the mask must execute the same collective, and the mask must
  // include the caller (semantics.md, findings: barrier divergence). Only
  // __syncwarp orders memory; a shuffle or ballot exchanges registers and
  // orders nothing (catalogue: warp.shfl_is_not_a_fence).
  [[gnu::noinline]] std::uint64_t warp_collective(const Event& e) {
    SimThread& t = current();
    const std::uint32_t mask = static_cast<std::uint32_t>(e.operand);
    if (e.kind == EventKind::syncwarp) changed_shared_state(t);
    trace(t, [&] { return text(e); });
    if (!(mask >> t.place.lane & 1u)) out_of_line([&] {
      divergence(t.name() + " executes " + collective_name(e) + " with mask 0x" + hex(mask) +
                     " that excludes its own lane " + std::to_string(t.place.lane) + " at " + describe(e.where),
                 {t.name()}, {describe(e.where)});
    });
    Warp& w = warps_[{t.block, t.place.warp}];
    if (!w.arrived.empty() && (w.kind != e.kind || w.mask != mask || where_key(w.where) != where_key(e.where)))
      out_of_line([&] {
        const SimThread& first = threads_[w.arrived.front()];
        divergence(t.name() + " executes " + collective_name(e) + " with mask 0x" + hex(mask) + " at " +
                       describe(e.where) + " while " + first.name() + " waits in " + collective_name(*first.pending) +
                       " with mask 0x" + hex(w.mask) + " at " + describe(w.where),
                   {first.name(), t.name()}, {describe(w.where), describe(e.where)});
      });
    if (w.arrived.empty()) {
      w.kind = e.kind;
      w.where = e.where;
    }
    w.arrived.push_back(cur_);
    w.lanes |= 1u << t.place.lane;
    w.mask |= mask;
    t.lane_value = e.operand2;
    if (!try_complete_warp(w, t.block, t.place.warp)) {
      t.state = State::barrier;
      pending(t, cur_, false);
      wait_here();
    }
    return current().lane_value;
  }

  static std::string collective_name(const Event& e) {
    switch (e.kind) {
      case EventKind::shfl: return "__shfl_sync";
      case EventKind::ballot: return "__ballot_sync";
      default: return "__syncwarp";
    }
  }

  // The source lane of lane `lane` in a shuffle (CUDA's __shfl*_sync): within
  // its segment of `width` lanes; out of the segment, a lane keeps its own value.
  static std::uint32_t shuffle_source(const Event& e, std::uint32_t lane) {
    const std::uint32_t width = e.width == 0 ? 32 : e.width;
    const std::uint32_t base = lane / width * width;
    switch (e.shfl) {
      case ShflMode::idx: return base + e.lane % width;
      case ShflMode::down: return lane + e.lane < base + width ? lane + e.lane : lane;
      case ShflMode::up: return lane >= base + e.lane ? lane - e.lane : lane;
      case ShflMode::xor_: {
        const std::uint32_t s = lane ^ e.lane;
        return s >= base && s < base + width ? s : lane;
      }
    }
    return lane;
  }

  // A warp collective completes once every live lane of the masks that
  // arrived has arrived (an exited lane no longer holds it up); then each lane
  // gets its result in `lane_value`. (`w`: the record of warp `warp` of
  // `block`, with lanes arrived.)
  bool try_complete_warp(Warp& w, std::uint32_t block, std::uint32_t warp) {
    const Block& b = blocks_[block];
    const ThreadId lane0 = b.first + warp * 32;  // the warp's lane 0
    // Each lane of the masks that has not arrived is past the block's end or done.
    for (std::uint32_t m = w.mask & ~w.lanes; m != 0; m &= m - 1) {
      const auto lane = static_cast<std::uint32_t>(std::countr_zero(m));
      if (warp * 32 + lane >= b.count) break;  // (as is every lane above it)
      if (threads_[lane0 + lane].state != State::done) return false;
    }
    // (Where there is a step, straight into its joins.)
    std::vector<ThreadId>& who = step_ < steps_ ? listing().joins : collective_;
    who.assign(w.arrived.begin(), w.arrived.end());
    const EventKind kind = w.kind;
    const std::uint32_t lanes = w.lanes;
    w.arrived.clear();
    w.lanes = w.mask = 0;
    if (kind == EventKind::ballot) {
      std::uint64_t ballot = 0;
      for (ThreadId id : who)
        if (threads_[id].lane_value != 0) ballot |= std::uint64_t{1} << threads_[id].place.lane;
      for (ThreadId id : who) threads_[id].lane_value = ballot;
    } else if (kind == EventKind::shfl) {
      // (Aside until every lane has read the value its source gave.)
      std::vector<std::uint64_t>& result = shuffled_;
      result.clear();
      for (ThreadId id : who) {
        const SimThread& t = threads_[id];
        const std::uint32_t src = shuffle_source(*t.pending, t.place.lane);
        if (src < 32 && (lanes >> src & 1u)) {
          result.push_back(threads_[lane0 + src].lane_value);
          continue;
        }
        out_of_line([&] {
          divergence(t.name() + " shuffles from lane " + std::to_string(src) + ", which does not take part, at " +
                         describe(t.pending->where),
                     {t.name()}, {describe(t.pending->where)});
        });
        result.push_back(t.lane_value);
      }
      for (std::size_t i = 0; i < who.size(); ++i) threads_[who[i]].lane_value = result[i];
    } else {
      for (ThreadId id : who) threads_[id].lane_value = 0;
    }
    if (kind == EventKind::syncwarp) mm_->barrier(who);
    for (ThreadId id : who)
      if (id != cur_ && threads_[id].state == State::barrier) ready(threads_[id], id, State::wake);
    return true;
  }

  // (A run with no warp collective has no warp to look up.)
  void release_warp_waiters(const SimThread& t) {
    if (!warps_.empty()) release_warp(t.block, t.place.warp);
  }
  // Warp `warp` of `block` completes its collective if its waiting lanes
  // wait for no other any more. (Out of line, and the completion its last
  // call: a lookup that finds no lane waiting saves no registers.)
  [[gnu::noinline]] void release_warp(std::uint32_t block, std::uint32_t warp) {
    const auto waiting = warps_.find({block, warp});  // (an exit looks without making a record)
    if (waiting != warps_.end() && !waiting->second.arrived.empty()) try_complete_warp(waiting->second, block, warp);
  }

  static std::string hex(std::uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "%08x", v);
    return b;
  }

  void divergence(const std::string& msg, std::vector<std::string> who, std::vector<std::string> where) {
    add_finding(FindingKind::barrier_divergence, "barrier divergence: " + msg, std::move(who), std::move(where));
  }

  // ---- streams ----

  std::uint32_t check_stream(std::uint32_t s) const {
    if (s >= streams_.streams()) throw std::invalid_argument("unknown stream " + std::to_string(s));
    return s;
  }
  std::uint32_t check_event(std::uint32_t e) const {
    if (e >= streams_.events()) throw std::invalid_argument("unknown event " + std::to_string(e));
    return e;
  }

  static const char* label(OpKind k) {
    switch (k) {
      case OpKind::kernel: return "launch";
      case OpKind::copy: return "cudaMemcpyAsync";
      case OpKind::record: return "cudaEventRecord";
      case OpKind::wait: return "cudaStreamWaitEvent";
    }
    return "?";
  }

  // The operation the host is about to enqueue, whose id is the next one
  // (streams_ numbers operations in the order enqueued): its record made
  // anew in place, for the caller to fill in before enqueue().
  OpData& next_op(OpKind kind, std::uint32_t stream, Where where) {
    OpData& d = ops_.renew(static_cast<OpId>(streams_.size()));
    d.kind = kind;
    d.stream = stream;
    d.where = where;
    return d;
  }

  // The host enqueues device work (next_op()'s): a host step, dependent with everything.
  void enqueue() {
    const OpData& d = ops_[static_cast<OpId>(streams_.size())];
    check_stream(d.stream);
    if (d.kind == OpKind::record || d.kind == OpKind::wait) check_event(d.event);
    Event e;
    e.kind = EventKind::stream_op;
    e.label = label(d.kind);
    e.where = d.where;
    perform(e, {}, {});
  }

  std::string describe_op(const OpData& d) const {
    const std::string on = " on stream " + std::to_string(d.stream);
    switch (d.kind) {
      case OpKind::kernel:
        return "launch " + d.kernel + "<<<" + std::to_string(d.grid.x) + "," + std::to_string(d.block.x) + ">>>" + on;
      case OpKind::copy:
        return "cudaMemcpyAsync " + location(d.dst) + " <- " + location(d.src) + " (" + std::to_string(d.count) +
               (d.count == 1 ? " element)" : " elements)") + on;
      case OpKind::record: return "cudaEventRecord event " + std::to_string(d.event) + on;
      case OpKind::wait: return "cudaStreamWaitEvent event " + std::to_string(d.event) + on;
    }
    return "?";
  }

  // A stream_op event: the host enqueues (a new thread will perform the
  // operation, its view the host's now), or an operation's thread starts it.
  [[gnu::noinline]] void stream_operation(const Event& e) {
    SimThread& t = current();
    if (t.op != no_op) {
      OpData& d = ops_[t.op];
      trace(t, [&] { return "start " + describe_op(d); });
      if (step_ < steps_) {
        Step& s = listing();
        for (OpId p : streams_.predecessors(t.op)) s.learns.push_back({ops_[p].thread, 1});
      }
      if (d.kind == OpKind::kernel) spawn_grid(t.op);
      return;
    }
    // (In place, in ops_ and threads_: neither the operation nor its thread
    // is built on the host's stack.)
    const OpId op = static_cast<OpId>(streams_.size());  // (next_op()'s)
    OpData& d = ops_[op];
    streams_.enqueue(d.stream, d.kind, d.event);
    d.thread = static_cast<ThreadId>(threads_.size());
    SimThread& a = new_thread();
    a.name_ = &op_name(op, d.kind);
    a.op = op;
    a.block = no_block;
    a.place.block = no_block;
    a.state = State::unborn;
    mm_->spawn(a.place, static_cast<long>(cur_));
    if (step_ < steps_) listing().spawned.push_back({d.thread, 1});
    trace(current(), [&] { return describe_op(d) + " (" + threads_[d.thread].name() + ")"; });
    if (d.kind == OpKind::kernel) reserve_grid(op);
    start_ready_ops();
    (void)e;
  }

  // Starts every operation whose predecessors finished: its thread learns
  // what they did, then runs it.
  // (Where every operation enqueued started, as at most operations' ends,
  // it looks at none.)
  void start_ready_ops() {
    if (streams_.all_started()) return;
    streams_.startable(startable_);
    for (OpId op : startable_) {
      streams_.start(op);
      const ThreadId a = ops_[op].thread;
      for (OpId p : streams_.predecessors(op)) mm_->join(a, ops_[p].thread);
      start_fiber(a);
    }
  }

  // The events of operation `d`'s thread but a copy's loads and stores: its
  // start, and a kernel's wait for its grid to end.
  void make_op_events(OpData& d) {
    d.start = Event{};
    d.start.kind = EventKind::stream_op;
    d.start.label = label(d.kind);
    d.start.where = d.where;
    if (d.kind != OpKind::kernel) return;
    d.end = Event{};
    d.end.kind = EventKind::wait;
    d.end.label = "kernel end";
    d.end.where = d.where;
  }

  // The body of a copy's thread, on its fiber (the other operations' threads
  // run in place: SimThread::in_place). (The host may enqueue more, and ops_
  // grow, while it runs: Ops keeps `d` where it is.)
  void perform_op(OpId op) {
    OpData& d = ops_[op];
    make_op_events(d);
    perform(d.start, {}, {});
    // Element by element, plain loads and stores (a copy engine orders nothing).
    for (std::size_t i = 0; i < d.count; ++i) {
      Event ld;
      ld.kind = EventKind::load;
      ld.type = d.type;
      ld.size = d.size;
      ld.addr = d.src + i * d.size;
      ld.where = d.where;
      Event st = ld;
      st.kind = EventKind::store;
      st.addr = d.dst + i * d.size;
      st.operand = perform(ld, lower(ld), {});
      perform(st, lower(st), {});
    }
  }

  // Has everything `t` waits for finished? A kernel's operation waits for its
  // grid; the host waits for operations.
  bool wait_over(const SimThread& t) const {
    if (t.op != no_op) return ops_[t.op].unfinished == 0;
    for (OpId op : t.waits_for)
      if (!streams_.finished(op)) return false;
    return true;
  }

  // The host waits for the operations in its waits_for.
  void host_wait(const char* what, Where where) {
    Event e;
    e.kind = EventKind::wait;
    e.label = what;
    e.where = where;
    perform(e, {}, {});
  }

  // A wait event, scheduled once wait_over(): the waiter learns everything
  // the finished work did. (Flattened, so that its appends to the step's
  // learns are inline: a call of the vector's append cost as much as the
  // append.)
  [[gnu::noinline, gnu::flatten]] void wait(const Event& e) {
    SimThread& t = current();
    // (Listed in the step's own learns, where the wait is a step: a grid as one run.)
    std::vector<ThreadRun>* learns = step_ < steps_ ? &listing().learns : nullptr;
    if (learns) learns->clear();
    if (t.op != no_op) {
      const OpData& d = ops_[t.op];
      if (learns && d.threads != 0) learns->push_back({d.first_thread, d.threads});
      mm_->join_all(cur_, d.first_thread, d.threads);
    } else {
      if (learns)
        for (OpId op : t.waits_for) learns->push_back({ops_[op].thread, 1});
      // (From the last, the latest and mostly the widest clock, so that the
      // first join widens the waiter's clock for the others.)
      for (auto op = t.waits_for.rbegin(); op != t.waits_for.rend(); ++op) mm_->join(cur_, ops_[*op].thread);
    }
    t.waits_for.clear();
    trace(t, [&] { return text(e); });
  }

  // A kernel's blocks and threads get their ids when the host enqueues it
  // (host program order), not when it starts: ids name the same thread in
  // every interleaving (the explorer's backtrack and sleep sets, and the
  // fingerprint, identify threads by id). Its threads are unborn, knowing
  // nothing, until the kernel starts (spawn_grid(): then they learn what its
  // operation's thread knows, all the host knew at the enqueue and more).
  void reserve_grid(OpId op) {
    OpData& d = ops_[op];
    const std::uint32_t nb = d.grid.x * d.grid.y * d.grid.z;
    const std::uint32_t nt = d.block.x * d.block.y * d.block.z;
    GridShape& shape = grid_shape(kernels_++, d.grid, d.block);
    const std::uint32_t first_block = static_cast<std::uint32_t>(blocks_.size());
    d.first_thread = static_cast<ThreadId>(threads_.size());
    d.threads = nb * nt;
    d.unfinished = d.threads;
    if (shape.places.size() != d.threads || shape.places_from != first_block) shape.place(first_block);
    for (std::uint32_t b = 0; b < nb; ++b) {
      Block& blk = blocks_.add();
      blk.grid = op;
      blk.first = static_cast<std::uint32_t>(threads_.size());
      blk.count = nt;
      blk.live = nt;
      for (std::uint32_t i = 0; i < nt; ++i) {
        SimThread& t = add_thread();
        t.name_ = &shape.names[b * nt + i];
        t.block = first_block + b;
        t.coords = &shape.coords[b * nt + i];
        t.place = shape.places[b * nt + i];
        t.kernel = &d.body;  // ops_ keeps it where it is
      }
    }
    threads_moved();
    mm_->spawn_all(shape.places);
  }

  // The index after `at` in x, then y, then z order within `dims` (a
  // division per thread and dimension was a visible cost of a large launch).
  static void next_index(Dim3& at, const Dim3& dims) {
    if (++at.x < dims.x) return;
    at.x = 0;
    if (++at.y < dims.y) return;
    at.y = 0;
    ++at.z;
  }

  // The names and coordinates of the threads of the `k`th kernel (from 0)
  // enqueued in a run, of `grid` blocks of `block` threads, in their order.
  // Runs of one model launch alike: they are kept from run to run. (A
  // kernel's threads point to their names and coordinates, SimThread::name_
  // and coords: those of the `k`th kernel are made again only by the `k`th
  // kernel of a later run, and keep their place when grid_shapes_ grows.)
  struct GridShape {
    Dim3 grid, block;
    std::vector<std::string> names;  // "b0.t5", of later kernels "k2.b0.t5"
    std::vector<Coords> coords;
    // Their placements, where the first block is block places_from of the
    // run (mostly the same in every run: place() where not).
    std::vector<Placement> places;
    std::uint32_t places_from = 0;
    void place(std::uint32_t first_block) {
      const std::uint32_t nb = grid.x * grid.y * grid.z, nt = block.x * block.y * block.z;
      places.clear();
      places_from = first_block;
      for (std::uint32_t b = 0; b < nb; ++b)
        for (std::uint32_t i = 0; i < nt; ++i) {
          Placement& p = places.emplace_back();
          p.block = first_block + b;
          p.warp = i / 32;
          p.lane = i % 32;
        }
    }
  };
  static_assert(std::is_nothrow_move_constructible_v<GridShape>);  // (moved, not copied, as grid_shapes_ grows)
  GridShape& grid_shape(unsigned k, Dim3 grid, Dim3 block) {
    if (k < grid_shapes_.size()) {
      GridShape& g = grid_shapes_[k];
      if (!g.names.empty() && g.grid == grid && g.block == block) [[likely]]
        return g;
    }
    return *out_of_line([&] { return &new_grid_shape(k, grid, block); });
  }
  // The `k`th kernel's shape made anew. (Out of line, see out_of_line():
  // seldom past a search's first run, and its allocations run deep, where
  // the host's launch step, which reserves the grid, is deep on its fiber
  // already.)
  GridShape& new_grid_shape(unsigned k, Dim3 grid, Dim3 block) {
    if (grid_shapes_.size() <= k) grid_shapes_.resize(k + 1);
    GridShape& g = grid_shapes_[k];
    const std::string prefix = k == 0 ? "" : "k" + std::to_string(k + 1) + ".";
    g.grid = grid;
    g.block = block;
    g.names.clear();
    g.coords.clear();
    g.places.clear();
    Dim3 block_at{0, 0, 0};
    for (std::uint32_t b = 0; b < grid.x * grid.y * grid.z; ++b, next_index(block_at, grid)) {
      Dim3 thread_at{0, 0, 0};
      for (std::uint32_t i = 0; i < block.x * block.y * block.z; ++i, next_index(thread_at, block)) {
        g.names.push_back(prefix + "b" + std::to_string(b) + ".t" + std::to_string(i));
        g.coords.push_back({thread_at, block_at, block, grid});
      }
    }
    return g;
  }

  // The name of the thread of operation `op`, of kind `k`: "kernel1",
  // "copy2". Kept from run to run, as grid_shape().
  const std::string& op_name(OpId op, OpKind k) {
    if (op < op_names_.size()) {
      const auto& [kind, name] = op_names_[op];
      if (!name.empty() && kind == k) [[likely]]
        return name;
    }
    return new_op_name(op, k);
  }
  // The same made anew. (Out of line: seldom past a search's first run.)
  [[gnu::noinline, gnu::cold]] const std::string& new_op_name(OpId op, OpKind k) {
    if (op_names_.size() <= op) op_names_.resize(op + 1);
    auto& [kind, name] = op_names_[op];
    static const char* const prefix[] = {"kernel", "copy", "record", "wait"};
    kind = k;
    name = prefix[static_cast<int>(k)] + std::to_string(op);
    return name;
  }

  // The kernel starts: its threads learn the view of its operation's thread
  // (kernel start synchronizes) and its blocks may be dispatched.
  void spawn_grid(OpId op) {
    const OpData& d = ops_[op];
    // A competitor may have been enqueued since the start was primed: the
    // step, as it turned out, is dependent with everything then.
    if (step_ < steps_ && kernel_competes(current())) current_step().shape.global = true;
    mm_->start_all(d.first_thread, d.threads, cur_);
    for (Block& b : blocks_)
      if (b.grid == op) {
        b.launched = true;
        ++undispatched_;
      }
    if (step_ < steps_ && d.threads != 0) listing().spawned.push_back({d.first_thread, d.threads});
    fill_slots();
  }

  // May the start of kernel `t` change which blocks take the block slots?
  // Only with a limited number of slots and another kernel enqueued so far
  // that stream order does not place before or after it: then the two
  // compete for the slots, and whether `t` starts before or after the other's
  // start and its blocks' exits matters (semantics.md, "Spin loops and
  // progress": residency). A kernel enqueued later sees `t` in turn.
  // (Inline, as every stream operation asks: the other kernels are looked
  // at out of line, only with limited slots.)
  [[gnu::always_inline]] bool kernel_competes(const SimThread& t) const {
    return t.op != no_op && resident_slots() != 0 && ops_[t.op].kind == OpKind::kernel && kernel_has_rival(t.op);
  }
  // Another kernel enqueued so far that stream order places neither before
  // nor after kernel `op`?
  [[gnu::noinline]] bool kernel_has_rival(OpId op) const {
    for (OpId o = 0; o < streams_.size(); ++o)
      if (o != op && streams_.kind(o) == OpKind::kernel && !streams_.ordered(o, op) && !streams_.ordered(op, o))
        return true;
    return false;
  }

  // Resident blocks: blocks that are dispatched and still have live threads.
  unsigned resident() const {
    unsigned n = 0;
    for (const Block& b : blocks_) n += b.dispatched && b.live > 0;
    return n;
  }
  // Dispatches blocks waiting for a slot while slots are free. (Flattened, so
  // that its appends to the dispatch choice's keys are inline: a call of the
  // vector's append cost as much as the append.)
  [[gnu::flatten]] void fill_slots() {
    unsigned picks = undispatched_;  // blocks this fill dispatches (the explorer takes them as a set)
    if (picks == 0) return;
    if (resident_slots() != 0) picks = std::min(picks, resident_slots() > resident() ? resident_slots() - resident() : 0u);
    // The blocks waiting for a slot, in id order: the dispatch choice's
    // alternatives, listed once a fill (each dispatch takes out its own).
    ChoicePoint& p = dispatch_;
    p.keys.clear();
    p.members.clear();
    for (std::uint32_t b = 0; b < blocks_.size(); ++b)
      if (blocks_[b].launched && !blocks_[b].dispatched) {
        p.keys.push_back(b);
        p.members.emplace_back(blocks_[b].first, blocks_[b].count);
      }
    while (undispatched() && (resident_slots() == 0 || resident() < resident_slots())) dispatch_one(picks--);
  }

  // --resident-blocks wins over the model's configuration; 0: every block.
  // (Known once a run: begin().)
  unsigned resident_slots() const { return resident_slots_; }

  bool undispatched() const { return undispatched_ != 0; }

  // Which block takes a free slot is a choice: CUDA promises no dispatch
  // order. (Of the blocks waiting, dispatch_'s keys: fill_slots().)
  void dispatch_one(unsigned picks) {
    ChoicePoint& p = dispatch_;
    p.actor = cur_;
    p.picks = picks;
    const unsigned i = decide<ChoiceKind::dispatch>(p, [&](unsigned k) { return "dispatch block " + std::to_string(p.keys[k]); });
    Block& b = blocks_[p.keys[i]];
    b.dispatched = true;
    --undispatched_;
    // (Taken out by hand, both lists in one pass: a few alternatives, where
    // an erase() called memmove for each.)
    for (std::size_t k = i + 1; k < p.keys.size(); ++k) {
      p.keys[k - 1] = p.keys[k];
      p.members[k - 1] = p.members[k];
    }
    p.keys.pop_back();
    p.members.pop_back();
    for (std::uint32_t k = 0; k < b.count; ++k) start_fiber(b.first + k);
  }

  // The running thread ends.
  void exit_thread() {
    const ThreadId id = cur_;
    SimThread& t = current();
    if (t.state == State::fresh || t.state == State::wake) --ready_count_;  // (it ended before any event)
    t.state = State::done;
    --live_;
    settle_reads(t);  // it waits for nothing more
    pending(t, id, false);
    if (t.host) return;
    if (t.op != no_op) {
      streams_.finish(t.op);
      work_ended();
      start_ready_ops();
      return;
    }
    Block& b = blocks_[t.block];
    --b.live;
    if (--ops_[b.grid].unfinished == 0) work_ended();
    if (!b.exited_early || t.barriers_passed < b.first_exit_barriers) {
      b.exited_early = true;
      b.first_exit = id;
      b.first_exit_barriers = t.barriers_passed;
    }
    release_warp_waiters(t);
    if (!b.arrived.empty() || b.most_barriers > t.barriers_passed) exit_diverges(t, b);
    if (b.live == 0 && undispatched()) fill_slots();  // (a slot freed, and a block waits for one)
  }
  // Kernel thread `t` exits while threads of its block `b` wait at a barrier
  // or passed more barriers than it: barrier divergence. (Out of line: see
  // out_of_line().)
  [[gnu::noinline, gnu::cold]] void exit_diverges(const SimThread& t, Block& b) {
    if (!b.arrived.empty()) {
      divergence(t.name() + " exits while " + threads_[b.arrived.front()].name() + " waits at the barrier at " +
                     describe(b.barrier_where),
                 {threads_[b.arrived.front()].name(), t.name()}, {describe(b.barrier_where)});
      if (b.arrived.size() >= b.live) complete_barrier(t.block);
      return;
    }
    for (std::uint32_t k = 0; k < b.count; ++k) {
      const SimThread& o = threads_[b.first + k];
      if (o.barriers_passed > t.barriers_passed) {
        divergence(t.name() + " exits after " + std::to_string(t.barriers_passed) + " barriers while " + o.name() +
                       " passed " + std::to_string(o.barriers_passed),
                   {o.name(), t.name()}, {describe(b.barrier_where)});
        break;
      }
    }
  }

  void report_deadlock() {
    std::string msg = "deadlock: every live thread is blocked:";
    std::vector<std::string> who, where;
    int shown = 0;
    for (const SimThread& t : threads_) {
      std::string what;
      if (t.state == State::spin) what = t.name() + " spins on " + location(t.pending->addr) + " at " + describe(t.pending->where) + " waiting for a write that never comes";
      else if (t.state == State::barrier && t.pending->kind != EventKind::barrier)
        what = t.name() + " waits in " + collective_name(*t.pending) + " at " + describe(t.pending->where) +
               " for lanes that never arrive";
      else if (t.state == State::barrier)
        what = t.name() + " waits at the barrier at " + describe(blocks_[t.block].barrier_where);
      else continue;
      if (shown++ < 4) msg += " " + what + ";";
      who.push_back(t.name());
      where.push_back(describe(t.pending->where));
    }
    if (shown > 4) msg += " and " + std::to_string(shown - 4) + " more;";
    if (threads_[0].state == State::sync)
      msg += " the host waits in " + std::string(threads_[0].pending->label) + " at " +
             describe(threads_[0].pending->where) + ";";
    for (std::uint32_t b = 0; b < blocks_.size(); ++b)
      if (blocks_[b].launched && !blocks_[b].dispatched) {
        msg += " block " + std::to_string(b) + " never becomes resident (" +
               std::to_string(resident_slots()) +
               " slot(s), held by blocked blocks);";
        who.push_back("block " + std::to_string(b));
      }
    msg.pop_back();
    std::sort(where.begin(), where.end());
    where.erase(std::unique(where.begin(), where.end()), where.end());
    add_finding(FindingKind::deadlock, msg, who, where);
  }

  void collect_findings() {
    mm_->take_findings(model_findings_);
    if (!model_findings_.empty()) keep_model_findings();
  }
  // (Out of line: collect_findings() runs in every access, and see out_of_line().)
  [[gnu::noinline]] void keep_model_findings() {
    for (const ModelFinding& f : model_findings_) {
      if (!new_model_finding(f)) continue;
      const Region* r = region(f.addr);
      if (const FormattedFinding* known = formatted(f, r))
        keep_finding(known->finding, known->key, known->key_hash, static_cast<std::size_t>(known - formatted_.data()));
      else
        out_of_line([&] { format_model_finding(f, r); });
    }
  }
  // `f` (in allocation `r`), formatted into a finding of the run, and kept
  // so for later runs (formatted_). (Out of line, with its texts: every run
  // of a new model with a racy access formats one, in frames several KB
  // deep.)
  void format_model_finding(const ModelFinding& f, const Region* r) {
    const std::string wa = describe(events_[f.event_a].where), wb = describe(events_[f.event_b].where);
    std::string msg = std::string(name(f.kind)) + " on " + location(f.addr) + ": " + threads_[f.thread_a].name() +
                      " at " + wa;
    if (f.event_b != f.event_a) msg += " and " + threads_[f.thread_b].name() + " at " + wb;
    msg.append(" (").append(f.detail).append(")");
    std::vector<std::string> who{threads_[f.thread_a].name()}, where{wa};
    if (f.event_b != f.event_a) {
      who.push_back(threads_[f.thread_b].name());
      where.push_back(wb);
    }
    Finding out{f.kind, std::move(msg), std::move(who), std::move(where)};
    std::string key = out.key();
    const std::uint64_t key_hash = Finding::hash_key(key);
    if (formatted_.size() < max_formatted) {
      const bool two = f.event_b != f.event_a;
      formatted_.push_back({f.kind, events_[f.event_a].where, events_[f.event_b].where, two,
                            threads_[f.thread_a].name(), two ? threads_[f.thread_b].name() : std::string(),
                            r ? r->name : std::string(), r != nullptr, r ? f.addr - r->begin : 0,
                            std::string(f.detail), out, key, key_hash});
      keep_finding(out, key, key_hash, formatted_.size() - 1);
    } else {
      keep_finding(std::move(out), std::move(key), key_hash);
    }
  }

  // The allocation `a` lies in, if any (location() names it).
  const Region* region(std::uintptr_t a) const {
    for (const Region& r : regions_)
      if (a >= r.begin && a < r.end) return &r;
    return nullptr;
  }

  // A memory-model finding formatted in an earlier run, with all its text
  // depends on: its kind, source positions, thread names, location (the
  // allocation's name and the offset in it) and detail.
  struct FormattedFinding {
    FindingKind kind;
    Where a, b;
    bool two;
    std::string thread_a, thread_b, region;
    bool in_region;
    std::uintptr_t offset;
    std::string detail;
    Finding finding;
    std::string key;  // finding.key()
    std::uint64_t key_hash;  // Finding::hash_key(key)
    // (What formatted() looks an entry up by: its kind, positions, offset
    // and threads; the rest is compared.)
    std::uint64_t hash() const { return finding_hash(kind, two, a, b, offset, thread_a, thread_b); }
  };
  // A run of a long racy kernel shows a finding for each pair of racing
  // lines, hundreds of them: each one past this many is formatted anew in
  // every run that shows it.
  static constexpr std::size_t max_formatted = 4096;
  static std::uint64_t finding_hash(FindingKind kind, bool two, const Where& a, const Where& b, std::uintptr_t offset,
                                    std::string_view thread_a, std::string_view thread_b) {
    std::uint64_t h = positions_hash(kind, two, a, two ? b : Where{});
    h = (h ^ offset) * 0x100000001b3ULL;
    h ^= std::hash<std::string_view>{}(thread_a) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    if (two) h ^= std::hash<std::string_view>{}(thread_b) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }

  // `f` (in allocation `r`) as an earlier run formatted it, if one did.
  // (Asked of a racy access in every run: by its hash once formatted_ is
  // long (ListIndex), the names, a few bytes, compared in place,
  // same_text().)
  const FormattedFinding* formatted(const ModelFinding& f, const Region* r) {
    const bool two = f.event_b != f.event_a;
    const Where& a = events_[f.event_a].where;
    const Where& b = events_[f.event_b].where;
    const std::uintptr_t offset = r ? f.addr - r->begin : 0;
    const std::string& thread_a = threads_[f.thread_a].name();
    const std::string& thread_b = threads_[f.thread_b].name();
    const std::size_t n = formatted_.size();
    const std::size_t i = formatted_index_.find(
        n,
        [&](std::size_t i) {
          const FormattedFinding& k = formatted_[i];
          return k.kind == f.kind && k.two == two && k.a == a && (!two || k.b == b) &&
                 k.in_region == (r != nullptr) && (!r || (k.offset == offset && same_text(k.region, r->name))) &&
                 same_text(k.thread_a, thread_a) && (!two || same_text(k.thread_b, thread_b)) && k.detail == f.detail;
        },
        [&] { return finding_hash(f.kind, two, a, b, offset, thread_a, thread_b); },
        [&](std::size_t i) { return formatted_[i].hash(); });
    return i == n ? nullptr : &formatted_[i];
  }

  // Is `f` the first of its kind at its source positions in this run? Later
  // ones have the same Finding::key() (the same positions describe alike):
  // add_finding() would drop them, so they are not even formatted.
  bool new_model_finding(const ModelFinding& f) {
    // (Its positions looked at in place, in the run's events: an entry
    // names the events, not their positions.)
    std::uint32_t event_a = f.event_a, event_b = f.event_b;
    const bool two = event_b != event_a;
    const Where* a = &events_[event_a].where;
    const Where* b = &events_[event_b].where;
    if (two && *a != *b && std::tie(b->file, b->line, b->pc) < std::tie(a->file, a->line, a->pc)) {
      std::swap(a, b);
      std::swap(event_a, event_b);
    }
    const std::uint64_t hash = positions_hash(f.kind, two, *a, two ? *b : Where{});
    const std::size_t n = seen_findings_.size();
    const auto equal = [&](std::size_t i) {
      const SeenFinding& o = seen_findings_[i];
      return o.hash == hash && o.kind == f.kind && o.two == two && events_[o.event_a].where == *a &&
             (!two || events_[o.event_b].where == *b);
    };
    const auto hash_at = [&](std::size_t i) { return seen_findings_[i].hash; };
    if (seen_index_.find(n, equal, [&] { return hash; }, hash_at) != n) return false;
    seen_findings_.push_back({hash, event_a, event_b, f.kind, two});
    return true;
  }

  void add_finding(FindingKind k, std::string msg, std::vector<std::string> who, std::vector<std::string> where) {
    Finding f{k, std::move(msg), std::move(who), std::move(where)};
    std::string key = f.key();
    const std::uint64_t key_hash = Finding::hash_key(key);
    keep_finding(std::move(f), std::move(key), key_hash);
  }
  // Keeps `f`, of key `key` (Finding::hash_key(): `key_hash`), unless the
  // run has a finding of that key. The run's findings and their keys take the
  // places of those of the run before in r_ (copied into them, their strings
  // keep their capacity); go() drops the rest at the run's end. `from`: the
  // formatted_ entry `f` and `key` are, if they are one; where the run before
  // kept the same entry in this place, it is there already, and not copied
  // again.
  template <class F, class K>
  void keep_finding(F&& f, K&& key, std::uint64_t key_hash, std::size_t from = not_formatted) {
    std::vector<std::string>& keys = r_->finding_keys;
    std::vector<std::uint64_t>& hashes = r_->finding_hashes;
    if (key_index_.find_text(
            findings_, key, key_hash, [&](std::size_t i) -> const std::string& { return keys[i]; },
            [&](std::size_t i) { return hashes[i]; }) != findings_)
      return;
    if (findings_ < finding_from_.size() && from != not_formatted && finding_from_[findings_] == from) {
      ++findings_;
      return;
    }
    if (findings_ == keys.size()) keys.emplace_back();
    keys[findings_] = std::forward<K>(key);
    if (findings_ == hashes.size()) hashes.emplace_back();
    hashes[findings_] = key_hash;
    if (findings_ == r_->findings.size()) r_->findings.emplace_back();
    r_->findings[findings_] = std::forward<F>(f);
    if (findings_ == finding_from_.size()) finding_from_.emplace_back();
    finding_from_[findings_] = from;
    ++findings_;
  }

  std::string text(const Event& e) const {
    switch (e.kind) {
      case EventKind::load:
      case EventKind::store:
      case EventKind::rmw: {
        const Lowering l = lower(e);
        std::string s = ptx_name(l.ops[l.count - 1]) + " " + location(e.addr);
        if (e.kind == EventKind::store) s += " = " + format_value(e.type, e.operand);
        return s + " at " + describe(e.where);
      }
      case EventKind::fence: {
        const Lowering l = lower(e);
        return (l.count ? ptx_name(l.ops[0]) : std::string("fence (relaxed: none)")) + " at " + describe(e.where);
      }
      case EventKind::barrier: return "bar.sync 0 at " + describe(e.where);
      case EventKind::syncwarp: return "syncwarp 0x" + hex(static_cast<std::uint32_t>(e.operand)) + " at " + describe(e.where);
      case EventKind::shfl:
        return "shfl." + std::string(name(e.shfl)) + " 0x" + hex(static_cast<std::uint32_t>(e.operand)) + " lane " +
               std::to_string(e.lane) + " value " + format_value(e.type, e.operand2) + " at " + describe(e.where);
      case EventKind::ballot:
        return "ballot 0x" + hex(static_cast<std::uint32_t>(e.operand)) + " predicate " +
               std::to_string(e.operand2 != 0) + " at " + describe(e.where);
      case EventKind::stream_op:
      case EventKind::wait: return std::string(e.label ? e.label : "host") + " at " + describe(e.where);
      default: return std::string(name(e.kind));
    }
  }

  // `line` is formatted only where the trace is kept (and out of line; it
  // is copied into the closure there, not referred to: as decide()'s).
  template <class Line>
  void trace(const SimThread& t, Line line) {
    if (keep_trace_) r_->trace.push_back(out_of_line([&t, line] { return t.name() + " " + line(); }));
  }

  void finish() {
    // (The run's values, over the run before's: begin().)
    if (r_->completed)
      r_->outcome.keep(observed_);
    else
      r_->outcome.clear();
    if (r_->completed && m_->bad) r_->bad = m_->bad(r_->outcome);
    r_->fingerprint = mm_->fingerprint();
  }

  // Clears everything of the previous run (its capacity stays) for a run of
  // `m` into `into`.
  void begin(const models::Model& m, const models::Config& c, const RunOptions& o, Chooser& ch, RunResult& into) {
    m_ = &m;
    c_ = &c;
    o_ = &o;
    keep_trace_ = o.keep_trace;
    cuts_ = static_cast<bool>(o.cut);
    max_steps_ = o.max_steps;
    resident_slots_ = o.resident_blocks ? o.resident_blocks : c.resident_blocks;
    ch_ = &ch;
    // (A RunResult that the run before did not fill last, if one at the same
    // address: another walk's, moved into the kept buffer on this thread.)
    if (into.filled_by == 0 || into.filled_by != filled_) finding_from_.clear();
    into.filled_by = 0;
    r_ = &into;
    r_->completed = r_->abandoned = r_->bad = r_->cut = false;
    cut_ = false;
    performed_ = 0;
    observed_ = 0;  // (observed over the run before's values: observe(), finish())
    r_->trace.clear();
    r_->texts.clear();
    r_->fingerprint = 0;
    // Runs of one exploration are alike: a new RunResult starts with the
    // previous run's sizes.
    r_->log.reserve(sizes_.log);
    decision_at_ = r_->log.data();
    log_end_ = r_->log.data() + r_->log.size();
    r_->steps.reserve(sizes_.steps);
    step_next_ = r_->steps.data();
    steps_end_ = r_->steps.data() + r_->steps.size();
    arena_.reset();
    pool_.reset();
    // Everything that allocates in scratch_ goes before it starts over.
    // (Most threads keyed no visit, and most runs meet in no warp collective
    // and make no shared array: their maps are empty already.)
    for (ThreadId id : visitors_) threads_[id].visits.clear();
    visitors_.clear();
    threads_.clear();
    if (!warps_.empty()) warps_.clear();
    if (!shared_.empty()) {
      shared_.clear();
      last_shared_ = {};
    }
    scratch_.release();
    blocks_.clear();
    undispatched_ = 0;
    regions_.clear();
    events_n_ = 0;
    event_next_ = events_.data();
    events_end_ = events_.data() + events_.size();
    cur_ = 0;
    lowest_ready_ = no_thread;
    scan_ = no_thread;
    ready_count_ = 0;
    live_ = 0;
    decided_.reset();
    waiting_.clear();
    next_thread_.keys.clear();
    next_thread_.actor = 0;
    next_thread_.previous = nullptr;
    keys_dropped_ = true;
    work_ended_ = false;
    spinning_ = 0;
    may_wake_ = false;
    step_ = ~std::size_t{0};
    steps_ = 0;
    decisions_ = 0;
    prefix_at_ = ch.prefix().data();
    prefix_end_ = prefix_at_ + ch.prefix().size();
    streams_.clear();
    kernels_ = 0;
    launched_threads_ = 0;
    stopped_ = false;
    limit_.clear();
    in_step_ = false;
    fault_.kind = FindingKind::kernel_fault;
    fault_.message.clear();
    fault_where_.clear();
    findings_ = 0;
    key_index_.clear();
    seen_findings_.clear();
    seen_index_.clear();
    if (formatted_for_ != m_) {
      formatted_.clear();
      formatted_index_.clear();
      finding_from_.clear();
    }
    formatted_for_ = m_;
  }

  // The OS thread's, as the Run: its simulated memory and its fibers.
  Arena arena_;
  fiber::FiberPool pool_;
  // The run's (begin()):
  const models::Model* m_ = nullptr;
  const models::Config* c_ = nullptr;  // run_once's caller keeps both for the run
  const RunOptions* o_ = nullptr;
  // Of o_ (and c_), those every event (or dispatch) asks, kept here (one
  // load each, not two or more).
  bool keep_trace_ = false;
  bool cuts_ = false;  // o_->cut is set
  std::uint64_t max_steps_ = 0;
  unsigned resident_slots_ = 0;  // resident_slots()
  Chooser* ch_ = nullptr;
  // memory_model()'s, of name mm_name_ (go(), not begin(): the run before's
  // stays where this run names the same model).
  MemoryModel* mm_ = nullptr;
  std::string mm_name_;
  RunResult* r_ = nullptr;     // the caller's, filled in
  struct Sizes {
    std::size_t log = 0, steps = 0;
  } sizes_;  // the previous run's
  // The run's node containers (spin visits, warps, shared arrays) allocate
  // here; it starts over with each run, in a buffer kept from run to run.
  // (Left unwritten: zeroing its 256 KB cost the first run of an OS thread
  // more than many runs' steps.)
  static constexpr std::size_t scratch_bytes = std::size_t{1} << 18;
  std::unique_ptr<std::byte[]> scratch_buffer_ = std::make_unique_for_overwrite<std::byte[]>(scratch_bytes);
  Scratch scratch_{scratch_buffer_.get(), scratch_bytes};
  Reused<SimThread> threads_;
  Reused<Block> blocks_;
  unsigned undispatched_ = 0;  // of blocks_, those launched and not dispatched
  // Lanes waiting in a warp collective, per (block, warp).
  std::pmr::map<std::pair<std::uint32_t, std::uint32_t>, Warp> warps_{&scratch_};
  Reused<Region> regions_;
  std::pmr::map<std::pair<std::uintptr_t, std::uint32_t>, std::uintptr_t> shared_{&scratch_};
  // The entry of shared_ last looked up (a block's threads declare a shared
  // array one after another); none where its site is 0 (shared_ is empty).
  std::pair<std::pair<std::uintptr_t, std::uint32_t>, std::uintptr_t> last_shared_{};
  struct EventRef {
    ThreadId thread;
    Where where;
    std::size_t step;        // the step that performed it (an index in r_->steps)
    WriteId write;           // an RMW: the write it made
    std::uint64_t commutes;  // an RMW: its family among commuting RMWs (0: none)
  };
  // The run's events: events_[0, events_n_), in the places of the run
  // before's (counted apart: a size is a division by a record's).
  std::vector<EventRef> events_;
  std::uint32_t events_n_ = 0;
  // Invariant: &events_[events_n_], and the events' end (begin(),
  // more_events(): they grow nowhere else). (A read may wait, and others
  // add events meanwhile: an event's record is looked up again by its index
  // after its read, not through a pointer kept.)
  EventRef* event_next_ = nullptr;
  EventRef* events_end_ = nullptr;
  ThreadId cur_ = 0;
  // Invariant: &threads_[cur_], once the run made its host's record (kept
  // where either changes: advance(), threads_moved()), so that the running
  // thread's record, asked for at every event, is one load.
  SimThread* current_ = nullptr;
  SimThread& current() { return *current_; }
  const SimThread& current() const { return *current_; }
  static constexpr ThreadId no_thread = ~ThreadId{0};
  // The priming pass under way (next_to_prime()): the next thread it looks
  // at (no_thread: none is).
  ThreadId scan_ = no_thread;
  // Invariant: no thread below it is State::fresh or State::wake (ready()),
  // but for those at or past scan_, which the pass under way reaches.
  ThreadId lowest_ready_ = no_thread;
  // Invariant: the threads State::fresh or State::wake (ready(); they leave
  // it at their first event, perform(), or their end, exit_thread()).
  std::uint32_t ready_count_ = 0;
  // Invariant: the threads neither State::unborn nor State::done (started:
  // start_fiber(), not ended: exit_thread()).
  std::uint32_t live_ = 0;
  // A thread decision perform() made at the end of a step or of the
  // priming, or pass_on() where a thread ended or waits, for loop() to carry
  // out once the thread has switched back (next_thread()).
  std::optional<std::pair<Next, ThreadId>> decided_;
  // Invariant: bit k of waiting_ is set iff thread k is State::sync or spin
  // (pending()): the threads a thread decision checks for a wake-up. A word
  // for every 64 threads (add_thread()).
  // (A Boost.Container vector, as SimThread::reads.)
  boost::container::vector<std::uint64_t> waiting_;
  // Invariant: next_thread_'s keys are the State::runnable threads, in id
  // order (pending()). Unless set, they are not none: none was dropped since a
  // thread decision found some (one that found none ended the run). Set
  // when a run starts.
  bool keys_dropped_ = true;
  // Invariant: unless set, no State::sync thread's wait_over() changed since
  // the last thread decision checked them (next_thread()): a wait ends only
  // where a stream operation or a grid does (exit_thread()).
  bool work_ended_ = false;
  // Invariant: the threads in State::spin (choose_read() makes one,
  // next_thread() wakes it).
  std::uint32_t spinning_ = 0;
  // Invariant: set iff work_ended_ is or spinning_ is not 0 (one test a
  // thread decision, not two).
  bool may_wake_ = false;
  std::size_t step_ = ~std::size_t{0};  // the step running or run last; before the first, none (not < steps_)
  // Invariant: &r_->steps[step_] where step_ < steps_ (next_thread(): the
  // steps grow only in next_step(), just before).
  Step* step_at_ = nullptr;
  std::size_t steps_ = 0;  // the run's steps so far: r_->steps[0, steps_) (next_step())
  // Invariant: &r_->steps[steps_], and the steps' end (begin(),
  // more_steps(): the steps grow nowhere else in a run).
  Step* step_next_ = nullptr;
  Step* steps_end_ = nullptr;
  std::size_t decisions_ = 0;  // the run's decisions so far: r_->log[0, decisions_) (decide())
  // Invariant: &r_->log[decisions_], and the log's end (begin(),
  // longer_log(): the log grows nowhere else in a run).
  Decision* decision_at_ = nullptr;
  Decision* log_end_ = nullptr;
  // Of the strategy's prefix (Chooser::prefix(), fixed before the run
  // starts), the choices not taken yet.
  const unsigned* prefix_at_ = nullptr;
  const unsigned* prefix_end_ = nullptr;
  Streams streams_;
  // The run's stream operations, by OpId. Each keeps its place as more are
  // enqueued (a kernel's threads point to its body; perform_op() holds it
  // while the host enqueues more): a record of its own. The records are kept
  // from run to run; an operation's is made anew when the host is about to
  // enqueue it (next_op()), and only operations the run enqueued are looked up.
  class Ops {
   public:
    OpData& operator[](OpId op) { return *records_[op]; }
    const OpData& operator[](OpId op) const { return *records_[op]; }
    // Operation `op`'s record, new (OpData::clear()).
    OpData& renew(OpId op) {
      while (records_.size() <= op) records_.push_back(std::make_unique<OpData>());
      OpData& d = *records_[op];
      d.clear();
      return d;
    }

   private:
    std::vector<std::unique_ptr<OpData>> records_;
  } ops_;
  unsigned kernels_ = 0;
  std::uint64_t launched_threads_ = 0;
  // The most threads a run had at an operation's start, of the runs on this
  // OS thread so far (kept from run to run): step_in_place().
  std::size_t threads_high_ = 0;
  // RunOptions::cut is asked every kCutEvery events of a run: an event of a
  // launch of thousands of threads can take 100 us and more (its views span
  // every thread), so that a time limit or an interrupt stops it within tens
  // of milliseconds; a clock read every 256 events is nothing beside them.
  static constexpr std::uint64_t kCutEvery = 256;
  std::uint64_t performed_ = 0;  // events in this run
  std::size_t observed_ = 0;     // the run's values so far: r_->outcome's first (observe())
  bool cut_ = false;          // RunOptions::cut ended the run  // by every launch of the run so far (kMaxRunThreads)
  std::vector<GridShape> grid_shapes_;  // kept from run to run (grid_shape())
  // Kept from run to run (op_name()); a deque, where a thread's name stays
  // as more are made.
  std::deque<std::pair<OpKind, std::string>> op_names_;
  bool stopped_ = false;
  std::string limit_;  // the simulator's limit the run reached (reach_limit())
  bool in_step_ = false;  // running the chosen thread's step (not priming)
  Fault fault_{FindingKind::kernel_fault, ""};
  std::string fault_where_;
  // The run's threads that keyed a visit (SimThread::visits), once each or
  // more: begin() empties their maps alone. (A thread's first keyed visit in
  // a run is a spot's entry, in choose_read(), made when its map is empty.)
  std::vector<ThreadId> visitors_;
  // Buffers kept from one decision to the next.
  // Of r_->findings, finding_keys and finding_hashes, [0, findings_) are the run's (keep_finding()).
  std::size_t findings_ = 0;
  // The formatted_ entry each of r_->findings is a copy of (its index), or
  // not_formatted: the first so many of r_->findings (all where the run
  // before filled r_; none where another run did, or formatted_ started
  // over).
  std::vector<std::size_t> finding_from_;
  // The RunResult::filled_by of the run before. A Run numbers its runs in a
  // range of its own (2^40 of them), taken once, so that runs on many threads
  // share no counter (each would move its cache line from core to core).
  std::uint64_t filled_ = own_fills();
  static std::uint64_t own_fills() {
    static std::atomic<std::uint64_t> ranges{0};
    return (ranges.fetch_add(1, std::memory_order_relaxed) + 1) << 40;
  }
  static constexpr std::size_t not_formatted = ~std::size_t{0};
  // A memory-model finding of the run (new_model_finding()): its kind and
  // positions, those of the run's events event_a and event_b (the earlier
  // position first; event_b only if two), and their hash (positions_hash()).
  struct SeenFinding {
    std::uint64_t hash;
    std::uint32_t event_a, event_b;
    FindingKind kind;
    bool two;
  };
  // The hash of a finding of kind `kind` at positions `a` and `b` (Where{}
  // where it has one only).
  static std::uint64_t positions_hash(FindingKind kind, bool two, const Where& a, const Where& b) {
    std::uint64_t h = static_cast<std::uint64_t>(kind) << 1 | two;
    for (const Where& w : {a, b})
      for (const std::uint64_t v : {reinterpret_cast<std::uintptr_t>(w.file), std::uintptr_t{w.line}, w.pc})
        h = (h ^ v) * 0x100000001b3ULL;
    return h;
  }
  std::vector<SeenFinding> seen_findings_;  // the memory model's findings so far (new_model_finding())
  ListIndex seen_index_;                    // of seen_findings_
  ListIndex key_index_;                     // of r_->finding_keys, [0, findings_) (keep_finding())
  std::vector<ModelFinding> model_findings_;  // collect_findings()'s buffer
  std::vector<FormattedFinding> formatted_;  // kept from run to run, for one model (formatted())
  ListIndex formatted_index_;                // of formatted_
  const models::Model* formatted_for_ = nullptr;
  std::vector<OpId> startable_;            // start_ready_ops()'s
  std::string shared_name_;                // new_shared()'s
  std::vector<ThreadId> collective_;       // try_complete_warp()'s: the lanes that meet
  std::vector<std::uint64_t> shuffled_;    // try_complete_warp()'s: a shuffle's results
  // Kept from one thread decision to the next: its keys (pending()), the
  // thread that ran last and its step (next_thread()), and where the
  // threads' next steps are (threads_moved()).
  ChoicePoint next_thread_{ChoiceKind::thread, 0, {}, {}, {}, 1};
  ChoicePoint choice_;                     // read and coherence decisions (choice())
  std::vector<WriteId> cand_, atomic_;     // a read's candidates (choose_read)
  std::uint64_t read_value_ = 0;           // the value of the write the last read returned (pick_read())
  std::array<std::uint32_t, 64> region_hint_{};  // check_bounds()'s, by the address's block
  ChoicePoint dispatch_{ChoiceKind::dispatch, 0, {}, {}, {}, 1};
};

}  // namespace

void run_once(const models::Model& m, const models::Config& c, const RunOptions& o, Chooser& chooser,
              RunResult& into) {
  thread_local Run run;
  run.go(m, c, o, chooser, into);
}

RunResult run_once(const models::Model& m, const models::Config& c, const RunOptions& o, Chooser& chooser) {
  RunResult r;
  run_once(m, c, o, chooser, r);
  return r;
}

}  // namespace scopesim
