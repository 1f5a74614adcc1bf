#pragma once
// Label selectors as lists send them, parsed once per distinct text: a run lists with a
// handful of selectors over and over, and parsing one was most of a short list's cost.
// Parsing is a function of the text alone, so a kept parse (or its error) is what a fresh
// one would be.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/kube/selector.h"

namespace kun::store {

class SelectorCache {
 public:
  struct Parsed {
    Result<LabelSelector> selector;
    // selector's requiredPairs() (empty on an error): what the label index narrows on.
    std::vector<std::pair<std::string, std::string>> required;
  };

  // The parse of text (LabelSelector::parse), kept.
  const Parsed& get(std::string_view text);

  std::size_t size() const { return parsed_.size(); }
  // More distinct texts than this (a caller building selectors from uids, say) start over.
  static constexpr std::size_t kMaxEntries = 512;

 private:
  std::map<std::string, Parsed, std::less<>> parsed_;
};

}  // namespace kun::store
