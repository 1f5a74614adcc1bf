#pragma once
// Standard base64 (RFC 4648, with padding), as Secret data is stored.
#include <string>
#include <string_view>

namespace kun::rediscluster {

std::string base64Encode(std::string_view bytes);

}  // namespace kun::rediscluster
