//===- BlasThreads.h - BLAS calls on compiled code's threads ----*- C++ -*-===//
//
// Compiled code's parallel loops run on LLVM's OpenMP runtime (libomp),
// whose workers spin between the loops of a call; OpenBLAS (pthreads
// build) runs a product on its own threads, which spin after it for up to
// 2^28 cycles. On few cores the two pools take turns on the same cores:
// on the 2-core VM, an MLP step's bias-gradient sums took 80 us after a
// product against 13 us with OpenBLAS's threads asleep, and its GELU
// backward 235 us against 84. So the runtime splits a product into one
// block per OpenMP thread and has each thread call BLAS single-threaded:
// one pool does all the work.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_RUNTIME_BLASTHREADS_H
#define STAX_LIB_RUNTIME_BLASTHREADS_H

#include <cstdint>

namespace stax::rt {

/// The threads an OpenMP parallel region of the calling thread would get
/// (libomp's omp_get_max_threads), or 0 when libomp is not loaded or
/// OpenBLAS's thread control is not there (another BLAS): then BLAS calls
/// are left as they are.
int blasTeamSize();

/// Runs `body(context, part)` for every part in [0, parts) on libomp's
/// threads (each thread takes parts tid, tid + team size, ...), with
/// OpenBLAS single-threaded meanwhile. Requires blasTeamSize() > 0.
void runOnBlasTeam(int64_t parts, void (*body)(void *context, int64_t part),
                   void *context);

} // namespace stax::rt

#endif // STAX_LIB_RUNTIME_BLASTHREADS_H
