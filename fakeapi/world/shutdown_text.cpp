#include "fakeapi/world/shutdown_text.h"

namespace kun::sim::shutdown_text {

namespace {

// \s and \d as std::regex reads them in the "C" locale.
bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool alnum(char c) { return digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool hostChar(char c) { return alnum(c) || c == '.' || c == '-'; }

// A cursor over the text from one candidate start; each step consumes what its pattern
// element takes (the elements here are greedy runs whose class excludes the next element's
// first character, so no step ever needs to give characters back).
struct Scan {
  std::string_view text;
  std::size_t at;
  bool ok = true;

  bool done() const { return at >= text.size(); }
  Scan& literal(std::string_view s) {
    if (ok && text.substr(at, s.size()) == s) at += s.size();
    else ok = false;
    return *this;
  }
  // One or more characters of the class; their text.
  template <class Class>
  std::string_view some(Class in) {
    const std::size_t from = at;
    while (ok && !done() && in(text[at])) ++at;
    if (at == from) ok = false;
    return ok ? text.substr(from, at - from) : std::string_view();
  }
};

// The group of the leftmost match: `match` tries one start and returns its group (ok false
// when it does not match there).
template <class Match>
std::string leftmost(std::string_view text, std::string_view first, Match match) {
  for (std::size_t i = text.find(first); i != std::string_view::npos; i = text.find(first, i + 1)) {
    Scan s{text, i};
    const std::string_view group = match(s);
    if (s.ok) return std::string(group);
  }
  return {};
}

std::string_view hostPortTail(Scan& s, bool groupIsPort, bool hostStartsAlnum) {
  std::string_view host, port;
  s.literal("-h");
  s.some(space);
  if (hostStartsAlnum && s.ok && (s.done() || !alnum(s.text[s.at]))) s.ok = false;
  host = s.some(hostChar);
  s.some(space);
  s.literal("-p");
  s.some(space);
  port = s.some(digit);
  s.some(space);
  s.literal("\"$@\"");
  return groupIsPort ? port : host;
}

}  // namespace

bool saves(std::string_view text) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    const std::size_t cli = line.find("redis-cli");
    if (cli != std::string_view::npos && line.substr(0, cli).find('#') == std::string_view::npos) {
      // \s* then (\n|$): what follows the last " SAVE" on the line must be white space.
      const std::size_t save = line.rfind(" SAVE");
      if (save != std::string_view::npos && save >= cli + 9) {
        bool blank = true;
        for (char c : line.substr(save + 5)) blank = blank && space(c);
        if (blank) return true;
      }
    }
    if (end >= text.size()) return false;
    start = end + 1;
  }
}

std::string sentinelHost(std::string_view text) {
  return leftmost(text, "-h", [](Scan& s) { return hostPortTail(s, false, true); });
}

std::string sentinelPort(std::string_view text) {
  return leftmost(text, "-h", [](Scan& s) { return hostPortTail(s, true, false); });
}

std::string masterName(std::string_view text) {
  return leftmost(text, "get-master-addr-by-name", [](Scan& s) {
    s.literal("get-master-addr-by-name");
    s.some(space);
    return s.some([](char c) { return !space(c); });
  });
}

std::string loopBound(std::string_view text) {
  return leftmost(text, "$i", [](Scan& s) {
    s.literal("$i");
    s.some(space);
    s.literal("-lt");
    s.some(space);
    return s.some(digit);
  });
}

}  // namespace kun::sim::shutdown_text
