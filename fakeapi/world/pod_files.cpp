#include "fakeapi/world/pod_files.h"

#include <openssl/evp.h>

#include <fmt/format.h>

#include "core/kube/resource.h"

namespace kun::sim {

namespace {

// "a/b" under mount "a" -> "b"; "a" itself -> ""; nullopt when not under it.
std::optional<std::string> under(std::string_view path, std::string_view mountPath) {
  while (mountPath.size() > 1 && mountPath.back() == '/') mountPath.remove_suffix(1);
  if (path == mountPath) return std::string();
  if (path.size() > mountPath.size() && path.substr(0, mountPath.size()) == mountPath &&
      (mountPath == "/" || path[mountPath.size()] == '/'))
    return std::string(path.substr(mountPath == "/" ? 1 : mountPath.size() + 1));
  return std::nullopt;
}

const Object* findVolume(const Object& pod, std::string_view name) {
  const Object& vols = objectAt(pod, {"spec", "volumes"});
  if (!vols.is_array()) return nullptr;
  for (const auto& v : vols)
    if (v.value("name", "") == name) return &v;
  return nullptr;
}

// The key a file of a projected volume comes from (items map paths to keys).
std::optional<std::string> keyFor(const Object& src, const std::string& file) {
  const Object& items = objectAt(src, {"items"});
  if (!items.is_array() || items.empty()) {
    if (file.empty() || file.find('/') != std::string::npos) return std::nullopt;
    return file;
  }
  for (const auto& it : items)
    if (it.value("path", "") == file) return it.value("key", "");
  return std::nullopt;
}

}  // namespace

const Object& objectAt(const Object& o, std::initializer_list<std::string_view> keys) {
  static const Object kNull;
  const Object* cur = &o;
  // memberOf (lengths compared first) rather than a tree search: readiness reads every
  // pod's containers by path every period.
  for (std::string_view k : keys)
    if (cur = memberOf(*cur, k); !cur) return kNull;
  return *cur;
}

const Object* findContainer(const Object& pod, std::string_view name) {
  for (const char* list : {"containers", "initContainers"}) {
    const Object& cs = objectAt(pod, {"spec", list});
    if (!cs.is_array()) continue;
    for (const auto& c : cs)
      if (c.value("name", "") == name) return &c;
  }
  return nullptr;
}

VolumeFile locateFile(const Object& pod, const Object& container, std::string_view file) {
  VolumeFile out;
  const Object& mounts = objectAt(container, {"volumeMounts"});
  if (!mounts.is_array()) return out;
  std::size_t best = 0;
  const Object* chosen = nullptr;
  std::string rest;
  for (const auto& m : mounts) {
    const std::string mp = m.value("mountPath", "");
    auto rel = under(file, mp);
    if (!rel || (chosen && mp.size() <= best)) continue;
    best = mp.size();
    chosen = &m;
    rest = *rel;
  }
  if (!chosen) return out;
  const std::string sub = chosen->value("subPath", "");
  out.volume = chosen->value("name", "");
  out.path = sub.empty() ? rest : (rest.empty() ? sub : sub + "/" + rest);
  const Object* vol = findVolume(pod, out.volume);
  if (!vol) return out;
  if (vol->contains("configMap")) {
    out.kind = VolumeFile::Kind::ConfigMap;
    const Object& n = objectAt(*vol, {"configMap", "name"});
    out.source = n.is_string() ? n.get<std::string>() : "";
  } else if (vol->contains("secret")) {
    out.kind = VolumeFile::Kind::Secret;
    const Object& n = objectAt(*vol, {"secret", "secretName"});
    out.source = n.is_string() ? n.get<std::string>() : "";
  } else if (vol->contains("emptyDir")) {
    out.kind = VolumeFile::Kind::EmptyDir;
  } else if (vol->contains("persistentVolumeClaim")) {
    out.kind = VolumeFile::Kind::Claim;
    const Object& n = objectAt(*vol, {"persistentVolumeClaim", "claimName"});
    out.source = n.is_string() ? n.get<std::string>() : "";
  } else {
    out.kind = VolumeFile::Kind::Other;
  }
  return out;
}

Result<std::string> readProjectedFile(KubeClient& client, std::string_view ns, const Object& pod,
                                      const VolumeFile& file) {
  const bool secret = file.kind == VolumeFile::Kind::Secret;
  if (!secret && file.kind != VolumeFile::Kind::ConfigMap)
    return makeError(Reason::Invalid, fmt::format("{} is not a ConfigMap or Secret volume", file.volume));
  const Object* vol = findVolume(pod, file.volume);
  const Object& src = vol ? objectAt(*vol, {secret ? "secret" : "configMap"}) : objectAt(pod, {"-"});
  auto key = keyFor(src, file.path);
  if (!key) return makeError(Reason::NotFound, fmt::format("no file {} in volume {}", file.path, file.volume));
  auto shared = client.getShared(secret ? res::secrets : res::configmaps, ns, file.source);
  if (!shared) return shared.error();
  const Object* obj = shared->get();
  // Only errors name the file (the readiness probe reads the password every poll).
  const auto what = [&] { return fmt::format("{} {}/{} key {}", secret ? "Secret" : "ConfigMap", ns, file.source, *key); };
  if (const Object& d = objectAt(*obj, {"data", *key}); d.is_string()) {
    if (!secret) return d.get<std::string>();
    auto plain = base64Decode(d.get<std::string>());
    if (!plain) return makeError(Reason::Invalid, what() + ": data is not base64");
    return *plain;
  }
  if (const Object& b = objectAt(*obj, {secret ? "stringData" : "binaryData", *key}); b.is_string()) {
    if (secret) return b.get<std::string>();
    auto plain = base64Decode(b.get<std::string>());
    if (!plain) return makeError(Reason::Invalid, what() + ": binaryData is not base64");
    return *plain;
  }
  return makeError(Reason::NotFound, what() + " is missing");
}

std::optional<std::string> base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  if (text.empty()) return std::string();
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the bytes the padding stands for.
  std::size_t len = static_cast<std::size_t>(n);
  for (std::size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --len;
  out.resize(len);
  return out;
}

}  // namespace kun::sim
