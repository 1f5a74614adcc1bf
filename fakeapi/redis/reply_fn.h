#pragma once
// What a client runs when the reply to its request arrives: a move-only callable taking
// the reply, with room for its captures inside the object. It was a std::function, which
// keeps 16 bytes inline: Sentinel's reply handler (the instance's id, the link generation
// and what to do with the reply) went to the heap on every command it sent.
#include <cstddef>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

#include "core/redis/redis_admin.h"
#include "core/runtime/task.h"

namespace kun::redissim {

class ReplyFn {
 public:
  static constexpr std::size_t kRoom = 64;

  ReplyFn() noexcept = default;
  ReplyFn(std::nullptr_t) noexcept {}  // NOLINT: "no callback", as with std::function
  template <typename F, typename D = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<D, ReplyFn> && std::is_invocable_v<D&, RedisReply>>>
  ReplyFn(F&& f) {  // NOLINT: implicit, so that a lambda passes where a ReplyFn is taken
    if constexpr (std::is_pointer_v<D> || IsStdFunction<D>::value) {
      if (f == nullptr) return;  // an empty std::function or null pointer: no callback
    }
    if constexpr (sizeof(D) <= kRoom && alignof(D) <= alignof(std::max_align_t) &&
                  std::is_nothrow_move_constructible_v<D>) {
      ::new (static_cast<void*>(room_)) D(std::forward<F>(f));
      call_ = [](void* self, RedisReply&& r) { (*std::launder(static_cast<D*>(self)))(std::move(r)); };
      manage_ = [](void* self, void* moveTo) noexcept {
        D* d = std::launder(static_cast<D*>(self));
        if (moveTo) ::new (moveTo) D(std::move(*d));
        d->~D();
      };
    } else {  // too big to keep inside: kept on the heap, the room holds the pointer
      ::new (static_cast<void*>(room_)) D*(new D(std::forward<F>(f)));
      call_ = [](void* self, RedisReply&& r) { (**std::launder(static_cast<D**>(self)))(std::move(r)); };
      manage_ = [](void* self, void* moveTo) noexcept {
        D** d = std::launder(static_cast<D**>(self));
        if (moveTo) ::new (moveTo) D*(*d);
        else delete *d;
      };
    }
  }
  ReplyFn(ReplyFn&& o) noexcept { take(o); }
  ReplyFn& operator=(ReplyFn&& o) noexcept {
    if (this != &o) {
      clear();
      take(o);
    }
    return *this;
  }
  ReplyFn& operator=(std::nullptr_t) noexcept {
    clear();
    return *this;
  }
  ReplyFn(const ReplyFn&) = delete;
  ReplyFn& operator=(const ReplyFn&) = delete;
  ~ReplyFn() { clear(); }

  explicit operator bool() const noexcept { return call_ != nullptr; }
  void operator()(RedisReply&& r) { call_(room_, std::move(r)); }

 private:
  // Moves o's callable here (o is left empty); this one is empty.
  void take(ReplyFn& o) noexcept {
    if (!o.call_) return;
    o.manage_(o.room_, room_);
    call_ = o.call_;
    manage_ = o.manage_;
    o.call_ = nullptr;
    o.manage_ = nullptr;
  }
  void clear() noexcept {
    if (!call_) return;
    manage_(room_, nullptr);
    call_ = nullptr;
    manage_ = nullptr;
  }

  void (*call_)(void* self, RedisReply&& r) = nullptr;
  // With moveTo: moves the callable there and destroys this one; without: destroys it.
  void (*manage_)(void* self, void* moveTo) noexcept = nullptr;
  alignas(std::max_align_t) unsigned char room_[kRoom];
};

}  // namespace kun::redissim
