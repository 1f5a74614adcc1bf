#include "core/rediscluster/passwords.h"

#include <openssl/evp.h>

#include <algorithm>

#include "core/kube/resource.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"

namespace kun::rediscluster {

namespace {

// Standard base64 as Kubernetes writes Secret data; "" when it does not decode.
std::string base64Decode(std::string_view in) {
  if (in.empty() || in.size() % 4 != 0) return {};
  std::string out(in.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size()));
  if (n < 0) return {};
  // EVP_DecodeBlock counts the padding as output bytes.
  std::size_t len = static_cast<std::size_t>(n);
  for (std::size_t i = in.size(); i > 0 && in[i - 1] == '=' && len > 0; --i) --len;
  out.resize(len);
  return out;
}

void addUnique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

}  // namespace

namespace {

std::string secretValue(const Object& secret, std::string_view key) {
  auto data = secret.find("data");
  if (data == secret.end() || !data->is_object()) return {};
  auto pw = data->find(std::string(key));
  if (pw == data->end() || !pw->is_string()) return {};
  return base64Decode(pw->get_ref<const std::string&>());
}

}  // namespace

ObjectPtr authSecret(const LiveObjects& live, std::string_view ns, std::string_view cluster) {
  if (!live.synced(res::secrets)) return nullptr;
  return live.get(res::secrets, ns, names::auth(cluster));
}

SecretPasswords passwordsIn(ObjectPtr secret) {
  SecretPasswords out;
  if (secret) {
    out.current = secretValue(*secret, layout::kPasswordKey);
    out.previous = secretValue(*secret, layout::kPreviousPasswordKey);
  }
  out.secret = std::move(secret);
  return out;
}

SecretPasswords secretPasswords(const LiveObjects& live, std::string_view ns, std::string_view cluster) {
  return passwordsIn(authSecret(live, ns, cluster));
}

std::string passwordInSecret(const LiveObjects& live, std::string_view ns, std::string_view cluster) {
  return secretPasswords(live, ns, cluster).current;
}

std::string previousPasswordInSecret(const LiveObjects& live, std::string_view ns, std::string_view cluster) {
  return secretPasswords(live, ns, cluster).previous;
}

std::vector<std::string> candidatePasswords(const api::RedisCluster& rc, const LiveObjects& live,
                                            const std::string& remembered) {
  return candidatePasswords(rc, secretPasswords(live, rc.namespaceOf(), rc.name()), remembered);
}

std::vector<std::string> candidatePasswords(const api::RedisCluster& rc, const SecretPasswords& inSecret,
                                            const std::string& remembered) {
  std::vector<std::string> out{rc.spec.password};
  addUnique(out, inSecret.current);
  if (!inSecret.previous.empty()) addUnique(out, inSecret.previous);
  if (!remembered.empty()) addUnique(out, remembered);
  addUnique(out, "");
  return out;
}

std::string passwordToKeep(const api::RedisCluster& rc, const ClusterView& view, const SecretPasswords& inSecret,
                           const std::vector<std::string>& passwords) {
  const std::string& written = inSecret.current;
  const std::string& kept = inSecret.previous;
  const auto answersTo = [&](const std::string& pw) {
    return std::any_of(view.redis.begin(), view.redis.end(), [&](const RedisNodeView& n) {
      return n.reachable && n.password >= 0 && static_cast<std::size_t>(n.password) < passwords.size() &&
             passwords[static_cast<std::size_t>(n.password)] == pw;
    });
  };
  const bool anyUnreachable =
      std::any_of(view.redis.begin(), view.redis.end(), [](const RedisNodeView& n) { return !n.reachable; });
  if (written != rc.spec.password) {
    if (!kept.empty() && kept != rc.spec.password && (answersTo(kept) || anyUnreachable)) return kept;
    return written.empty() ? kept : written;
  }
  if (kept.empty()) return {};
  const bool allChanged =
      static_cast<std::int32_t>(view.redis.size()) >= rc.spec.size &&
      std::all_of(view.redis.begin(), view.redis.end(), [](const RedisNodeView& n) { return n.reachable && n.password == 0; });
  return allChanged ? std::string() : kept;
}

std::string redact(std::string_view text, const std::vector<std::string>& secrets) {
  std::vector<std::string_view> sorted;
  for (const auto& s : secrets)
    if (!s.empty()) sorted.push_back(s);
  std::sort(sorted.begin(), sorted.end(), [](std::string_view a, std::string_view b) { return a.size() > b.size(); });
  std::string out(text);
  for (std::string_view s : sorted) {
    for (std::size_t at = out.find(s); at != std::string::npos; at = out.find(s, at + 3)) out.replace(at, s.size(), "***");
  }
  return out;
}

}  // namespace kun::rediscluster
