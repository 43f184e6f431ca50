//===- LibOmp.h - libomp's entry point for parallel regions -----*- C++ -*-===//
//
// The runtime (lib/Runtime/BlasThreads.cpp) and the execution engine
// (lib/ExecutionEngine/OpenMPWorkers.cpp) start parallel regions on LLVM's
// OpenMP runtime without being compiled with OpenMP: they look up
// __kmpc_fork_call, the entry point compiled parallel loops call, in the
// libomp the process loaded, and pass it these (kmp.h's ident_t and
// kmpc_micro).
//
//===----------------------------------------------------------------------===//
#ifndef STAX_RUNTIME_LIBOMP_H
#define STAX_RUNTIME_LIBOMP_H

#include <cstdint>

namespace stax::rt::libomp {

/// The source location argument (ident_t in kmp.h).
struct Ident {
  int32_t reserved1 = 0;
  int32_t flags = 0x02; // KMP_IDENT_KMPC
  int32_t reserved2 = 0;
  int32_t reserved3 = 0;
  const char *source = ";unknown;unknown;0;0;;";
};

/// The outlined body: global and bound thread ids, then the shared
/// arguments passed to the fork.
using Microtask = void (*)(int32_t *, int32_t *, ...);
using ForkCall = void (*)(Ident *, int32_t, Microtask, ...);

} // namespace stax::rt::libomp

#endif // STAX_RUNTIME_LIBOMP_H
