#include <algorithm>
#include <initializer_list>
#include <set>

#include <fmt/format.h>

#include "chaos/faults/duration_text.h"
#include "scenarios/timeline.h"

namespace kun::scenario {

namespace {

constexpr int kLabelWidth = 200;
constexpr int kPlotWidth = 1000;
constexpr int kRow = 22;
constexpr int kTop = 40;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

const char* colorOf(const std::string& role) {
  if (role == "master") return "#d62728";
  if (role == "replica") return "#1f77b4";
  if (role == "sentinel") return "#7f7f7f";
  if (role == "starting") return "#aec7e8";
  if (role == "hung") return "#ff7f0e";
  if (role == "down") return "#222222";
  return "#dddddd";
}

// Tick spacing giving at most ten ticks.
Duration tickStep(Duration span) {
  for (Duration d : std::initializer_list<Duration>{seconds(1), seconds(2), seconds(5), seconds(10), seconds(30),
                                                   minutes(1), minutes(2), minutes(5), minutes(10), minutes(30), hours(1)})
    if (span / d <= 10) return d;
  return hours(6);
}

struct Scale {
  TimePoint t0;
  Duration span;
  double x(TimePoint t) const {
    const double f = span.count() > 0 ? static_cast<double>((t - t0).count()) / static_cast<double>(span.count()) : 0;
    return kLabelWidth + std::clamp(f, 0.0, 1.0) * kPlotWidth;
  }
};

void rect(std::string& out, double x0, double x1, int y, int h, const char* fill, const std::string& title) {
  out += fmt::format(R"(<rect x="{:.1f}" y="{}" width="{:.1f}" height="{}" fill="{}"><title>{}</title></rect>)", x0, y,
                     std::max(x1 - x0, 1.0), h, fill, escape(title));
  out += "\n";
}

void label(std::string& out, int y, const std::string& text) {
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{}</text>)", kLabelWidth - 6, y + kRow - 8, escape(text));
  out += "\n";
}

// Greedy lanes: each fault goes to the first lane free at its start.
std::vector<int> lanesOf(const std::vector<TimelineSpan>& faults, std::vector<TimePoint>& laneEnds, const Scale& s) {
  std::vector<int> lanes;
  for (const auto& f : faults) {
    // An instant still takes a few pixels.
    const TimePoint visibleEnd = std::max(f.end, f.begin + s.span / 100);
    std::size_t lane = 0;
    while (lane < laneEnds.size() && laneEnds[lane] > f.begin) ++lane;
    if (lane == laneEnds.size()) laneEnds.push_back(visibleEnd);
    else laneEnds[lane] = visibleEnd;
    lanes.push_back(static_cast<int>(lane));
  }
  return lanes;
}

}  // namespace

std::string renderTimelineSvg(const Timeline& t) {
  const TimePoint t0 = t.samples.empty() ? TimePoint{} : std::min(t.samples.front().time, t.end);
  const Scale s{t0, t.end - t0};
  std::set<std::string> nodeSet;
  for (const auto& smp : t.samples)
    for (const auto& [n, r] : smp.roles) nodeSet.insert(n);
  const std::vector<std::string> nodes(nodeSet.begin(), nodeSet.end());
  std::vector<TimePoint> laneEnds;
  const auto lanes = lanesOf(t.faults, laneEnds, s);
  const int healthRow = kTop + static_cast<int>(nodes.size()) * kRow;
  const int faultTop = healthRow + kRow + 10;
  const int height = faultTop + static_cast<int>(std::max<std::size_t>(laneEnds.size(), 1)) * kRow + 30;
  const int width = kLabelWidth + kPlotWidth + 20;

  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="12">)",
      width, height);
  out += "\n";
  out += fmt::format(R"(<text x="10" y="20" font-size="14" font-weight="bold">{}</text>)", escape(t.title)) + "\n";

  // Node rows: a step function of the samples, equal neighbours merged into one bar.
  for (std::size_t row = 0; row < nodes.size(); ++row) {
    const int y = kTop + static_cast<int>(row) * kRow;
    label(out, y, nodes[row]);
    for (std::size_t i = 0; i < t.samples.size();) {
      const auto it = t.samples[i].roles.find(nodes[row]);
      const std::string role = it == t.samples[i].roles.end() ? "" : it->second;
      std::size_t j = i + 1;
      while (j < t.samples.size()) {
        const auto jt = t.samples[j].roles.find(nodes[row]);
        if ((jt == t.samples[j].roles.end() ? "" : jt->second) != role) break;
        ++j;
      }
      const TimePoint b = t.samples[i].time, e = j < t.samples.size() ? t.samples[j].time : t.end;
      if (!role.empty())
        rect(out, s.x(b), s.x(e), y + 2, kRow - 4, colorOf(role),
             fmt::format("{} {} from {} to {}", nodes[row], role, formatLoopTime(b), formatLoopTime(e)));
      i = j;
    }
  }

  label(out, healthRow, "healthy");
  for (std::size_t i = 0; i < t.samples.size();) {
    std::size_t j = i + 1;
    while (j < t.samples.size() && t.samples[j].healthy == t.samples[i].healthy) ++j;
    const TimePoint b = t.samples[i].time, e = j < t.samples.size() ? t.samples[j].time : t.end;
    const bool h = t.samples[i].healthy;
    rect(out, s.x(b), s.x(e), healthRow + 2, kRow - 4, h ? "#2ca02c" : "#f2b8b8",
         fmt::format("{} from {} to {}", h ? "healthy" : "not healthy", formatLoopTime(b), formatLoopTime(e)));
    i = j;
  }

  label(out, faultTop, "faults");
  for (std::size_t i = 0; i < t.faults.size(); ++i) {
    const auto& f = t.faults[i];
    const int y = faultTop + lanes[i] * kRow;
    const double x0 = s.x(f.begin);
    const double x1 = f.end > f.begin ? s.x(f.end) : x0 + 4;
    rect(out, x0, x1, y + 2, kRow - 4, "#9467bd",
         fmt::format("{} ({} - {})", f.label, formatLoopTime(f.begin), formatLoopTime(f.end)));
    out += fmt::format(R"(<text x="{:.1f}" y="{}" font-size="10">{}</text>)", x0 + 2, y + kRow - 8, escape(f.label));
    out += "\n";
  }

  for (const auto& m : t.failovers) {
    const double x = s.x(m.time);
    out += fmt::format(R"(<line x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{}" stroke="#000" stroke-dasharray="4,2"><title>{} at {}</title></line>)",
                       x, kTop, x, healthRow + kRow, escape(m.label), formatLoopTime(m.time));
    out += "\n";
  }

  // Time axis.
  const int axisY = height - 12;
  if (s.span.count() > 0) {
    const Duration step = tickStep(s.span);
    for (Duration d{0}; d <= s.span; d += step) {
      const double x = s.x(t0 + d);
      out += fmt::format(R"(<line x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{}" stroke="#ccc"/>)", x, kTop, x, axisY - 12);
      out += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle" font-size="10">{}</text>)", x, axisY,
                         chaos::formatDuration(d));
      out += "\n";
    }
  }
  out += "</svg>\n";
  return out;
}

}  // namespace kun::scenario
