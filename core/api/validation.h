#pragma once
// Kubernetes' own name and label rules (apimachinery validation). Each returns "" when
// valid, or the reason it is not.
#include <string>
#include <string_view>

namespace kun::validation {

std::string dns1123Subdomain(std::string_view v);  // <= 253, [a-z0-9]([-a-z0-9.]*[a-z0-9])?
std::string dns1123Label(std::string_view v);      // <= 63, [a-z0-9]([-a-z0-9]*[a-z0-9])?
std::string dns1035Label(std::string_view v);      // <= 63, starts with a letter (Services)
std::string labelKey(std::string_view v);          // [prefix/]name, prefix a subdomain
std::string labelValue(std::string_view v);        // <= 63, empty or alnum with -_. inside
// A resource.Quantity: [+-]number with an optional suffix (Ki Mi Gi Ti Pi Ei, m k M G T P E,
// or an exponent e/E[+-]digits), e.g. "500m", "1.5Gi", "1e3".
std::string quantity(std::string_view v);

}  // namespace kun::validation
