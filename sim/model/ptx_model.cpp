#include "sim/model/ptx_model.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <type_traits>

#include "sim/core/reused.hpp"

namespace scopesim {

namespace {

// A vector clock: entry i is the last event of thread i known, 0 past its
// width. Its entries are its own, or borrowed from a clock that stays
// unchanged as long as it lends them (a kept view's, State::views: a kernel's
// start lends its view to all the kernel's threads, most of which never act,
// and a barrier its joined view to its participants): readers read through
// `at_` either way, and only a change (own()) copies borrowed entries into
// its own first.
class Clock {
 public:
  Clock() = default;
  Clock(const Clock& o) { *this = o; }
  // (own_'s buffer moves with it: `at_` stays valid, and so do the entries
  // it lends.)
  Clock(Clock&&) noexcept = default;
  Clock& operator=(Clock&&) noexcept = default;
  // A copy of `o`'s entries, its own.
  Clock& operator=(const Clock& o) {
    copy(o, o.n_);
    return *this;
  }
  // A copy of another clock `o`'s entries, its own, at least i + 1 wide,
  // with entry i set to v (a thread's own entry: see Thread). (Inline: most
  // clocks are a few entries, for which a call of memcpy and memset costs
  // more than they do. Mostly i is o's width, its first entry past them:
  // none to zero.)
  void copy_with(const Clock& o, std::size_t i, std::uint32_t v) {
    std::uint32_t* const e = copy(o, std::max(o.n_, i + 1));
    for (std::size_t k = o.n_; k < i; ++k) e[k] = 0;
    e[i] = v;
  }

  // A copy of another clock `o`'s entries, its own, `width` wide (at least
  // o's width), the rest 0; its entries, to change.
  std::uint32_t* copy_wide(const Clock& o, std::size_t width) {
    std::uint32_t* const e = copy(o, width);
    for (std::size_t k = o.n_; k < width; ++k) e[k] = 0;
    return e;
  }

  std::size_t size() const { return n_; }
  std::uint32_t operator[](std::size_t i) const { return at_[i]; }
  // `o`'s entries, borrowed (`o` unchanged until this clock is changed or cleared).
  void borrow(const Clock& o) {
    at_ = o.at_;
    n_ = o.n_;
  }
  // Its entries, its own and at least `width` wide, to change.
  std::uint32_t* own(std::size_t width) {
    if (borrowed() || n_ < width) [[unlikely]]
      make_own(width);
    return own_.data();
  }
  bool borrowed() const { return at_ != own_.data(); }
  // Are its entries `o`'s (borrowed from one lender, or one is the other's)?
  bool same(const Clock& o) const { return at_ == o.at_ && n_ == o.n_; }
  void join(const Clock& o) {
    if (n_ == 0) {  // (mostly a waiter that knew nothing yet, the host at its first synchronize: a copy)
      copy(o, o.n_);
      return;
    }
    std::uint32_t* e = own(o.n_);
    for (std::size_t i = 0; i < o.n_; ++i) e[i] = std::max(e[i], o.at_[i]);
  }
  void clear() {
    at_ = own_.data();
    n_ = 0;
  }

 private:
  void make_own(std::size_t width);
  // make_own() of `n` entries where they are many, or its own ones too
  // few (out of line: seldom).
  [[gnu::noinline]] void make_wide(std::size_t n);
  // Its own entries, `n` wide (at least o's width), the first of them o's
  // and the rest for its caller to set. (Inline: most clocks are a few
  // entries, for which a call of memcpy costs more than they do.)
  std::uint32_t* copy(const Clock& o, std::size_t n) {
    if (own_.size() < n) [[unlikely]]
      grow(n);
    std::uint32_t* const e = own_.data();
    for (std::size_t k = 0; k < o.n_; ++k) e[k] = o.at_[k];
    at_ = e;
    n_ = n;
    return e;
  }
  // Its own entries at least `n`, those it has kept. (Out of line, seldom
  // past the first run: its callers save no registers for it.)
  [[gnu::noinline]] void grow(std::size_t n) { own_.resize(n); }
  const std::uint32_t* at_ = nullptr;  // own_.data(), or the lender's entries
  std::size_t n_ = 0;
  // Its own entries (its first n_, where `at_` points at them); never
  // shrinks, so that a clock reused from run to run seldom allocates.
  std::vector<std::uint32_t> own_;
};

// (A few entries, as most clocks are wide, element by element, where it
// has as many of its own: a leaf call, as a call of memmove or memset costs
// more than they do. Wider ones, or more than it has, through make_wide().)
#if defined(__GNUC__) && !defined(__clang__)
[[gnu::optimize("no-tree-loop-distribute-patterns")]]
#endif
void Clock::make_own(std::size_t width) {
  constexpr std::size_t few = 16;
  const std::size_t n = std::max(n_, width);
  if (n > few || own_.size() < n) [[unlikely]]
    return make_wide(n);
  std::uint32_t* const e = own_.data();
  if (at_ != e)
    for (std::size_t i = 0; i < n_; ++i) e[i] = at_[i];
  for (std::size_t i = n_; i < n; ++i) e[i] = 0;
  at_ = e;
  n_ = n;
}

void Clock::make_wide(std::size_t n) {
  const bool was_borrowed = borrowed();
  if (own_.size() < n) grow(n);
  std::uint32_t* const e = own_.data();
  if (was_borrowed) std::memcpy(e, at_, n_ * sizeof(std::uint32_t));
  std::memset(e + n_, 0, (n - n_) * sizeof(std::uint32_t));
  at_ = e;
  n_ = n;
}

// What a thread knows: every event of thread i up to vc[i] (program order and
// synchronization, transitively), plus single writes it observed through a
// morally strong read (semantics.md: "a strong read that observed a write
// carries that write forward" — the write alone, not its past).
struct View {
  Clock vc;
  // Sorted. A thread observes no write its clock knows already (it knows
  // that one in order, from now on: State::observe()), so that an RMW loop
  // that reads its own RMWs observes none of them.
  std::vector<WriteId> observed;

  bool knows_event(ThreadId t, std::uint32_t seq) const { return t < vc.size() && seq <= vc[t]; }
  void join(const View& o) {
    vc.join(o.vc);
    observe(o.observed);
  }
  // `ws` sorted, as `observed` is (a write's chain, another view's observed).
  // (Mostly empty: merged out of line.)
  void observe(std::span<const WriteId> ws) {
    if (!ws.empty()) merge_observed(ws);
  }
  void merge_observed(std::span<const WriteId> ws);
  // One write (mostly newer than all: appended).
  void observe_one(WriteId w) {
    const auto at = std::lower_bound(observed.begin(), observed.end(), w);
    if (at == observed.end() || *at != w) observed.insert(at, w);
  }
  void clear() {
    vc.clear();
    observed.clear();
  }
};

// (Merged from the back into the grown list, each step the larger of the two
// last ones not yet placed: no buffer, as std::inplace_merge would take.)
void View::merge_observed(std::span<const WriteId> ws) {
  std::size_t i = observed.size();
  if (i == 0 || observed.back() < ws.front()) {  // all newer: still sorted
    if (ws.size() == 1)  // (mostly: a range's insert costs more)
      observed.push_back(ws.front());
    else
      observed.insert(observed.end(), ws.begin(), ws.end());
    return;
  }
  std::size_t j = ws.size();
  observed.resize(i + j);
  for (std::size_t k = i + j; j > 0;) observed[--k] = i > 0 && observed[i - 1] > ws[j - 1] ? observed[--i] : ws[--j];
  observed.erase(std::unique(observed.begin(), observed.end()), observed.end());
}
// A view kept for later acquirers (a release's) or lent (a kernel's start,
// a barrier's joined view: their threads borrow its clock), in State::views;
// never changed once made (until reset(), which forgets the threads too).
using ViewId = std::uint32_t;
inline constexpr ViewId no_view = ~ViewId{0};

// A release pattern whose write some reader may observe: the view at its first
// operation (the release write, or the release fence before a strong write),
// with that operation's scope and thread for the morally-strong check against
// the acquire pattern's last operation. (Padded to 16 bytes: a count of
// the pool's, taken for each write's span, is then its size shifted.)
struct alignas(16) Release {
  ViewId view;
  Scope scope;
  ThreadId thread;
};

// A run of entries of one of State's pools (State::ids, State::releases),
// [begin, end): what a write keeps of variable length, all of it made with
// the write (a write's record holds no container of its own: making one
// clears no buffers).
struct Span {
  std::uint32_t begin = 0, end = 0;
  bool empty() const { return begin == end; }
};

// Once made, a write's record changes only in strong_rmws and reads, as
// reads and RMWs return it, and in commutes (PtxModel::commutes()).
// (Padded to 128 bytes, as Thread is: most accesses look up a few of them,
// and the address of one is then its index shifted. What every write keeps
// fills its first 64 bytes, one cache line; the rest, only an RMW's, is
// set only for one: other writes have no chain and are of no family.)
struct alignas(128) Write {
  // Set by its maker (State::make_initial(), make_write()), the rest by
  // clear():
  WriteInfo info{};  // (first: info() looks it up for the engine, at the record's address)
  std::uint32_t loc = 0;
  std::uint32_t seq = 0;  // the writer's event number
  bool strong = false;
  Scope scope = Scope::sys;
  bool atomic_rmw = false;  // a strong RMW: no write morally strong with it falls between it and its source
  WriteId rmw_source = no_write;  // an RMW's: the write its read part returned, else none
  // (End of what its maker sets.)
  Span releases;      // release patterns observed by whoever observes this write (State::releases)
  Span known_before;  // same-location writes its thread knew when writing, in coherence order (Location::known)
  // The strong RMWs that read it (atomic_rmw, rmw_source: this write), as a
  // list through each one's next_strong_rmw: the latest first.
  WriteId strong_rmws = no_write;
  std::uint32_t reads = 0;  // reads that returned it (an RMW's read part included)
  // An RMW's alone, set by make_write() but next_strong_rmw, set where it
  // becomes a strong one (PtxModel::write(), as it joins its source's list):
  Span chain;  // observed, besides itself, by whoever observes it (State::ids; sorted; no initial write)
  WriteId next_strong_rmw = no_write;  // the strong RMW that read its source before it
  std::uint64_t rf_term = 0;           // its read's term in the reads-from hash
  std::uint64_t commutes = 0;          // a commuting RMW's family (MemoryModel::commutes), else 0
  // An RMW's: its read left none of the releases it observed pending
  // (Thread::last_read_included): its thread's view then included every
  // release its source carries, and so does any view that knows it in order.
  // (Read only of a write of a chain that the reader knows in order: one
  // that is no RMW, or whose read observed nothing, carries its own
  // releases alone, which that reader includes whatever this says.)
  bool read_included = false;
  // Back to a new Write but for what its maker sets (a write is made at
  // every access: not stored twice), and for an RMW's own part.
  void clear() {
    atomic_rmw = false;
    releases = {};
    known_before = {};
    strong_rmws = no_write;
    reads = 0;
  }
};
static_assert(offsetof(Write, chain) == 64);

// A thread's record; its placement is kept apart (State::where). (Padded to
// 128 bytes: every access looks its thread up, and the address of a record
// is then its index shifted.)
struct alignas(128) Thread {
  // Its own entry is its `seq`, kept apart from its clock, whose entry for
  // the thread itself is not kept up to date (an event changes no clock: a
  // kernel's thread that never acquires reads its start's clock to its end,
  // borrowed, start_all()); whatever takes its view puts `seq` there
  // (State::keep(), spawn(), join(), join_all(), barrier()). No clock knows
  // more of a thread's events than the thread itself (entries are copied
  // from its own, never made up): join_all() takes its `seq` for a joined
  // thread's entry instead of the maximum over all. A barrier's participants
  // borrow its joined clock (barrier()).
  View view;
  std::uint32_t seq = 0;
  ThreadId id = 0;  // its index in State::threads, set when the record is made (clear() keeps it)
  std::vector<Release> pending;       // observed by strong reads, awaiting an acquire fence
  ViewId fence_release[3] = {no_view, no_view, no_view};  // view at the last release fence, per scope
  std::uint64_t last_rf_term = 0;     // the last strong read's term in the reads-from hash (an RMW's read is strong)
  bool last_read_included = false;    // the last strong read that observed left no release pending (Write::read_included)
  // Back to a new Thread.
  void clear() {
    view.clear();
    seq = 0;
    pending.clear();
    for (ViewId& v : fence_release) v = no_view;
    last_rf_term = 0;
    last_read_included = false;
  }
};

struct Visit {
  ThreadId thread;
  std::uint32_t seq;
  bool strong;
  Scope scope;
  std::uint32_t event;
};

struct Location {
  std::uintptr_t addr;
  std::uint32_t size;
  bool overlapping = false;  // made with a finding (an overlapping access): never made again in place
  // (co holds one entry more than writes, the initial write's, in a
  // location as its last run left it too.)
  std::vector<WriteId> co;        // coherence list: an edge between two writes runs forward
  std::vector<Visit> writes;     // every non-initial write, for race checks
  std::vector<Visit> last_read;  // the latest read of each thread (earlier ones are known first)
  // (a write a read returned, a write its thread knew then that is later in
  // the list, so unordered with it): no new write may join the first to the
  // second by a path of edges (State::hides_a_read). Only racing writes give
  // such pairs.
  std::vector<std::pair<WriteId, WriteId>> read_beside;
  // The entries of its writes' known_before. A write that knew every write
  // before it, made right after one that did too, shares that one's entries
  // and adds that write: a thread that writes a location over and over keeps
  // one list, not one as long for each write (their sum the square of the
  // writes).
  std::vector<WriteId> known;
  // Per thread that checked it for races while it had more than kLongList
  // writes: the first of `writes` it did not know then but its own (every
  // one before it, it knows: a view only grows). State::first_unordered().
  // (Empty while it has kLongList writes or fewer: writes only grow until
  // forgotten.)
  static constexpr std::size_t kLongList = 32;
  std::vector<std::pair<ThreadId, std::uint32_t>> ordered;
  bool commuting = false;  // a write of it is a commuting RMW (MemoryModel::commutes)
  // Its coherence in fingerprint(): the number of its writes (co.size()),
  // and the sum of edge_term() over its coherence edges between two writes
  // but the initial one, both taken as each write is made (an edge is fixed
  // once both its writes exist).
  std::uint64_t coherence = 0;
  void clear() {
    addr = 0;
    size = 0;
    overlapping = false;
    forget_writes();
  }
  // Its writes and reads gone: the location as a run first accesses it
  // (but for its initial write).
  void forget_writes() { forget_writes_but(0, 0); }
  // forget_writes(), but for the first `in_co` entries of co and `visits`
  // of `writes` (it has as many), for the caller to set: their last run's
  // entries, overwritten in place (first_write()), where a push tests the
  // capacity. (Those entries of co count in its coherence as writes with no
  // edges.)
  void forget_writes_but(std::size_t in_co, std::size_t visits) {
    co.erase(co.begin() + static_cast<std::ptrdiff_t>(in_co), co.end());
    writes.erase(writes.begin() + static_cast<std::ptrdiff_t>(visits), writes.end());
    if (writes.size() > kLongList) ordered.clear();  // (none else: see ordered)
    last_read.clear();
    read_beside.clear();
    known.clear();
    commuting = false;
    coherence = in_co;
  }
};

// Scopes ranked by the threads they include (thread, cta, gpu, sys: the
// enumerators from cta on, then thread).
constexpr unsigned scope_rank(Scope s) { return (static_cast<unsigned>(s) + 1) & 3; }
static_assert(scope_rank(Scope::thread) < scope_rank(Scope::cta) &&
              scope_rank(Scope::cta) < scope_rank(Scope::gpu) && scope_rank(Scope::gpu) < scope_rank(Scope::sys));
Scope narrower(Scope x, Scope y) { return scope_rank(x) < scope_rank(y) ? x : y; }

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

// A well-spread hash of one term (SplitMix64's finalizer), so that sums of
// terms (the commutative reads-from hash) do not collide.
std::uint64_t spread(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The fingerprint's term for an ordered pair of events, each a thread and
// its event number (a coherence edge, a read and the write it returned, two
// fence.sc): the first event's 64 bits scattered by an odd multiplier (a
// bijection), so that the pair, xor'ed, mostly lands apart from all others
// before spread() hashes it.
std::uint64_t pair_term(ThreadId ta, std::uint32_t sa, ThreadId tb, std::uint64_t sb) {
  return spread(((std::uint64_t{ta} << 32 | sa) * 0x9e3779b97f4a7c15ULL) ^ (std::uint64_t{tb} << 32 ^ sb));
}

// The fingerprint's term for a coherence edge from write `a` to write `b`.
// (Inline: write() takes one for nearly every write of the location before.)
[[gnu::always_inline]] inline std::uint64_t edge_term(const Write& a, const Write& b) {
  return pair_term(a.info.thread, a.seq, b.info.thread, b.seq);
}

}  // namespace

struct PtxModel::State {
  explicit State(std::vector<ModelFinding>& model_findings) : findings(model_findings) {}
  PtxOptions opt;
  // The threads, by id, [0, spawned) this run's, and their placements, set
  // at their spawn. A kernel's threads, spawned together at its enqueue
  // (spawn_all()), act only after its start: their records are made then
  // (start_all()), in one pass that also lends them its view, and until
  // then are those of an earlier run. The entries past the run's threads
  // wait to be reused (neither shrinks, so that the records keep their
  // buffers); both grow together (spawn()).
  std::vector<Thread> threads;
  std::vector<Placement> where;
  ThreadId spawned = 0;
  // Entries for `n` more threads, spawned now; the first one's id. (The
  // records may move. Whether enough are left is asked by address: a size
  // is a division by a record's. Inline, but for the new entries: seldom
  // past the first run.)
  ThreadId spawn(std::size_t n) {
    const ThreadId first = spawned;
    spawned += static_cast<ThreadId>(n);
    if (threads.begin() + spawned > threads.end()) [[unlikely]]
      grow_threads();
    return first;
  }
  [[gnu::noinline]] void grow_threads() {
    for (ThreadId id = static_cast<ThreadId>(threads.size()); id < spawned; ++id) threads.emplace_back().id = id;
    where.resize(spawned);
  }
  Reused<Write> writes;
  // The entries of the writes' spans (Write::chain; releases), each write's
  // appended as it is made; reset() empties them.
  std::vector<WriteId> ids;
  std::vector<Release> releases;
  std::span<const WriteId> of(Span s) const { return {ids.data() + s.begin, ids.data() + s.end}; }
  // Span `from` of `pool`, as the start of a span that goes on at the
  // pool's end (returned): `from` itself where it ends the pool, else a
  // copy appended.
  template <class T>
  static Span extend(std::vector<T>& pool, Span from) {
    const auto end = static_cast<std::uint32_t>(pool.size());
    if (!from.empty() && from.end == end) return from;
    for (std::uint32_t k = from.begin; k < from.end; ++k) pool.push_back(pool[k]);
    return {end, static_cast<std::uint32_t>(pool.size())};
  }
  // The writes x's thread knew of its location when it wrote x.
  std::span<const WriteId> known_of(const Write& x) const {
    const std::vector<WriteId>& k = locs[x.loc].known;
    return {k.data() + x.known_before.begin, k.data() + x.known_before.end};
  }
  // Write x's chain (an RMW's; none for the others).
  static Span chain_of(const Write& x) { return x.rmw_source == no_write ? Span{} : x.chain; }
  // Write x's family if a commuting RMW's, else 0.
  static std::uint64_t family(const Write& x) { return x.rmw_source == no_write ? 0 : x.commutes; }
  std::span<const Release> releases_of(Span s) const { return {releases.data() + s.begin, releases.data() + s.end}; }
  // The locations, by id in the order the run made them: [0, made) this
  // run's; the rest the last run's that this one has not made (yet). A run
  // of the same program accesses the same locations in the same order: the
  // next one it makes is mostly the last run's next, made again in place
  // (remake()) without searching or inserting into loc_at, nor checking for
  // overlaps (the locations made before it are those the last run made
  // before it). Another of the last run's rest, as threads take turns in
  // another order, is made again too, after a search (remake_unmade()).
  // Once it makes a location the last run did not, the last run's rest are
  // forgotten (forget_unmade()).
  Reused<Location> locs;
  std::uint32_t made = 0;
  // How many of locs are overlapping (Location::overlapping). While none
  // is, no two of locs overlap: each was made overlapping none of the
  // others then.
  std::uint32_t overlapping = 0;
  // By ViewId. (Moving a view keeps its clock's entries where they are:
  // those threads borrow stay valid as this grows.)
  Reused<View> views;
  static_assert(std::is_nothrow_move_constructible_v<View>);
  // (address, location) of every location in locs, by address
  std::vector<std::pair<std::uintptr_t, std::uint32_t>> loc_at;
  using LocAt = std::vector<std::pair<std::uintptr_t, std::uint32_t>>::const_iterator;
  struct ScFence {
    ThreadId thread;
    std::uint32_t seq;
    Scope scope;
    ViewId view;
  };
  std::vector<ScFence> sc_fences;
  std::vector<ModelFinding>& findings;  // the model's (MemoryModel::findings_)
  std::deque<std::string> texts;  // the details of findings that are not static text
  std::uint64_t rf_hash = 0;     // commutative sum over reads: order of execution does not matter
  std::uint64_t fence_hash = 0;  // fence.sc run-time order between morally strong pairs (a sum)
  // hidden()'s answer, one a write of the location in list order: does the
  // reading thread know it, is it hidden from it? (Flags of bool, not bits:
  // a vector<bool>'s bit operations were most of its cost; nor bytes, whose
  // stores might change anything else for all the compiler knows.)
  struct Mark {
    bool known;
    bool hidden;
  };
  std::vector<Mark> marks;
  // placements() computes the positions of a write that does not go last
  // and has not the last slot alone (after_last()); write() of the same
  // write, next, uses them (and any write after makes them stale: the count
  // of writes no longer matches).
  struct Placed {
    ThreadId thread;
    std::uint32_t event;
    std::uintptr_t addr;
    WriteId rmw_source;
    std::size_t writes;  // writes existing then: nothing happened in between
  };
  std::optional<Placed> placed;
  std::vector<std::size_t> placed_positions;
  std::vector<std::size_t> positions_buf;      // readable()'s
  mutable std::vector<std::size_t> run_buf;    // within_runs()'s
  // One flag a write of a location, for the searches along coherence edges:
  // bools, not a vector<bool>'s bits (nor bytes: see Mark).
  struct Flag {
    bool on;
  };
  mutable std::vector<Flag> reach_buf, from_buf, to_buf;  // rmw_slot()'s, reaches_in()'s, reaches_out()'s

  // Does thread t's view include release `rel`'s view already? It does
  // where its thread is t (a view only grows), or where t knows that
  // thread's event the view was kept at: t learned it from a view kept
  // there or later, and a view carries all its thread knew (every join
  // takes a view whole, clock and observed writes, and no clock knows more
  // of a thread's events than the thread itself). Joining it, now or at a
  // later fence, changes nothing.
  bool view_includes(const Thread& t, const Release& rel) const {
    return rel.thread == t.id || t.view.knows_event(rel.thread, views[rel.view].vc[rel.thread]);
  }
  // Thread t's view, kept, its own entry put in (see Thread). (Inline: a
  // call cost as much as the copy of a few entries.)
  [[gnu::always_inline]] ViewId keep(Thread& t) {
    View& k = views.add();
    k.vc.copy_with(t.view.vc, t.id, t.seq);
    if (!t.view.observed.empty()) [[unlikely]] {  // (mostly none: not copied)
      forget_known(t);
      k.observe(t.view.observed);
    }
    return static_cast<ViewId>(views.size() - 1);
  }
  // Thread t observes no more the writes it has come to know in order since
  // it observed them (by a join: an acquire, a barrier, a wait), as it
  // observes none it knows so (observe()): kept views copy the rest alone.
  [[gnu::noinline]] void forget_known(Thread& t) const {
    std::vector<WriteId>& o = t.view.observed;
    o.erase(std::remove_if(o.begin(), o.end(), [&](WriteId w) { return knows_in_order(t, writes[w]); }), o.end());
  }

  // The location last looked up (an access looks its location up several
  // times), and the locations looked up lately, by a hash of their address
  // (threads access a few locations in turn; a small table, 256 bytes: one
  // with a slot for each word of a 1 KiB window spared lookups but missed
  // the cache more, and took longer; its entries are the low 16 bits of an
  // id, twice as many as whole ones would be). An entry is a guess, right
  // where the location it names is this run's ([0, made)) and at the
  // address looked up: a run makes the last run's locations again in place,
  // ids and addresses unchanged (see `locs`), so the last run's entries
  // serve the next one as they are (remake() makes none). reset() forgets
  // the last one. The last one's size is kept with it, so that an access of
  // its address and size finds it without reading the location.
  static constexpr std::uint32_t no_location = ~std::uint32_t{0};
  // (The size apart from the location, not beside it: stored together,
  // the two took more instructions than two stores.)
  mutable std::uint32_t last_size = 0;  // 0: none (an access is never of 0 bytes)
  mutable std::uintptr_t last_addr = 0;
  mutable std::uint32_t last_location = no_location;
  mutable std::array<std::uint16_t, 128> looked{};
  static std::size_t slot(std::uintptr_t addr) { return (addr * 0x9e3779b97f4a7c15ULL) >> 57; }
  std::uint32_t recalled(std::uintptr_t addr) const {
    if (last_size != 0 && last_addr == addr) return last_location;
    return looked_up(addr);
  }
  // recalled() but for the last one.
  std::uint32_t looked_up(std::uintptr_t addr) const {
    const std::uint32_t id = looked[slot(addr)];
    if (id >= made || locs[id].addr != addr) return no_location;
    last_addr = addr;
    last_location = id;
    last_size = locs[id].size;
    return id;
  }
  void remember(std::uintptr_t addr, std::uint32_t location) const {
    last_addr = addr;
    last_location = location;
    last_size = locs[location].size;
    looked[slot(addr)] = static_cast<std::uint16_t>(location);
  }

  // The first entry of loc_at at `addr` or above. (A binary search that
  // keeps one half of the entries left by a conditional move, not a branch:
  // which half it keeps is as good as random.)
  LocAt at_or_above(std::uintptr_t addr) const {
    if (loc_at.empty()) return loc_at.end();
    LocAt base = loc_at.begin();
    for (std::size_t n = loc_at.size(); n > 1;) {
      const std::size_t half = n / 2;
      base = base[static_cast<std::ptrdiff_t>(half)].first < addr ? base + static_cast<std::ptrdiff_t>(half) : base;
      n -= half;
    }
    return base->first < addr ? base + 1 : base;
  }
  // The location at `addr`, if any was accessed.
  const Location* find(std::uintptr_t addr) const {
    if (const std::uint32_t id = recalled(addr); id != no_location) return &locs[id];
    auto it = at_or_above(addr);
    if (it == loc_at.end() || it->first != addr || it->second >= made) return nullptr;
    remember(addr, it->second);
    return &locs[it->second];
  }

  Scope scope(Scope s) const { return opt.scope_blind ? Scope::sys : s; }

  // Morally strong (semantics.md): same thread, or both strong and each one's
  // scope includes the other's thread. (Scopes nest, thread within cta within
  // gpu within sys, and inclusion is symmetric in the two threads: each
  // includes the other's thread where the narrower one does.)
  bool ms(ThreadId a, bool strong_a, Scope sa, ThreadId b, bool strong_b, Scope sb) const {
    if (a == b) return true;
    if (!strong_a || !strong_b) return false;
    if (opt.scope_blind) return true;  // (both sys)
    return includes(narrower(sa, sb), where[a], where[b]);
  }
  bool ms_writes(const Write& a, const Write& b) const {
    if (a.info.initial || b.info.initial) return false;
    return ms(a.info.thread, a.strong, a.scope, b.info.thread, b.strong, b.scope);
  }
  bool ms_release(const Release& r, ThreadId t, Scope s) const { return ms(r.thread, true, r.scope, t, true, s); }

  bool knows(const Thread& t, WriteId w) const { return writes[w].info.initial || knows_later(t, w); }
  // knows() of a write after the first of its location's list (the initial
  // write, known to all): asked of the rest of the list without testing.
  // (Inline, but for the search of the observed writes, mostly none: every
  // read and write asks it of a few writes.)
  [[gnu::always_inline]] bool knows_later(const Thread& t, WriteId w) const {
    return knows_in_order(t, writes[w]) || (!t.view.observed.empty() && observed(t, w));
  }
  // Thread t observes the writes `ws` (sorted) but those it knows in order.
  void observe(Thread& t, std::span<const WriteId> ws) {
    if (ws.empty()) return;  // (mostly: no chain)
    observe_buf.clear();
    for (const WriteId w : ws)
      if (!knows_in_order(t, writes[w])) observe_buf.push_back(w);
    t.view.observe(observe_buf);
  }
  std::vector<WriteId> observe_buf;  // observe()'s
  // 1 + the last write of `chain` (a write's: Write::chain) that thread t
  // knows in order (0: none). Knowing that one in order, t knows in order or
  // has observed every one before it: their chain is that write's own,
  // which its read observed with its source (read()), and a view carries
  // its observed writes (joined whole, never dropped). So a loop of RMWs
  // reads the chain only from its own last RMW, or the last it acquired.
  std::size_t known_part(const Thread& t, std::span<const WriteId> chain) const {
    std::size_t k = chain.size();
    while (k > 0 && !knows_in_order(t, writes[chain[k - 1]])) --k;
    return k;
  }
  // Does thread t know write x in order (by its clock), not only observed?
  [[gnu::always_inline]] static bool knows_in_order(const Thread& t, const Write& x) {
    return x.info.thread == t.id || t.view.knows_event(x.info.thread, x.seq);  // (its own: see Thread)
  }
  [[gnu::noinline]] static bool observed(const Thread& t, WriteId w) {
    return std::binary_search(t.view.observed.begin(), t.view.observed.end(), w);
  }
  // (A visit of another thread: see Thread.)
  bool knows(const Thread& t, const Visit& a) const { return t.view.knows_event(a.thread, a.seq); }

  // A coherence edge from a to b (a earlier in the list): writes to one location
  // are ordered when morally strong or causally ordered; the initial write
  // precedes all. Racing writes stay unordered (partial coherence).
  bool edge(WriteId a, WriteId b) const {
    const Write& wa = writes[a];
    const Write& wb = writes[b];
    if (wa.info.initial) return true;
    if (ms_writes(wa, wb)) return true;
    const std::span<const WriteId> known = known_of(wb);
    return std::find(known.begin(), known.end(), a) != known.end();
  }
  // edge(a, b) where `wa`, a's record, is not the initial write. (Inline:
  // hidden() asks it of each pair it looks at; the known writes are few.)
  [[gnu::always_inline]] bool edge_from(WriteId a, const Write& wa, const Write& wb) const {
    if (ms_writes(wa, wb)) return true;
    for (const WriteId k : known_of(wb))
      if (k == a) return true;
    return false;
  }

  // Is `op`'s location the last one looked up?
  bool looked_up_last(const MemOp& op) const { return last_addr == op.addr && last_size == op.size; }
  // `op`'s location where one looked up lately, else no_location.
  std::uint32_t looked_up_lately(const MemOp& op) const {
    const std::uint32_t id = looked_up(op.addr);
    return id != no_location && locs[id].size == op.size ? id : no_location;
  }
  // The location `op` accesses: the last one looked up, or one looked up
  // lately; the others out of line (locate()), the last run's next one
  // first (a run's first access of a location, mostly its host's weak
  // write, is first_write()'s, and the others find it looked up).
  [[gnu::always_inline]] std::uint32_t location(const MemOp& op) {
    if (looked_up_last(op)) return last_location;
    if (const std::uint32_t id = looked_up(op.addr); id != no_location && locs[id].size == op.size) return id;
    return locate(op);
  }
  // `op`'s location where it was not looked up lately: the last run's next,
  // made again (remake()), or one above every address accessed so far, as
  // a run's allocations come, or the one made after the last one looked up
  // (a loop over an array accesses its elements in the order the run made
  // their locations), without a search; a new one, or a finding, further
  // out of line. (The last one is a guess there, right where the one made
  // after it is this run's and at the address: reset() leaves it.)
  [[gnu::noinline]] std::uint32_t locate(const MemOp& op) {
    if (remade_next(op)) return remake();
    if (loc_at.empty() || loc_at.back().first < op.addr) return make_location(op, loc_at.end());
    if (const std::uint32_t after = made_after_last(op); after != no_location) return after;
    const auto next = at_or_above(op.addr);
    if (next == loc_at.end() || next->first != op.addr || locs[next->second].size != op.size)
      return make_location(op, next);
    if (next->second >= made) {
      if (overlapping != 0) return make_location(op, next);
      return remake_unmade(static_cast<std::size_t>(next - loc_at.begin()));
    }
    remember(op.addr, next->second);
    return next->second;
  }
  // `op`'s location where it is the one made after the last one looked up
  // (remembered), else no_location.
  std::uint32_t made_after_last(const MemOp& op) {
    const std::uint32_t after = last_location + 1;
    if (after >= made || locs[after].addr != op.addr || locs[after].size != op.size) return no_location;
    remember(op.addr, after);
    return after;
  }
  // The last run's location of loc_at[at], one this run has not made yet,
  // made again where no two of locs overlap (so that it overlaps none this
  // run made, as make_location() would find): it takes the next id, and
  // the last run's next its id. (The two exchange their addresses and
  // sizes alone: what else an unmade location holds, the last run's, is
  // forgotten as it is made again.)
  std::uint32_t remake_unmade(std::size_t at);
  // `op`'s location where location() found none of its address and size: a
  // new one, or at an address accessed with another size, that one and a
  // finding. `next`: the first entry of loc_at at its address or above.
  std::uint32_t make_location(const MemOp& op, LocAt next);
  // Is `op`'s location the last run's next, which this run has not made yet
  // (location() makes it again)? (Its address is no other location's.)
  bool remade_next(const MemOp& op) const {
    return made < locs.size() && locs[made].addr == op.addr && locs[made].size == op.size && !locs[made].overlapping;
  }
  // The last run's next location, made again (its entries of loc_at and
  // `looked` kept).
  // (Out of line: a run's first access of a location is mostly its host's
  // weak write, which first_write() makes again; inline in location(), it
  // had every access save registers for it.)
  [[gnu::noinline]] std::uint32_t remake() {
    const std::uint32_t id = made++;
    Location& l = locs[id];
    l.forget_writes();
    initial_write(l, id);
    return id;
  }
  // Nobody wrote location `id` yet: an initial pseudo-write that reads as
  // uninitialised.
  [[gnu::always_inline]] void initial_write(Location& l, std::uint32_t id) {
    make_initial(writes.add_as_left(), id);
    l.co.push_back(static_cast<WriteId>(writes.size() - 1));
    ++l.coherence;
  }
  // `init`, the last of writes as left, made the initial write's record, of
  // location `id`. (A run makes its locations' initial records mostly where
  // the last run made them: a record left as one of the same location is as
  // made but for what reads and RMWs of it change, see Write.)
  [[gnu::always_inline]] void make_initial(Write& init, std::uint32_t id) {
    if (init.info.initial && init.loc == id) {
      init.strong_rmws = no_write;
      init.reads = 0;
    } else {
      init.clear();
      init.loc = id;
      init.info = {0, 0, true, true, 0};
      init.seq = 0;
      init.strong = false;
      init.scope = Scope::sys;
      init.rmw_source = no_write;
    }
  }
  void forget_unmade();
  // `x`, the last of writes as left, made the record of write `w` by thread
  // t, its event `seq`, to location `lid`: what its maker sets, the rest as
  // clear() leaves it. `strong` and `rmw_source` are w's (is_strong(w.op.sem),
  // w.rmw_source), as its maker knows them: a weak write's, not an RMW's,
  // without testing.
  [[gnu::always_inline]] Write& make_write(Write& x, const MemOp& w, bool strong, WriteId rmw_source,
                                           const Thread& t, std::uint32_t seq, std::uint32_t lid) {
    x.clear();
    x.loc = lid;
    x.info = {w.thread, w.value, false, false, w.event};
    x.seq = seq;
    x.strong = strong;
    x.scope = w.op.scope;
    x.rmw_source = rmw_source;
    if (rmw_source != no_write) {
      x.chain = {};
      x.rf_term = t.last_rf_term;
      x.commutes = 0;
      x.read_included = t.last_read_included;
    }
    return x;
  }
  // write() of a weak write, not an RMW, to a location the run makes again
  // now (remade_next()), mostly the host's before a launch: no access to
  // check for a race, no write before it but the initial one, with which
  // it has no edge term and which is not unordered with it (PtxModel::write()
  // clears the list of those); it goes last and passes nothing on. (`l`:
  // that location, locs[made], as remade_next() looked it up. With room for
  // its two records and in the location's lists, as the last run left them,
  // it makes no call, and saves no registers for one; where there is less,
  // seldom past the first run, first_write_making_room() makes it, and
  // calls it again.)
  [[gnu::noinline]] WriteId first_write(const MemOp& w, Location& l);
  [[gnu::noinline]] WriteId first_write_making_room(const MemOp& w, Location& l);
  // Thread t read write `w` of `l`, not its last: the writes after it
  // that the thread knows go beside it in read_beside. (Out of line: w is
  // mostly the last.)
  [[gnu::noinline]] void note_beside(Location& l, const Thread& t, WriteId w) {
    // (From the last back: w is mostly near it.)
    std::size_t i = l.co.size() - 1;
    do
      if (knows_later(t, l.co[i])) l.read_beside.emplace_back(w, l.co[i]);
    while (l.co[--i] != w);
  }
  // PtxModel::read(); `weak`: of a weak read (most are), without the parts
  // for a strong one.
  template <bool weak>
  [[gnu::noinline]] void read(const MemOp& r, WriteId w);
  // PtxModel::read() of a weak read that needs no call: of the location
  // looked up last (readable() looked it up), its last write, of a thread
  // that knows every other thread's write of it (no race), initialised, and
  // with room for the thread's entry in its last reads: most. The others,
  // which it tells before it changes anything, read<true>()'s, in tail
  // position, so that this one saves few registers. (Flattened: its push
  // into the last reads, with room, is then inline, and makes no call.)
  [[gnu::noinline, gnu::flatten]] void read_alone(const MemOp& r, WriteId w);
  // The term in the reads-from hash of thread t's read `seq` of write `x`.
  static std::uint64_t rf_term(ThreadId t, std::uint32_t seq, const Write& x) {
    return pair_term(t, seq, x.info.thread, x.seq + (x.info.initial ? 0x1000000ULL : 0));
  }
  // PtxModel::write() of any other; `weak`: of a weak write, not an RMW (most
  // are), without the parts for the others.
  template <bool weak>
  [[gnu::noinline]] WriteId write(const MemOp& w, unsigned placement, std::vector<WriteId>* unordered);
  // PtxModel::placements() of a write `w` to `l` that neither goes last nor
  // has the last slot alone: its positions, kept for write(). (Out of line:
  // seldom.)
  [[gnu::noinline]] unsigned placements(const MemOp& w, const Location& l, std::vector<WriteId>* precedes);
  // PtxModel::readable() of the loads it does not tell itself, and of RMWs,
  // from `l` (null: not looked up lately, looked up here).
  [[gnu::noinline]] Readable readable_at(const MemOp& r, const Location* l, std::vector<WriteId>& out);
  // PtxModel::readable() under sc: the newest write.
  [[gnu::noinline]] Readable readable_sc(const MemOp& r, std::vector<WriteId>& out);
  // PtxModel::readable() of a load where hiding() finds no write, or where
  // `out` has no room for those it finds (into `out`, cleared first): as
  // hidden() marks the writes of `l` for thread t.
  [[gnu::noinline]] Readable readable(const Location& l, const Thread& t, std::vector<WriteId>& out);
  // PtxModel::readable() of an RMW: those of the writes the thread does not
  // hide that keep it atomic.
  [[gnu::noinline]] Readable readable_rmw(const MemOp& r, const Location& l, const Thread& t, std::vector<WriteId>& out);
  // For fingerprint(), of a location with commuting RMWs: the sum of the
  // edge terms within its runs of them, and, taken off `rf`, the reads-from
  // terms that coherence and the runs' atomicity imply (see there). (Out of
  // line: most locations have none.)
  [[gnu::noinline]] std::uint64_t within_runs(const Location& l, std::uint64_t& rf) const;

  void unsupported(const MemOp& op, std::string what) {
    findings.push_back({FindingKind::unsupported, op.thread, op.thread, op.event, op.event, op.addr,
                        texts.emplace_back(std::move(what))});
  }

  // Which writes of `l` are hidden from thread t: coherence-before a write it
  // knows. (Into marks, its first l.co.size() entries, kept from one read
  // to the next.) A write hidden straight by a known one (an edge to a
  // write later in the list that the thread knows) stays hidden whatever
  // else is in the list; is some write hidden only through hidden writes the
  // thread does not know (Readable::hidden_by_unknown)?
  bool hidden(const Location& l, const Thread& t);
  // The index of the last write of `l` that thread t knows, where it hides
  // every write before it straight, before hidden() is asked (else past the
  // list's end): so it does where its thread knew each one but the initial
  // write when writing it (each has an edge to it; the writes its thread
  // knew are all before it). Nothing hides the writes after it, none known.
  // (Mostly a read after the location's writes were ordered by
  // synchronization, as the host's after a kernel's end, or of a write that
  // the thread does not know yet.)
  std::size_t hiding(const Location& l, const Thread& t) const {
    std::size_t p = l.co.size() - 1;
    while (p > 0 && !knows_later(t, l.co[p])) --p;
    const Span known = writes[l.co[p]].known_before;
    return p == 0 || knew_all_before(known, p) ? p : l.co.size();
  }
  // Did a write at index p > 0 of its location's list, which knew the writes
  // `known` of it when written, know each one before it but the initial
  // write (and so hide them all straight from a thread that knows it)? (At
  // 0, the initial write's, false: p - 1 wraps.)
  static bool knew_all_before(Span known, std::size_t p) { return known.end - known.begin == p - 1; }

  // Is visit `a` of another thread than t (whose id is `id`), one it does
  // not know (a race, where one of the two accesses writes)?
  bool unordered(const Thread& t, ThreadId id, const Visit& a) const { return a.thread != id && !knows(t, a); }
  // (`strong`: is_strong(op.op.sem), as the caller knows it. Inline, the
  // check of each access too: a call of either saved and restored more
  // registers than a check costs.)
  [[gnu::always_inline]] void race_check(const MemOp& op, Location& l, bool is_write, bool strong) {
    const Thread& t = threads[op.thread];
    auto check = [&](const Visit& a) __attribute__((always_inline)) {
      if (!unordered(t, op.thread, a)) return;
      if (!strong || !a.strong) {
        data_race(op, a);
      } else if (!ms(a.thread, true, a.scope, op.thread, true, op.op.scope)) {
        note(ModelFinding{FindingKind::scoped_race, a.thread, op.thread, a.event, op.event, op.addr,
                          "conflicting atomics whose scopes do not include each other's threads"});
      }
    };
    if (l.writes.size() > Location::kLongList) [[unlikely]] {  // (see Location::ordered)
      for (std::size_t i = first_unordered(l, t, op.thread); i < l.writes.size(); ++i) check(l.writes[i]);
    } else {
      for (const Visit& a : l.writes) check(a);
    }
    if (is_write)
      for (const Visit& a : l.last_read) check(a);
  }
  // The first of l's writes that thread t (of id `id`) does not know but
  // its own: from where its last check found one, as every write before that
  // one it knows still (a loop's accesses of one location check only the
  // writes made since). (Out of line: asked of long lists alone.)
  [[gnu::noinline]] std::size_t first_unordered(Location& l, const Thread& t, ThreadId id) const {
    std::uint32_t* from = nullptr;
    for (auto& [thread, first] : l.ordered)
      if (thread == id) {
        from = &first;
        break;
      }
    if (from == nullptr) from = &l.ordered.emplace_back(id, 0).second;
    std::size_t i = *from;
    while (i < l.writes.size() && !unordered(t, id, l.writes[i])) ++i;
    *from = static_cast<std::uint32_t>(i);
    return i;
  }
  // The finding of access `op` and visit `a`, unordered by causality, at
  // least one plain. (Out of line: inline, it had every weak access save
  // registers for it.)
  [[gnu::noinline]] void data_race(const MemOp& op, const Visit& a) {
    note(FindingKind::data_race, a.thread, op.thread, a.event, op.event, op.addr,
         "conflicting accesses, at least one plain, not ordered by causality");
  }
  // The finding made of `args` (a ModelFinding's fields, or a whole one)
  // noted, made in place where findings has room for it, without a call;
  // the list grown out of line (note_growing()), seldom past a search's
  // first runs, so that a noter saves no registers for it. (data_race(),
  // out of line, passes the fields, its finding made in place; the checks
  // inline pass a whole one, which keeps their code smaller.)
  template <class... Args>
  [[gnu::always_inline]] void note(const Args&... args) {
    if (findings.size() == findings.capacity()) [[unlikely]]
      return note_growing(ModelFinding{args...});
    findings.emplace_back(args...);
  }
  [[gnu::noinline]] void note_growing(const ModelFinding& f) { findings.push_back(f); }

  void note_read(Location& l, const Visit& a) {
    if (Visit* const last = last_read(l, a.thread))
      *last = a;
    else
      l.last_read.push_back(a);
  }
  // Thread t's entry in l.last_read, if any. (Its only one: searched to the
  // end, without a branch for each.)
  static Visit* last_read(Location& l, ThreadId t) {
    Visit* last = nullptr;
    for (Visit& r : l.last_read)
      if (r.thread == t) last = &r;
    return last;
  }

  // A new event of thread t (its clock unchanged: see Thread).
  static std::uint32_t step(Thread& t) { return ++t.seq; }

  void acquire_pending(Thread& t, ThreadId id, Scope s) {
    for (const Release& r : t.pending)
      if (ms_release(r, id, s)) t.view.join(views[r.view]);
  }

  // Into `reach`, for each k in [from, to): is l.co[k] l.co[from] or
  // coherence-after it (a path of edges; edges run forward in the list)?
  void coherence_after(const Location& l, std::size_t from, std::size_t to, std::vector<Flag>& reach) const {
    reach.assign(to - from, {false});
    if (to == from) return;
    reach[0].on = true;
    for (std::size_t k = from + 1; k < to; ++k)
      for (std::size_t j = from; j < k && !reach[k - from].on; ++j)
        if (reach[j - from].on && edge(l.co[j], l.co[k])) reach[k - from].on = true;
  }
  static std::size_t index(const Location& l, WriteId w) {
    std::size_t i = 0;
    while (l.co[i] != w) ++i;
    return i;
  }
  // Is `m` morally strong with the strong write `op` (a non-initial write)?
  bool ms_with(const Write& m, const MemOp& op) const {
    return !m.info.initial && ms(m.info.thread, m.strong, m.scope, op.thread, true, op.op.scope);
  }
  // The edges of the strong write `op` at slot i: one into it from each write
  // before the slot that is initial, morally strong with it, or known to its
  // thread (write()'s known_before); one from it to each write after the
  // slot morally strong with it. Does some path of edges through it run from
  // the write before the slot at index `a` (reaches_in) / to the write after
  // it at index `b` (reaches_out)?
  bool reaches_in(const MemOp& op, const Location& l, std::size_t a, std::size_t i) const {
    std::vector<Flag>& from = from_buf;
    coherence_after(l, a, i, from);
    for (std::size_t k = a; k < i; ++k)
      if (from[k - a].on && (writes[l.co[k]].info.initial || ms_with(writes[l.co[k]], op) ||
                          knows(threads[op.thread], l.co[k])))
        return true;
    return false;
  }
  bool reaches_out(const MemOp& op, const Location& l, std::size_t i, std::size_t b) const {
    std::vector<Flag>& to = to_buf;  // to[k - i]: l.co[k] is l.co[b] or coherence-before it
    to.assign(b + 1 - i, {false});
    to[b - i].on = true;
    for (std::size_t k = b; k-- > i;)
      for (std::size_t j = k + 1; j <= b && !to[k - i].on; ++j)
        if (to[j - i].on && edge(l.co[k], l.co[j])) to[k - i].on = true;
    for (std::size_t k = i; k <= b; ++k)
      if (to[k - i].on && ms_with(writes[l.co[k]], op)) return true;
    return false;
  }

  // Would the strong write `op` at slot i put a write that a read returned
  // coherence-before a write that the read's thread knew then (a path
  // through it from one to the other)? Causality would have hidden the one
  // from the read (semantics.md, "A read may return"). Edges between
  // existing writes never change, so only a path through a new write can.
  // (Mostly no read returned a write beside a known one: the pairs searched
  // out of line, hides_beside().)
  bool hides_a_read(const MemOp& op, const Location& l, std::size_t i) const {
    return !l.read_beside.empty() && hides_beside(op, l, i);
  }
  [[gnu::noinline]] bool hides_beside(const MemOp& op, const Location& l, std::size_t i) const {
    for (const auto& [returned, known] : l.read_beside) {
      const std::size_t a = index(l, returned), b = index(l, known);
      if (a < i && i <= b && reaches_in(op, l, a, i) && reaches_out(op, l, i, b)) return true;
    }
    return false;
  }

  // The slot (an index into co to insert before) of the strong RMW `op`,
  // which reads op.rmw_source, or none. It goes directly after its source, or
  // after the last write its thread knows (p0) if that is later, when that
  // slot keeps it atomic (semantics.md, "Atomicity": no write morally strong
  // with an RMW is coherence-between the write it read and it):
  // - no write morally strong with it that is coherence-after its source is
  //   before the slot,
  // - it is not coherence-between a morally strong RMW (later in the list)
  //   and that RMW's source (the source reaches it), and
  // - it hides no write from a read that returned it (hides_a_read).
  // Otherwise the source is not readable (stricter than PTX only when racing
  // writes leave a later slot unordered: docs/limitations.md).
  std::optional<std::size_t> rmw_slot(const MemOp& op, const Location& l, std::size_t p0) const {
    const std::size_t n = l.co.size();
    const std::size_t src = index(l, op.rmw_source);
    const std::size_t i = std::max(src + 1, p0);
    if (i > src + 1) {  // (mostly the slot right after the source: none between)
      std::vector<Flag>& after = reach_buf;
      coherence_after(l, src, i, after);
      for (std::size_t k = src + 1; k < i; ++k)
        if (after[k - src].on && ms_with(writes[l.co[k]], op)) return std::nullopt;
    }
    for (std::size_t j = i; j < n; ++j) {
      const Write& z = writes[l.co[j]];
      if (z.atomic_rmw && ms_with(z, op) && index(l, z.rmw_source) < i && reaches_in(op, l, index(l, z.rmw_source), i))
        return std::nullopt;
    }
    if (hides_a_read(op, l, i)) return std::nullopt;
    return i;
  }

  // Does write `op` go last, its one position? A weak write does, and under
  // sc any but a strong RMW.
  bool goes_last(const MemOp& op) const {
    const bool strong = is_strong(op.op.sem);
    return !(strong && op.rmw_source != no_write) && (opt.sequential || !strong);
  }
  // Candidate coherence positions for write op (index into co to insert before).
  // (Into `out`.) Those of a write that does not go last (worked out out of
  // line) come after the last write its thread knows (p0) at the earliest.
  // Most go last all the same (after_last()): no call.
  void positions(const MemOp& op, const Location& l, std::vector<std::size_t>& out) const {
    out.clear();
    if (goes_last(op) || after_last(op, l))
      out.push_back(l.co.size());
    else
      strong_positions(op, l, out);
  }
  // Has the strong write `op` the last slot alone, as strong_positions()
  // would find? So has one, not an RMW, whose thread knows the last write
  // (none after p0), and an RMW of the last write where no read returned a
  // write beside a known one (rmw_slot(): the slot right after its source,
  // none after it, and no read's pair to hide).
  bool after_last(const MemOp& op, const Location& l) const {
    if (op.rmw_source == no_write) return knows(threads[op.thread], l.co.back());
    return op.rmw_source == l.co.back() && l.read_beside.empty();
  }
  void strong_positions(const MemOp& op, const Location& l, std::vector<std::size_t>& out) const;
};

bool PtxModel::State::hidden(const Location& l, const Thread& t) {
  bool by_unknown = false;
  const std::size_t n = l.co.size();
  if (marks.size() < n) marks.resize(n);  // (only grows: its first n entries are the answer)
  Mark* const m = marks.data();
  // The initial write, first, is known, and hidden straight by any later
  // known write (its edges go to every write).
  std::size_t last_known = 1;  // 1 + the last known write's index
  for (std::size_t i = 1; i < n; ++i) {
    m[i] = {knows_later(t, l.co[i]), false};
    if (m[i].known) last_known = i + 1;
  }
  m[0] = {true, last_known > 1};
  // (From the last known write on, nothing is known or hidden: nothing later hides.)
  for (std::size_t i = last_known; i-- > 1;) {
    const WriteId a = l.co[i];
    const Write& wa = writes[a];  // (not the initial write, first)
    bool straight = false;
    for (std::size_t j = i + 1; j < last_known && !straight; ++j)
      if ((m[j].known || m[j].hidden) && edge_from(a, wa, writes[l.co[j]])) {
        m[i].hidden = true;
        straight = m[j].known;
      }
    if (m[i].hidden && !straight) by_unknown = true;
  }
  return by_unknown;
}

void PtxModel::State::strong_positions(const MemOp& op, const Location& l, std::vector<std::size_t>& out) const {
  const std::size_t end = l.co.size();
  const Thread& t = threads[op.thread];
  std::size_t p0 = end;
  while (!knows(t, l.co[p0 - 1])) --p0;  // (the initial write, first, is known)
  if (op.rmw_source != no_write) {  // (a strong RMW)
    if (const std::optional<std::size_t> slot = rmw_slot(op, l, p0)) out.push_back(*slot);
    return;
  }
  out.push_back(end);
  for (std::size_t i = end; i-- > p0;) {
    const Write& m = writes[l.co[i]];
    if (!ms(m.info.thread, m.strong, m.scope, op.thread, true, op.op.scope) || m.info.initial) continue;
    // Atomicity: never between an RMW and its source when morally strong with both.
    bool splits = false;
    for (std::size_t j = i; j < end && !splits; ++j) {
      const Write& z = writes[l.co[j]];
      if (!z.atomic_rmw) continue;
      std::size_t sp = 0;
      for (std::size_t k = 0; k < end; ++k)
        if (l.co[k] == z.rmw_source) sp = k;
      if (sp < i && ms(z.info.thread, true, z.scope, op.thread, true, op.op.scope)) splits = true;
    }
    if (!splits && !hides_a_read(op, l, i)) out.push_back(i);
  }
}

std::uint32_t PtxModel::State::make_location(const MemOp& op, LocAt next) {
  if (next != loc_at.end() && next->first == op.addr && next->second < made) {
    remember(op.addr, next->second);
    const Location& known = locs[next->second];
    if (known.size != op.size)
      unsupported(op, "mixed-size access: " + std::to_string(op.size) + " bytes at a location accessed with " +
                          std::to_string(known.size));
    return next->second;
  }
  if (made < locs.size()) {  // (another location than the last run's next)
    forget_unmade();
    next = at_or_above(op.addr);
  }
  const std::size_t found = findings.size();
  if (next != loc_at.end() && next->first < op.addr + op.size) unsupported(op, "overlapping access");
  if (next != loc_at.begin()) {
    auto prev = std::prev(next);
    if (prev->first + locs[prev->second].size > op.addr) unsupported(op, "overlapping access");
  }
  const bool overlaps = findings.size() != found;
  overlapping += overlaps;
  const std::uint32_t id = made++;
  Location& l = locs.add();
  l.addr = op.addr;
  l.size = op.size;
  l.overlapping = overlaps;
  loc_at.insert(next, {op.addr, id});
  initial_write(l, id);
  remember(op.addr, id);
  return id;
}

std::uint32_t PtxModel::State::remake_unmade(std::size_t at) {
  const std::uint32_t id = loc_at[at].second;
  if (id != made) {
    const std::uintptr_t addr = locs[made].addr;
    loc_at[static_cast<std::size_t>(at_or_above(addr) - loc_at.begin())].second = id;
    loc_at[at].second = made;
    std::swap(locs[id].addr, locs[made].addr);
    std::swap(locs[id].size, locs[made].size);
    looked[slot(addr)] = static_cast<std::uint16_t>(id);
  }
  remember(loc_at[at].first, made);
  return remake();
}

void PtxModel::State::forget_unmade() {
  std::erase_if(loc_at, [this](const auto& e) { return e.second >= made; });
  while (locs.size() > made) {
    overlapping -= locs.back().overlapping;
    locs.pop_back();
  }
}

PtxModel::PtxModel(PtxOptions o) : s_(std::make_unique<State>(findings_)) { s_->opt = o; }
PtxModel::~PtxModel() = default;

std::string_view PtxModel::name() const {
  if (s_->opt.sequential) return "sc";
  if (s_->opt.scope_blind) return "scope-blind";
  return "ptx";
}

void PtxModel::reset() {
  State& s = *s_;
  s.spawned = 0;  // (the records kept: see State::threads)
  s.writes.clear();
  s.ids.clear();
  s.releases.clear();
  s.made = 0;  // (the locations kept: see State::locs)
  s.views.clear();
  s.sc_fences.clear();
  s.findings.clear();
  // (Mostly empty: a deque's clear() costs even then, and kept out of line,
  // as its loops would have every run's reset() save registers.)
  if (!s.texts.empty()) [&s]() __attribute__((noinline, cold)) { s.texts.clear(); }();
  s.rf_hash = 0;
  s.fence_hash = 0;
  s.placed.reset();
  s.last_size = 0;  // (no last location)
}

ThreadId PtxModel::spawn(const Placement& where, long parent) {
  State& s = *s_;
  const ThreadId id = s.spawn(1);  // (the parent may move: it is looked up after)
  s.where[id] = where;
  Thread& t = s.threads[id];
  t.clear();
  if (parent >= 0) {
    const Thread& from = s.threads[static_cast<std::size_t>(parent)];
    t.view.vc.copy_with(from.view.vc, from.id, from.seq);  // (its own entry: see Thread)
    t.view.observe(from.view.observed);  // (mostly none)
  }
  return id;
}

// (Their placements alone: their records are made at their start, see State::threads.)
ThreadId PtxModel::spawn_all(const std::vector<Placement>& where) {
  State& s = *s_;
  const ThreadId first = s.spawn(where.size());
  std::copy(where.begin(), where.end(), s.where.begin() + first);
  return first;
}

void PtxModel::join(ThreadId waiter, ThreadId ended) {
  if (waiter == ended) return;  // joining oneself changes nothing
  View& w = s_->threads[waiter].view;
  const Thread& e = s_->threads[ended];
  w.join(e.view);
  if (e.seq != 0) w.vc.own(ended + 1)[ended] = e.seq;  // (its own entry: see Thread)
}

void PtxModel::start_all(ThreadId first, std::uint32_t count, ThreadId from) {
  State& s = *s_;
  // `from`'s view, kept: each thread borrows its clock (most of a large
  // launch's never act, and never copy it).
  const View& v = s.views[s.keep(s.threads[from])];
  // (Its entries and the threads looked up once, not at every thread: the
  // loop's stores could otherwise change them for all the compiler knows.)
  Clock lender;
  lender.borrow(v.vc);
  Thread* const grid = &s.threads[first];
  for (std::uint32_t k = 0; k < count; ++k) {
    grid[k].clear();  // (made now: see State::threads)
    grid[k].view.vc.borrow(lender);
  }
  if (!v.observed.empty())  // (mostly none: looked at once, not for each thread)
    for (ThreadId k = first; k < first + count; ++k) s.threads[k].view.observe(v.observed);
}

// The waiter's clock learns, of each joined thread, its own entry from the
// thread itself (see Thread), and from each joined clock only its entries of
// other threads: without them, the entries of the threads joined, a clock's
// width is mostly theirs. The threads that never stepped (most of a large
// launch's) all hold the view their start gave them (start_all()): one of
// them is joined. So do most of those that stepped (an event changes no
// clock), one after the other: a clock the same as the last one learned is
// not learned again.
void PtxModel::join_all(ThreadId waiter, ThreadId first, std::uint32_t count) {
  State& s = *s_;
  View& w = s.threads[waiter].view;
  const std::size_t end = std::size_t{first} + count;
  std::uint32_t* e = w.vc.own(end);
  const Clock* learned = nullptr;  // the last clock learned
  auto learn = [&](const View& o) {
    if (learned == nullptr || !o.vc.same(*learned)) {
      const std::size_t below = std::min<std::size_t>(first, o.vc.size());
      for (std::size_t i = 0; i < below; ++i) e[i] = std::max(e[i], o.vc[i]);
      if (o.vc.size() > end) {
        e = w.vc.own(o.vc.size());
        for (std::size_t i = end; i < o.vc.size(); ++i) e[i] = std::max(e[i], o.vc[i]);
      }
      learned = &o.vc;
    }
    w.observe(o.observed);
  };
  std::size_t idle = end;  // one that never stepped
  const Thread* const threads = s.threads.data();  // (looked up once, as in start_all())
  for (std::size_t k = first; k < end; ++k) {
    const Thread& t = threads[k];
    if (t.seq == 0) {
      idle = k;
      continue;
    }
    e[k] = t.seq;  // (no clock knows more of it)
    learn(t.view);
  }
  if (idle != end) learn(s.threads[idle].view);
}

Readable PtxModel::State::readable(const Location& l, const Thread& t, std::vector<WriteId>& out) {
  out.clear();
  const std::size_t n = l.co.size();
  const Readable seen{hidden(l, t), n};
  const Mark* const m = marks.data();
  for (std::size_t i = 0; i < n; ++i)
    if (!m[i].hidden) out.push_back(l.co[i]);
  return seen;
}

Readable PtxModel::State::readable_sc(const MemOp& r, std::vector<WriteId>& out) {
  const Location& l = locs[location(r)];
  out.assign(1, l.co.back());
  return {false, l.co.size()};
}

// (Where hiding() finds a write, the writes from it on, as a load's: none
// hidden there, and hidden() is not asked.)
Readable PtxModel::State::readable_rmw(const MemOp& r, const Location& l, const Thread& t, std::vector<WriteId>& out) {
  const std::size_t n = l.co.size();
  const std::size_t p = hiding(l, t);
  const Readable seen{p == n && hidden(l, t), n};
  const Mark* const m = marks.data();
  MemOp rmw = r;
  for (std::size_t i = p == n ? 0 : p; i < n; ++i) {
    if (p == n && m[i].hidden) continue;
    const WriteId w = l.co[i];
    // Atomicity: two morally strong RMWs never read the same write.
    bool taken = false;
    for (WriteId z = writes[w].strong_rmws; z != no_write; z = writes[z].next_strong_rmw) {
      const Write& zw = writes[z];
      if (ms(zw.info.thread, true, zw.scope, r.thread, true, r.op.scope)) taken = true;
    }
    if (taken) continue;
    // Nor one whose slot would break atomicity or hide a returned write (rmw_slot).
    rmw.rmw_source = w;
    positions(rmw, l, positions_buf);
    if (positions_buf.empty()) continue;
    out.push_back(w);
  }
  return seen;
}

// (The writes hidden straight by known ones are what the thread would not
// read whatever else is in the list; hidden() tells the others apart.)
// (A load of a location looked up lately whose last write, not the initial
// one, its thread knows in order, and whose writer knew every write before
// it (hiding() finds it at once): that write alone, told here with no call
// but in tail position (flattened: its push, with room, is inline), so that
// this saves few registers; the others by State::readable_at(), which saves
// them for its calls.)
[[gnu::flatten]] Readable PtxModel::readable(const MemOp& r, std::vector<WriteId>& out) {
  State& s = *s_;
  if (s.opt.sequential) return s.readable_sc(r, out);
  const std::uint32_t id = s.looked_up_last(r) ? s.last_location : s.looked_up_lately(r);
  if (id == State::no_location) [[unlikely]]
    return s.readable_at(r, nullptr, out);
  const Location& l = s.locs[id];
  if (r.op.kind == PtxKind::atom) return s.readable_at(r, &l, out);
  const std::size_t n = l.co.size();
  const Write& last = s.writes[l.co[n - 1]];
  if (!State::knows_in_order(s.threads[r.thread], last) || !State::knew_all_before(last.known_before, n - 1) ||
      out.capacity() == 0)
    return s.readable_at(r, &l, out);
  out.clear();
  out.push_back(l.co[n - 1]);  // (with room: no call)
  return {false, n};
}

Readable PtxModel::State::readable_at(const MemOp& r, const Location* at, std::vector<WriteId>& out) {
  if (at == nullptr) {  // (mostly the one made after the last one looked up, a loop's over an array: no call)
    const std::uint32_t after = made_after_last(r);
    at = &locs[after != no_location ? after : locate(r)];
  }
  const Location& l = *at;
  out.clear();
  const Thread& t = threads[r.thread];
  const std::size_t n = l.co.size();
  if (r.op.kind != PtxKind::atom) {
    if (const std::size_t p = hiding(l, t); p < n) {
      for (std::size_t i = p; i < n; ++i) {
        // (Where `out` has no room, hidden() tells the same writes: the
        // pushes then make no call, and this saves no registers for one.)
        if (out.size() == out.capacity()) [[unlikely]]
          return readable(l, t, out);
        out.push_back(l.co[i]);
      }
      return {false, n};
    }
    return readable(l, t, out);
  }
  return readable_rmw(r, l, t, out);
}

// (Each way a call of its own, as write()'s.)
void PtxModel::read(const MemOp& r, WriteId w) {
  State& s = *s_;
  if (is_strong(r.op.sem)) return s.read<false>(r, w);
  s.read_alone(r, w);
}

void PtxModel::State::read_alone(const MemOp& r, WriteId w) {
  if (!looked_up_last(r)) [[unlikely]]
    return read<true>(r, w);
  Location& l = locs[last_location];
  if (l.co.back() != w) return read<true>(r, w);
  if (l.writes.size() > Location::kLongList) [[unlikely]]  // (race_check() starts where the thread's last check ended)
    return read<true>(r, w);
  Thread& t = threads[r.thread];
  for (const Visit& a : l.writes)
    if (unordered(t, r.thread, a)) return read<true>(r, w);
  Write& x = writes[w];
  if (x.info.uninitialised) return read<true>(r, w);
  Visit* const last = last_read(l, r.thread);
  if (last == nullptr && l.last_read.size() == l.last_read.capacity()) return read<true>(r, w);
  const std::uint32_t seq = step(t);
  const Visit a{r.thread, seq, false, r.op.scope, r.event};
  if (last != nullptr)
    *last = a;
  else
    l.last_read.push_back(a);  // (with room: no call)
  ++x.reads;
  rf_hash += rf_term(r.thread, seq, x);
}

template <bool weak>
void PtxModel::State::read(const MemOp& r, WriteId w) {
  State& s = *this;
  Location& l = s.locs[s.location(r)];
  Thread& t = s.threads[r.thread];
  const bool strong = !weak;
  s.race_check(r, l, false, strong);
  const std::uint32_t seq = State::step(t);
  s.note_read(l, {r.thread, seq, strong, r.op.scope, r.event});
  if (l.co.back() != w) s.note_beside(l, t, w);
  Write& x = s.writes[w];
  ++x.reads;
  if (x.info.uninitialised)
    s.note(ModelFinding{FindingKind::uninitialised_read, r.thread, r.thread, r.event, r.event, r.addr,
                        "read of simulated memory that was never written"});
  const std::uint64_t term = rf_term(r.thread, seq, x);
  s.rf_hash += term;
  if (strong) t.last_rf_term = term;  // (an RMW's write takes it next: see Write::rf_term)
  // Observation: a morally strong read carries the write (and its RMW chain) forward.
  if (strong && (x.info.initial || s.ms(x.info.thread, x.strong, x.scope, r.thread, true, r.op.scope))) {
    // (The releases first: what an acquire joins, the thread then knows in
    // order, and observes no more.) x's releases begin with those of each
    // write of its chain, in order; where t knows one in order whose read
    // included its source's (Write::read_included), t's view includes all
    // those (that one's own were kept at it or before), and the loop starts
    // past them.
    const std::span<const WriteId> chain = s.of(s.chain_of(x));
    const std::size_t known = s.known_part(t, chain);
    std::size_t included = 0;
    if (known > 0)
      if (const Write& y = s.writes[chain[known - 1]]; y.read_included) included = y.releases.end - y.releases.begin;
    bool none_pending = true;
    for (const Release& rel : s.releases_of(x.releases).subspan(included)) {
      if (s.view_includes(t, rel)) continue;  // (an RMW loop's chain carries every release before: mostly known)
      if (has_acquire(r.op.sem) && s.ms_release(rel, r.thread, r.op.scope)) {
        t.view.join(s.views[rel.view]);
      } else {
        t.pending.push_back(rel);
        none_pending = false;
      }
    }
    t.last_read_included = none_pending;
    s.observe(t, chain.subspan(known));
    if (!x.info.initial && !knows_in_order(t, x)) t.view.observe_one(w);  // (an initial write is known to all)
  }
}

// (A write that goes last needs no location yet: write() looks it up, or
// makes it. It precedes no write.) The writes it may precede are those from
// its earliest position on.
unsigned PtxModel::placements(const MemOp& w, std::vector<WriteId>* precedes) {
  State& s = *s_;
  if (precedes != nullptr) precedes->clear();
  if (s.goes_last(w)) return 1;
  const Location& l = s.locs[s.location(w)];
  if (s.after_last(w, l)) return 1;  // (the last slot alone: write() tells so as cheaply)
  return s.placements(w, l, precedes);
}

unsigned PtxModel::State::placements(const MemOp& w, const Location& l, std::vector<WriteId>* precedes) {
  std::vector<std::size_t>& at = placed_positions;
  positions(w, l, at);
  placed = Placed{w.thread, w.event, w.addr, w.rmw_source, writes.size()};
  if (precedes != nullptr)
    if (const std::size_t first = *std::min_element(at.begin(), at.end()); first < l.co.size())
      precedes->assign(l.co.begin() + static_cast<std::ptrdiff_t>(first), l.co.end());
  return static_cast<unsigned>(at.size());
}

WriteId PtxModel::State::first_write(const MemOp& w, Location& l) {
  // (A location with two entries in co has one in writes: see Location.)
  if (!writes.has_left(2) || l.co.size() < 2) [[unlikely]]
    return first_write_making_room(w, l);
  Thread& t = threads[w.thread];
  const std::uint32_t seq = step(t);
  // (remake(), its two writes set in place: see Location::forget_writes_but().)
  const std::uint32_t lid = made++;
  l.forget_writes_but(2, 1);
  const WriteId id = static_cast<WriteId>(writes.size());
  // (Both records taken, and the location's entries set, before either
  // record is: a record's stores might change the pool's size or `w`, for
  // all the compiler knows.)
  Write& init = writes.take_left();
  Write& x = writes.take_left();
  l.writes[0] = {w.thread, seq, false, w.op.scope, w.event};
  l.co[0] = id;
  l.co[1] = id + 1;
  make_initial(init, lid);
  make_write(x, w, false, no_write, t, seq, lid);
  return id + 1;
}

WriteId PtxModel::State::first_write_making_room(const MemOp& w, Location& l) {
  writes.make_left(2);
  if (l.co.size() < 2) l.co.resize(2);
  if (l.writes.empty()) l.writes.resize(1);
  return first_write(w, l);
}

// (Each way a call of its own, so that the shorter ones save no registers
// for the others.)
WriteId PtxModel::write(const MemOp& w, unsigned placement, std::vector<WriteId>* unordered) {
  State& s = *s_;
  if (!is_strong(w.op.sem) && w.rmw_source == no_write) {
    if (s.remade_next(w)) {
      if (unordered != nullptr) unordered->clear();  // (none: see first_write())
      return s.first_write(w, s.locs[s.made]);
    }
    return s.write<true>(w, placement, unordered);
  }
  return s.write<false>(w, placement, unordered);
}

template <bool weak>
WriteId PtxModel::State::write(const MemOp& w, unsigned placement, std::vector<WriteId>* unordered) {
  State& s = *this;
  const bool strong = !weak && is_strong(w.op.sem);
  const WriteId source = weak ? no_write : w.rmw_source;
  const std::uint32_t lid = s.location(w);
  Location& l = s.locs[lid];
  const std::size_t n = l.co.size();
  std::size_t at = n;  // (where one that goes last, or has the last slot alone, goes, as a weak one does)
  if (strong && !s.goes_last(w) && !s.after_last(w, l)) {
    const bool placed = s.placed && s.placed->thread == w.thread && s.placed->event == w.event &&
                        s.placed->addr == w.addr && s.placed->rmw_source == w.rmw_source &&
                        s.placed->writes == s.writes.size();
    if (!placed) s.positions(w, l, s.placed_positions);
    at = s.placed_positions.at(placement);
  }
  Thread& t = s.threads[w.thread];
  s.race_check(w, l, true, strong);
  const std::uint32_t seq = State::step(t);

  const WriteId id = static_cast<WriteId>(s.writes.size());
  Write& x = s.make_write(s.writes.add_as_left(), w, strong, source, t, seq, lid);
  // Its edges with the writes made before it, fixed from now on (moral
  // strength is static): with the initial write, with each one its thread
  // knows (its own among them, all before its slot), and with each one
  // morally strong with it. A weak write is morally strong with it only if
  // its own: the other weak ones its thread does not know are unordered with it.
  // (A weak one is itself morally strong with none but its own thread's,
  // which it knows: moral strength is asked of a strong one alone.)
  if (unordered != nullptr) unordered->clear();
  std::size_t known_count = 0;
  for (std::size_t i = 1; i < n; ++i) {  // (after the initial write)
    const WriteId k = l.co[i];
    const Write& y = s.writes[k];
    const bool known = s.knows_later(t, k);
    if (known)
      ++known_count;
    else if (!y.strong && unordered != nullptr)
      unordered->push_back(k);
    if (known || (strong && s.ms_writes(y, x))) l.coherence += i < at ? edge_term(y, x) : edge_term(x, y);
  }
  // Its known_before (Location::known): where it knows every write before
  // it, the last one's list and that write, shared where that one knew every
  // write before it too and its list ends the entries; else a list of its own.
  if (n > 1) {
    const auto end = static_cast<std::uint32_t>(l.known.size());
    x.known_before.begin = end;
    if (known_count == n - 1) {
      const Write& last = s.writes[l.co[n - 1]];
      if (last.known_before.end == end && knew_all_before(last.known_before, n - 1))
        x.known_before.begin = last.known_before.begin;
      else
        l.known.insert(l.known.end(), l.co.begin() + 1, l.co.end() - 1);
      l.known.emplace_back(l.co[n - 1]);
    } else {
      for (std::size_t i = 1; i < n; ++i)
        if (s.knows_later(t, l.co[i])) l.known.emplace_back(l.co[i]);
    }
    x.known_before.end = static_cast<std::uint32_t>(l.known.size());
  }
  // (Its releases, mostly none, are those of its source and its own, made
  // next one after the other: a span of the pool.)
  if (source != no_write) {
    Write& src = s.writes[source];
    x.atomic_rmw = x.strong;
    if (x.atomic_rmw) {
      x.next_strong_rmw = src.strong_rmws;
      src.strong_rmws = id;
    }
    if (x.strong && (src.info.initial || s.ms(src.info.thread, src.strong, src.scope, w.thread, true, w.op.scope))) {
      // Observation passes through a chain of morally strong RMWs: the
      // source's, then the source (all made before it: smaller ids).
      // Where the source's chain (its releases) ends its pool, this one's
      // begins as that one does and goes on from its end: an RMW loop keeps
      // one chain, not one as long for each RMW (their sum the square of
      // the RMWs). Else copied (by index: the pools may grow as they are
      // appended to).
      x.chain = extend(s.ids, s.chain_of(src));
      if (!src.info.initial) s.ids.push_back(source);
      x.chain.end = static_cast<std::uint32_t>(s.ids.size());
      if (!src.releases.empty()) x.releases = extend(s.releases, src.releases);
    }
  }
  // Its own release patterns, mostly none: a strong write without release
  // semantics whose thread passed no release fence (no_view is all ones:
  // the three entries AND to it only where none is set).
  const bool fenced = (t.fence_release[0] & t.fence_release[1] & t.fence_release[2]) != no_view;
  if (strong && (has_release(w.op.sem) || fenced)) {
    if (x.releases.empty()) x.releases.begin = static_cast<std::uint32_t>(s.releases.size());
    if (has_release(w.op.sem)) s.releases.push_back({s.keep(t), w.op.scope, w.thread});
    for (int sc = 0; sc < 3; ++sc)
      if (t.fence_release[sc] != no_view) s.releases.push_back({t.fence_release[sc], static_cast<Scope>(sc), w.thread});
    x.releases.end = static_cast<std::uint32_t>(s.releases.size());
  }
  if (at == n)
    l.co.emplace_back(id);  // (made inline, where push_back was a call)
  else
    l.co.insert(l.co.begin() + static_cast<std::ptrdiff_t>(at), id);
  ++l.coherence;
  l.writes.push_back({w.thread, seq, strong, w.op.scope, w.event});
  return id;
}

// (The entries a kept view's clock adds past the thread's, mostly a few,
// zeroed element by element: a call of memset costs more than they do.)
#if defined(__GNUC__) && !defined(__clang__)
[[gnu::optimize("no-tree-loop-distribute-patterns")]]
#endif
void PtxModel::fence(ThreadId id, const PtxOp& f) {
  State& s = *s_;
  Thread& t = s.threads[id];
  State::step(t);
  // Acquire side: releases observed earlier by strong reads (acquire pattern).
  s.acquire_pending(t, id, f.scope);
  if (f.kind == PtxKind::fence_sc) {
    // fence.sc: a total run-time order over morally strong fence.sc; each
    // synchronizes with the later ones.
    // Only the order between morally strong fence.sc is part of the execution
    // (the fingerprint sums those pairs; others stay unordered).
    for (const auto& g : s.sc_fences)
      if (s.ms(g.thread, true, g.scope, id, true, f.scope)) {
        t.view.join(s.views[g.view]);
        s.fence_hash += pair_term(g.thread, g.seq, id, t.seq);
      }
    const ViewId v = s.keep(t);
    s.sc_fences.push_back({id, t.seq, f.scope, v});
    t.fence_release[static_cast<int>(s.scope(f.scope))] = v;
  } else {
    t.fence_release[static_cast<int>(s.scope(f.scope))] = s.keep(t);
  }
}

Scope PtxModel::scope(Scope s) const { return s_->scope(s); }

// Each participant's view becomes `all`, the join of theirs after each one's
// event here, kept, whose clock each one borrows (an event changes no clock:
// see Thread). The borrowed clocks mostly have one lender, copied (the
// first one's) and joined no more; each one's event, its own entry, goes
// straight into all's clock (no clock knows more of a thread than the
// thread itself). (The entries past the first one's, mostly a few, zeroed
// element by element: a call of memset costs more than they do.)
#if defined(__GNUC__) && !defined(__clang__)
[[gnu::optimize("no-tree-loop-distribute-patterns")]]
#endif
void PtxModel::barrier(const std::vector<ThreadId>& participants) {
  State& s = *s_;
  std::size_t width = 0;
  for (const ThreadId p : participants) {
    Thread& t = s.threads[p];
    ++t.seq;  // (its event: see above)
    s.acquire_pending(t, p, Scope::cta);
    width = std::max({width, t.view.vc.size(), std::size_t{p} + 1});
  }
  if (participants.empty()) return;  // (nothing to join)
  View& all = s.views.add();
  // (As wide as the widest clock at once, the first one's copied: no join widens it.)
  const Clock& first = s.threads[participants.front()].view.vc;
  std::uint32_t* e = all.vc.copy_wide(first, width);
  // Each one borrows all's clock as soon as its own is joined: all's
  // entries, as wide as they get, stay in place as the rest are joined.
  Clock joined;  // the entries joined last, borrowed
  joined.borrow(first);
  for (const ThreadId p : participants) {
    View& v = s.threads[p].view;
    if (!v.vc.same(joined)) {
      all.vc.join(v.vc);
      joined.borrow(v.vc);
    }
    e[p] = s.threads[p].seq;
    all.observe(v.observed);
    v.vc.borrow(all.vc);
  }
  // (Each one's observed writes are among all's: merged, mostly none, not copied.)
  if (!all.observed.empty())
    for (const ThreadId p : participants) s.threads[p].view.observe(all.observed);
}

const WriteInfo& PtxModel::info(WriteId w) const { return s_->writes[w].info; }

bool PtxModel::morally_strong(const MemOp& r, WriteId w) const {
  const Write& x = s_->writes[w];
  if (x.info.initial) return is_strong(r.op.sem);
  return s_->ms(x.info.thread, x.strong, x.scope, r.thread, is_strong(r.op.sem), r.op.scope);
}

std::size_t PtxModel::writes_to(std::uintptr_t addr) const {
  const Location* l = s_->find(addr);
  return l == nullptr ? 0 : l->co.size();
}

std::size_t PtxModel::list_entries() const {
  std::size_t n = s_->ids.size() + s_->releases.size();
  for (const Location& l : s_->locs) n += l.known.size();
  for (const View& v : s_->views) n += v.observed.size();
  for (ThreadId t = 0; t < s_->spawned; ++t) n += s_->threads[t].view.observed.size();
  return n;
}

bool PtxModel::commutes(WriteId w, std::uint64_t family) {
  State& s = *s_;
  Write& x = s.writes[w];
  if (!x.atomic_rmw || !x.releases.empty() || x.rmw_source == no_write || x.commutes != 0) return false;
  if (s.writes[x.rmw_source].info.uninitialised) return false;  // the read is a finding, named by its reader
  x.commutes = family;
  s.locs[x.loc].commuting = true;
  return true;
}

std::uint64_t PtxModel::State::within_runs(const Location& l, std::uint64_t& rf) const {
  const std::size_t n = l.co.size();
  // The first position of each one's run of commuting RMWs (a write in none:
  // its own position).
  std::vector<std::size_t>& run = run_buf;
  run.assign(n, 0);
  auto told = [&](std::size_t i) {  // read by something but the RMWs of its family that follow it
    const Write& x = writes[l.co[i]];
    std::uint32_t inside = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const Write& y = writes[l.co[j]];
      inside += family(y) != 0 && family(y) == family(x) && y.rmw_source == l.co[i];
    }
    return x.reads > inside;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Write& x = writes[l.co[i]];
    run[i] = i > 0 && family(x) != 0 && family(writes[l.co[i - 1]]) == family(x) && !told(i - 1) ? run[i - 1] : i;
  }
  for (std::size_t i = 1; i < n; ++i) {
    const Write& x = writes[l.co[i]];
    const bool in_run = run[i] != i || (i + 1 < n && run[i + 1] == i);
    if (in_run && family(x) != 0 && x.rmw_source == l.co[i - 1]) rf -= x.rf_term;
  }
  std::uint64_t edges = 0;
  for (std::size_t i = 1; i < n; ++i)
    for (std::size_t j = i + 1; j < n && run[j] == run[i]; ++j)
      if (edge(l.co[i], l.co[j])) edges += edge_term(writes[l.co[i]], writes[l.co[j]]);
  return edges;
}

std::uint64_t PtxModel::fingerprint() const {
  // Coherence counts by its edges alone: racing writes stay unordered (partial
  // coherence), so where the list happens to put one of them before the other
  // tells nothing about the execution. Nor does the order within a run of
  // adjacent commuting RMWs of one family (MemoryModel::commutes): edges
  // between two of them are left out.
  // A commuting RMW of such a run (of two or more) that read the write just
  // before it in the list: its reads-from is implied by coherence and the
  // run's atomicity, so it is left out. (Alone, its place in the list may be
  // no edge of coherence: its reads-from stays.)
  // A write that some other read returned (a load, or an RMW not of the
  // family) ends its run: that reader saw the sum of the writes up to it, so
  // which writes come before it is part of the execution (the order among
  // them, and among those after it, is not).
  const State& s = *s_;
  std::uint64_t rf = s.rf_hash;
  std::uint64_t co = 0;
  for (const auto& [addr, at] : s.loc_at) {  // by address: not the order the run touched them
    if (at >= s.made) continue;  // (the last run's)
    const Location& l = s.locs[at];
    std::uint64_t coherence = l.coherence;  // a commutative sum: the edges in any order
    if (l.commuting) coherence -= s.within_runs(l, rf);  // less those within a run
    co = mix(co, coherence);  // (the edges, a sum of spread terms, are never a few apart for another count)
  }
  return mix(mix(rf, s.fence_hash), co);
}

}  // namespace scopesim
