#include "fakeapi/world/config_text.h"

#include <cctype>

#include <fmt/format.h>

namespace kun::sim {

namespace {

constexpr int kMaxIncludeDepth = 8;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char unescape(char c) {
  switch (c) {
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'b': return '\b';
    case 'a': return '\a';
    default: return c;
  }
}

// One token starting at line[i] (not a space); advances i past it. nullopt: bad quoting.
std::optional<std::string> token(std::string_view line, std::size_t& i) {
  std::string out;
  const char quote = (line[i] == '"' || line[i] == '\'') ? line[i] : 0;
  if (!quote) {
    while (i < line.size() && !isSpace(line[i])) out += line[i++];
    return out;
  }
  ++i;
  while (true) {
    if (i >= line.size()) return std::nullopt;  // no closing quote
    const char c = line[i];
    if (quote == '"' && c == '\\' && i + 3 < line.size() && line[i + 1] == 'x' && hexValue(line[i + 2]) >= 0 &&
        hexValue(line[i + 3]) >= 0) {
      out += static_cast<char>(hexValue(line[i + 2]) * 16 + hexValue(line[i + 3]));
      i += 4;
    } else if (c == '\\' && i + 1 < line.size() && (quote == '"' || line[i + 1] == '\'')) {
      out += quote == '"' ? unescape(line[i + 1]) : '\'';
      i += 2;
    } else if (c == quote) {
      ++i;
      if (i < line.size() && !isSpace(line[i])) return std::nullopt;  // "a"b
      return out;
    } else {
      out += c;
      ++i;
    }
  }
}

Status readInto(std::string_view text, const ConfigFileReader& read, int depth, std::vector<ConfigDirective>& out) {
  std::size_t lineNo = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    std::size_t first = 0;
    while (first < line.size() && isSpace(line[first])) ++first;
    if (first == line.size() || line[first] == '#') continue;
    auto toks = splitConfigLine(line);
    if (!toks) return makeError(Reason::Invalid, fmt::format("line {}: unbalanced quotes in configuration line", lineNo));
    if (toks->empty()) continue;
    ConfigDirective d;
    d.name = (*toks)[0];
    for (auto& ch : d.name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    d.args.assign(toks->begin() + 1, toks->end());
    if (d.name == "include") {
      if (d.args.size() != 1) return makeError(Reason::Invalid, fmt::format("line {}: include needs one path", lineNo));
      if (depth >= kMaxIncludeDepth)
        return makeError(Reason::Invalid, fmt::format("include {}: nested too deeply", d.args[0]));
      auto body = read(d.args[0]);
      if (!body) return body.error();
      if (Status st = readInto(body.value(), read, depth + 1, out); !st) return st;
      continue;
    }
    out.push_back(std::move(d));
  }
  return {};
}

}  // namespace

std::optional<std::vector<std::string>> splitConfigLine(std::string_view line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && isSpace(line[i])) ++i;
    if (i >= line.size()) return out;
    auto t = token(line, i);
    if (!t) return std::nullopt;
    out.push_back(std::move(*t));
  }
}

std::string ConfigDirective::joined() const {
  std::string out;
  for (const auto& a : args) {
    if (!out.empty()) out += ' ';
    out += a;
  }
  return out;
}

Result<std::vector<ConfigDirective>> readConfigText(std::string_view text, const ConfigFileReader& read) {
  std::vector<ConfigDirective> out;
  if (Status st = readInto(text, read, 0, out); !st) return st.error();
  return out;
}

}  // namespace kun::sim
