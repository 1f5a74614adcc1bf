#include "core/rediscluster/desired_hash.h"

#include <array>
#include <charconv>

#include <fmt/format.h>

#include "core/runtime/random.h"

namespace kun::rediscluster {

namespace {

bool hasAnnotation(const Object& obj) {
  auto m = obj.find("metadata");
  if (m == obj.end() || !m->is_object()) return false;
  auto a = m->find("annotations");
  return a != m->end() && a->is_object() && a->contains(kDesiredHashAnnotation);
}

// What a byte of a string needs: nothing (written as is), an escape, or dump() itself (a
// byte above 0x7f, which dump() checks as UTF-8). A table: one load per byte of a probe
// script, where four compares cost three times as much.
enum class ByteKind : unsigned char { Plain, Escape, NotAscii };
constexpr auto kByteKinds = [] {
  std::array<ByteKind, 256> kinds{};
  for (int c = 0; c < 256; ++c)
    kinds[c] = c >= 0x80 ? ByteKind::NotAscii
               : c < 0x20 || c == '"' || c == '\\' ? ByteKind::Escape
                                                   : ByteKind::Plain;
  return kinds;
}();

// A JSON string as dump() writes it (ensure_ascii off): ", \ and the control characters
// escaped, the rest as is. False for a byte above 0x7f.
bool appendString(std::string_view s, std::string& out) {
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet appended
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const ByteKind kind = kByteKinds[c];
    if (kind == ByteKind::Plain) continue;
    if (kind == ByteKind::NotAscii) return false;
    out.append(s.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        constexpr char kHex[] = "0123456789abcdef";
        const char esc[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
        out.append(esc, sizeof esc);
      }
    }
  }
  out.append(s.substr(run));
  out += '"';
  return true;
}

template <class Int>
void appendInt(Int v, std::string& out) {
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, end);
}

}  // namespace

namespace detail {

bool plainDump(const Object& v, std::string& out) {
  using T = Object::value_t;
  switch (v.type()) {
    case T::null: out += "null"; return true;
    case T::boolean: out += v.get<bool>() ? "true" : "false"; return true;
    case T::number_integer: appendInt(v.get<std::int64_t>(), out); return true;
    case T::number_unsigned: appendInt(v.get<std::uint64_t>(), out); return true;
    case T::string: return appendString(v.get_ref<const std::string&>(), out);
    case T::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ',';
        first = false;
        if (!plainDump(e, out)) return false;
      }
      out += ']';
      return true;
    }
    case T::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : v.get_ref<const Object::object_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!appendString(key, out)) return false;
        out += ':';
        if (!plainDump(value, out)) return false;
      }
      out += '}';
      return true;
    }
    default: return false;  // floats (dump's own shortest form), binary, discarded
  }
}

}  // namespace detail

namespace {

// FNV-1a of obj.dump(). The generated objects (probe scripts, config files) are a few KB
// each, and nlohmann's serializer decodes every string byte by byte as UTF-8: what
// plainDump writes the same way is written by it.
std::uint64_t dumpHash(const Object& obj) {
  std::string text;
  text.reserve(4096);
  if (!detail::plainDump(obj, text)) text = obj.dump();
  return fnv1a64(text);
}

}  // namespace

std::string desiredHash(const Object& obj) {
  if (!hasAnnotation(obj)) return fmt::format("{:016x}", dumpHash(obj));
  Object copy = obj;
  Object& ann = copy["metadata"]["annotations"];
  ann.erase(std::string(kDesiredHashAnnotation));
  if (ann.empty()) copy["metadata"].erase("annotations");
  return fmt::format("{:016x}", dumpHash(copy));
}

std::string stampDesiredHash(Object& obj) {
  std::string h = desiredHash(obj);
  meta::setAnnotation(obj, kDesiredHashAnnotation, h);
  return h;
}

std::string recordedHash(const Object& live) { return meta::annotation(live, kDesiredHashAnnotation); }

}  // namespace kun::rediscluster
