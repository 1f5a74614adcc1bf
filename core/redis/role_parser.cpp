#include "core/redis/role_parser.h"

#include <charconv>

#include "core/redis/reply_error.h"

namespace kun {

namespace {

// ROLE mixes integers and numeric strings (a master lists replica ports as strings).
bool asInt(const RedisReply& r, std::int64_t& out) {
  if (r.type == RedisReply::Type::Integer) {
    out = r.integer;
    return true;
  }
  if (r.type != RedisReply::Type::String && r.type != RedisReply::Type::Status) return false;
  auto [p, ec] = std::from_chars(r.str.data(), r.str.data() + r.str.size(), out);
  return ec == std::errc() && p == r.str.data() + r.str.size();
}

bool asString(const RedisReply& r, std::string& out) {
  if (r.type != RedisReply::Type::String && r.type != RedisReply::Type::Status) return false;
  out = r.str;
  return true;
}

Error bad(std::string_view what) { return makeError(Reason::Invalid, "ROLE: " + std::string(what)); }

}  // namespace

Result<RoleInfo> parseRole(const RedisReply& reply) {
  if (reply.type != RedisReply::Type::Array) return unexpectedReply("ROLE", "an array", reply);
  const auto& e = reply.elements;
  std::string kind;
  if (e.empty() || !asString(e[0], kind)) return bad("first element is not the role name");
  RoleInfo info;
  if (kind == "master") {
    info.kind = RoleInfo::Kind::Master;
    if (e.size() < 3 || !asInt(e[1], info.masterReplOffset) ||
        e[2].type != RedisReply::Type::Array) {
      return bad("master reply is not [master, offset, [replicas]]");
    }
    for (const auto& r : e[2].elements) {
      RoleInfo::Replica rep;
      std::int64_t port = 0;
      if (r.type != RedisReply::Type::Array || r.elements.size() < 3 ||
          !asString(r.elements[0], rep.ip) || !asInt(r.elements[1], port) ||
          !asInt(r.elements[2], rep.offset)) {
        return bad("master's replica entry is not [ip, port, offset]");
      }
      rep.port = static_cast<int>(port);
      info.replicas.push_back(std::move(rep));
    }
  } else if (kind == "slave" || kind == "replica") {
    info.kind = RoleInfo::Kind::Replica;
    std::int64_t port = 0;
    if (e.size() < 5 || !asString(e[1], info.masterHost) || !asInt(e[2], port) ||
        !asString(e[3], info.linkState) || !asInt(e[4], info.replicaOffset)) {
      return bad("replica reply is not [slave, host, port, state, offset]");
    }
    info.masterPort = static_cast<int>(port);
  } else if (kind == "sentinel") {
    info.kind = RoleInfo::Kind::Sentinel;
    if (e.size() < 2 || e[1].type != RedisReply::Type::Array) {
      return bad("sentinel reply is not [sentinel, [names]]");
    }
    for (const auto& n : e[1].elements) {
      std::string name;
      if (!asString(n, name)) return bad("sentinel master name is not a string");
      info.monitoredMasters.push_back(std::move(name));
    }
  } else {
    return bad("unknown role '" + kind + "'");
  }
  return info;
}

}  // namespace kun
