#pragma once
// A move-only `void()` callable with room for the captures the simulation's events carry
// (a few ids, a pointer, a string or a vector, a nested callback) inside the object, so
// that scheduling an event does not allocate. std::function keeps only 16 bytes inline and
// requires copyable captures; almost every event lambda is bigger, which made a heap
// allocation per event the largest single cost of a simulated run. Larger callables still
// work: they go to the heap.
#include <cstddef>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

namespace kun {

template <typename T>
struct IsStdFunction : std::false_type {};
template <typename Sig>
struct IsStdFunction<std::function<Sig>> : std::true_type {};

class Task {
 public:
  // Room for the largest common event: a network delivery of a reply (a pointer, two
  // ids and a RedisReply by value).
  static constexpr std::size_t kInline = 96;

  Task() noexcept = default;
  Task(std::nullptr_t) noexcept {}
  template <typename F, typename D = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<D, Task> && std::is_invocable_r_v<void, D&>>>
  Task(F&& f) {  // NOLINT: implicit, as std::function's, so lambdas pass where a Task is taken
    if constexpr (std::is_pointer_v<D> || IsStdFunction<D>::value) {
      if (f == nullptr) return;  // an empty std::function or null pointer makes an empty Task
    }
    if constexpr (fitsInline<D>()) {
      ::new (static_cast<void*>(buf_)) D(std::forward<F>(f));
      ops_ = &inlineOps<D>;
    } else {
      ::new (static_cast<void*>(buf_)) D*(new D(std::forward<F>(f)));
      ops_ = &heapOps<D>;
    }
  }
  Task(Task&& o) noexcept : ops_(o.ops_) {
    if (ops_) {
      ops_->move(o.buf_, buf_);
      o.ops_ = nullptr;
    }
  }
  Task& operator=(Task&& o) noexcept {
    if (this != &o) {
      reset();
      ops_ = o.ops_;
      if (ops_) {
        ops_->move(o.buf_, buf_);
        o.ops_ = nullptr;
      }
    }
    return *this;
  }
  Task& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  void operator()() { ops_->call(buf_); }

 private:
  struct Ops {
    void (*call)(void* self);
    void (*move)(void* from, void* to) noexcept;  // move-constructs into to, destroys from
    void (*destroy)(void* self) noexcept;
  };
  template <typename D>
  static constexpr bool fitsInline() {
    return sizeof(D) <= kInline && alignof(D) <= alignof(std::max_align_t) &&
           std::is_nothrow_move_constructible_v<D>;
  }
  // The object placement-new made in the buffer, reached through the buffer's address.
  template <typename T>
  static T* at(void* buf) noexcept {
    return std::launder(static_cast<T*>(buf));
  }
  template <typename D>
  static constexpr Ops inlineOps{
      [](void* s) { (*at<D>(s))(); },
      [](void* from, void* to) noexcept {
        ::new (to) D(std::move(*at<D>(from)));
        at<D>(from)->~D();
      },
      [](void* s) noexcept { at<D>(s)->~D(); }};
  template <typename D>
  static constexpr Ops heapOps{
      [](void* s) { (**at<D*>(s))(); },
      [](void* from, void* to) noexcept { ::new (to) D*(*at<D*>(from)); },
      [](void* s) noexcept { delete *at<D*>(s); }};

  void reset() noexcept {
    if (ops_) {
      ops_->destroy(buf_);
      ops_ = nullptr;
    }
  }

  const Ops* ops_ = nullptr;
  alignas(std::max_align_t) unsigned char buf_[kInline];
};

}  // namespace kun
