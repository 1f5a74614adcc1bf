// kun_harness: chaos injection and scenarios over the simulated cluster.
namespace kun::harness {
const char* libraryName() { return "kun_harness"; }
}  // namespace kun::harness
