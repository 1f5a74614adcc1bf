#include "core/runtime/log.h"

#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/runtime/event_loop.h"

namespace kun {
namespace {

std::string_view levelName(LogLevel l) {
  switch (l) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warn: return "warn";
    case LogLevel::Error: return "error";
    case LogLevel::Off: return "off";
  }
  return "?";
}

bool needsQuotes(std::string_view v) {
  if (v.empty()) return true;
  for (char c : v)
    if (c == ' ' || c == '"' || c == '=' || static_cast<unsigned char>(c) < 0x20) return true;
  return false;
}

void appendValue(std::string& out, std::string_view v) {
  if (!needsQuotes(v)) {
    out += v;
    return;
  }
  out += nlohmann::json(std::string(v)).dump();  // JSON string escaping is a fine quoting
}

}  // namespace

bool parseLogLevel(std::string_view s, LogLevel& out) {
  for (auto l : {LogLevel::Debug, LogLevel::Info, LogLevel::Warn, LogLevel::Error, LogLevel::Off}) {
    if (s == levelName(l)) {
      out = l;
      return true;
    }
  }
  return false;
}

Logger::Logger(const EventLoop* clock, LogLevel level, Sink sink)
    : clock_(clock), level_(level) {
  setSink(std::move(sink));
}

void Logger::setSink(Sink s) {
  if (!s) s = [](std::string_view line) { std::fprintf(stderr, "%.*s\n", int(line.size()), line.data()); };
  sink_ = std::make_shared<Sink>(std::move(s));
}

Logger Logger::withComponent(std::string_view component) const {
  Logger l = *this;
  l.component_ = component;
  return l;
}

void Logger::log(LogLevel l, std::string_view msg, LogFields fields) const {
  if (!enabled(l)) return;
  const std::string t = clock_ ? formatLoopTime(clock_->now()) : std::string("-");
  std::string line;
  if (json_) {
    nlohmann::json j;
    j["t"] = t;
    j["level"] = levelName(l);
    if (!component_.empty()) j["component"] = component_;
    j["msg"] = msg;
    for (const auto& [k, v] : fields) j[std::string(k)] = v;
    line = j.dump();
  } else {
    line = fmt::format("t={} level={}", t, levelName(l));
    if (!component_.empty()) line += " component=" + component_;
    line += " msg=";
    appendValue(line, msg);
    for (const auto& [k, v] : fields) {
      line += ' ';
      line += k;
      line += '=';
      appendValue(line, v);
    }
  }
  (*sink_)(line);
}

}  // namespace kun
