#pragma once
// Typed reads of one JSON object's fields, with the Kubernetes field path in every error,
// and the matching writes that leave a zero value absent (Go's `omitempty`) unless the
// original object spelled it out. Used to map CRD objects onto C++ structs without
// losing the fields those structs do not model.
#include <cstdint>
#include <map>
#include <optional>
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
  // The sub-object at key (null if absent) and its path, for a nested reader.
  const Object& sub(std::string_view key);
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

// Writers: `out` starts as the original object. A non-zero value is written; a zero value
// (""/false/0/empty) is written only if the original had that key with a non-null value,
// so absent stays absent and an explicit zero stays explicit.
void putStr(Object& out, std::string_view key, const std::string& v);
void putBool(Object& out, std::string_view key, bool v);
void putInt(Object& out, std::string_view key, std::int64_t v);
void putStrings(Object& out, std::string_view key, const std::vector<std::string>& v);
void putStringMap(Object& out, std::string_view key, const std::map<std::string, std::string>& v);
// Verbatim JSON: null means absent (the key is removed).
void putJson(Object& out, std::string_view key, const Object& v);
// A nested object: written when non-empty or when the original had the key.
void putObject(Object& out, std::string_view key, Object v);

}  // namespace kun::jsonf
