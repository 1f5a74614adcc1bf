#include "fakeapi/store/back_patch.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "core/api/json_equal.h"

namespace kun::store {
namespace {

// Appends key to path as a JSON Pointer token ("~" -> "~0", "/" -> "~1").
void appendToken(std::string& path, std::string_view key) {
  path += '/';
  // Keys almost never need escaping: appended whole, not character by character.
  if (std::none_of(key.begin(), key.end(), [](char c) { return c == '~' || c == '/'; })) {
    path.append(key);
    return;
  }
  for (char c : key) {
    if (c == '~') path += "~0";
    else if (c == '/') path += "~1";
    else path += c;
  }
}

void member(BackPatch& ops, std::string& path, std::string_view key, const Object* from, const Object* to);

void diffObjects(const Object& from, const Object& to, std::string& path, BackPatch& ops) {
  const auto& a = from.get_ref<const Object::object_t&>();
  const auto& b = to.get_ref<const Object::object_t&>();
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() || j != b.end()) {
    // Both sides usually have the same keys: equality first, the order only when not.
    const int c = i == a.end()                ? 1
                  : j == b.end()              ? -1
                  : sameText(i->first, j->first) ? 0
                                                   : i->first.compare(j->first);
    if (c < 0) {
      member(ops, path, i->first, &i->second, nullptr);
      ++i;
    } else if (c > 0) {
      member(ops, path, j->first, nullptr, &j->second);
      ++j;
    } else {
      member(ops, path, i->first, &i->second, &j->second);
      ++i;
      ++j;
    }
  }
}

// Arrays of one length, element by element: a status write changes a field or two of one
// condition or container status, and replacing the whole list copied (and later freed) it.
void diffArrays(const Object& from, const Object& to, std::string& path, BackPatch& ops) {
  const auto& a = from.get_ref<const Object::array_t&>();
  const auto& b = to.get_ref<const Object::array_t&>();
  char digits[24];
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char* end = std::to_chars(digits, digits + sizeof digits, i).ptr;
    member(ops, path, std::string_view(digits, static_cast<std::size_t>(end - digits)), &a[i], &b[i]);
  }
}

// One member of an object (or element of an array) on either side (null: absent there).
void member(BackPatch& ops, std::string& path, std::string_view key, const Object* from, const Object* to) {
  const std::size_t base = path.size();
  if (from && to && from->is_object() && to->is_object()) {
    appendToken(path, key);
    diffObjects(*from, *to, path, ops);
  } else if (from && to && from->is_array() && to->is_array() && from->size() == to->size()) {
    appendToken(path, key);
    diffArrays(*from, *to, path, ops);
  } else if (!to) {
    appendToken(path, key);
    ops.push_back(PatchOp{PatchOp::Kind::Remove, path, {}});
  } else if (!from) {
    appendToken(path, key);
    ops.push_back(PatchOp{PatchOp::Kind::Add, path, *to});
  } else if (!equalJson(*from, *to)) {
    appendToken(path, key);
    ops.push_back(PatchOp{PatchOp::Kind::Replace, path, *to});
  }
  path.resize(base);
}

// The member (object) or element (array: the token is its index) named by token.
Object& step(Object& at, const std::string& token) {
  if (at.is_array()) return at[static_cast<std::size_t>(std::stoull(token))];
  return at[token];
}

// The next token of a JSON Pointer at pos (which is at a '/'), unescaped; pos moves past it.
std::string nextToken(std::string_view path, std::size_t& pos) {
  std::string out;
  for (++pos; pos < path.size() && path[pos] != '/'; ++pos) {
    if (path[pos] == '~' && pos + 1 < path.size()) {
      out += path[pos + 1] == '1' ? '/' : '~';
      ++pos;
    } else {
      out += path[pos];
    }
  }
  return out;
}

}  // namespace

BackPatch backPatch(const Object& from, const Object& to) {
  BackPatch ops;
  std::string path;
  diffObjects(from, to, path, ops);
  return ops;
}

BackPatch backPatchOf(const Object& from, const Object& to, std::string_view key) {
  BackPatch ops;
  const auto& a = from.get_ref<const Object::object_t&>();
  const auto& b = to.get_ref<const Object::object_t&>();
  auto i = a.find(key);
  auto j = b.find(key);
  if (i == a.end() && j == b.end()) return ops;
  std::string path;
  member(ops, path, i != a.end() ? i->first : j->first, i != a.end() ? &i->second : nullptr,
         j != b.end() ? &j->second : nullptr);
  return ops;
}

void notePrevious(BackPatch& p, std::string path, const Object* old) {
  if (old) p.push_back(PatchOp{PatchOp::Kind::Replace, std::move(path), *old});
  else p.push_back(PatchOp{PatchOp::Kind::Remove, std::move(path), {}});
}

std::string_view topKey(const PatchOp& op) {
  const std::string_view p(op.path);
  const std::size_t end = p.find('/', 1);
  return p.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1);
}

Object applyPatch(const Object& state, const BackPatch& p) {
  Object out = state;
  for (const PatchOp& op : p) {
    // Every token but the last names an object that exists on both sides of the patch.
    Object* at = &out;
    std::size_t pos = 0;
    std::string key = nextToken(op.path, pos);
    while (pos < op.path.size()) {
      at = &step(*at, key);
      key = nextToken(op.path, pos);
    }
    if (op.kind == PatchOp::Kind::Remove) at->erase(key);  // only object members are removed
    else step(*at, key) = op.value;
  }
  return out;
}

}  // namespace kun::store
