#pragma once
// A FIFO over one reused buffer. std::deque allocates a ~500-byte block every few
// elements; under the store's allocation pattern (many small JSON nodes freed and
// allocated per write) each such request made glibc consolidate its fast bins, which cost
// more than the write itself. The ring allocates only when it grows past its peak.
#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace kun::store {

template <class T>
class RingQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push_back(T value) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) % buf_.size()] = std::move(value);
    ++size_;
  }
  // Removes the front element and returns it; its slot is reset so it holds nothing.
  T take_front() {
    assert(size_ > 0);
    T out = std::exchange(buf_[head_], T{});
    head_ = (head_ + 1) % buf_.size();
    --size_;
    return out;
  }
  void pop_front() { (void)take_front(); }

  T& front() { return (*this)[0]; }
  const T& front() const { return (*this)[0]; }
  T& back() { return (*this)[size_ - 1]; }
  T& operator[](std::size_t i) { return buf_[(head_ + i) % buf_.size()]; }
  const T& operator[](std::size_t i) const { return buf_[(head_ + i) % buf_.size()]; }

 private:
  void grow() {
    std::vector<T> next(buf_.empty() ? 16 : buf_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) next[i] = std::move((*this)[i]);
    buf_ = std::move(next);
    head_ = 0;
  }

  std::vector<T> buf_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace kun::store
