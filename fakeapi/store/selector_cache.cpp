#include "fakeapi/store/selector_cache.h"

namespace kun::store {

const SelectorCache::Parsed& SelectorCache::get(std::string_view text) {
  if (auto it = parsed_.find(text); it != parsed_.end()) return it->second;
  if (parsed_.size() >= kMaxEntries) parsed_.clear();
  auto sel = LabelSelector::parse(text);
  auto required = sel ? sel->requiredPairs() : std::vector<std::pair<std::string, std::string>>{};
  return parsed_.emplace(std::string(text), Parsed{std::move(sel), std::move(required)}).first->second;
}

}  // namespace kun::store
