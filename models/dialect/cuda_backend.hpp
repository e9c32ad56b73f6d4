// CUDA backend of the kernel dialect: every name is the CUDA one. The host
// side (allocation, launch, observation) is gpu/cuda_host.cuh.
//
// In the GPU testing harness (SCOPESIM_GPU_HARNESS, gpu/README.md) one launch
// runs many instances of a model: the launch wrapper (gpu/cuda_host.cuh) puts
// each physical block's logical coordinates in a per-block context, and
// thread_idx()/block_idx()/grid_dim() return those, so a kernel sees the launch
// it was written for. Two more things change there, and only there:
// - atomic loads, exchanges and compare-exchanges check the instance's spin
//   budget after the access (a clock read and a shared-memory read: no global
//   memory access is added); a thread over budget marks its instance "did not
//   terminate" and exits;
// - nothing else: stores, fences, barriers and plain accesses are CUDA's own.
#pragma once
#include <cstddef>
#include <cstdint>

#define SCOPESIM_KERNEL __device__
#define SCOPESIM_DEVICE __device__
#define SCOPESIM_HOST_DEVICE __host__ __device__
#define SCOPESIM_SHARED(T, name) __shared__ T name

namespace scopesim::dialect {

template <class T>
using plain = T;

namespace harness {

// The per-block context of one physical block in the harness. Written by the
// block's first thread before a barrier at block start (gpu/cuda_host.cuh) and
// only read afterwards. Invariant: warp_of is a permutation of the block's
// full warps (a partial last warp maps to itself), so block and warp
// membership of every logical thread is that of a physical one.
struct BlockContext {
  uint3 block;                 // logical blockIdx
  dim3 grid;                   // logical gridDim
  long long start;             // clock64() at block start
  long long budget;            // spin budget in SM clock cycles
  int* timed_out;              // the instance's "did not terminate" flag
  unsigned char warp_of[32];   // physical warp -> logical warp
};

__device__ inline BlockContext& block_context() {
  __shared__ BlockContext context;
  return context;
}

#if defined(SCOPESIM_GPU_HARNESS)
// After an access that a spin loop may repeat: past the budget the instance
// counts as "did not terminate" and this thread stops.
__device__ inline void spin_check() {
  const BlockContext& c = block_context();
  if (clock64() - c.start > c.budget) {
    *reinterpret_cast<volatile int*>(c.timed_out) = 1;
    asm volatile("exit;");
  }
}

__device__ inline uint3 logical_thread() {
  const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned logical = block_context().warp_of[linear / 32] * 32u + linear % 32;
  return uint3{logical % blockDim.x, logical / blockDim.x % blockDim.y, logical / (blockDim.x * blockDim.y)};
}
#else
__device__ inline void spin_check() {}
#endif
// After an atomic access: the spin check on the device; nothing in host code
// (a host program may use atomic_ref on mapped memory).
__host__ __device__ inline void after_access() {
#if defined(__CUDA_ARCH__)
  spin_check();
#endif
}

}  // namespace harness

#if defined(SCOPESIM_GPU_HARNESS)
// cuda::atomic_ref with the harness's spin budget on the accesses a spin loop repeats.
template <class T, thread_scope S = thread_scope_system>
struct atomic_ref : cuda::atomic_ref<T, S> {
  using base = cuda::atomic_ref<T, S>;
  __host__ __device__ explicit atomic_ref(T& cell) : base(cell) {}
  __host__ __device__ T load(memory_order o = memory_order_seq_cst) const noexcept {
    const T v = base::load(o);
    harness::after_access();
    return v;
  }
  __host__ __device__ operator T() const noexcept { return load(); }
  __host__ __device__ T exchange(T v, memory_order o = memory_order_seq_cst) const noexcept {
    const T old = base::exchange(v, o);
    harness::after_access();
    return old;
  }
  __host__ __device__ bool compare_exchange_strong(T& expected, T desired, memory_order o = memory_order_seq_cst) const noexcept {
    const bool done = base::compare_exchange_strong(expected, desired, o);
    harness::after_access();
    return done;
  }
  __host__ __device__ bool compare_exchange_weak(T& expected, T desired, memory_order o = memory_order_seq_cst) const noexcept {
    const bool done = base::compare_exchange_weak(expected, desired, o);
    harness::after_access();
    return done;
  }
};

__device__ inline uint3 thread_idx() { return harness::logical_thread(); }
__device__ inline uint3 block_idx() { return harness::block_context().block; }
__device__ inline dim3 grid_dim() { return harness::block_context().grid; }
#else
template <class T, thread_scope S = thread_scope_system>
using atomic_ref = cuda::atomic_ref<T, S>;

__device__ inline uint3 thread_idx() { return threadIdx; }
__device__ inline uint3 block_idx() { return blockIdx; }
__device__ inline dim3 grid_dim() { return gridDim; }
#endif
__device__ inline dim3 block_dim() { return blockDim; }

template <class T>
__device__ inline T atomic_add(T* p, T v) { return atomicAdd(p, v); }
template <class T>
__device__ inline T atomic_sub(T* p, T v) { return atomicSub(p, v); }
template <class T>
__device__ inline T atomic_exch(T* p, T v) {
  const T old = atomicExch(p, v);
  harness::spin_check();
  return old;
}
template <class T>
__device__ inline T atomic_max(T* p, T v) { return atomicMax(p, v); }
template <class T>
__device__ inline T atomic_min(T* p, T v) { return atomicMin(p, v); }
template <class T>
__device__ inline T atomic_cas(T* p, T expected, T desired) {
  const T old = atomicCAS(p, expected, desired);
  harness::spin_check();
  return old;
}

__device__ inline void atomic_thread_fence(memory_order o, thread_scope s = thread_scope_system) {
  cuda::atomic_thread_fence(o, s);
}
__device__ inline void threadfence_block() { __threadfence_block(); }
__device__ inline void threadfence() { __threadfence(); }
__device__ inline void threadfence_system() { __threadfence_system(); }
__device__ inline void syncthreads() { __syncthreads(); }
__device__ inline void syncwarp(unsigned mask = 0xffffffffu) { __syncwarp(mask); }
template <class T>
__device__ inline T shfl_sync(unsigned mask, T var, int src_lane, int width = 32) { return __shfl_sync(mask, var, src_lane, width); }
template <class T>
__device__ inline T shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32) { return __shfl_down_sync(mask, var, delta, width); }
template <class T>
__device__ inline T shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32) { return __shfl_up_sync(mask, var, delta, width); }
template <class T>
__device__ inline T shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32) { return __shfl_xor_sync(mask, var, lane_mask, width); }
__device__ inline unsigned ballot_sync(unsigned mask, int predicate) { return __ballot_sync(mask, predicate); }

}  // namespace scopesim::dialect

#include "gpu/cuda_host.cuh"
