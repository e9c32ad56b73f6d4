// What a model's host program may do in the simulator: allocate simulated
// memory, enqueue device work on streams (kernel launches, copies, event
// records and waits), wait for it, and observe values for the outcome. The
// host program itself runs as the host thread, so its reads and writes of
// simulated memory are events like any other.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sim/core/door.hpp"
#include "sim/core/event.hpp"

namespace scopesim {

// One kernel body, called once per simulated GPU thread. The callable lives
// in place where it fits `inline_bytes` (a launch's captured arguments mostly
// do: a launch allocates nothing), else on the heap.
class KernelBody {
 public:
  static constexpr std::size_t inline_bytes = 64;

  KernelBody() = default;
  template <class F>
    requires(!std::is_same_v<std::decay_t<F>, KernelBody> && std::is_invocable_v<const std::decay_t<F>&>)
  KernelBody(F&& f) {
    hold(std::forward<F>(f));
  }
  KernelBody(KernelBody&& o) noexcept { take(o); }
  KernelBody& operator=(KernelBody&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~KernelBody() { release(); }

  void operator()() const { call_(storage_); }

 private:
  // A callable too large to be held in place, held through a pointer that is.
  template <class F>
  struct Boxed {
    std::unique_ptr<F> f;
    void operator()() const { (*f)(); }
  };
  template <class F>
  void hold(F&& f) {
    using Fn = std::decay_t<F>;
    if constexpr (sizeof(Fn) <= inline_bytes && alignof(Fn) <= alignof(std::max_align_t)) {
      ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
      call_ = [](const void* fn) { (*static_cast<const Fn*>(fn))(); };
      if constexpr (!std::is_trivially_copyable_v<Fn>)
        relocate_ = [](void* from, void* to) {
          Fn& fn = *static_cast<Fn*>(from);
          if (to != nullptr) ::new (to) Fn(std::move(fn));
          fn.~Fn();
        };
    } else {
      hold(Boxed<Fn>{std::make_unique<Fn>(std::forward<F>(f))});
    }
  }
  // Takes `o`'s callable, which `o` no longer holds.
  void take(KernelBody& o) noexcept {
    call_ = o.call_;
    relocate_ = o.relocate_;
    if (relocate_ != nullptr)
      relocate_(o.storage_, storage_);
    else
      std::memcpy(storage_, o.storage_, inline_bytes);
    o.call_ = nullptr;  // (empty, as a moved-from std::function)
    o.relocate_ = nullptr;
  }
  void release() noexcept {
    if (relocate_ != nullptr) relocate_(storage_, nullptr);
  }

  alignas(std::max_align_t) unsigned char storage_[inline_bytes];
  void (*call_)(const void*) = nullptr;
  // Moves the callable from one place to another, destroying it where it was
  // (to nullptr: only destroys it). nullptr for a trivially copyable
  // callable: its bytes are copied, and nothing is destroyed.
  void (*relocate_)(void* from, void* to) = nullptr;
};

class HostApi {
 public:
  virtual ~HostApi() = default;
  // Simulated memory of `bytes` (device memory, or host memory the host
  // program and copies use) aligned to `align`, a power of two (an alignof),
  // uninitialised until written.
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
