//===- OpenMPWorkers.h - when libomp's idle workers spin --------*- C++ -*-===//
//
// Compiled code runs its parallel loops on LLVM's OpenMP runtime (libomp).
// After a loop, libomp's workers either spin, waiting for the next one, or
// sleep. Sleeping workers leave the cores to whatever else the process runs
// (PyTorch's OpenMP threads, BLAS), but waking one costs tens to hundreds
// of microseconds (a futex wake; on a virtual machine, an idle vCPU's
// wake-up): measured on the 2-core development VM, a parallel loop over
// 32768 elements took 244 us with sleeping workers and 27 us with spinning
// ones (46 us on one thread). So workers spin while a call runs its loops
// one after another, and sleep between calls.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_EXECUTIONENGINE_OPENMPWORKERS_H
#define STAX_LIB_EXECUTIONENGINE_OPENMPWORKERS_H

namespace mlir::stax {

/// Makes libomp's workers sleep as soon as a parallel loop ends
/// (KMP_BLOCKTIME=0) unless the user set KMP_BLOCKTIME. libomp reads the
/// variable when it starts, at the first parallel loop: call this before.
void configureOpenMPWorkers();

/// While alive (and `active`), libomp's workers spin between the parallel
/// loops that the calling thread starts; when it ends they sleep again. A
/// no-op when the user set KMP_BLOCKTIME (their choice is kept) or when
/// libomp is not loaded.
class SpinningWorkers {
public:
  explicit SpinningWorkers(bool active);
  ~SpinningWorkers();
  SpinningWorkers(const SpinningWorkers &) = delete;
  SpinningWorkers &operator=(const SpinningWorkers &) = delete;

private:
  bool active;
};

} // namespace mlir::stax

#endif // STAX_LIB_EXECUTIONENGINE_OPENMPWORKERS_H
