// tile — a cooperative shared-memory tile (catalogue.md, "tile").
// Each thread loads in[i] into tile[thread_idx().x], then adds a neighbour's
// element to its own and writes out[i]. The chapter launches <<<1,256>>> over
// n = 256 inputs; one block, so i == thread_idx().x. Postcondition: out is the
// exact function of in, out[k] = in[k] + in[neighbour(k)] for every k < n,
// checked after the kernel by a one-thread verify_tile kernel that counts the
// mismatches (the host program can observe device memory only cell by cell).
#include "models/model.hpp"

namespace scopesim::models::tile {
using namespace scopesim::dialect;

constexpr unsigned kMaxBlock = 1024;  // the most threads a CUDA block has
using Tile = plain<int>[kMaxBlock];

// Whose element a thread adds to its own.
enum class Neighbour {
  next,          // (k + 1) % n: thread 31's neighbour lives in the next warp
  next_in_warp,  // the next lane of the same warp, wrapping inside the warp
};

template <Neighbour N>
SCOPESIM_HOST_DEVICE unsigned neighbour(unsigned k, unsigned n) {
  if constexpr (N == Neighbour::next) return (k + 1) % n;
  else return (k & ~31u) | ((k + 1) & 31u);
}

// ---- tile.barrier: load, syncthreads(), compute ----
template <Neighbour N>
SCOPESIM_KERNEL void tile_barrier(const plain<int>* in, plain<int>* out, unsigned n) {
  SCOPESIM_SHARED(Tile, tile);
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  tile[thread_idx().x] = in[i];
  syncthreads();
  out[i] = tile[thread_idx().x] + tile[neighbour<N>(thread_idx().x, n)];
}

// ---- tile.missing_barrier: the same without the barrier ----
SCOPESIM_KERNEL void tile_missing_barrier(const plain<int>* in, plain<int>* out, unsigned n) {
  SCOPESIM_SHARED(Tile, tile);
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  tile[thread_idx().x] = in[i];
  out[i] = tile[thread_idx().x] + tile[neighbour<Neighbour::next>(thread_idx().x, n)];
}

// ---- tile.divergent_barrier: the bounds check wraps the barrier ----
SCOPESIM_KERNEL void tile_divergent_barrier(const plain<int>* in, plain<int>* out, unsigned n) {
  SCOPESIM_SHARED(Tile, tile);
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  if (i < n) {
    tile[thread_idx().x] = in[i];
    syncthreads();
    out[i] = tile[thread_idx().x] + tile[neighbour<Neighbour::next>(thread_idx().x, n)];
  }
}

// ---- tile.bounds_participate: the bounds check around load and compute
// only; every thread reaches the barrier ----
SCOPESIM_KERNEL void tile_bounds_participate(const plain<int>* in, plain<int>* out, unsigned n) {
  SCOPESIM_SHARED(Tile, tile);
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  if (i < n) tile[thread_idx().x] = in[i];
  syncthreads();
  if (i < n) out[i] = tile[thread_idx().x] + tile[neighbour<Neighbour::next>(thread_idx().x, n)];
}

// ---- tile.syncwarp_across_warps / tile.warp_local: syncwarp() instead of
// syncthreads() ----
template <Neighbour N>
SCOPESIM_KERNEL void tile_syncwarp(const plain<int>* in, plain<int>* out, unsigned n) {
  SCOPESIM_SHARED(Tile, tile);
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  tile[thread_idx().x] = in[i];
  syncwarp();
  out[i] = tile[thread_idx().x] + tile[neighbour<N>(thread_idx().x, n)];
}

// The input: never 0, so an element read before its store (or never
// written) shows in the sum.
SCOPESIM_HOST_DEVICE int input(unsigned k) { return static_cast<int>(k) + 1; }

// The postcondition, on the device: how many of out[0..n) differ from the
// exact function of in. Runs after the tile kernel, as one thread.
template <Neighbour N>
SCOPESIM_KERNEL void verify_tile(const plain<int>* out, unsigned n, plain<int>* mismatches) {
  int wrong = 0;
  for (unsigned k = 0; k < n; ++k) {
    const int got = out[k];
    if (got != input(k) + input(neighbour<N>(k, n))) ++wrong;
  }
  mismatches[0] = wrong;
}

// ---- host program: in[k] = input(k), one block of c.block threads ----
template <auto Kernel, Neighbour N = Neighbour::next>
void run(Host& h, const Config& c) {
  const unsigned threads = c.grid * c.block;
  const auto n = static_cast<unsigned>(c.param("n", threads));
  plain<int>* in = device_alloc<plain<int>>(h, "in", threads);
  plain<int>* out = device_alloc<plain<int>>(h, "out", threads);
  plain<int>* mismatches = device_alloc<plain<int>>(h, "mismatches");
  for (unsigned k = 0; k < threads; ++k) host_write(in[k], input(k));
  launch<Kernel>(h, "tile", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, in, out, n);
  device_synchronize(h);
  launch<verify_tile<N>>(h, "verify_tile", dim3{1, 1, 1}, dim3{1, 1, 1}, out, n, mismatches);
  device_synchronize(h);
  observe(h, "mismatches", *mismatches);
}

bool wrong(const Outcome& o) { return o.i("mismatches") != 0; }

const char* const kWrong = "some out[k] is not in[k] + in[neighbour(k)]: a stale or never-written tile element "
                           "was read (mismatches > 0)";

// Derivations (semantics.md):
// - barrier / bounds_participate / warp_local: every read of tile[j] follows a
//   barrier (block barrier, or syncwarp among the 32 lanes of the reader's
//   warp, which include the writer j) that the writer of tile[j] passed after
//   its store. The barrier joins the views of every participant, so the store
//   is causally before the read, hides the uninitialised pseudo-write, and the
//   read returns in[j]: one outcome, mismatches=0, no race.
// - missing_barrier / syncwarp_across_warps: thread k's read of tile[k+1] is
//   not ordered with thread k+1's plain store (no barrier at all, or a
//   syncwarp whose participants exclude the other warp): a data race, and the
//   read may return the pseudo-write before everything (the schedule that runs
//   it first), an uninitialised read; out[k] = in[k] + 0 is wrong.
// - divergent_barrier: n = 250 < 256 = blockDim: threads 250..255 skip the
//   barrier that threads 0..249 execute, which CUDA C++ forbids (barrier
//   divergence). The H200 lets the barrier complete, and so does the
//   simulator, so out is still right: no bad outcome, only the finding.
//   Thread 249 reads tile[(249 + 1) % 250] = tile[0], written before the barrier.

// Execution counts at the quick configurations (derivation). The dependence
// relation is "same location, one writes". Threads touch only their own
// tile[k], in[k], out[k] and read tile[neighbour(k)]; the only dependent pairs
// across threads are (store tile[j] by j, load tile[j] by j's reader).
// - With a barrier between every such pair, the pair is ordered by the
//   barrier's join in every run: 1 execution.
// - Without one, each of the q neighbour pairs is explored in both orders, and
//   the order of one pair does not constrain another: 2^q executions; the read
//   that runs first has one write to return (the pseudo-write), the one after
//   has two (the pseudo-write is not hidden from a thread that knows nothing
//   of the store), so each pair contributes 1 + 2 = 3 runs. Not every
//   combination of orders exists: the q pairs form a cycle (thread k stores
//   tile[k] before it reads tile[k+1]), and "every read before its store" is
//   cyclic. tile.missing_barrier at <<<1,4>>>: 3^4 - 1 = 80. (The explorer
//   currently explores 78 there, and 234 instead of 242 at <<<1,5>>>, while
//   <<<1,2>>> and <<<1,3>>> give 8 and 26 as derived; the count is therefore
//   not stated on the model.)

// The tile holds kMaxBlock elements, one per thread of the one block.
std::string fits(const Config& c) {
  if (c.grid != 1) return "tile runs in one block (grid 1)";
  if (c.block > kMaxBlock) return "tile holds at most " + std::to_string(kMaxBlock) + " threads per block";
  const long long n = c.param("n", c.block);
  if (n < 1 || n > static_cast<long long>(c.block)) return "n must be 1.." + std::to_string(c.block) + " (the block's threads)";
  return "";
}

// What --param sets (fits() checks the value).
const std::vector<Parameter> parameters = {
    {"n", "the input's length, one element per thread: 1..the block's threads (default: the block's threads)"}};

Registrar models{
    {.name = "tile.barrier",
     .summary = "tile<<<1,256>>>: load in[i] into a shared tile, syncthreads(), add the next thread's element",
     .invariant = "Every thread's plain store to tile[thread_idx().x] precedes the block barrier; every read of a "
                  "neighbour's element follows it. The barrier makes every participant's earlier accesses "
                  "visible to every participant after it (cta scope, the whole block), so each read returns "
                  "the element its neighbour loaded.",
     .bad_means = kWrong,
     .chapter = {1, 256},
     .quick = Config{1, 8},
     .program = run<tile_barrier<Neighbour::next>>,
     .bad = wrong,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 1,
     .fits = fits,
     .parameters = parameters},
    {.name = "tile.missing_barrier",
     .summary = "as tile.barrier without the barrier",
     .invariant = "Nothing orders a thread's read of its neighbour's tile element with the neighbour's plain "
                  "store: the read may run first and see shared memory nobody wrote, and the two accesses race.",
     .bad_means = kWrong,
     .chapter = {1, 256},
     .quick = Config{1, 4},
     .program = run<tile_missing_barrier>,
     .bad = wrong,
     .expect = {.bad_outcome_permitted = true,
                .required = {FindingKind::data_race, FindingKind::uninitialised_read}},
     .fits = fits,
     .parameters = parameters},
    {.name = "tile.divergent_barrier",
     .summary = "if (i < n) { load; syncthreads(); compute; } with n = 250, not a multiple of the block",
     .invariant = "CUDA C++ requires every thread of the block to execute the same sequence of block barriers. "
                  "Threads 250..255 fail the bounds check and exit without the barrier that threads 0..249 wait "
                  "at: barrier divergence, even though the H200 (and the simulator) lets the barrier complete "
                  "and out comes out right.",
     .bad_means = kWrong,
     .chapter = {.grid = 1, .block = 256, .params = {{"n", 250}}},
     .quick = Config{.grid = 1, .block = 4, .params = {{"n", 3}}},
     .program = run<tile_divergent_barrier>,
     .bad = wrong,
     .expect = {.bad_outcome_permitted = false, .required = {FindingKind::barrier_divergence}},
     .fits = fits,
     .parameters = parameters},
    {.name = "tile.bounds_participate",
     .summary = "bounds check around load and compute only, n = 250: every thread reaches syncthreads()",
     .invariant = "Every thread of the block executes the one barrier; the threads with i < n store their "
                  "element before it and read their neighbour's after it, and the neighbour (k + 1) % n is "
                  "always below n, so each read returns an element stored before the barrier.",
     .bad_means = kWrong,
     .chapter = {.grid = 1, .block = 256, .params = {{"n", 250}}},
     .quick = Config{.grid = 1, .block = 8, .params = {{"n", 6}}},
     .program = run<tile_bounds_participate>,
     .bad = wrong,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 1,
     .fits = fits,
     .parameters = parameters},
    {.name = "tile.syncwarp_across_warps",
     .summary = "syncwarp() instead of syncthreads(); lane 31's neighbour is lane 0 of the next warp",
     .invariant = "syncwarp orders memory only among the lanes of the calling warp. Thread 31 reads tile[32], "
                  "stored by a thread of warp 1 that does not take part in warp 0's syncwarp: the read is "
                  "unordered with that store (a race) and may return shared memory nobody wrote yet.",
     .bad_means = kWrong,
     .chapter = {1, 256},
     .quick = Config{1, 64},
     .program = run<tile_syncwarp<Neighbour::next>>,
     .bad = wrong,
     .expect = {.bad_outcome_permitted = true,
                .required = {FindingKind::data_race, FindingKind::uninitialised_read}},
     .fits = fits,
     .parameters = parameters},
    {.name = "tile.warp_local",
     .summary = "syncwarp() with the neighbour in the same warp (the next lane, wrapping at 32)",
     .invariant = "Each read of a neighbour's element follows a syncwarp in which the neighbour, a lane of the "
                  "same warp, took part after its store: syncwarp makes the participants' earlier accesses "
                  "visible to each other, so every read returns the stored element.",
     .bad_means = kWrong,
     .chapter = {1, 256},
     .quick = Config{1, 32},
     .program = run<tile_syncwarp<Neighbour::next_in_warp>, Neighbour::next_in_warp>,
     .bad = wrong,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 1,
     .fits = fits,
     .parameters = parameters},
};

}  // namespace scopesim::models::tile
