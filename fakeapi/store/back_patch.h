#pragma once
// The patch that turns one stored state of an object into another, for the watch
// history's back patches (a superseded state is kept only as the patch from its successor
// back to it). Found in one walk of both trees: object members are merged in key order
// (both sides are sorted maps), equal members cost one comparison and only the path to a
// difference is built. Objects and arrays of the same length are descended into (an
// element's token is its index); other arrays and scalars that differ are replaced whole.
// Plain structs rather than RFC 6902 JSON: building and freeing a JSON op per difference
// cost more than finding it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"

namespace kun::store {

struct PatchOp {
  enum class Kind : std::uint8_t { Add, Remove, Replace };
  Kind kind = Kind::Replace;
  std::string path;  // JSON Pointer to an object member ("/metadata/labels/app") or array element
  Object value;      // Add, Replace: the member's value
};
using BackPatch = std::vector<PatchOp>;

// applyPatch(from, backPatch(from, to)) == to; empty exactly when from == to. Both must be
// JSON objects.
BackPatch backPatch(const Object& from, const Object& to);
// The same, for the top-level member `key` only (the rest known equal).
BackPatch backPatchOf(const Object& from, const Object& to, std::string_view key);
// Records that the member at path (a JSON Pointer made of plain keys) had `old` before
// (null: it was absent), after the patch was computed.
void notePrevious(BackPatch& p, std::string path, const Object* old);
// The top-level member an op changes ("metadata" for "/metadata/labels/app").
std::string_view topKey(const PatchOp& op);

Object applyPatch(const Object& state, const BackPatch& p);

}  // namespace kun::store
