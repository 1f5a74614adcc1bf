#include "chaos/faults/operator_control.h"

namespace kun::chaos {

Object paramPatch(const Fault& f) {
  Object spec = Object::object();
  switch (f.param) {
    case Param::Config: spec["config"] = f.value; break;
    case Param::Size: spec["size"] = f.value; break;
    case Param::Password: spec["password"] = f.value; break;
    case Param::Persistence:
      // Persistence on is disablePersistence false; a non-boolean value goes through as is
      // (an invalid change the operator must reject).
      spec["disablePersistence"] = f.value.is_boolean() ? Object(!f.value.get<bool>()) : f.value;
      break;
    case Param::Image: spec["image"] = f.value; break;
    case Param::Resources: spec["resources"] = f.value; break;
    case Param::SentinelConfig: spec["sentinel"] = Object{{"customConfig", f.value}}; break;
  }
  return Object{{"spec", spec}};
}

}  // namespace kun::chaos
