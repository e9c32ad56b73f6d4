// One kernel body, called once per simulated GPU thread (HostApi::launch):
// a callable kept in place where it fits, as the few pointers a launch passes
// its kernel do, else on the heap. A model's host launches anew in every run:
// a std::function, with room in place for two pointers, allocated and freed
// most launches' callables once a run.
#pragma once
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace scopesim {

class KernelBody {
 public:
  KernelBody() = default;
  // (Implicit, as a lambda converts to a std::function.)
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, KernelBody>>>
  KernelBody(F&& f) {
    using T = std::decay_t<F>;
    if constexpr (fits<T>) {
      ::new (static_cast<void*>(place_)) T(std::forward<F>(f));
      kind_ = &in_place<T>;
    } else {
      heap_ = new T(std::forward<F>(f));
      kind_ = &on_heap<T>;
    }
  }
  KernelBody(KernelBody&& o) noexcept { take(o); }
  KernelBody& operator=(KernelBody&& o) noexcept {
    if (this != &o) {
      reset();
      take(o);
    }
    return *this;
  }
  KernelBody(const KernelBody&) = delete;
  KernelBody& operator=(const KernelBody&) = delete;
  ~KernelBody() { reset(); }

  void operator()() const { kind_->call(target()); }
  explicit operator bool() const { return kind_ != nullptr; }

 private:
  static constexpr std::size_t room = 64;
  template <class T>
  static constexpr bool fits =
      sizeof(T) <= room && alignof(T) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible_v<T>;

  // What a body of one type does: its call, and its move to another body
  // and end (kept in place: the callable moves and the source's ends; on the
  // heap: none, the pointer moves).
  struct Kind {
    void (*call)(void* target);
    void (*move)(void* from, void* to);
    void (*end)(void* target);
  };
  template <class T>
  static constexpr Kind in_place{
      [](void* t) { (*static_cast<T*>(t))(); },
      [](void* from, void* to) {
        ::new (to) T(std::move(*static_cast<T*>(from)));
        static_cast<T*>(from)->~T();
      },
      [](void* t) { static_cast<T*>(t)->~T(); }};
  template <class T>
  static constexpr Kind on_heap{[](void* t) { (*static_cast<T*>(t))(); }, nullptr,
                                [](void* t) { delete static_cast<T*>(t); }};

  void* target() const { return kind_->move != nullptr ? static_cast<void*>(const_cast<std::byte*>(place_)) : heap_; }
  void take(KernelBody& o) noexcept {
    kind_ = o.kind_;
    if (kind_ == nullptr) return;
    if (kind_->move != nullptr)
      kind_->move(o.place_, place_);
    else
      heap_ = o.heap_;
    o.kind_ = nullptr;
  }
  void reset() noexcept {
    if (kind_ != nullptr) kind_->end(target());
    kind_ = nullptr;
  }

  const Kind* kind_ = nullptr;  // null: no body
  union {
    alignas(std::max_align_t) std::byte place_[room];
    void* heap_;
  };
};

}  // namespace scopesim
