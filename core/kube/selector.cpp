#include "core/kube/selector.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include <fmt/format.h>

#include "core/api/validation.h"

namespace kun {
namespace {

constexpr const char* kLabelField = "labelSelector";
constexpr const char* kFieldField = "fieldSelector";

Error invalidLabel(std::string message) {
  return makeError(Reason::Invalid, "unable to parse label selector: " + std::move(message), kLabelField);
}

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Characters that end an identifier in the label-selector grammar, as in Kubernetes' lexer
// ('<' and '>' are its Gt/Lt operators, which this project does not support).
bool isSpecial(char c) {
  return c == '!' || c == '=' || c == '(' || c == ')' || c == ',' || c == '<' || c == '>';
}

// A hand-written tokenizer: the grammar is small and a regex could not give position-aware
// messages.
class Lexer {
 public:
  enum class Kind { End, Ident, Comma, Open, Close, Eq, DoubleEq, NotEq, Bang, Gt, Lt };
  struct Token {
    Kind kind;
    std::string_view text;
  };

  explicit Lexer(std::string_view s) : s_(s) {}

  Token peek() {
    const std::size_t save = pos_;
    Token t = next();
    pos_ = save;
    return t;
  }

  Token next() {
    while (pos_ < s_.size() && isSpace(s_[pos_])) ++pos_;
    if (pos_ >= s_.size()) return {Kind::End, {}};
    const std::size_t start = pos_;
    const char c = s_[pos_];
    auto two = [&](char second) { return pos_ + 1 < s_.size() && s_[pos_ + 1] == second; };
    switch (c) {
      case ',': ++pos_; return {Kind::Comma, s_.substr(start, 1)};
      case '(': ++pos_; return {Kind::Open, s_.substr(start, 1)};
      case ')': ++pos_; return {Kind::Close, s_.substr(start, 1)};
      case '>': ++pos_; return {Kind::Gt, s_.substr(start, 1)};
      case '<': ++pos_; return {Kind::Lt, s_.substr(start, 1)};
      case '=':
        if (two('=')) { pos_ += 2; return {Kind::DoubleEq, s_.substr(start, 2)}; }
        ++pos_;
        return {Kind::Eq, s_.substr(start, 1)};
      case '!':
        if (two('=')) { pos_ += 2; return {Kind::NotEq, s_.substr(start, 2)}; }
        ++pos_;
        return {Kind::Bang, s_.substr(start, 1)};
      default: break;
    }
    while (pos_ < s_.size() && !isSpace(s_[pos_]) && !isSpecial(s_[pos_])) ++pos_;
    return {Kind::Ident, s_.substr(start, pos_ - start)};
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

std::string describe(const Lexer::Token& t) {
  return t.kind == Lexer::Kind::End ? std::string("end of input") : fmt::format("'{}'", t.text);
}

Status checkKey(std::string_view key) {
  if (auto e = validation::labelKey(key); !e.empty())
    return invalidLabel(fmt::format("invalid label key \"{}\": {}", key, e));
  return {};
}

Status checkValue(std::string_view key, std::string_view value) {
  if (auto e = validation::labelValue(value); !e.empty())
    return invalidLabel(fmt::format("invalid label value \"{}\" for key \"{}\": {}", value, key, e));
  return {};
}

void normalize(std::vector<std::string>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

bool isSetOp(LabelSelector::Op op) {
  return op == LabelSelector::Op::In || op == LabelSelector::Op::NotIn;
}

// Requirements in canonical order: by key, then operator, then values. Kubernetes sorts by
// key only; the finer order makes toString() a canonical form.
void sortRequirements(std::vector<LabelSelector::Requirement>& reqs) {
  std::sort(reqs.begin(), reqs.end(), [](const auto& a, const auto& b) {
    return std::tie(a.key, a.op, a.values) < std::tie(b.key, b.op, b.values);
  });
}

Result<std::vector<std::string>> parseValueList(Lexer& lx, std::string_view key, std::string_view opName) {
  std::vector<std::string> values;
  if (auto t = lx.next(); t.kind != Lexer::Kind::Open)
    return invalidLabel(fmt::format("found {} after \"{} {}\", expected '('", describe(t), key, opName));
  if (lx.peek().kind == Lexer::Kind::Close) {
    return invalidLabel(
        fmt::format("for 'in', 'notin' operators, values set can't be empty (key \"{}\")", key));
  }
  // Items may be empty ("(a,)" holds "a" and ""), as in Kubernetes.
  while (true) {
    std::string item;
    if (auto t = lx.peek(); t.kind == Lexer::Kind::Ident) {
      item = std::string(lx.next().text);
    }
    values.push_back(std::move(item));
    auto t = lx.next();
    if (t.kind == Lexer::Kind::Close) break;
    if (t.kind != Lexer::Kind::Comma)
      return invalidLabel(fmt::format("found {} in the values of \"{}\", expected ',' or ')'", describe(t), key));
  }
  for (const auto& v : values)
    if (auto st = checkValue(key, v); !st) return st.error();
  normalize(values);
  return values;
}

Result<LabelSelector::Requirement> parseRequirement(Lexer& lx) {
  using K = Lexer::Kind;
  using Op = LabelSelector::Op;
  auto t = lx.next();
  if (t.kind == K::Bang) {
    auto k = lx.next();
    if (k.kind != K::Ident) return invalidLabel(fmt::format("found {} after '!', expected a label key", describe(k)));
    if (auto st = checkKey(k.text); !st) return st.error();
    if (auto after = lx.peek(); after.kind != K::End && after.kind != K::Comma)
      return invalidLabel(fmt::format("found {} after \"!{}\", expected ',' or end of input", describe(after), k.text));
    return LabelSelector::Requirement{std::string(k.text), Op::DoesNotExist, {}};
  }
  if (t.kind != K::Ident) return invalidLabel(fmt::format("found {}, expected a label key", describe(t)));
  const std::string key(t.text);
  if (auto st = checkKey(key); !st) return st.error();

  auto op = lx.peek();
  switch (op.kind) {
    case K::End:
    case K::Comma:
      return LabelSelector::Requirement{key, Op::Exists, {}};
    case K::Eq:
    case K::DoubleEq:
    case K::NotEq: {
      lx.next();
      std::string value;
      if (auto v = lx.peek(); v.kind == K::Ident) {
        value = std::string(lx.next().text);
      } else if (v.kind != K::End && v.kind != K::Comma) {
        return invalidLabel(fmt::format("found {} after \"{}{}\", expected a label value", describe(v), key, op.text));
      }
      if (auto st = checkValue(key, value); !st) return st.error();
      return LabelSelector::Requirement{key, op.kind == K::NotEq ? Op::NotEquals : Op::Equals, {value}};
    }
    case K::Ident:
      if (op.text == "in" || op.text == "notin") {
        lx.next();
        auto values = parseValueList(lx, key, op.text);
        if (!values) return values.error();
        return LabelSelector::Requirement{key, op.text == "in" ? Op::In : Op::NotIn, std::move(*values)};
      }
      break;
    case K::Gt:
    case K::Lt:
      return invalidLabel(fmt::format("operator '{}' (key \"{}\") is not supported", op.text, key));
    default:
      break;
  }
  return invalidLabel(fmt::format(
      "found {} after \"{}\", expected one of '=', '==', '!=', 'in', 'notin', ',' or end of input",
      describe(op), key));
}

// The value a requirement's key has in `labels`, or nullptr. Labels stored on an object are
// read straight from the JSON so that matching a list does not copy every label map.
const std::string* lookup(const std::map<std::string, std::string>& labels, const std::string& key) {
  auto it = labels.find(key);
  return it == labels.end() ? nullptr : &it->second;
}

const std::string* lookup(const Object* labels, const std::string& key) {
  // memberOf: a label map is small, and its walk compares lengths before bytes where the
  // tree search makes a string compare per level (lists match every object they visit).
  const Object* v = labels ? memberOf(*labels, key) : nullptr;
  return v && v->is_string() ? &v->get_ref<const std::string&>() : nullptr;
}

template <class Labels>
bool matchesAll(const std::vector<LabelSelector::Requirement>& reqs, const Labels& labels) {
  using Op = LabelSelector::Op;
  for (const auto& r : reqs) {
    const std::string* v = lookup(labels, r.key);
    const bool inSet = v && std::binary_search(r.values.begin(), r.values.end(), *v);
    bool ok = false;
    switch (r.op) {
      case Op::Equals:
      case Op::In: ok = inSet; break;
      // As in Kubernetes: a missing key satisfies != and notin.
      case Op::NotEquals:
      case Op::NotIn: ok = !inSet; break;
      case Op::Exists: ok = v != nullptr; break;
      case Op::DoesNotExist: ok = v == nullptr; break;
    }
    if (!ok) return false;
  }
  return true;
}

std::string_view opText(LabelSelector::Op op) {
  switch (op) {
    case LabelSelector::Op::Equals: return "=";
    case LabelSelector::Op::NotEquals: return "!=";
    case LabelSelector::Op::In: return " in ";
    case LabelSelector::Op::NotIn: return " notin ";
    case LabelSelector::Op::Exists:
    case LabelSelector::Op::DoesNotExist: return "";
  }
  return "";
}

// --- field selectors -----------------------------------------------------------------

constexpr std::string_view kSupportedFields[] = {
    "metadata.name",        "metadata.namespace",      "involvedObject.kind", "involvedObject.name",
    "involvedObject.namespace", "involvedObject.uid", "spec.nodeName",       "status.phase"};

Error invalidField(std::string message) {
  return makeError(Reason::Invalid, std::move(message), kFieldField);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Splits on unescaped commas; a backslash escapes the next character.
std::vector<std::string_view> splitTerms(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == ',') {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(s.substr(start));
  return out;
}

// Kubernetes' field-selector value escaping: \\ \, \= are the only escapes, and an
// unescaped ',' or '=' in a value is an error.
Result<std::string> unescape(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (c == '\\') {
      if (i + 1 >= v.size()) return invalidField("invalid escape sequence: a value may not end with '\\'");
      const char n = v[++i];
      if (n != '\\' && n != ',' && n != '=')
        return invalidField(fmt::format("invalid escape sequence '\\{}'", n));
      out += n;
    } else if (c == '=' || c == ',') {
      return invalidField(fmt::format("invalid field selector value \"{}\": unescaped '{}'", v, c));
    } else {
      out += c;
    }
  }
  return out;
}

// The field's string value on obj, "" when absent (as Kubernetes' field sets report it).
std::string_view fieldValue(const Object& obj, std::string_view path) {
  const Object* cur = &obj;
  while (true) {
    if (!cur->is_object()) return {};
    const std::size_t dot = path.find('.');
    auto it = cur->find(path.substr(0, dot));
    if (it == cur->end()) return {};
    cur = &*it;
    if (dot == std::string_view::npos) break;
    path.remove_prefix(dot + 1);
  }
  return cur->is_string() ? std::string_view(cur->get_ref<const std::string&>()) : std::string_view{};
}

}  // namespace

Result<LabelSelector> LabelSelector::parse(std::string_view text) {
  LabelSelector sel;
  Lexer lx(text);
  if (lx.peek().kind == Lexer::Kind::End) return sel;
  while (true) {
    auto req = parseRequirement(lx);
    if (!req) return req.error();
    sel.reqs_.push_back(std::move(*req));
    auto t = lx.next();
    if (t.kind == Lexer::Kind::End) break;
    if (t.kind != Lexer::Kind::Comma)
      return invalidLabel(fmt::format("found {}, expected ',' or end of input", describe(t)));
  }
  sortRequirements(sel.reqs_);
  return sel;
}

Result<LabelSelector> LabelSelector::fromObject(const Object& selector) {
  LabelSelector sel;
  // A null selector is treated as empty (matches everything); Kubernetes' "nothing" has no
  // representation here and every caller that can get one validates it away first.
  if (selector.is_null()) return sel;
  if (!selector.is_object()) return makeError(Reason::Invalid, "a label selector must be an object", "selector");

  if (auto ml = selector.find("matchLabels"); ml != selector.end() && !ml->is_null()) {
    if (!ml->is_object()) return makeError(Reason::Invalid, "must be an object", "selector.matchLabels");
    for (auto it = ml->begin(); it != ml->end(); ++it) {
      const std::string field = "selector.matchLabels";
      if (auto e = validation::labelKey(it.key()); !e.empty())
        return makeError(Reason::Invalid, fmt::format("invalid label key \"{}\": {}", it.key(), e), field);
      if (!it->is_string())
        return makeError(Reason::Invalid, fmt::format("value of \"{}\" must be a string", it.key()), field);
      const auto& v = it->get_ref<const std::string&>();
      if (auto e = validation::labelValue(v); !e.empty())
        return makeError(Reason::Invalid, fmt::format("invalid label value \"{}\": {}", v, e), field);
      sel.reqs_.push_back({it.key(), Op::Equals, {v}});
    }
  }

  if (auto me = selector.find("matchExpressions"); me != selector.end() && !me->is_null()) {
    if (!me->is_array()) return makeError(Reason::Invalid, "must be an array", "selector.matchExpressions");
    for (std::size_t i = 0; i < me->size(); ++i) {
      const Object& e = (*me)[i];
      const std::string at = fmt::format("selector.matchExpressions[{}]", i);
      if (!e.is_object()) return makeError(Reason::Invalid, "must be an object", at);
      auto str = [&](const char* k) {
        auto it = e.find(k);
        return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
      };
      const std::string key = str("key");
      const std::string op = str("operator");
      if (auto err = validation::labelKey(key); !err.empty())
        return makeError(Reason::Invalid, fmt::format("invalid label key \"{}\": {}", key, err), at + ".key");

      std::vector<std::string> values;
      if (auto vs = e.find("values"); vs != e.end() && !vs->is_null()) {
        if (!vs->is_array()) return makeError(Reason::Invalid, "must be an array of strings", at + ".values");
        for (const auto& v : *vs) {
          if (!v.is_string()) return makeError(Reason::Invalid, "must be an array of strings", at + ".values");
          const auto& s = v.get_ref<const std::string&>();
          if (auto err = validation::labelValue(s); !err.empty())
            return makeError(Reason::Invalid, fmt::format("invalid label value \"{}\": {}", s, err), at + ".values");
          values.push_back(s);
        }
      }

      Op parsed;
      if (op == "In") parsed = Op::In;
      else if (op == "NotIn") parsed = Op::NotIn;
      else if (op == "Exists") parsed = Op::Exists;
      else if (op == "DoesNotExist") parsed = Op::DoesNotExist;
      else
        return makeError(Reason::Invalid, fmt::format("\"{}\" is not a valid label selector operator", op),
                         at + ".operator");

      if (isSetOp(parsed) && values.empty())
        return makeError(Reason::Invalid, "must be specified when `operator` is 'In' or 'NotIn'", at + ".values");
      if (!isSetOp(parsed) && !values.empty())
        return makeError(Reason::Invalid, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                         at + ".values");
      normalize(values);
      sel.reqs_.push_back({key, parsed, std::move(values)});
    }
  }
  sortRequirements(sel.reqs_);
  return sel;
}

LabelSelector LabelSelector::fromMap(const std::map<std::string, std::string>& labels) {
  LabelSelector sel;
  sel.reqs_.reserve(labels.size());
  for (const auto& [k, v] : labels) sel.reqs_.push_back({k, Op::Equals, {v}});
  return sel;  // already in key order
}

bool LabelSelector::matches(const std::map<std::string, std::string>& labels) const {
  return matchesAll(reqs_, labels);
}

bool LabelSelector::matches(const Object& obj) const {
  if (reqs_.empty()) return true;
  const Object* labels = nullptr;
  if (const Object* m = memberOf(obj, "metadata"))
    if (const Object* l = memberOf(*m, "labels"); l && l->is_object()) labels = l;
  return matchesAll(reqs_, labels);
}

std::string LabelSelector::toString() const {
  std::string out;
  for (const auto& r : reqs_) {
    if (!out.empty()) out += ',';
    if (r.op == Op::DoesNotExist) out += '!';
    out += r.key;
    out += opText(r.op);
    if (isSetOp(r.op)) {
      out += '(';
      for (std::size_t i = 0; i < r.values.size(); ++i) {
        if (i) out += ',';
        out += r.values[i];
      }
      // "()" would read back as an empty set; "(,)" is the set holding only "".
      if (r.values.size() == 1 && r.values.front().empty()) out += ',';
      out += ')';
    } else if (r.op == Op::Equals || r.op == Op::NotEquals) {
      out += r.values.empty() ? std::string() : r.values.front();
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> LabelSelector::requiredPairs() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& r : reqs_)
    if ((r.op == Op::Equals || r.op == Op::In) && r.values.size() == 1) out.emplace_back(r.key, r.values.front());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<FieldSelector> FieldSelector::parse(std::string_view text) {
  FieldSelector sel;
  if (trim(text).empty()) return sel;
  for (std::string_view raw : splitTerms(text)) {
    const std::string_view term = trim(raw);
    if (term.empty()) continue;  // "a=b,,c=d", as Kubernetes tolerates
    // The operator is the first unescaped "!=", "==" or "=".
    std::size_t opPos = std::string_view::npos, opLen = 0;
    bool equals = true;
    for (std::size_t i = 0; i < term.size(); ++i) {
      if (term[i] == '\\') { ++i; continue; }
      if (term[i] == '!' && i + 1 < term.size() && term[i + 1] == '=') { opPos = i; opLen = 2; equals = false; break; }
      if (term[i] == '=') { opPos = i; opLen = (i + 1 < term.size() && term[i + 1] == '=') ? 2 : 1; break; }
    }
    if (opPos == std::string_view::npos)
      return invalidField(fmt::format("invalid field selector term \"{}\": expected field=value, field==value or field!=value", term));
    const std::string_view field = trim(term.substr(0, opPos));
    if (std::find(std::begin(kSupportedFields), std::end(kSupportedFields), field) == std::end(kSupportedFields))
      return invalidField(fmt::format("field label not supported: \"{}\"", field));
    auto value = unescape(trim(term.substr(opPos + opLen)));
    if (!value) return value.error();
    sel.terms_.push_back({std::string(field), equals, std::move(*value)});
  }
  return sel;
}

bool FieldSelector::matches(const Object& obj) const {
  for (const auto& t : terms_)
    if ((fieldValue(obj, t.field) == t.value) != t.equals) return false;
  return true;
}

}  // namespace kun
