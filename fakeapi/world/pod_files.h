#pragma once
// Where a file a container opens comes from: its volumeMounts (the longest mount path
// that contains the file, with subPath) and the pod's volumes, and, for ConfigMap and
// Secret volumes, its content as the kubelet projects it (items mapping, base64 Secret
// data). The bridge keeps emptyDir and PVC contents itself.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "core/api/object.h"
#include "core/kube/kube_client.h"
#include "core/runtime/result.h"

namespace kun::sim {

struct VolumeFile {
  enum class Kind { None, ConfigMap, Secret, EmptyDir, Claim, Other };
  Kind kind = Kind::None;  // None: not on any volume (the container's own filesystem)
  std::string volume;      // the pod's volume name
  std::string source;      // ConfigMap / Secret / PVC name
  std::string path;        // path inside the volume
  bool writable() const { return kind == Kind::EmptyDir || kind == Kind::Claim; }
};

// o[k0][k1]... or a null Object when a step is missing or not an object.
const Object& objectAt(const Object& o, std::initializer_list<std::string_view> keys);

// The container spec of that name in pod.spec.containers or initContainers (null if none).
const Object* findContainer(const Object& pod, std::string_view name);

VolumeFile locateFile(const Object& pod, const Object& container, std::string_view path);

// The content of a file on a ConfigMap or Secret volume, from the API. NotFound when the
// object or key is missing; Invalid for other volume kinds.
Result<std::string> readProjectedFile(KubeClient& client, std::string_view ns, const Object& pod,
                                      const VolumeFile& file);

// Standard base64 with padding, as Secret data holds it; nullopt when malformed.
std::optional<std::string> base64Decode(std::string_view text);

}  // namespace kun::sim
