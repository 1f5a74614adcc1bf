#pragma once
// Which malloc the program runs on. Release builds link mimalloc (KUN_MIMALLOC, on by
// default): the object model is a tree of small JSON nodes, so copying, editing and freeing
// objects is mostly allocation, and glibc's malloc was a fifth of a property run. The
// sanitizer presets keep the system allocator (ASan and TSan replace malloc themselves).
#include <string>

namespace kun {

// "mimalloc 2.0.9" or "system"; benchmarks record it in their context.
std::string allocatorName();

// True when memory from operator new / malloc comes from the allocator allocatorName()
// names: false would mean the link order let glibc's malloc win.
bool allocatorServesMalloc();

}  // namespace kun
