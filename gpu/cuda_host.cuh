// The host side of the kernel dialect on a real GPU. A model's own host
// program (models' `program`) drives `instances` independent copies of itself
// at once: every device_alloc is one cell array with a slot per instance, every
// host_write fills every slot, every launch runs the kernel once per instance in
// one physical launch, every observe gathers every instance's value. With one
// instance and no permutation it is the plain CUDA program the model describes.
//
// Invariants (kept by Host, gpu/host.cu):
// - a pointer the host program holds is the address of instance 0's cell
//   (slot 0); the launch wrapper rebases every kernel argument word that points
//   into an allocation to the instance's slot (pointers and structs of pointers;
//   pointers stored in device memory are not rebased);
// - every physical block plays exactly one (instance, logical block) or none,
//   and each instance's blocks all lie in one window of physical blocks small
//   enough to be resident together (so a waiting block's partner is dispatched);
// - memory is zero before each round's host program, as cudaMalloc+cudaMemset
//   leave it for a single run.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/core/outcome.hpp"

namespace scopesim::gpu {

inline constexpr unsigned kMaxAllocations = 16;

// One device allocation as the launch wrapper rebases it: instance `slot`'s
// cells are at base + slot * stride (stride >= size).
struct Allocation {
  char* base = nullptr;
  std::size_t size = 0;
  std::size_t stride = 0;
};

// What the launch wrapper needs, passed by value as the first kernel argument.
struct LaunchContext {
  const int* table = nullptr;  // physical block -> slot * blocks + logical block, kIdleBlock or kStressBlock
  unsigned blocks = 1;         // logical blocks per instance
  dim3 grid;                   // logical grid
  int* timed_out = nullptr;    // per slot
  unsigned* smid = nullptr;    // per (slot, logical block): the SM that ran it
  long long budget = 0;        // spin budget in SM clock cycles
  unsigned seed = 0;
  bool permute_warps = false;
  unsigned* scratch = nullptr;  // stress blocks' memory (scratch_mask + 1 words)
  unsigned scratch_mask = 0;
  unsigned stress_iterations = 0;
  unsigned allocations = 0;
  Allocation allocation[kMaxAllocations];
};

inline constexpr int kIdleBlock = -1;
inline constexpr int kStressBlock = -2;

// How the harness runs a model (gpu/README.md explains each technique).
struct HarnessOptions {
  unsigned instances = 1;       // instances per launch
  double timeout_ms = 2;        // spin budget of an instance (from its block's start)
  unsigned stress_blocks = 0;   // stress blocks in each window of instances (0: none)
  bool permute_blocks = false;  // random (instance, logical block) -> physical block, within windows
  bool permute_warps = false;   // random logical warp -> physical warp, within each block
  std::vector<std::string> layouts{"dense"};  // per round in turn: "dense" (slots adjacent), "line" (a cache line each)
  std::uint64_t seed = 1;
};

// One distinct outcome of the histogram.
struct OutcomeCount {
  Outcome outcome;                     // empty and `terminated` false: did not terminate
  bool terminated = true;
  std::vector<std::uint64_t> by_layout;  // parallel to HarnessOptions::layouts
  std::uint64_t count() const {
    std::uint64_t n = 0;
    for (std::uint64_t c : by_layout) n += c;
    return n;
  }
};

struct Histogram {
  std::vector<OutcomeCount> outcomes;  // in order of first appearance
  std::uint64_t instances = 0;
  std::uint64_t rounds = 0;
  std::uint64_t multi_block_instances = 0;   // instances whose launch has more than one block
  std::uint64_t distinct_sm_instances = 0;   // of those, every block on its own SM
};

}  // namespace scopesim::gpu

namespace scopesim::dialect {

class Host {
 public:
  explicit Host(const gpu::HarnessOptions& o = {});
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // ---- what a model's host program does (through the dialect functions below) ----
  void* alloc(std::size_t bytes, std::size_t align);
  gpu::LaunchContext begin_launch(dim3 grid, dim3 block, int blocks_per_sm, unsigned* physical_blocks,
                                  cudaStream_t* stream);
  void end_launch();
  void synchronize();
  void observe(const char* name, ValueType t, const void* cell, std::size_t size);
  void write(void* cell, const void* value, std::size_t size);
  // Every instance's `bytes` at `src` to the same instance's `dst`, on the
  // harness's stream.
  void copy(void* dst, const void* src, std::size_t bytes);

  // ---- what the harness driver does around each run of the host program ----
  void begin_round();
  void end_round();  // tallies the round's outcomes into histogram()
  const gpu::Histogram& histogram() const;

  // The host whose program is running (host_write names no host): the most
  // recently constructed one that still exists.
  static Host& current();

  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }

 private:
  struct State;
  std::unique_ptr<State> s_;
};

namespace detail {

__device__ inline std::uintptr_t rebase_word(std::uintptr_t w, const gpu::LaunchContext& k, unsigned slot) {
  for (unsigned i = 0; i < k.allocations; ++i) {
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(k.allocation[i].base);
    if (w - base < k.allocation[i].size) return w + slot * k.allocation[i].stride;
  }
  return w;
}

// A kernel argument as instance `slot` sees it.
template <class T>
__device__ inline T rebase(T a, const gpu::LaunchContext& k, unsigned slot) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(rebase_word(reinterpret_cast<std::uintptr_t>(a), k, slot));
  } else if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) % 8 == 0 && alignof(T) >= 8) {
    std::uintptr_t w[sizeof(T) / 8];
    std::memcpy(w, &a, sizeof(T));
    for (std::uintptr_t& x : w) x = rebase_word(x, k, slot);
    std::memcpy(&a, w, sizeof(T));
    return a;
  } else {
    return a;
  }
}

// A stress block: loads and stores over unrelated memory, spread over cache
// lines, for a bounded number of iterations.
__device__ inline void stress_block(const gpu::LaunchContext& k) {
  unsigned x = k.seed ^ ((blockIdx.x * blockDim.x + threadIdx.x) * 0x9e3779b9u) ^ 0x27d4eb2du;
  unsigned sink = 0;
  for (unsigned it = 0; it < k.stress_iterations; ++it) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    k.scratch[x & k.scratch_mask] += 1;
    sink += k.scratch[(x >> 7) & k.scratch_mask];
  }
  if (sink == 0xffffffffu) k.scratch[0] = sink;  // keeps the loads
}

// The launch wrapper: finds the (instance, logical block) this physical block
// plays, sets up its logical coordinates (cuda_backend.hpp) and runs the
// model's kernel with the instance's arguments.
template <auto Kernel, class... Args>
__global__ void entry(gpu::LaunchContext k, Args... args) {
  const int e = k.table[blockIdx.x];
  if (e == gpu::kStressBlock) {
    stress_block(k);
    return;
  }
  if (e < 0) return;  // the whole block is idle
  const unsigned slot = static_cast<unsigned>(e) / k.blocks;
  const unsigned b = static_cast<unsigned>(e) % k.blocks;
  harness::BlockContext& c = harness::block_context();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    c.block = uint3{b % k.grid.x, b / k.grid.x % k.grid.y, b / (k.grid.x * k.grid.y)};
    c.grid = k.grid;
    c.budget = k.budget;
    c.timed_out = k.timed_out + slot;
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    const unsigned warps = (threads + 31) / 32;
    for (unsigned w = 0; w < warps; ++w) c.warp_of[w] = static_cast<unsigned char>(w);
    if (k.permute_warps) {
      unsigned x = k.seed ^ (blockIdx.x * 0x9e3779b9u) ^ 0x85ebca6bu;
      for (unsigned w = threads / 32; w > 1; --w) {  // full warps only
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        const unsigned j = x % w;
        const unsigned char t = c.warp_of[w - 1];
        c.warp_of[w - 1] = c.warp_of[j];
        c.warp_of[j] = t;
      }
    }
    if (k.smid != nullptr) {
      unsigned id;
      asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
      k.smid[e] = id;
    }
    c.start = clock64();
  }
  __syncthreads();
  Kernel(rebase(args, k, slot)...);
}

template <class T>
constexpr ValueType type_of() {
  if constexpr (std::is_same_v<T, float>) return ValueType::f32;
  else if constexpr (std::is_same_v<T, double>) return ValueType::f64;
  else if constexpr (sizeof(T) <= 4) return std::is_signed_v<T> ? ValueType::i32 : ValueType::u32;
  else return std::is_signed_v<T> ? ValueType::i64 : ValueType::u64;
}

}  // namespace detail

template <class T>
T* device_alloc(Host& h, const char* name, std::size_t count = 1) {
  // As the simulator's: a byte count past a size_t is refused, never wrapped.
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw std::length_error(std::string("allocation of ") + std::to_string(count) + " elements for " + name +
                            ": more bytes than memory has");
  return static_cast<T*>(h.alloc(sizeof(T) * count, alignof(T)));
}
template <auto Kernel, class... Args>
void launch(Host& h, const char*, dim3 grid, dim3 block, Args... args) {
  auto* kernel = detail::entry<Kernel, Args...>;
  static int threads = -1, per_sm = 0;  // per kernel: the last block size asked about
  if (threads != static_cast<int>(block.x * block.y * block.z)) {
    threads = static_cast<int>(block.x * block.y * block.z);
    Host::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  }
  unsigned physical = 0;
  cudaStream_t stream = nullptr;
  const gpu::LaunchContext k = h.begin_launch(grid, block, per_sm, &physical, &stream);
  kernel<<<physical, block, 0, stream>>>(k, args...);
  h.end_launch();
}
inline void device_synchronize(Host& h) { h.synchronize(); }

// Streams and events. The harness runs every instance's work on its own one
// stream, in the order the host program enqueues it: one execution among
// those that the program's streams permit (never one they forbid). Host memory
// is device memory with a slot per instance: the host program only writes and
// observes it, as it does device memory.
struct stream_t {};
struct event_t {};
template <class T>
T* host_alloc(Host& h, const char* name, std::size_t count = 1) {
  return device_alloc<T>(h, name, count);
}
template <auto Kernel, class... Args>
void launch(Host& h, const char* name, dim3 grid, dim3 block, stream_t, Args... args) {
  launch<Kernel>(h, name, grid, block, args...);
}
inline stream_t stream_create(Host&) { return {}; }
inline event_t event_create(Host&) { return {}; }
template <class T>
void memcpy_async(Host& h, T* dst, const T* src, std::size_t count, stream_t = {}) {
  h.copy(dst, src, sizeof(T) * count);
}
inline void event_record(Host&, event_t, stream_t = {}) {}
inline void stream_wait_event(Host&, stream_t, event_t) {}
inline void stream_synchronize(Host& h, stream_t) { h.synchronize(); }
inline void event_synchronize(Host& h, event_t) { h.synchronize(); }
template <class T>
void observe(Host& h, const char* name, const T& device_cell) {
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8, "observe reads scalars of up to 8 bytes");
  h.observe(name, detail::type_of<T>(), &device_cell, sizeof(T));
}
template <class T>
void host_write(T& device_cell, T v) {
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8, "host_write writes scalars of up to 8 bytes");
  Host::current().write(&device_cell, &v, sizeof(T));
}

}  // namespace scopesim::dialect
