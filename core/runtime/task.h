#pragma once
// Task: a move-only `void()` callable with room for the captures the simulation's events carry
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

// A move-only callable of signature Sig keeping callables of up to Room bytes inside the
// object (bigger ones go to the heap).
template <typename Sig, std::size_t Room>
class InlineFunction;

template <typename R, typename... Args, std::size_t Room>
class InlineFunction<R(Args...), Room> {
 public:
  static constexpr std::size_t kInline = Room;

  InlineFunction() noexcept = default;
  InlineFunction(std::nullptr_t) noexcept {}  // NOLINT: "nothing", as with std::function
  template <typename F, typename D = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<D, InlineFunction> && std::is_invocable_r_v<R, D&, Args...>>>
  InlineFunction(F&& f) {  // NOLINT: implicit, as std::function's, so lambdas pass where one is taken
    if constexpr (std::is_pointer_v<D> || IsStdFunction<D>::value) {
      if (f == nullptr) return;  // an empty std::function or null pointer makes an empty one
    }
    if constexpr (fitsInline<D>()) {
      ::new (static_cast<void*>(buf_)) D(std::forward<F>(f));
      ops_ = &inlineOps<D>;
    } else {
      ::new (static_cast<void*>(buf_)) D*(new D(std::forward<F>(f)));
      ops_ = &heapOps<D>;
    }
  }
  InlineFunction(InlineFunction&& o) noexcept : ops_(o.ops_) {
    if (ops_) {
      ops_->move(o.buf_, buf_);
      o.ops_ = nullptr;
    }
  }
  InlineFunction& operator=(InlineFunction&& o) noexcept {
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
  InlineFunction& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }
  InlineFunction(const InlineFunction&) = delete;
  InlineFunction& operator=(const InlineFunction&) = delete;
  ~InlineFunction() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  R operator()(Args... args) { return ops_->call(buf_, std::forward<Args>(args)...); }

 private:
  struct Ops {
    R (*call)(void* self, Args&&... args);
    void (*move)(void* from, void* to) noexcept;  // move-constructs into to, destroys from
    void (*destroy)(void* self) noexcept;
  };
  template <typename D>
  static constexpr bool fitsInline() {
    return sizeof(D) <= Room && alignof(D) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible_v<D>;
  }
  // The object placement-new made in the buffer, reached through the buffer's address.
  template <typename T>
  static T* at(void* buf) noexcept {
    return std::launder(static_cast<T*>(buf));
  }
  template <typename D>
  static constexpr Ops inlineOps{
      [](void* s, Args&&... args) -> R { return (*at<D>(s))(std::forward<Args>(args)...); },
      [](void* from, void* to) noexcept {
        ::new (to) D(std::move(*at<D>(from)));
        at<D>(from)->~D();
      },
      [](void* s) noexcept { at<D>(s)->~D(); }};
  template <typename D>
  static constexpr Ops heapOps{
      [](void* s, Args&&... args) -> R { return (**at<D*>(s))(std::forward<Args>(args)...); },
      [](void* from, void* to) noexcept { ::new (to) D*(*at<D*>(from)); },
      [](void* s) noexcept { delete *at<D*>(s); }};

  void reset() noexcept {
    if (ops_) {
      ops_->destroy(buf_);
      ops_ = nullptr;
    }
  }

  const Ops* ops_ = nullptr;
  alignas(std::max_align_t) unsigned char buf_[Room];
};

// An event: room for the largest common one, a network delivery of a reply (a pointer,
// two ids and a RedisReply by value).
using Task = InlineFunction<void(), 96>;

}  // namespace kun
