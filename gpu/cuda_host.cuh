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
    for (void* p : allocations_) cudaFree(p);
  }
  void* alloc(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    check(cudaMemset(p, 0, bytes), "cudaMemset");
    allocations_.push_back(p);
    return p;
  }
  Outcome outcome;

  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }

 private:
  std::vector<void*> allocations_;
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
template <auto Kernel, class... Args>
void launch(Host&, const char*, dim3 grid, dim3 block, Args... args) {
  detail::entry<Kernel, Args...><<<grid, block>>>(args...);
  Host::check(cudaGetLastError(), "kernel launch");
}
inline void device_synchronize(Host&) { Host::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
template <class T>
void observe(Host& h, const char* name, const T& device_cell) {
  T v{};
  Host::check(cudaMemcpy(&v, &device_cell, sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  h.outcome.add(name, detail::type_of<T>(), bits);
}
template <class T>
void host_write(T& device_cell, T v) {
  Host::check(cudaMemcpy(&device_cell, &v, sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
}

}  // namespace scopesim::dialect
