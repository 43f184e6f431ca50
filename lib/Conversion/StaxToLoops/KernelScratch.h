//===- KernelScratch.h - storage of kernel-local values ---------*- C++ -*-===//
//
// A value that a fused kernel computes and reads only inside itself, at
// the same outer index (softmax's exponentials, a GELU's pre-activation),
// needs storage for one iteration of the kernel's outer loops, not for the
// whole tensor: a full-size buffer is written back to memory and read for
// ownership even though every read hits the cache, which doubled the
// memory traffic of softmax. Such values live in a stack buffer (alloca)
// sized for one iteration, private to the thread running it, and the
// kernel's loads and stores reach it through a view whose offset subtracts
// the iteration's part of every address.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_KERNELSCRATCH_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_KERNELSCRATCH_H

#include "NodeLoops.h"

namespace mlir::stax::codegen {

/// A kernel-local node result that lives in per-iteration scratch.
struct ScratchBuffer {
  Value value;
  int64_t elements = 0;              ///< the storage of one iteration
  int64_t fullElements = 0;          ///< the storage of the whole value
  SmallVector<int64_t> outerStrides; ///< layout strides of the fixed loops
  int64_t offset = 0;                ///< its layout's offset
};

/// The results of `kernel`'s nodes that can live in scratch for one
/// iteration of its first `fixed` outer loops: not yielded, and read only
/// by later nodes of the kernel through addresses whose part in those
/// loops is the producer's (so at the same outer index). Their scratch
/// totals at most 256 KiB. None when `fixed` is 0.
SmallVector<ScratchBuffer> planKernelScratch(KernelOp kernel, unsigned fixed);

/// A BufferMap that gives the planned values of one kernel iteration their
/// scratch and everything else the storage `base` has.
class ScratchBufferMap : public BufferMap {
public:
  explicit ScratchBufferMap(BufferMap &base) : base(base) {}

  /// Allocates the scratch of `plan` (memref.alloca) at `b`'s insertion
  /// point: once per thread, outside any sequential loop that reuses it.
  static SmallVector<Value> allocate(OpBuilder &b, Location loc,
                                     ArrayRef<ScratchBuffer> plan);
  /// Binds each planned value to its scratch for the iteration at
  /// `outerIvs` (the fixed loops' indices).
  void bind(OpBuilder &b, Location loc, ArrayRef<ScratchBuffer> plan,
            ArrayRef<Value> scratch, ValueRange outerIvs);

  Value storageOf(Value v) const override {
    Value s = local.lookup(v);
    return s ? s : base.storageOf(v);
  }
  int64_t errorSite(Operation *op) override { return base.errorSite(op); }
  func::FuncOp indexErrorCallee() override { return base.indexErrorCallee(); }
  int64_t nanErrorSite(Operation *node) override {
    return base.nanErrorSite(node);
  }
  func::FuncOp nanErrorCallee() override { return base.nanErrorCallee(); }
  func::FuncOp externalCallee(StringRef name, FunctionType type) override {
    return base.externalCallee(name, type);
  }

private:
  BufferMap &base;
  DenseMap<Value, Value> local;
};

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_KERNELSCRATCH_H
