// The kernel dialect: CUDA names, one source, two backends. Under nvcc every
// name is the CUDA one (cuda_backend.hpp); in the host build every operation
// is an event handed to the simulator (sim_backend.hpp). Models include only
// this header and write `using namespace scopesim::dialect;`.
#pragma once

#include <cuda/atomic>
#include <cuda/std/atomic>

namespace scopesim::dialect {
// Scope and order are libcu++'s own enumerations on both backends.
using cuda::thread_scope;
inline constexpr thread_scope thread_scope_thread = cuda::thread_scope_thread;
inline constexpr thread_scope thread_scope_block = cuda::thread_scope_block;
inline constexpr thread_scope thread_scope_device = cuda::thread_scope_device;
inline constexpr thread_scope thread_scope_system = cuda::thread_scope_system;
using cuda::std::memory_order;
inline constexpr memory_order memory_order_relaxed = cuda::std::memory_order_relaxed;
inline constexpr memory_order memory_order_acquire = cuda::std::memory_order_acquire;
inline constexpr memory_order memory_order_release = cuda::std::memory_order_release;
inline constexpr memory_order memory_order_acq_rel = cuda::std::memory_order_acq_rel;
inline constexpr memory_order memory_order_seq_cst = cuda::std::memory_order_seq_cst;
}  // namespace scopesim::dialect

#if defined(__CUDACC__)
#include "models/dialect/cuda_backend.hpp"
#else
#include "models/dialect/sim_backend.hpp"
#endif
