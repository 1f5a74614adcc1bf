// kun_fakeapi: the in-process stand-ins for a cluster (store, controllers, Redis simulator).
namespace kun::fakeapi {
const char* libraryName() { return "kun_fakeapi"; }
}  // namespace kun::fakeapi
