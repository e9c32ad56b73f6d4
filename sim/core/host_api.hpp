// What a model's host program may do in the simulator: allocate simulated
// global memory, launch a kernel (one fiber per GPU thread), wait for it, and
// observe values for the outcome. The host program itself runs as the host
// thread, so its reads and writes of simulated memory are events like any other.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "sim/core/door.hpp"
#include "sim/core/event.hpp"

namespace scopesim {

// One kernel body, called once per simulated GPU thread.
using KernelBody = std::function<void()>;

class HostApi {
 public:
  virtual ~HostApi() = default;
  // Simulated global memory of `bytes`, uninitialised until written.
  virtual void* alloc(const std::string& name, std::size_t bytes, std::size_t align) = 0;
  // Starts the kernel; returns at once (launches are asynchronous).
  virtual void launch(const std::string& kernel, Dim3 grid, Dim3 block, KernelBody body) = 0;
  // Waits until every launched kernel has ended (kernel end synchronizes with the host).
  virtual void synchronize() = 0;
  // Records one named value of the outcome.
  virtual void observe(const std::string& name, ValueType t, std::uint64_t bits) = 0;
};

}  // namespace scopesim
