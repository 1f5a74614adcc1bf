#include "core/api/json_fields.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include <fmt/format.h>

namespace kun::jsonf {

namespace {

const Object& nullObject() {
  static const Object n;
  return n;
}

bool present(const Object* original, std::string_view key) {
  const Object* v = original ? memberOf(*original, key) : nullptr;  // a walk, as FieldReader::find
  return v && !v->is_null();
}

// Integers arrive as JSON integers; a float with an integral value (YAML "3.0", or a
// client that writes every number as a double) is accepted as the same integer.
std::optional<std::int64_t> asInteger(const Object& v) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() &&
        v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return std::nullopt;
    return v.get<std::int64_t>();
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) < 9.0e15)
      return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

}  // namespace

FieldReader::FieldReader(const Object& obj, std::string path) : obj_(obj), path_(std::move(path)) {}

std::string FieldReader::pathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const Object* FieldReader::find(std::string_view key) const {
  // memberOf: a walk of a small object (a condition, a container) costs less than the
  // tree search, and every stored status is read back after each status write.
  const Object* v = memberOf(obj_, key);
  return v && !v->is_null() ? v : nullptr;
}

void FieldReader::fail(std::string_view key, std::string_view expected) {
  if (error_) return;
  error_ = makeError(Reason::Invalid, fmt::format("must be {}", expected), pathOf(key));
}

void FieldReader::merge(const std::optional<Error>& nested) {
  if (!error_ && nested) error_ = nested;
}

std::string FieldReader::str(std::string_view key) {
  const Object* v = find(key);
  if (!v) return {};
  if (!v->is_string()) {
    fail(key, "a string");
    return {};
  }
  return v->get<std::string>();
}

bool FieldReader::boolean(std::string_view key) {
  const Object* v = find(key);
  if (!v) return false;
  if (!v->is_boolean()) {
    fail(key, "a boolean (true or false)");
    return false;
  }
  return v->get<bool>();
}

std::int64_t FieldReader::int64(std::string_view key) {
  const Object* v = find(key);
  if (!v) return 0;
  auto i = asInteger(*v);
  if (!i) {
    fail(key, "an integer");
    return 0;
  }
  return *i;
}

std::int32_t FieldReader::int32(std::string_view key) {
  const Object* v = find(key);
  if (!v) return 0;
  auto i = asInteger(*v);
  if (!i || *i < std::numeric_limits<std::int32_t>::min() ||
      *i > std::numeric_limits<std::int32_t>::max()) {
    fail(key, "a 32-bit integer");
    return 0;
  }
  return static_cast<std::int32_t>(*i);
}

std::vector<std::string> FieldReader::strings(std::string_view key) {
  const Object* v = find(key);
  if (!v) return {};
  if (!v->is_array()) {
    fail(key, "a list of strings");
    return {};
  }
  std::vector<std::string> out;
  out.reserve(v->size());
  for (std::size_t i = 0; i < v->size(); ++i) {
    const Object& e = (*v)[i];
    if (!e.is_string()) {
      if (!error_)
        error_ = makeError(Reason::Invalid, "must be a string", fmt::format("{}[{}]", pathOf(key), i));
      return {};
    }
    out.push_back(e.get<std::string>());
  }
  return out;
}

std::map<std::string, std::string> FieldReader::stringMap(std::string_view key) {
  const Object* v = find(key);
  if (!v) return {};
  if (!v->is_object()) {
    fail(key, "a map of strings");
    return {};
  }
  std::map<std::string, std::string> out;
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (!it.value().is_string()) {
      if (!error_)
        error_ = makeError(Reason::Invalid, "must be a string (quote numbers and booleans)",
                           pathOf(key) + "." + it.key());
      return {};
    }
    out.emplace(it.key(), it.value().get<std::string>());
  }
  return out;
}

Object FieldReader::object(std::string_view key) {
  const Object* v = find(key);
  if (!v) return nullptr;
  if (!v->is_object()) {
    fail(key, "an object");
    return nullptr;
  }
  return *v;
}

Object FieldReader::array(std::string_view key) {
  const Object* v = find(key);
  if (!v) return nullptr;
  if (!v->is_array()) {
    fail(key, "a list");
    return nullptr;
  }
  return *v;
}

const Object& FieldReader::sub(std::string_view key) {
  const Object* v = find(key);
  if (!v) return nullObject();
  if (!v->is_object()) {
    fail(key, "an object");
    return nullObject();
  }
  return *v;
}

const Object& FieldReader::list(std::string_view key) {
  const Object* v = find(key);
  if (!v) return nullObject();
  if (!v->is_array()) {
    fail(key, "a list");
    return nullObject();
  }
  return *v;
}

Error notAnObject(std::string_view path) {
  return makeError(Reason::Invalid, "must be an object", std::string(path));
}

Object carryOver(const Object* original, std::span<const std::string_view> known) {
  Object out = Object::object();
  if (!original || !original->is_object()) return out;
  for (auto it = original->begin(); it != original->end(); ++it) {
    const bool modelled = std::find(known.begin(), known.end(), it.key()) != known.end();
    if (!modelled || it->is_null()) out.emplace(it.key(), it.value());
  }
  return out;
}

namespace {

// out[key] = v. An object's member is made from v in place, after a search by the view:
// operator[] builds a key string to search with and a null member to assign over, and
// the status is turned into JSON on every status write (its conditions field by field).
template <class V>
void put(Object& out, std::string_view key, V&& v) {
  if (!out.is_object()) {  // null becomes an object, anything else throws: operator[]'s way
    out[std::string(key)] = std::forward<V>(v);
    return;
  }
  auto& members = out.get_ref<Object::object_t&>();
  auto it = members.lower_bound(key);
  if (it != members.end() && it->first == key)
    it->second = std::forward<V>(v);
  else
    members.emplace_hint(it, std::piecewise_construct, std::forward_as_tuple(key), std::forward_as_tuple(std::forward<V>(v)));
}

}  // namespace

void putStr(Object& out, const Object* original, std::string_view key, const std::string& v) {
  if (!v.empty() || present(original, key)) put(out, key, v);
}

void putBool(Object& out, const Object* original, std::string_view key, bool v) {
  if (v || present(original, key)) put(out, key, v);
}

void putInt(Object& out, const Object* original, std::string_view key, std::int64_t v) {
  if (v != 0 || present(original, key)) put(out, key, v);
}

void putStrings(Object& out, const Object* original, std::string_view key,
                const std::vector<std::string>& v) {
  if (!v.empty() || present(original, key)) put(out, key, v);
}

void putStringMap(Object& out, const Object* original, std::string_view key,
                  const std::map<std::string, std::string>& v) {
  if (!v.empty() || present(original, key)) put(out, key, v);
}

void putJson(Object& out, std::string_view key, const Object& v) {
  if (!v.is_null()) put(out, key, v);
}

void putObject(Object& out, const Object* original, std::string_view key, Object v) {
  if (!v.empty() || present(original, key)) put(out, key, std::move(v));
}

}  // namespace kun::jsonf
