// What a model's host program may do in the simulator: allocate simulated
// memory, enqueue device work on streams (kernel launches, copies, event
// records and waits), wait for it, and observe values for the outcome. The
// host program itself runs as the host thread, so its reads and writes of
// simulated memory are events like any other.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "sim/core/door.hpp"
#include "sim/core/event.hpp"

namespace scopesim {

// One kernel body, called once per simulated GPU thread.
using KernelBody = std::function<void()>;

class HostApi {
 public:
  virtual ~HostApi() = default;
  // Simulated memory of `bytes` (device memory, or host memory the host
  // program and copies use), uninitialised until written.
  virtual void* alloc(std::string_view name, std::size_t bytes, std::size_t align) = 0;
  // Enqueues a kernel on `stream` (0: the default stream); returns at once.
  virtual void launch(std::string_view kernel, Dim3 grid, Dim3 block, KernelBody body, std::uint32_t stream,
                      Where where) = 0;
  // Enqueues a copy of `count` elements of `type` (cudaMemcpyAsync), in
  // either direction; returns at once.
  virtual void copy(void* dst, const void* src, std::size_t count, ValueType type, std::uint32_t size,
                    std::uint32_t stream, Where where) = 0;
  virtual std::uint32_t create_stream() = 0;
  virtual std::uint32_t create_event() = 0;
  virtual void record_event(std::uint32_t event, std::uint32_t stream, Where where) = 0;
  virtual void wait_event(std::uint32_t stream, std::uint32_t event, Where where) = 0;
  // Waits until the work enqueued so far has finished; the finished work
  // synchronizes with the host (cudaStreamSynchronize, cudaEventSynchronize,
  // cudaDeviceSynchronize).
  virtual void synchronize_stream(std::uint32_t stream, Where where) = 0;
  virtual void synchronize_event(std::uint32_t event, Where where) = 0;
  virtual void synchronize(Where where) = 0;
  // Records one named value of the outcome.
  virtual void observe(std::string_view name, ValueType t, std::uint64_t bits) = 0;
};

}  // namespace scopesim
