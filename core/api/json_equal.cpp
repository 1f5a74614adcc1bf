#include "core/api/json_equal.h"

#include <cstdint>
#include <cstring>

namespace kun {

// Two overlapping word loads instead of memcmp, which was an eighth of a store update's
// time.
bool sameText(const std::string& a, const std::string& b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  auto word = [](const char* at) {
    std::uint64_t w;
    std::memcpy(&w, at, sizeof w);
    return w;
  };
  auto half = [](const char* at) {
    std::uint32_t w;
    std::memcpy(&w, at, sizeof w);
    return w;
  };
  if (n >= 8 && n <= 16) return word(p) == word(q) && word(p + n - 8) == word(q + n - 8);
  if (n >= 4 && n < 8) return half(p) == half(q) && half(p + n - 4) == half(q + n - 4);
  if (n < 4) {
    for (std::size_t i = 0; i < n; ++i)
      if (p[i] != q[i]) return false;
    return true;
  }
  return std::memcmp(p, q, n) == 0;
}

namespace {

template <bool Strict>
bool deepEqual(const Object& a, const Object& b) {
  if (a.type() != b.type()) return !Strict && a == b;
  switch (a.type()) {
    case Object::value_t::object: {
      const auto& x = a.get_ref<const Object::object_t&>();
      const auto& y = b.get_ref<const Object::object_t&>();
      if (x.size() != y.size()) return false;
      for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
        if (!sameText(i->first, j->first) || !deepEqual<Strict>(i->second, j->second)) return false;
      return true;
    }
    case Object::value_t::array: {
      const auto& x = a.get_ref<const Object::array_t&>();
      const auto& y = b.get_ref<const Object::array_t&>();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!deepEqual<Strict>(x[i], y[i])) return false;
      return true;
    }
    case Object::value_t::string:
      return sameText(a.get_ref<const std::string&>(), b.get_ref<const std::string&>());
    default:
      return a == b;  // the same scalar type: its value
  }
}

}  // namespace

bool equalJson(const Object& a, const Object& b) { return deepEqual<false>(a, b); }
bool sameJson(const Object& a, const Object& b) { return deepEqual<true>(a, b); }

}  // namespace kun
