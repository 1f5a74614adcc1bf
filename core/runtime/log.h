#pragma once
// Structured logging on the loop's clock: `t=12.345s level=info component=store msg="..." k=v`
// or one JSON object per line. In a simulation every timestamp is virtual.
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace kun {

class EventLoop;

enum class LogLevel { Debug = 0, Info = 1, Warn = 2, Error = 3, Off = 4 };

// Parses "debug", "info", "warn", "error", "off"; false if unknown.
bool parseLogLevel(std::string_view s, LogLevel& out);

using LogField = std::pair<std::string_view, std::string>;
using LogFields = std::initializer_list<LogField>;

class Logger {
 public:
  using Sink = std::function<void(std::string_view line)>;

  // Writes to stderr by default.
  Logger(const EventLoop* clock, LogLevel level = LogLevel::Info, Sink sink = {});

  void setLevel(LogLevel l) { level_ = l; }
  LogLevel level() const { return level_; }
  void setJson(bool json) { json_ = json; }
  void setSink(Sink s);
  bool enabled(LogLevel l) const { return l >= level_; }

  // A logger that adds component=NAME to every line and shares this one's settings.
  Logger withComponent(std::string_view component) const;

  void log(LogLevel l, std::string_view msg, LogFields fields = {}) const;
  void debug(std::string_view msg, LogFields f = {}) const { log(LogLevel::Debug, msg, f); }
  void info(std::string_view msg, LogFields f = {}) const { log(LogLevel::Info, msg, f); }
  void warn(std::string_view msg, LogFields f = {}) const { log(LogLevel::Warn, msg, f); }
  void error(std::string_view msg, LogFields f = {}) const { log(LogLevel::Error, msg, f); }

 private:
  const EventLoop* clock_;
  LogLevel level_;
  bool json_ = false;
  std::shared_ptr<Sink> sink_;
  std::string component_;
};

}  // namespace kun
