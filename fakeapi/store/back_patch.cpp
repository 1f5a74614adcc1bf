#include "fakeapi/store/back_patch.h"

#include <string>

namespace kun::store {
namespace {

// Appends key to path as a JSON Pointer token ("~" -> "~0", "/" -> "~1").
void appendToken(std::string& path, const std::string& key) {
  path += '/';
  for (char c : key) {
    if (c == '~') path += "~0";
    else if (c == '/') path += "~1";
    else path += c;
  }
}

void op(Object& ops, const char* name, const std::string& path, const Object* value) {
  Object o{{"op", name}, {"path", path}};
  if (value) o["value"] = *value;
  ops.push_back(std::move(o));
}

void diffObjects(const Object& from, const Object& to, std::string& path, Object& ops) {
  const std::size_t base = path.size();
  for (auto it = from.begin(); it != from.end(); ++it) {
    appendToken(path, it.key());
    auto jt = to.find(it.key());
    if (jt == to.end()) op(ops, "remove", path, nullptr);
    else if (*it != *jt) {
      if (it->is_object() && jt->is_object()) diffObjects(*it, *jt, path, ops);
      else op(ops, "replace", path, &*jt);
    }
    path.resize(base);
  }
  for (auto jt = to.begin(); jt != to.end(); ++jt) {
    if (from.contains(jt.key())) continue;
    appendToken(path, jt.key());
    op(ops, "add", path, &*jt);
    path.resize(base);
  }
}

}  // namespace

Object backPatch(const Object& from, const Object& to) {
  Object ops = Object::array();
  std::string path;
  diffObjects(from, to, path, ops);
  return ops;
}

}  // namespace kun::store
