// The watch history's back patches: for any two JSON objects, applying the patch from one
// to the other gives exactly the other (keys with "/" and "~", nulls, arrays that grow or
// shrink or change an element, type changes included).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "fakeapi/store/back_patch.h"

namespace kun {
namespace {

// Keys from a small alphabet, so that the two objects share keys and nest alike often.
const std::vector<std::string> kKeys{"a", "b", "c/d", "e~f", "~1", "", "metadata"};

Object drawValue(int depth);

Object drawObject(int depth) {
  Object o = Object::object();
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) o[*rc::gen::elementOf(kKeys)] = drawValue(depth - 1);
  return o;
}

// Draws inside the property, so RapidCheck shrinks the structure too.
Object drawValue(int depth) {
  const int kind = *rc::gen::inRange(0, depth > 0 ? 6 : 4);
  switch (kind) {
    case 0: return Object(*rc::gen::inRange(-2, 3));
    case 1: return Object(*rc::gen::elementOf(std::vector<std::string>{"x", "y", ""}));
    case 2: return Object(nullptr);
    case 3: return Object(*rc::gen::arbitrary<bool>());
    case 4: {
      Object a = Object::array();
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) a.push_back(drawValue(depth - 1));
      return a;
    }
    default: return drawObject(depth);
  }
}

RC_GTEST_PROP(StoreBackPatchProperty, ApplyingThePatchGivesTheTarget, ()) {
  const Object from = drawObject(3);
  // Often a small edit of `from` (the store's case), sometimes an unrelated object.
  Object to = from;
  if (*rc::gen::inRange(0, 4) == 0) {
    to = drawObject(3);
  } else {
    const int edits = *rc::gen::inRange(1, 4);
    for (int i = 0; i < edits; ++i) {
      Object* at = &to;
      // Into objects and arrays alike (an array that keeps its length is patched per element).
      while ((at->is_object() || at->is_array()) && !at->empty() && *rc::gen::arbitrary<bool>()) {
        auto it = at->begin();
        std::advance(it, *rc::gen::inRange<std::size_t>(0, at->size()));
        at = &*it;
      }
      if (at->is_object() && *rc::gen::arbitrary<bool>() && !at->empty()) at->erase(at->begin());
      else if (at->is_object()) (*at)[*rc::gen::elementOf(kKeys)] = drawValue(2);
      else *at = drawValue(2);
    }
  }
  const store::BackPatch patch = store::backPatch(from, to);
  RC_ASSERT(store::applyPatch(from, patch) == to);
  RC_ASSERT(patch.empty() == (from == to));
}

// The patch of one top-level member, with the previous value of another member noted
// after the source changed it (how the store records a status change, then the new
// resourceVersion).
RC_GTEST_PROP(StoreBackPatchProperty, OneMemberPatchWithANotedPreviousValueGivesTheTarget, ()) {
  Object from = drawObject(3);
  if (*rc::gen::arbitrary<bool>()) from["n"] = drawValue(1);
  Object to = from;
  const std::string key = *rc::gen::elementOf(kKeys);
  if (*rc::gen::arbitrary<bool>()) to[key] = drawValue(2);
  else to.erase(key);
  store::BackPatch patch = store::backPatchOf(from, to, key);
  RC_ASSERT(patch.empty() == (from == to));
  // Member "n" (not among kKeys) is the same on both sides, then changes in the source.
  auto was = to.find("n");
  store::notePrevious(patch, "/n", was == to.end() ? nullptr : &*was);
  Object source = from;
  source["n"] = "changed";
  RC_ASSERT(store::applyPatch(source, patch) == to);
}

}  // namespace
}  // namespace kun
