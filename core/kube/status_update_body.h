#pragma once
// The body of an update of the status subresource. The server takes only status from it,
// and from metadata the object's identity and the version the caller read (its
// preconditions): copying the spec and the rest of metadata only to have them dropped was
// most of the cost of a status write.
#include "core/api/object.h"

namespace kun {

// For `stored` (the whole object as read): its apiVersion, kind and metadata name,
// namespace, uid and resourceVersion, with `status`.
Object statusUpdateBody(const Object& stored, Object status);

}  // namespace kun
