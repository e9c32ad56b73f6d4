// The host side of the kernel dialect on a real GPU: one instance of a model's
// host program, with device allocations, launches and read-back. Used by the
// nvcc build of every model (so that a kernel which stops compiling for the GPU
// fails the build) and by the GPU smoke run.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/core/outcome.hpp"

namespace scopesim::dialect {

class Host {
 public:
  ~Host() {
    for (cudaStream_t s : streams_) cudaStreamDestroy(s);
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
    for (void* p : allocations_) cudaFree(p);
    for (void* p : host_allocations_) cudaFreeHost(p);
  }
  void* alloc(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    check(cudaMemset(p, 0, bytes), "cudaMemset");
    allocations_.push_back(p);
    return p;
  }
  void* alloc_host(std::size_t bytes) {
    void* p = nullptr;
    check(cudaHostAlloc(&p, bytes, cudaHostAllocMapped), "cudaHostAlloc");
    std::memset(p, 0, bytes);
    host_allocations_.push_back(p);
    return p;
  }
  void keep(cudaStream_t s) { streams_.push_back(s); }
  void keep(cudaEvent_t e) { events_.push_back(e); }
  Outcome outcome;

  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }

 private:
  std::vector<void*> allocations_, host_allocations_;
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> events_;
};

namespace detail {
template <auto Kernel, class... Args>
__global__ void entry(Args... args) {
  Kernel(args...);
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
T* device_alloc(Host& h, const char*, std::size_t count = 1) {
  return static_cast<T*>(h.alloc(sizeof(T) * count));
}
// Mapped pinned host memory: the host, copies and kernels all reach it.
template <class T>
T* host_alloc(Host& h, const char*, std::size_t count = 1) {
  return static_cast<T*>(h.alloc_host(sizeof(T) * count));
}
struct stream_t {
  cudaStream_t id = nullptr;
};
struct event_t {
  cudaEvent_t id = nullptr;
};
template <auto Kernel, class... Args>
void launch(Host&, const char*, dim3 grid, dim3 block, Args... args) {
  detail::entry<Kernel, Args...><<<grid, block>>>(args...);
  Host::check(cudaGetLastError(), "kernel launch");
}
template <auto Kernel, class... Args>
void launch(Host&, const char*, dim3 grid, dim3 block, stream_t s, Args... args) {
  detail::entry<Kernel, Args...><<<grid, block, 0, s.id>>>(args...);
  Host::check(cudaGetLastError(), "kernel launch");
}
inline stream_t stream_create(Host& h) {
  stream_t s;
  Host::check(cudaStreamCreateWithFlags(&s.id, cudaStreamNonBlocking), "cudaStreamCreate");
  h.keep(s.id);
  return s;
}
inline event_t event_create(Host& h) {
  event_t e;
  Host::check(cudaEventCreateWithFlags(&e.id, cudaEventDisableTiming), "cudaEventCreate");
  h.keep(e.id);
  return e;
}
template <class T>
void memcpy_async(Host&, T* dst, const T* src, std::size_t count, stream_t s = {}) {
  Host::check(cudaMemcpyAsync(dst, src, sizeof(T) * count, cudaMemcpyDefault, s.id), "cudaMemcpyAsync");
}
inline void event_record(Host&, event_t e, stream_t s = {}) { Host::check(cudaEventRecord(e.id, s.id), "cudaEventRecord"); }
inline void stream_wait_event(Host&, stream_t s, event_t e) {
  Host::check(cudaStreamWaitEvent(s.id, e.id, 0), "cudaStreamWaitEvent");
}
inline void stream_synchronize(Host&, stream_t s) { Host::check(cudaStreamSynchronize(s.id), "cudaStreamSynchronize"); }
inline void event_synchronize(Host&, event_t e) { Host::check(cudaEventSynchronize(e.id), "cudaEventSynchronize"); }
inline void device_synchronize(Host&) { Host::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
template <class T>
void observe(Host& h, const char* name, const T& device_cell) {
  T v{};
  Host::check(cudaMemcpy(&v, &device_cell, sizeof(T), cudaMemcpyDefault), "cudaMemcpy");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  h.outcome.add(name, detail::type_of<T>(), bits);
}
template <class T>
void host_write(T& device_cell, T v) {
  Host::check(cudaMemcpy(&device_cell, &v, sizeof(T), cudaMemcpyDefault), "cudaMemcpy");
}

}  // namespace scopesim::dialect
