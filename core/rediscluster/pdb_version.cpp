#include "core/rediscluster/pdb_version.h"

namespace kun::rediscluster {

Result<PdbVersion> detectPdbVersion(KubeClient& client, std::string_view ns) {
  // A selector no object carries keeps the answer small on a cluster with many PDBs.
  auto listed = client.list(pdbResource(PdbVersion::V1), ns,
                            ListOptions{"redis.kun/pdb-version-probe=none", {}});
  if (listed.ok()) return PdbVersion::V1;
  if (listed.error().reason == Reason::NotFound) return PdbVersion::V1beta1;
  return listed.error();
}

}  // namespace kun::rediscluster
