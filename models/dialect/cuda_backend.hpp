// CUDA backend of the kernel dialect: every name is the CUDA one, with zero
// overhead. The host side (allocation, launch, observation) is gpu/cuda_host.cuh.
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
template <class T, thread_scope S = thread_scope_system>
using atomic_ref = cuda::atomic_ref<T, S>;

__device__ inline uint3 thread_idx() { return threadIdx; }
__device__ inline uint3 block_idx() { return blockIdx; }
__device__ inline dim3 block_dim() { return blockDim; }
__device__ inline dim3 grid_dim() { return gridDim; }

template <class T>
__device__ inline T atomic_add(T* p, T v) { return atomicAdd(p, v); }
template <class T>
__device__ inline T atomic_sub(T* p, T v) { return atomicSub(p, v); }
template <class T>
__device__ inline T atomic_exch(T* p, T v) { return atomicExch(p, v); }
template <class T>
__device__ inline T atomic_max(T* p, T v) { return atomicMax(p, v); }
template <class T>
__device__ inline T atomic_min(T* p, T v) { return atomicMin(p, v); }
template <class T>
__device__ inline T atomic_cas(T* p, T expected, T desired) { return atomicCAS(p, expected, desired); }

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
