#pragma once
// What the preStop hook recognises in a shutdown script's text (pod_prestop.cpp), read
// with plain scans that answer what these ECMAScript patterns' first match answers (the
// group in parentheses):
//   saves          (^|\n)[^#\n]*redis-cli[^\n]* SAVE\s*(\n|$)     (matched at all)
//   sentinelHost   -h\s+([A-Za-z0-9][A-Za-z0-9.-]*)\s+-p\s+\d+\s+"\$@"
//   sentinelPort   -h\s+[A-Za-z0-9.-]+\s+-p\s+(\d+)\s+"\$@"
//   masterName     get-master-addr-by-name\s+(\S+)
//   loopBound      \$i\s+-lt\s+(\d+)
// ("" when there is no match). std::regex compiled these at a cost of a third of a
// simulated run's pod bridge; tests/unit/world checks the scans against the patterns.
#include <string>
#include <string_view>

namespace kun::sim::shutdown_text {

bool saves(std::string_view text);
std::string sentinelHost(std::string_view text);
std::string sentinelPort(std::string_view text);
std::string masterName(std::string_view text);
std::string loopBound(std::string_view text);

}  // namespace kun::sim::shutdown_text
