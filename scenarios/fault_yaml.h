#pragma once
// A fault as a YAML mapping, both ways:
//   {kind: network-partition, mode: one-way, from: master, to: sentinels, duration: 30s}
//   {kind: api-errors, code: 429, retryAfter: 2, rate: 1/10, target: pods, duration: 20s}
//   {kind: param-change, param: config, value: {maxmemory: 100mb}, valid: true}
// Fields: kind (required), at (schedule entries only), duration (lasting kinds), target,
// and per kind: mode/from/to (network-partition), latency (network-delay, api-latency),
// rate (network-loss, api-errors), code/retryAfter (api-errors), count (watch-gone,
// swizzle-clog), param/value/valid (param-change). A field that does not apply is an error.
#include <yaml-cpp/yaml.h>

#include "chaos/faults/fault.h"
#include "chaos/faults/fault_schedule.h"
#include "scenarios/yaml_errors.h"

namespace kun::scenario {

Result<chaos::Fault> parseFault(const YAML::Node& n, const YamlPlace& where, bool allowAt);
// A list of faults with `at`.
Result<chaos::FaultSchedule> parseSchedule(const YAML::Node& n, const YamlPlace& where);

// Writes only the fields that apply to the kind (and `at` when withAt).
void emitFault(YAML::Emitter& out, const chaos::Fault& f, bool withAt);

}  // namespace kun::scenario
