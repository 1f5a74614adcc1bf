#include "core/runtime/trace.h"

#include <fmt/format.h>

#include "core/runtime/random.h"

namespace kun {

void Trace::record(TimePoint t, std::string_view component, std::string_view text) {
  // Decimal text, not raw bytes, so the hash does not depend on the machine's endianness.
  const fmt::format_int us(t.time_since_epoch().count());
  hash_ = fnv1a64(std::string_view(us.data(), us.size()), hash_);
  hash_ = fnv1a64(" ", hash_);
  hash_ = fnv1a64(component, hash_);
  hash_ = fnv1a64("|", hash_);
  hash_ = fnv1a64(text, hash_);
  hash_ = fnv1a64("\n", hash_);
  ++count_;
  if (keep_ == 0) return;
  Entry e{t, std::string(component), std::string(text)};
  if (ring_.size() < keep_) {
    ring_.push_back(std::move(e));
  } else {
    ring_[head_] = std::move(e);
    head_ = (head_ + 1) % keep_;
  }
}

std::string Trace::hashHex() const { return fmt::format("{:016x}", hash_); }

std::vector<Trace::Entry> Trace::entries() const {
  std::vector<Entry> out;
  out.reserve(ring_.size());
  for (std::size_t i = 0; i < ring_.size(); ++i) out.push_back(ring_[(head_ + i) % ring_.size()]);
  return out;
}

}  // namespace kun
