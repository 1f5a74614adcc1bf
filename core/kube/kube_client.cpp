#include "core/kube/kube_client.h"

namespace kun {

std::string_view watchEventTypeName(WatchEventType t) {
  switch (t) {
    case WatchEventType::Added: return "ADDED";
    case WatchEventType::Modified: return "MODIFIED";
    case WatchEventType::Deleted: return "DELETED";
    case WatchEventType::Bookmark: return "BOOKMARK";
  }
  return "ERROR";
}

}  // namespace kun
