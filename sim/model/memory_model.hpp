// The memory model behind one narrow interface: the engine hands it PTX-level
// memory operations (events in) and asks which writes a read may return and
// where a write may fall in coherence (permitted choices out); the model keeps
// views and coherence and reports races (findings out). The engine never
// encodes a memory-model rule. Models are chosen by name: `ptx` (the product),
// `sc` (sequential consistency, the test oracle), `scope-blind` (every scope
// treated as sys, for differential tests).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/event.hpp"
#include "sim/core/finding.hpp"
#include "sim/core/lowering.hpp"
#include "sim/core/scope.hpp"

namespace scopesim {

using ThreadId = std::uint32_t;
using WriteId = std::uint32_t;
inline constexpr WriteId no_write = ~WriteId{0};

// One PTX memory operation as the model sees it.
struct MemOp {
  ThreadId thread = 0;
  PtxOp op;                 // ld / st / atom with semantics and scope
  std::uintptr_t addr = 0;
  std::uint32_t size = 0;
  std::uint64_t value = 0;  // value written (st, atom)
  WriteId rmw_source = no_write;  // atom: the write its read part returned
  std::uint32_t event = 0;  // the engine's event index, for findings
};

// A race or unsupported access the model noticed; events are engine indexes.
struct ModelFinding {
  FindingKind kind;
  ThreadId thread_a, thread_b;
  std::uint32_t event_a, event_b;
  std::uintptr_t addr;
  std::string_view detail;  // static text, or text the model keeps until its reset()
};

// What readable() tells besides the writes, of the read's location as it is
// then (so that a read needs one call).
struct Readable {
  // Is a write of the location hidden from the read only through a write its
  // thread does not know (a path of coherence edges from it to a known write
  // that passes through an unknown one, none going straight to a known one)?
  // If not, leaving out any writes the thread does not know hides and reveals
  // nothing else: the read, run before them, could return only writes it may
  // return now.
  bool hidden_by_unknown = false;
  std::size_t writes = 0;  // writes to the location, as writes_to() counts them
};

struct WriteInfo {
  ThreadId thread;     // writer (the initial pseudo-write: no thread, see `initial`)
  std::uint64_t value;
  bool initial;        // before every thread (allocation or host set-up)
  bool uninitialised;  // nobody ever wrote this location
  std::uint32_t event;
};

class MemoryModel {
 public:
  virtual ~MemoryModel() = default;
  virtual std::string_view name() const = 0;
  // Forgets every thread, write and location: the model of a new run (it
  // keeps its buffers).
  virtual void reset() = 0;

  // A new thread placed at `where`; its view starts as `parent`'s. parent < 0:
  // none (the host; a kernel's thread, whose view comes with its kernel's
  // start: join()).
  virtual ThreadId spawn(const Placement& where, long parent) = 0;
  // spawn(where[i], -1) for each, in order (a kernel's threads, at its
  // enqueue); the first one's id.
  virtual ThreadId spawn_all(const std::vector<Placement>& where) = 0;
  // `waiter` learns everything `ended` did (kernel end, synchronize calls).
  virtual void join(ThreadId waiter, ThreadId ended) = 0;
  // A kernel's start and end, where many threads learn one view and one
  // thread learns many: the threads [first, first + count) (a grid, spawned
  // with no view and not run yet) each learn what `from` knows, as join(k,
  // from) for each; `waiter`, not one of them, learns everything each did,
  // as join(waiter, k) for each.
  virtual void start_all(ThreadId first, std::uint32_t count, ThreadId from) = 0;
  virtual void join_all(ThreadId waiter, ThreadId first, std::uint32_t count) = 0;

  // Writes that read `r` may return, in coherence-list order (into `out`,
  // a buffer the caller keeps). For an RMW, only sources that keep it
  // atomic. Never empty for a valid access.
  virtual Readable readable(const MemOp& r, std::vector<WriteId>& out) = 0;
  std::vector<WriteId> readable(const MemOp& r) {
    std::vector<WriteId> out;
    readable(r, out);
    return out;
  }
  virtual void read(const MemOp& r, WriteId w) = 0;
  // Number of permitted coherence placements for write `w` (at least 1).
  // With `precedes`, also lists there (cleared first) the writes of its
  // location that some permitted placement comes before (those its thread
  // does not know and may precede), in coherence-list order: worked out
  // with the placements, not asked again.
  virtual unsigned placements(const MemOp& w, std::vector<WriteId>* precedes) = 0;
  unsigned placements(const MemOp& w) { return placements(w, nullptr); }
  // Has write `w` one placement, without asking placements()? A weak write
  // does: it is morally strong with no other thread's write, so coherence
  // orders it after the writes its thread knows and leaves it unordered with
  // the rest (semantics.md, "Coherence is partial"), and one slot after them
  // is as good as any: the last, before no write. (Most writes are weak: no
  // virtual call.)
  static bool one_placement(const MemOp& w) { return !is_strong(w.op.sem); }
  // Makes write `w` at its permitted placement `placement` (< placements(w)).
  // With `unordered`, also lists there (cleared first) the weak writes of its
  // location that coherence leaves unordered with it: no edge either way, now
  // or later (not morally strong with it, not causally before or after it;
  // semantics.md, "Coherence is partial").
  // Weak: no later write can take a slot before one (only before a morally
  // strong write), so where the list puts it beside `w` offers later writes
  // nothing that the other order would.
  virtual WriteId write(const MemOp& w, unsigned placement, std::vector<WriteId>* unordered) = 0;
  WriteId write(const MemOp& w, unsigned placement) { return write(w, placement, nullptr); }
  virtual void fence(ThreadId t, const PtxOp& f) = 0;
  // The scope the model gives an operation at scope `s` (scope-blind: sys).
  virtual Scope scope(Scope s) const = 0;
  // A block barrier or syncwarp: release/acquire at cta scope among `participants`.
  virtual void barrier(const std::vector<ThreadId>& participants) = 0;

  virtual const WriteInfo& info(WriteId w) const = 0;
  // Is read `r` morally strong with write `w` (semantics.md, "Morally strong pair")?
  virtual bool morally_strong(const MemOp& r, WriteId w) const = 0;
  // How many writes exist to the location at `addr` (spin loops wait for more).
  virtual std::size_t writes_to(std::uintptr_t addr) const = 0;
  // The findings noticed since the last call, into `out` (cleared first; a
  // buffer the caller keeps, so that neither side allocates again).
  void take_findings(std::vector<ModelFinding>& out) {
    out.clear();
    out.swap(findings_);
  }
  std::vector<ModelFinding> take_findings() {
    std::vector<ModelFinding> out;
    take_findings(out);
    return out;
  }
  // Were any noticed since the last call? (The engine asks after every
  // access, and most notice none: no virtual call.)
  bool has_findings() const { return !findings_.empty(); }
  // The RMW that made `w` had its result discarded and is of commuting
  // `family` (the engine's StepShape::commutes). True when the model agrees
  // that its order among adjacent RMWs of its family cannot be observed but
  // by reading the location: it passes on no release (reading it
  // synchronizes with nothing) and read no uninitialised memory. Then the
  // fingerprint ignores that order and the reads-from of such RMWs.
  virtual bool commutes(WriteId w, std::uint64_t family) = 0;
  // A fingerprint of the execution so far: reads-from, coherence and fence.sc
  // order, independent of the interleaving that produced them.
  virtual std::uint64_t fingerprint() const = 0;

 protected:
  // Where a model notes its findings (its reset() forgets them).
  std::vector<ModelFinding> findings_;
};

std::unique_ptr<MemoryModel> make_memory_model(std::string_view name);
std::vector<std::string> memory_model_names();

}  // namespace scopesim
