// histogram — a block-local histogram (catalogue.md, "histogram").
// <<<1,256>>> over 8 bins in shared memory: threads 0..7 zero the bins, a
// barrier, every thread counts its input in[i] into bins[in[i]], then threads
// 0..7 write the bins to global memory (the cooperative flush). The input is
// in[k] = k % bins, so every bin's exact count is blockDim / bins. The host
// observes the global bins and the count it expects per bin. Postcondition:
// every global bin equals that count.
#include "models/model.hpp"

namespace scopesim::models::histogram {
using namespace scopesim::dialect;

constexpr unsigned kMaxBins = 8;
using Bins = plain<int>[kMaxBins];

enum class Count { atomic, plain };     // atomic_add(&bins[b], 1) or bins[b]++
enum class Flush { after_barrier, at_once };  // syncthreads() before the flush, or not

template <Count C, Flush F>
SCOPESIM_KERNEL void histogram(const plain<int>* in, plain<int>* global_bins, unsigned nbins) {
  SCOPESIM_SHARED(Bins, bins);
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  if (thread_idx().x < nbins) bins[thread_idx().x] = 0;
  syncthreads();
  const int b = in[i];
  if constexpr (C == Count::atomic) atomic_add(&bins[b], 1);
  else bins[b]++;
  if constexpr (F == Flush::after_barrier) syncthreads();
  if (thread_idx().x < nbins) global_bins[thread_idx().x] = bins[thread_idx().x];
}

// ---- host program: "bins" bins (default 8), one block of c.block threads ----
template <Count C, Flush F>
void run(Host& h, const Config& c) {
  const auto nbins = static_cast<unsigned>(c.param("bins", kMaxBins));
  const unsigned threads = c.grid * c.block;
  plain<int>* in = device_alloc<plain<int>>(h, "in", threads);
  plain<int>* global_bins = device_alloc<plain<int>>(h, "bins", nbins);
  plain<int>* per_bin = device_alloc<plain<int>>(h, "per_bin");
  for (unsigned k = 0; k < threads; ++k) host_write(in[k], static_cast<int>(k % nbins));
  host_write(*per_bin, static_cast<int>(threads / nbins));
  launch<histogram<C, F>>(h, "histogram", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, in, global_bins, nbins);
  device_synchronize(h);
  static const char* const names[kMaxBins] = {"bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7"};
  for (unsigned b = 0; b < nbins; ++b) observe(h, names[b], global_bins[b]);
  observe(h, "per_bin", *per_bin);
}

bool wrong_count(const Outcome& o) {
  const long long want = o.i("per_bin");
  for (const auto& v : o.values())
    if (v.name != "per_bin" && o.i(v.name) != want) return true;
  return false;
}

const char* const kWrongCount = "a global bin differs from the exact count per_bin (lost or missing increments)";

// Derivations (semantics.md):
// - shared_atomic: the legacy atomic_add is atom.relaxed.gpu; all threads are
//   in one block, so every pair of increments is morally strong and atomic:
//   no lost update. The zeroing stores precede the first barrier, every
//   increment precedes the second, every flush read follows it: each flush
//   read knows every increment of its bin, whose last in coherence hides the
//   rest, so it returns the exact count. No race (plain accesses ordered by
//   the barriers; atomics among themselves are strong).
// - plain_rmw: bins[b]++ is a weak load and a separate weak store; two
//   threads' increments of one bin race (data race) and can both read the
//   same value (lost update), and without the second barrier the flush read
//   races with the increments and may miss them.
// - barrier_only: the barrier after the plain increments orders them before
//   the flush, but not among themselves: still a data race and lost updates.
// - missing_flush_barrier: the atomics are fine, but a flush read is a plain
//   load unordered with other threads' increments of its bin: it races with
//   them (data race: one access plain) and may return a count that lacks them.
//
// Execution counts at the quick configuration <<<1,4>>>, bins = 2 (threads 0
// and 2 count bin 0, threads 1 and 3 bin 1; threads 0 and 1 flush):
// - shared_atomic: per bin the two morally strong RMWs run in one of 2
//   orders, but their results are unused and the flush reads, behind the
//   barrier, see both: the orders are one execution (docs/architecture.md,
//   "Commuting RMWs"); everything else is ordered by the barriers; the bins
//   are independent: 1 execution.

// Threads 0..bins-1 zero and flush the bins, and every bin's exact count is
// threads / bins: one block, at least as many threads as bins, a multiple of them.
std::string fits(const Config& c) {
  const long long bins = c.param("bins", kMaxBins);
  if (c.grid != 1) return "histogram runs in one block (grid 1)";
  if (bins < 1 || bins > kMaxBins) return "bins must be 1.." + std::to_string(kMaxBins);
  if (c.block < bins || c.block % bins != 0) return "the block's threads must be a multiple of bins (" + std::to_string(bins) + ")";
  return "";
}

// What --param sets (fits() checks the values).
const std::vector<Parameter> parameters = {
    {"bins", "bins of the histogram: 1..8, the block's threads a multiple of them (default 8)"}};

Registrar models{
    {.name = "histogram.shared_atomic",
     .summary = "histogram<<<1,256>>> over 8 shared bins: atomic_add, syncthreads(), cooperative flush",
     .invariant = "Increments of one bin are morally strong atomics (one block; atom.relaxed.gpu includes it), "
                  "so none is lost; the zeroing precedes the first barrier and every increment the second, "
                  "which every flush read follows, so each flush reads the complete count.",
     .bad_means = kWrongCount,
     .chapter = {1, 256},
     .quick = Config{.grid = 1, .block = 4, .params = {{"bins", 2}}},
     .program = run<Count::atomic, Flush::after_barrier>,
     .bad = wrong_count,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 1,
     .fits = fits,
     .parameters = parameters},
    {.name = "histogram.plain_rmw",
     .summary = "bins[b]++ with plain accesses and no barrier before the flush",
     .invariant = "A plain increment is a weak load and a separate weak store: two threads counting into one "
                  "bin race and may both read the same value, losing an increment; the flush is unordered "
                  "with the increments too.",
     .bad_means = kWrongCount,
     .chapter = {1, 256},
     .quick = Config{.grid = 1, .block = 4, .params = {{"bins", 2}}},
     .program = run<Count::plain, Flush::at_once>,
     .bad = wrong_count,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race}},
     .fits = fits,
     .parameters = parameters},
    {.name = "histogram.barrier_only",
     .summary = "plain bins[b]++ with syncthreads() after the increments",
     .invariant = "The barrier orders every increment before the flush, but it does not make a plain "
                  "read-modify-write atomic: increments of one bin still race with each other and can be lost.",
     .bad_means = kWrongCount,
     .chapter = {1, 256},
     .quick = Config{.grid = 1, .block = 4, .params = {{"bins", 2}}},
     .program = run<Count::plain, Flush::after_barrier>,
     .bad = wrong_count,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race}},
     .fits = fits,
     .parameters = parameters},
    {.name = "histogram.missing_flush_barrier",
     .summary = "shared atomic_add, but no barrier before the flush",
     .invariant = "The increments are atomic, but a flushing thread's plain read of its bin is not ordered after "
                  "the other threads' increments: it races with them and may write an incomplete count.",
     .bad_means = kWrongCount,
     .chapter = {1, 256},
     .quick = Config{.grid = 1, .block = 4, .params = {{"bins", 2}}},
     .program = run<Count::atomic, Flush::at_once>,
     .bad = wrong_count,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race}},
     .fits = fits,
     .parameters = parameters},
};

}  // namespace scopesim::models::histogram
