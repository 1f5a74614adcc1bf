// The data, connection and administration commands of the simulated redis-server.
#include <fmt/format.h>

#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/resp.h"

namespace kun::redissim {

RedisReply RedisNode::cmdPing(Client& cl, ConnId, RequestId, const Argv& argv, bool*) {
  if (argv.size() > 2) return errArity("ping");
  if (!cl.channels.empty())  // RESP2 subscriber context: PING answers as a message
    return bulkArray({"pong", argv.size() == 2 ? argv[1] : ""});
  if (argv.size() == 2) return RedisReply::bulk(argv[1]);
  return RedisReply::status("PONG");
}

RedisReply RedisNode::cmdEcho(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  return RedisReply::bulk(argv[1]);
}

RedisReply RedisNode::cmdAuth(Client& cl, ConnId, RequestId, const Argv& argv, bool*) {
  if (argv.size() > 3) return errSyntax();
  const std::string& pass = config_.str("requirepass");
  const std::string& given = argv.back();
  if (argv.size() == 2 && pass.empty())
    return RedisReply::error(
        "ERR AUTH <password> called without any password configured for the default user. Are you "
        "sure your configuration is correct?");
  const bool userOk = argv.size() == 2 || argv[1] == "default";
  // The default user with no requirepass is "nopass": any password works for it.
  if (userOk && (pass.empty() || given == pass)) {
    cl.authed = true;
    return ok();
  }
  return RedisReply::error("WRONGPASS invalid username-password pair or user is disabled.");
}

RedisReply RedisNode::cmdSet(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  bool nx = false, xx = false, get = false;
  for (std::size_t i = 3; i < argv.size(); ++i) {
    const std::string o = lower(argv[i]);
    if (o == "nx") nx = true;
    else if (o == "xx") xx = true;
    else if (o == "get") get = true;
    else if ((o == "ex" || o == "px" || o == "exat" || o == "pxat") && i + 1 < argv.size()) {
      // Expiry is accepted but not modelled (keys in the simulator never expire).
      auto v = parseInt(argv[++i]);
      if (!v) return RedisReply::error("ERR value is not an integer or out of range");
      if (*v <= 0) return RedisReply::error("ERR invalid expire time in 'set' command");
    } else if (o == "keepttl") {
    } else {
      return errSyntax();
    }
  }
  if (nx && xx) return errSyntax();
  auto it = data_.find(argv[1]);
  const bool exists = it != data_.end();
  RedisReply old = exists ? RedisReply::bulk(it->second) : RedisReply::nil();
  if ((nx && exists) || (xx && !exists)) return get ? old : RedisReply::nil();
  applyWrite({"SET", argv[1], argv[2]});
  propagate({"SET", argv[1], argv[2]});
  return get ? old : ok();
}

RedisReply RedisNode::cmdGet(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  auto it = data_.find(argv[1]);
  return it == data_.end() ? RedisReply::nil() : RedisReply::bulk(it->second);
}

RedisReply RedisNode::cmdMget(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  std::vector<RedisReply> out;
  out.reserve(argv.size() - 1);
  for (std::size_t i = 1; i < argv.size(); ++i) {
    auto it = data_.find(argv[i]);
    out.push_back(it == data_.end() ? RedisReply::nil() : RedisReply::bulk(it->second));
  }
  return RedisReply::array(std::move(out));
}

RedisReply RedisNode::cmdDel(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  std::int64_t n = 0;
  Argv del{"DEL"};
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (data_.count(argv[i])) {
      ++n;
      del.push_back(argv[i]);
    }
  }
  if (del.size() > 1) {
    applyWrite(del);
    propagate(std::move(del));
  }
  return intReply(n);
}

RedisReply RedisNode::cmdExists(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  std::int64_t n = 0;
  for (std::size_t i = 1; i < argv.size(); ++i) n += data_.count(argv[i]) ? 1 : 0;
  return intReply(n);
}

RedisReply RedisNode::cmdIncr(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  std::int64_t v = 0;
  auto it = data_.find(argv[1]);
  if (it != data_.end()) {
    auto p = parseInt(it->second);
    if (!p) return RedisReply::error("ERR value is not an integer or out of range");
    v = *p;
  }
  ++v;
  // Propagated as the resulting SET, which replays identically on replicas.
  applyWrite({"SET", argv[1], std::to_string(v)});
  propagate({"SET", argv[1], std::to_string(v)});
  return intReply(v);
}

RedisReply RedisNode::cmdDbsize(Client&, ConnId, RequestId, const Argv&, bool*) {
  return intReply(static_cast<std::int64_t>(data_.size()));
}

RedisReply RedisNode::cmdFlushall(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  if (argv.size() > 2 || (argv.size() == 2 && !iequals(argv[1], "async") && !iequals(argv[1], "sync")))
    return errSyntax();
  applyWrite({"FLUSHALL"});
  propagate({"FLUSHALL"});
  return ok();
}

RedisReply RedisNode::cmdSelect(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  auto v = parseInt(argv[1]);
  if (!v) return RedisReply::error("ERR value is not an integer or out of range");
  if (*v < 0 || *v >= config_.integer("databases")) return RedisReply::error("ERR DB index is out of range");
  // Simplification: one keyspace; SELECT of another db is accepted but shares db 0.
  return ok();
}

void RedisNode::applyWrite(const Argv& argv) {
  const std::string& name = argv[0];
  if (iequals(name, "set") && argv.size() >= 3) {
    auto [it, inserted] = data_.try_emplace(argv[1], argv[2]);
    if (inserted) {
      dataBytes_ += static_cast<std::int64_t>(argv[1].size() + argv[2].size());
    } else {
      dataBytes_ += static_cast<std::int64_t>(argv[2].size()) - static_cast<std::int64_t>(it->second.size());
      it->second = argv[2];
    }
  } else if (iequals(name, "del")) {
    for (std::size_t i = 1; i < argv.size(); ++i) {
      auto it = data_.find(argv[i]);
      if (it == data_.end()) continue;
      dataBytes_ -= static_cast<std::int64_t>(it->first.size() + it->second.size());
      data_.erase(it);
    }
  } else if (iequals(name, "flushall") || iequals(name, "flushdb")) {
    data_.clear();
    dataBytes_ = 0;
  } else {
    return;  // PING, SELECT, PUBLISH...: no data change
  }
  noteWrite(argv);
}

// --- INFO / ROLE / CONFIG / CLIENT ------------------------------------------------------

RedisReply RedisNode::cmdInfo(Client&, ConnId c, RequestId, const Argv& argv, bool*) {
  // adminReplicationInfo's caller reads the fields: no text to write when they read back.
  if (replicationOut_ != nullptr && argv.size() == 2 && iequals(argv[1], "replication") &&
      replicationFields(*replicationOut_)) {
    replicationOut_ = nullptr;
    return {};
  }
  // A simulated Sentinel's periodic INFO: the lines it reads (most INFO commands are these).
  if (argv.size() == 1 && fabric().isSentinelClient(c)) {
    RedisReply lines;
    lines.type = RedisReply::Type::String;
    if (sentinelInfoText(lines.str)) return lines;
  }
  std::string section = argv.size() >= 2 ? lower(argv[1]) : "default";
  return RedisReply::bulk(infoText(section));
}

RedisReply RedisNode::cmdRole(Client&, ConnId, RequestId, const Argv&, bool*) { return roleReply(); }

RedisReply RedisNode::cmdConfig(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  const std::string sub = lower(argv[1]);
  if (sub == "get") {
    if (argv.size() < 3) return errArity("config|get");
    auto found = config_.get(std::span(argv).subspan(2));
    std::vector<RedisReply> flat;
    flat.reserve(2 * found.size());
    for (auto& [k, v] : found) {
      flat.push_back(RedisReply::bulk(std::move(k)));
      flat.push_back(RedisReply::bulk(std::move(v)));
    }
    return RedisReply::array(std::move(flat));
  }
  if (sub == "set") {
    if (argv.size() < 4 || (argv.size() - 2) % 2 != 0) return errArity("config|set");
    std::vector<std::pair<std::string, std::string>> kv;
    for (std::size_t i = 2; i + 1 < argv.size(); i += 2) kv.emplace_back(argv[i], argv[i + 1]);
    // port: the new listener must be free
    for (const auto& [k, v] : kv) {
      if (config_.canonical(k) == "port") {
        auto p = parseInt(v);
        if (p && *p != port_) {
          SimProcess* other = fabric().listener({ip(), static_cast<int>(*p)});
          if (other != nullptr && other != this)
            return RedisReply::error("ERR CONFIG SET failed (possibly related to argument '" + k +
                                     "') - Unable to listen on this port");
        }
      }
    }
    std::vector<std::string> changed;
    const std::string err = config_.set(kv, &changed);
    if (!err.empty()) return RedisReply::error(err);
    refreshHotConfig();
    for (const auto& name : changed) {
      if (name == "port") {
        fabric().unlisten(endpoint(), procId());
        port_ = static_cast<int>(config_.integer("port"));
        fabric().listen(endpoint(), procId());
      } else if (name == "appendonly" && config_.flag("appendonly")) {
        disk_.aof = data_;  // the AOF rewrite started by turning appendonly on
        aofPending_.clear();
      } else if (name == "repl-backlog-size") {
        trimBacklog();
      } else if (name == "min-replicas-to-write" || name == "min-replicas-max-lag") {
        refreshGoodReplicas();
      }
      record(fmt::format("config set {}", name));
    }
    return ok();
  }
  if (sub == "rewrite") {
    if (argv.size() != 2) return errArity("config|rewrite");
    // Sentinel sends it with every SLAVEOF of a failover: on a read-only file the role it
    // gave is not what a restart reads (a pod-failure's restart of a promoted, empty master
    // booted it as master, and its replicas resynced to nothing).
    if (!opts_.configWritable) return RedisReply::error("ERR Rewriting config file: Read-only file system");
    rewriteConfig();
    return ok();
  }
  if (sub == "resetstat") {
    statCommands_ = statConnections_ = statFullSyncs_ = statPartialOk_ = statPartialErr_ = 0;
    return ok();
  }
  return RedisReply::error("ERR unknown subcommand '" + argv[1] + "'. Try CONFIG HELP.");
}

RedisReply RedisNode::cmdClient(Client& cl, ConnId c, RequestId, const Argv& argv, bool*) {
  const std::string sub = lower(argv[1]);
  if (sub == "setname" && argv.size() == 3) {
    cl.name = argv[2];
    return ok();
  }
  if (sub == "getname" && argv.size() == 2) return cl.name.empty() ? RedisReply::nil() : RedisReply::bulk(cl.name);
  if (sub == "id" && argv.size() == 2) return intReply(static_cast<std::int64_t>(c));
  if (sub == "kill" && argv.size() >= 4 && iequals(argv[2], "type")) {
    const std::string type = lower(argv[3]);
    std::int64_t killed = 0;
    if (type == "master") {
      if (link_.conn != 0 && link_.state != LinkState::None) {
        linkLost("killed by CLIENT KILL");
        killed = 1;
      }
      return intReply(killed);
    }
    std::vector<ConnId> victims;
    for (auto& [id, other] : clients_) {
      if (id == c) continue;  // SKIPME yes
      const bool isPubsub = !other.channels.empty();
      const bool isRepl = other.isReplica;
      if ((type == "normal" && !isPubsub && !isRepl) || (type == "pubsub" && isPubsub) ||
          ((type == "replica" || type == "slave") && isRepl))
        victims.push_back(id);
    }
    if (type != "normal" && type != "pubsub" && type != "replica" && type != "slave")
      return RedisReply::error("ERR Unknown client type '" + argv[3] + "'");
    for (ConnId v : victims) {
      onPeerClosed(v);
      fabric().serverClose(v);
      ++killed;
    }
    return intReply(killed);
  }
  if (sub == "list") {
    std::string out;
    for (auto& [id, other] : clients_) {
      out += fmt::format("id={} addr={}:0 name={} flags={} sub={}\n", id, fabric().net().ipOf(other.peer),
                         other.name, other.isReplica ? "S" : "N", other.channels.size());
    }
    return RedisReply::bulk(out);
  }
  return RedisReply::error("ERR unknown subcommand or wrong number of arguments for '" + argv[1] +
                           "'. Try CLIENT HELP.");
}

// --- transactions ------------------------------------------------------------------------

RedisReply RedisNode::cmdMulti(Client& cl, ConnId, RequestId, const Argv&, bool*) {
  if (cl.inMulti) return RedisReply::error("ERR MULTI calls can not be nested");
  cl.inMulti = true;
  cl.multiError = false;
  cl.queued.clear();
  return ok();
}

RedisReply RedisNode::cmdExec(Client& cl, ConnId c, RequestId r, const Argv&, bool*) {
  if (!cl.inMulti) return RedisReply::error("ERR EXEC without MULTI");
  cl.inMulti = false;
  std::vector<Argv> queued = std::move(cl.queued);
  cl.queued.clear();
  if (cl.multiError) {
    cl.multiError = false;
    return RedisReply::error("EXECABORT Transaction discarded because of previous errors.");
  }
  std::vector<RedisReply> out;
  for (const auto& a : queued) {
    bool d = false;
    out.push_back(execCommand(cl, c, r, a, &d));
  }
  return RedisReply::array(std::move(out));
}

RedisReply RedisNode::cmdDiscard(Client& cl, ConnId, RequestId, const Argv&, bool*) {
  if (!cl.inMulti) return RedisReply::error("ERR DISCARD without MULTI");
  cl.inMulti = false;
  cl.multiError = false;
  cl.queued.clear();
  return ok();
}

// --- pub/sub -----------------------------------------------------------------------------

std::size_t RedisNode::deliverPublish(const std::string& channel, const std::string& message) {
  auto it = channels_.find(channel);
  if (it == channels_.end()) return 0;
  // One message, shared by every subscriber's delivery (and by later deliveries of the
  // same text: it is never changed once made).
  std::shared_ptr<const RedisReply> shared;
  // At most one kept message matches (one is kept only when none does): stop at it.
  for (const auto& p : published_) {
    if (p && p->elements[2].str == message && p->elements[1].str == channel) {
      shared = p;
      break;
    }
  }
  if (!shared) {
    // Its three strings are written in place (an initializer list of replies made each
    // one, then copied it).
    auto msg = std::make_shared<RedisReply>();
    msg->type = RedisReply::Type::Array;
    msg->elements.resize(3);
    for (auto& e : msg->elements) e.type = RedisReply::Type::String;
    msg->elements[0].str = "message";
    msg->elements[1].str = channel;
    msg->elements[2].str = message;
    shared = std::move(msg);
    published_[publishedNext_] = shared;
    publishedNext_ = (publishedNext_ + 1) % published_.size();
  }
  for (ConnId sub : it->second) fabric().push(sub, shared);
  return it->second.size();
}

RedisReply RedisNode::cmdPublish(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  const auto n = static_cast<std::int64_t>(deliverPublish(argv[1], argv[2]));
  // PUBLISH is propagated to replicas, which deliver it to their own subscribers.
  if (isMaster()) {
    Argv stream;  // made in place: an initializer list would copy the message twice
    stream.reserve(3);
    stream.emplace_back("PUBLISH");
    stream.emplace_back(argv[1]);
    stream.emplace_back(argv[2]);
    propagate(std::move(stream));
  }
  return intReply(n);
}

RedisReply RedisNode::cmdSubscribe(Client& cl, ConnId c, RequestId r, const Argv& argv, bool* deferred) {
  // The confirmation of the first channel is the reply; further ones are pushed.
  RedisReply first;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    cl.channels.insert(argv[i]);
    channels_[argv[i]].insert(c);
    RedisReply conf = RedisReply::array({RedisReply::bulk("subscribe"), RedisReply::bulk(argv[i]),
                                         intReply(static_cast<std::int64_t>(cl.channels.size()))});
    if (i == 1) first = conf;
    else if (c != 0) fabric().push(c, conf);
  }
  (void)r;
  (void)deferred;
  return first;
}

RedisReply RedisNode::cmdUnsubscribe(Client& cl, ConnId c, RequestId, const Argv& argv, bool*) {
  std::vector<std::string> chans(argv.begin() + 1, argv.end());
  if (chans.empty()) chans.assign(cl.channels.begin(), cl.channels.end());
  RedisReply last = RedisReply::array(
      {RedisReply::bulk("unsubscribe"), RedisReply::nil(), intReply(0)});
  for (const auto& ch : chans) {
    cl.channels.erase(ch);
    auto it = channels_.find(ch);
    if (it != channels_.end()) {
      it->second.erase(c);
      if (it->second.empty()) channels_.erase(it);
    }
    last = RedisReply::array({RedisReply::bulk("unsubscribe"), RedisReply::bulk(ch),
                              intReply(static_cast<std::int64_t>(cl.channels.size()))});
  }
  return last;
}

// --- persistence and process -------------------------------------------------------------

RedisReply RedisNode::cmdSave(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  saveRdb();
  if (lower(argv[0]) == "bgsave") return RedisReply::status("Background saving started");
  return ok();
}

RedisReply RedisNode::cmdShutdown(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  bool nosave = false, save = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string o = lower(argv[i]);
    if (o == "nosave") nosave = true;
    else if (o == "save") save = true;
    else if (o != "now" && o != "force" && o != "abort") return errSyntax();
  }
  // The process exits right after this command: the caller sees the connection close.
  after(Duration{0}, [this, nosave, save] {
    if (save || (!nosave && !config_.str("save").empty())) saveRdb();
    if (!nosave && config_.flag("appendonly")) persistCron();
    record("shutdown by command");
    crash();
  });
  return ok();
}

RedisReply RedisNode::cmdQuit(Client&, ConnId c, RequestId, const Argv&, bool*) {
  if (c != 0) {
    after(Duration{0}, [this, c] {
      onPeerClosed(c);
      fabric().serverClose(c);
    });
  }
  return ok();
}

}  // namespace kun::redissim
