#include "core/rediscluster/config_values.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <sstream>

namespace kun::rediscluster {

namespace {

// "1gb" -> "1073741824", "10k" -> "10000"; anything else unchanged.
std::string bytes(const std::string& tok) {
  std::size_t digits = 0;
  while (digits < tok.size() && std::isdigit(static_cast<unsigned char>(tok[digits]))) ++digits;
  if (digits == 0 || digits == tok.size()) return tok;
  static const std::map<std::string, std::int64_t> kUnits = {
      {"k", 1000}, {"kb", 1024}, {"m", 1000 * 1000}, {"mb", 1024 * 1024},
      {"g", 1000LL * 1000 * 1000}, {"gb", 1024LL * 1024 * 1024}};
  auto unit = kUnits.find(tok.substr(digits));
  if (unit == kUnits.end()) return tok;
  std::int64_t n = 0;
  auto [p, ec] = std::from_chars(tok.data(), tok.data() + digits, n);
  if (ec != std::errc()) return tok;
  return std::to_string(n * unit->second);
}

}  // namespace

std::string lowerCase(std::string s) {
  // ASCII only, as std::tolower in the "C" locale the process never leaves, without a call
  // per character (heal lowers every spec.config key and every CONFIG GET name each pass).
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string normalizedConfigValue(const std::string& value) {
  std::istringstream in(lowerCase(value));
  std::string tok, out;
  while (in >> tok) {
    if (!out.empty()) out += ' ';
    out += bytes(tok);
  }
  return out;
}

std::string otherConfigSpelling(const std::string& key) {
  if (key.rfind("slave", 0) == 0) return "replica" + key.substr(5);
  if (key.rfind("replica", 0) == 0) return "slave" + key.substr(7);
  return {};
}

bool sameConfigValue(const std::string& a, const std::string& b) {
  return a == b || normalizedConfigValue(a) == normalizedConfigValue(b);
}

bool isReplicaPriority(std::string_view key) {
  // Compared in place: asked for every spec.config key on every pass.
  const auto is = [key](std::string_view lower) {
    return std::equal(key.begin(), key.end(), lower.begin(), lower.end(), [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == b;
    });
  };
  return is("replica-priority") || is("slave-priority");
}

}  // namespace kun::rediscluster
