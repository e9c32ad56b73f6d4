// The harness host (gpu/cuda_host.cuh): allocations with one slot per
// instance, the window permutation tables with their stress blocks, and
// the per-round tally of every instance's outcome into one histogram.
#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>
#include <random>
#include <thread>
#include <unordered_map>

#include "models/dialect/dialect.hpp"

namespace scopesim::dialect {

namespace {

constexpr std::size_t kLine = 128;  // bytes in an L1/L2 cache line
constexpr unsigned kTables = 4;     // permutation tables per launch shape, used in turn
constexpr double kHangSeconds = 60;  // a launch still running after this is a hang

Host* g_current = nullptr;

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// ---- device helpers ----

__global__ void fill(char* base, std::size_t stride, unsigned n, std::uint64_t bits, unsigned size) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  char* p = base + i * stride;
  switch (size) {
    case 1: *reinterpret_cast<std::uint8_t*>(p) = static_cast<std::uint8_t>(bits); break;
    case 2: *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(bits); break;
    case 4: *reinterpret_cast<std::uint32_t*>(p) = static_cast<std::uint32_t>(bits); break;
    default: *reinterpret_cast<std::uint64_t*>(p) = bits; break;
  }
}

__global__ void gather(const char* base, std::size_t stride, unsigned n, unsigned size, std::uint64_t* column) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const char* p = base + i * stride;
  std::uint64_t v = 0;
  switch (size) {
    case 1: v = *reinterpret_cast<const std::uint8_t*>(p); break;
    case 2: v = *reinterpret_cast<const std::uint16_t*>(p); break;
    case 4: v = *reinterpret_cast<const std::uint32_t*>(p); break;
    default: v = *reinterpret_cast<const std::uint64_t*>(p); break;
  }
  column[i] = v;
}

struct Slot {
  unsigned long long key;
  unsigned long long count;
  unsigned rep;
  unsigned pad;
};

struct Counters {
  unsigned used;
  unsigned timeouts;
  unsigned distinct;
  unsigned pad;
};

__device__ unsigned long long mix(unsigned long long h, unsigned long long v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 31);
}

// Every instance's outcome into an open-addressing table (size a power of two,
// at least twice the instances, so it never fills), one atomic per group of
// lanes with the same outcome.
__global__ void tally(const std::uint64_t* columns, unsigned k, unsigned n, const int* timed_out,
                      const unsigned* smid, unsigned blocks, Slot* table, unsigned mask, unsigned* used_list,
                      Counters* counters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool live = i < n;
  const bool timeout = live && timed_out[i] != 0;
  unsigned long long h = 0;
  if (live && !timeout) {
    h = 0x51ed270b27a8d3c1ull;
    for (unsigned j = 0; j < k; ++j) h = mix(h, columns[static_cast<std::size_t>(j) * n + i]);
    if (h == 0) h = 1;
  }
  const unsigned lanes = __ballot_sync(0xffffffffu, live && !timeout);
  if (live && !timeout) {
    const unsigned same = __match_any_sync(lanes, h);
    const unsigned lane = threadIdx.x % 32;
    if (static_cast<unsigned>(__ffs(same) - 1) == lane) {
      unsigned idx = static_cast<unsigned>(h) & mask;
      for (;;) {
        const unsigned long long prev = atomicCAS(&table[idx].key, 0ull, h);
        if (prev == 0) {
          table[idx].rep = i;
          used_list[atomicAdd(&counters->used, 1u)] = idx;
        }
        if (prev == 0 || prev == h) {
          atomicAdd(&table[idx].count, static_cast<unsigned long long>(__popc(same)));
          break;
        }
        idx = (idx + 1) & mask;
      }
    }
  }
  if (timeout) atomicAdd(&counters->timeouts, 1u);
  if (live && blocks > 1 && smid != nullptr) {
    const unsigned b = blocks < 32 ? blocks : 32;
    bool distinct = true;
    for (unsigned a = 1; a < b; ++a)
      for (unsigned c = 0; c < a; ++c)
        if (smid[static_cast<std::size_t>(i) * blocks + a] == smid[static_cast<std::size_t>(i) * blocks + c])
          distinct = false;
    if (distinct) atomicAdd(&counters->distinct, 1u);
  }
}

// The used slots, packed, with their representative instance's values.
__global__ void pack(const Slot* table, const unsigned* used_list, const Counters* counters,
                     const std::uint64_t* columns, unsigned k, unsigned n, Slot* out, std::uint64_t* values) {
  const unsigned used = counters->used;
  for (unsigned p = blockIdx.x * blockDim.x + threadIdx.x; p < used; p += gridDim.x * blockDim.x) {
    const Slot s = table[used_list[p]];
    out[p] = s;
    for (unsigned j = 0; j < k; ++j) values[static_cast<std::size_t>(p) * k + j] = columns[static_cast<std::size_t>(j) * n + s.rep];
  }
}

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  std::size_t n = 0;
  void ensure(std::size_t count) {
    if (count <= n) return;
    if (p != nullptr) cudaFree(p);
    p = nullptr;
    Host::check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
    n = count;
  }
  ~DeviceBuffer() {
    if (p != nullptr) cudaFree(p);
  }
};

unsigned grid_for(unsigned n) { return (n + 255) / 256; }

}  // namespace

struct Host::State {
  gpu::HarnessOptions o;
  cudaStream_t stream = nullptr;
  int sms = 1;
  double clock_khz = 1e6;

  struct Alloc {
    char* base = nullptr;
    std::size_t size = 0;
    std::size_t dense = 0;  // stride of the dense layout
    std::size_t line = 0;   // stride of the line layout
  };
  std::vector<Alloc> allocs;
  std::size_t cursor = 0;  // allocations made in this round

  // Permutation tables per launch shape (logical blocks, window blocks).
  struct Tables {
    std::vector<int*> device;
    unsigned physical = 0;
  };
  std::map<std::pair<unsigned, unsigned>, Tables> tables;

  std::uint64_t round = 0;
  unsigned layout = 0;
  unsigned launch_blocks = 1;  // logical blocks of the round's (last) launch

  DeviceBuffer<int> timed_out;
  DeviceBuffer<unsigned> smid;
  DeviceBuffer<std::uint64_t> all_columns;  // column j (observation j): n values from j * n
  struct Observation {
    std::string name;
    ValueType type;
  };
  std::vector<Observation> observed;
  std::vector<Observation> first_round_observed;

  DeviceBuffer<Slot> table;
  DeviceBuffer<unsigned> used_list;
  DeviceBuffer<Counters> counters;
  DeviceBuffer<Slot> packed;
  DeviceBuffer<std::uint64_t> packed_values;

  DeviceBuffer<unsigned> scratch;

  gpu::Histogram histogram;
  std::unordered_map<unsigned long long, std::size_t> index;  // key -> outcome
  std::size_t timeout_index = static_cast<std::size_t>(-1);

  unsigned n() const { return o.instances; }
  std::size_t stride(const Alloc& a) const { return o.layouts[layout] == "line" ? a.line : a.dense; }

  const Alloc& find(const void* cell, std::size_t size, std::size_t* offset) const {
    const char* p = static_cast<const char*>(cell);
    for (const Alloc& a : allocs) {
      if (p >= a.base && p + size <= a.base + a.size) {
        *offset = static_cast<std::size_t>(p - a.base);
        return a;
      }
    }
    throw std::runtime_error("the host program names memory that no device_alloc of this round returned");
  }

};

Host::Host(const gpu::HarnessOptions& o) : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.o = o;
  if (s.o.instances == 0) s.o.instances = 1;
  if (s.o.layouts.empty()) s.o.layouts = {"dense"};
  for (const std::string& l : s.o.layouts)
    if (l != "dense" && l != "line") throw std::runtime_error("unknown layout '" + l + "' (dense, line)");
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&s.sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  int khz = 0;
  check(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device), "cudaDeviceGetAttribute");
  s.clock_khz = khz > 0 ? khz : 2e6;
  check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const unsigned n = s.n();
  s.timed_out.ensure(n);
  unsigned table_size = 1;
  while (table_size < 2 * n) table_size *= 2;
  s.table.ensure(table_size);
  s.used_list.ensure(n);
  s.counters.ensure(1);
  s.packed.ensure(n);
  if (s.o.stress_blocks > 0) {
    s.scratch.ensure(std::size_t{1} << 24);  // 64 MiB: more than the L2
    check(cudaMemset(s.scratch.p, 0, s.scratch.n * sizeof(unsigned)), "cudaMemset");
  }
  g_current = this;
}

Host::~Host() {
  State& s = *s_;
  cudaStreamSynchronize(s.stream);
  for (auto& [shape, t] : s.tables)
    for (int* p : t.device) cudaFree(p);
  for (auto& a : s.allocs) cudaFree(a.base);
  cudaStreamDestroy(s.stream);
  if (g_current == this) g_current = nullptr;
}

Host& Host::current() {
  if (g_current == nullptr) throw std::runtime_error("host_write outside a host program");
  return *g_current;
}

const gpu::Histogram& Host::histogram() const { return s_->histogram; }

void* Host::alloc(std::size_t bytes, std::size_t align) {
  State& s = *s_;
  if (bytes == 0) bytes = 1;
  if (s.cursor == s.allocs.size()) {
    if (s.allocs.size() == gpu::kMaxAllocations)
      throw std::runtime_error("more than " + std::to_string(gpu::kMaxAllocations) + " device allocations");
    State::Alloc a;
    a.size = bytes;
    a.dense = round_up(bytes, std::max<std::size_t>(align, 1));
    a.line = round_up(bytes, kLine);
    check(cudaMalloc(&a.base, s.n() * std::max(a.dense, a.line)), "cudaMalloc");
    s.allocs.push_back(a);
  } else if (s.allocs[s.cursor].size != bytes) {
    throw std::runtime_error("the host program allocates differently from one round to the next");
  }
  const State::Alloc& a = s.allocs[s.cursor++];
  check(cudaMemsetAsync(a.base, 0, s.n() * s.stride(a), s.stream), "cudaMemsetAsync");
  return a.base;
}

void Host::copy(void* dst, const void* src, std::size_t bytes) {
  State& s = *s_;
  std::size_t dst_offset = 0, src_offset = 0;
  const State::Alloc& d = s.find(dst, bytes, &dst_offset);
  const State::Alloc& from = s.find(src, bytes, &src_offset);
  check(cudaMemcpy2DAsync(d.base + dst_offset, s.stride(d), from.base + src_offset, s.stride(from), bytes, s.n(),
                          cudaMemcpyDeviceToDevice, s.stream),
        "cudaMemcpy2DAsync");
}

void Host::write(void* cell, const void* value, std::size_t size) {
  State& s = *s_;
  std::size_t offset = 0;
  const State::Alloc& a = s.find(cell, size, &offset);
  std::uint64_t bits = 0;
  std::memcpy(&bits, value, size);
  fill<<<grid_for(s.n()), 256, 0, s.stream>>>(a.base + offset, s.stride(a), s.n(), bits, static_cast<unsigned>(size));
  check(cudaGetLastError(), "fill");
}

void Host::observe(const char* name, ValueType t, const void* cell, std::size_t size) {
  State& s = *s_;
  std::size_t offset = 0;
  const State::Alloc& a = s.find(cell, size, &offset);
  const std::size_t j = s.observed.size();
  s.observed.push_back({name, t});
  const std::size_t need = (j + 1) * static_cast<std::size_t>(s.n());
  if (s.all_columns.n < need) {  // grow, keeping the columns gathered so far
    DeviceBuffer<std::uint64_t> bigger;
    bigger.ensure(std::max(need, 2 * s.all_columns.n));
    if (j > 0)
      check(cudaMemcpyAsync(bigger.p, s.all_columns.p, j * s.n() * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice,
                            s.stream),
            "cudaMemcpyAsync");
    check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
    std::swap(bigger.p, s.all_columns.p);
    std::swap(bigger.n, s.all_columns.n);
  }
  gather<<<grid_for(s.n()), 256, 0, s.stream>>>(a.base + offset, s.stride(a), s.n(), static_cast<unsigned>(size),
                                                s.all_columns.p + j * s.n());
  check(cudaGetLastError(), "gather");
}

gpu::LaunchContext Host::begin_launch(dim3 grid, dim3 block, int blocks_per_sm, unsigned* physical,
                                      cudaStream_t* stream) {
  State& s = *s_;
  const unsigned blocks = grid.x * grid.y * grid.z;
  if (blocks == 0 || block.x * block.y * block.z == 0) throw std::runtime_error("empty launch");
  if (static_cast<unsigned long long>(blocks) * s.n() > 0x7fffffffull)
    throw std::runtime_error("too many blocks for one launch: lower --per-launch");
  s.launch_blocks = blocks;
  // A window holds the blocks of whole instances and at most half of what can
  // be resident at once, so an instance's blocks are dispatched close together.
  const unsigned capacity = static_cast<unsigned>(std::max(1, blocks_per_sm) * s.sms);
  const unsigned stress = s.o.stress_blocks;
  const unsigned window_instances =
      std::min(s.n(), std::max(1u, (capacity / 2 > stress ? capacity / 2 - stress : 0) / blocks));
  const auto shape = std::make_pair(blocks, window_instances);
  State::Tables& t = s.tables[shape];
  if (t.device.empty()) {
    const unsigned n = s.n();
    const unsigned windows = (n + window_instances - 1) / window_instances;
    const unsigned per_window = window_instances * blocks + stress;
    t.physical = windows * per_window;
    std::mt19937_64 rng(s.o.seed * 1000003u + blocks);
    const unsigned count = s.o.permute_blocks ? kTables : 1;
    for (unsigned r = 0; r < count; ++r) {
      std::vector<int> entries(t.physical, gpu::kIdleBlock);
      for (unsigned w = 0; w < windows; ++w) {
        int* first = entries.data() + static_cast<std::size_t>(w) * per_window;
        for (unsigned i = 0; i < window_instances; ++i) {
          const unsigned slot = w * window_instances + i;
          if (slot >= n) break;
          for (unsigned b = 0; b < blocks; ++b) first[i * blocks + b] = static_cast<int>(slot * blocks + b);
        }
        for (unsigned i = 0; i < stress; ++i) first[window_instances * blocks + i] = gpu::kStressBlock;
        if (s.o.permute_blocks) std::shuffle(first, first + per_window, rng);
      }
      int* d = nullptr;
      check(cudaMalloc(&d, entries.size() * sizeof(int)), "cudaMalloc");
      check(cudaMemcpy(d, entries.data(), entries.size() * sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy");
      t.device.push_back(d);
    }
  }
  s.smid.ensure(static_cast<std::size_t>(s.n()) * blocks);

  gpu::LaunchContext k;
  k.table = t.device[s.round % t.device.size()];
  k.blocks = blocks;
  k.grid = grid;
  k.timed_out = s.timed_out.p;
  k.smid = s.smid.p;
  k.budget = static_cast<long long>(s.o.timeout_ms * s.clock_khz);
  k.seed = static_cast<unsigned>(s.o.seed * 0x9e3779b9u + s.round * 0x85ebca6bu);
  k.permute_warps = s.o.permute_warps;
  if (stress > 0) {
    k.scratch = s.scratch.p;
    k.scratch_mask = static_cast<unsigned>(s.scratch.n - 1);
    k.stress_iterations = 64;
  }
  k.allocations = static_cast<unsigned>(s.allocs.size());
  for (std::size_t i = 0; i < s.allocs.size(); ++i)
    k.allocation[i] = gpu::Allocation{s.allocs[i].base, s.allocs[i].size, s.stride(s.allocs[i])};
  *physical = t.physical;
  *stream = s.stream;

  return k;
}

void Host::end_launch() { check(cudaGetLastError(), "kernel launch"); }

void Host::synchronize() {
  State& s = *s_;
  // Poll, so that a launch that never ends is reported instead of waited for.
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const cudaError_t e = cudaStreamQuery(s.stream);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) check(e, "kernel");
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > kHangSeconds)
      throw std::runtime_error("a launch did not finish within " + std::to_string(static_cast<int>(kHangSeconds)) +
                               " s (a spin the harness cannot time out)");
    std::this_thread::yield();
  }
}

void Host::begin_round() {
  State& s = *s_;
  s.cursor = 0;
  s.observed.clear();
  s.layout = static_cast<unsigned>(s.round % s.o.layouts.size());
  check(cudaMemsetAsync(s.timed_out.p, 0, s.n() * sizeof(int), s.stream), "cudaMemsetAsync");
}

void Host::end_round() {
  State& s = *s_;
  if (s.round == 0) {
    s.first_round_observed = s.observed;
  } else if (s.observed.size() != s.first_round_observed.size()) {
    throw std::runtime_error("the host program observes differently from one round to the next");
  }
  const unsigned n = s.n();
  const unsigned k = static_cast<unsigned>(s.observed.size());
  check(cudaMemsetAsync(s.table.p, 0, s.table.n * sizeof(Slot), s.stream), "cudaMemsetAsync");
  check(cudaMemsetAsync(s.counters.p, 0, sizeof(Counters), s.stream), "cudaMemsetAsync");
  const std::uint64_t* columns = k > 0 ? s.all_columns.p : nullptr;
  tally<<<grid_for(n), 256, 0, s.stream>>>(columns, k, n, s.timed_out.p, s.smid.p, s.launch_blocks, s.table.p,
                                           static_cast<unsigned>(s.table.n - 1), s.used_list.p, s.counters.p);
  check(cudaGetLastError(), "tally");
  s.packed_values.ensure(std::max<std::size_t>(1, static_cast<std::size_t>(n) * k));
  pack<<<64, 256, 0, s.stream>>>(s.table.p, s.used_list.p, s.counters.p, columns, k, n, s.packed.p,
                                 s.packed_values.p);
  check(cudaGetLastError(), "pack");
  Counters c{};
  check(cudaMemcpyAsync(&c, s.counters.p, sizeof c, cudaMemcpyDeviceToHost, s.stream), "cudaMemcpy");
  check(cudaStreamSynchronize(s.stream), "tally");
  std::vector<Slot> slots(c.used);
  std::vector<std::uint64_t> values(static_cast<std::size_t>(c.used) * k);
  if (c.used > 0) {
    check(cudaMemcpy(slots.data(), s.packed.p, c.used * sizeof(Slot), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (k > 0)
      check(cudaMemcpy(values.data(), s.packed_values.p, values.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost),
            "cudaMemcpy");
  }
  gpu::Histogram& h = s.histogram;
  const std::size_t layouts = s.o.layouts.size();
  for (unsigned p = 0; p < c.used; ++p) {
    auto [it, fresh] = s.index.try_emplace(slots[p].key, h.outcomes.size());
    if (fresh) {
      gpu::OutcomeCount oc;
      for (unsigned j = 0; j < k; ++j)
        oc.outcome.add(s.observed[j].name, s.observed[j].type, values[static_cast<std::size_t>(p) * k + j]);
      oc.by_layout.assign(layouts, 0);
      h.outcomes.push_back(std::move(oc));
    }
    h.outcomes[it->second].by_layout[s.layout] += slots[p].count;
  }
  if (c.timeouts > 0) {
    if (s.timeout_index == static_cast<std::size_t>(-1)) {
      s.timeout_index = h.outcomes.size();
      gpu::OutcomeCount oc;
      oc.terminated = false;
      oc.by_layout.assign(layouts, 0);
      h.outcomes.push_back(std::move(oc));
    }
    h.outcomes[s.timeout_index].by_layout[s.layout] += c.timeouts;
  }
  h.instances += n;
  h.rounds += 1;
  if (s.launch_blocks > 1) {
    h.multi_block_instances += n;
    h.distinct_sm_instances += c.distinct;
  }
  s.round += 1;
}

}  // namespace scopesim::dialect
