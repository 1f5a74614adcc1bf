#pragma once
// Typed reads of one JSON object's fields, with the Kubernetes field path in every error,
// and the matching writes that leave a zero value absent (Go's `omitempty`) unless the
// original object spelled it out. Used to map CRD objects onto C++ structs without
// losing the fields those structs do not model.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"
#include "core/runtime/result.h"

namespace kun::jsonf {

// Reads fields of `obj` (null = absent = every field absent). The first type error is kept
// and later reads return zero values, so a parser reads everything then checks error().
class FieldReader {
 public:
  FieldReader(const Object& obj, std::string path);

  // Absent or null fields read as the zero value.
  std::string str(std::string_view key);
  bool boolean(std::string_view key);
  std::int32_t int32(std::string_view key);
  std::int64_t int64(std::string_view key);
  std::vector<std::string> strings(std::string_view key);             // array of strings
  std::map<std::string, std::string> stringMap(std::string_view key);  // object of strings
  Object object(std::string_view key);  // any JSON object, kept verbatim; null if absent
  Object array(std::string_view key);   // any JSON array, kept verbatim; null if absent
  // The sub-object (or array) at key, by reference into the object read (null if absent),
  // for a nested reader.
  const Object& sub(std::string_view key);
  const Object& list(std::string_view key);
  std::string pathOf(std::string_view key) const;

  bool ok() const { return !error_.has_value(); }
  const std::optional<Error>& error() const { return error_; }
  // Adopts a nested reader's error if this one has none yet.
  void merge(const std::optional<Error>& nested);

 private:
  const Object* find(std::string_view key) const;
  void fail(std::string_view key, std::string_view expected);

  const Object& obj_;
  std::string path_;
  std::optional<Error> error_;
};

// Error for a value that is not a JSON object where one is required.
Error notAnObject(std::string_view path);

// Writing one level back. `original` is the object that level was parsed from (nullptr when
// there was none). carryOver() starts the output with the fields of `original` that the
// level does not model, and the modelled ones that are null there; then the put* functions
// write the modelled values. A non-zero value is always written; a zero value (""/false/0/
// empty) only if `original` had that key with a non-null value, so absent stays absent and
// an explicit zero stays explicit. Only unknown fields are copied, never the whole object.
Object carryOver(const Object* original, std::span<const std::string_view> known);
void putStr(Object& out, const Object* original, std::string_view key, const std::string& v);
void putBool(Object& out, const Object* original, std::string_view key, bool v);
void putInt(Object& out, const Object* original, std::string_view key, std::int64_t v);
void putStrings(Object& out, const Object* original, std::string_view key,
                const std::vector<std::string>& v);
void putStringMap(Object& out, const Object* original, std::string_view key,
                  const std::map<std::string, std::string>& v);
// Verbatim JSON; null writes nothing (the key stays absent, or null if it was null).
void putJson(Object& out, std::string_view key, const Object& v);
// A nested level's output: written when non-empty or when `original` had the key.
void putObject(Object& out, const Object* original, std::string_view key, Object v);

}  // namespace kun::jsonf
