#pragma once
// Reading redis.conf / sentinel.conf text as redis-server does: one directive per line,
// tokens split by Redis' sdssplitargs rules, `include PATH` replaced by that file's
// directives in place.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime/result.h"

namespace kun::sim {

// One line's tokens: bare words, "..." with \n \r \t \b \a \\ \" \xHH escapes, '...' with
// only \' ; a closing quote must be followed by a space or the end of the line. nullopt:
// unbalanced quotes (redis-server refuses the file).
std::optional<std::vector<std::string>> splitConfigLine(std::string_view line);

struct ConfigDirective {
  std::string name;  // lower case
  std::vector<std::string> args;
  std::string joined() const;  // the arguments separated by single spaces
};

// Reads an included file by its path (as the process sees it).
using ConfigFileReader = std::function<Result<std::string>(const std::string& path)>;

// The directives of a config text, comments and blank lines skipped, includes expanded
// (up to a small depth, so a file including itself is an error, not a loop). Invalid: a
// line with unbalanced quotes, an include without a path; errors of the reader pass through.
Result<std::vector<ConfigDirective>> readConfigText(std::string_view text, const ConfigFileReader& read);

}  // namespace kun::sim
