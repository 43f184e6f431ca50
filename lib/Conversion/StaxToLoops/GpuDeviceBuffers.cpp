//===- GpuDeviceBuffers.cpp - host buffers of target=cuda on the device ---===//
#include "Stax/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXGPUDEVICEBUFFERS
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;

namespace {
/// Ops that a host function may apply to device buffers: they pass the
/// pointer on or compute a view of it, and never dereference it.
bool keepsBuffersOpaque(Operation *op) {
  return isa<gpu::GPUDialect>(op->getDialect()) ||
         isa<ViewLikeOpInterface, func::ReturnOp, memref::CastOp,
             memref::ReinterpretCastOp, memref::ExtractStridedMetadataOp,
             memref::ExtractAlignedPointerAsIndexOp>(op);
}

bool touchesBuffers(Operation *op) {
  auto isMemRef = [](Value v) { return isa<BaseMemRefType>(v.getType()); };
  return isa<memref::AllocaOp>(op) ||
         llvm::any_of(op->getOperands(), isMemRef);
}

/// A constant (memref.global) stays in host memory: each call copies it
/// into a device buffer that is freed when the function returns.
void copyToDevice(memref::GetGlobalOp global) {
  OpBuilder b(global->getBlock(), std::next(global->getIterator()));
  Location loc = global.getLoc();
  auto device = gpu::AllocOp::create(
      b, loc, global.getType(), /*asyncToken=*/Type(), ValueRange(),
      ValueRange(), ValueRange(), /*hostShared=*/UnitAttr());
  global.getResult().replaceAllUsesWith(device.getMemref());
  gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                        device.getMemref(), global.getResult());
  auto fn = global->getParentOfType<func::FuncOp>();
  fn.walk([&](func::ReturnOp ret) {
    OpBuilder atReturn(ret);
    gpu::DeallocOp::create(atReturn, loc, /*asyncToken=*/Type(),
                           ValueRange(), device.getMemref());
  });
}

/// Rewrites one op of a host function; fails on an op that would read or
/// write device memory on the host.
LogicalResult moveToDevice(Operation *op) {
  OpBuilder b(op);
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    auto device = gpu::AllocOp::create(
        b, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
        ValueRange(), alloc.getDynamicSizes(), alloc.getSymbolOperands(),
        /*hostShared=*/UnitAttr());
    alloc.replaceAllUsesWith(device.getMemref());
    alloc.erase();
    return success();
  }
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
    gpu::DeallocOp::create(b, dealloc.getLoc(), /*asyncToken=*/Type(),
                           ValueRange(), dealloc.getMemref());
    dealloc.erase();
    return success();
  }
  if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
    copyToDevice(global);
    return success();
  }
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    gpu::MemcpyOp::create(b, copy.getLoc(), /*asyncToken=*/Type(),
                          ValueRange(), copy.getTarget(), copy.getSource());
    copy.erase();
    return success();
  }
  if (keepsBuffersOpaque(op) || !touchesBuffers(op))
    return success();
  return op->emitError()
         << "'" << op->getName()
         << "' in a target=cuda host function would access device memory "
            "on the host; only kernels may read or write buffers";
}

struct StaxGpuDeviceBuffersPass
    : stax::impl::StaxGpuDeviceBuffersBase<StaxGpuDeviceBuffersPass> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      // Post-order: the walk allows erasing the op it visits.
      WalkResult r = fn.walk([](Operation *op) {
        return failed(moveToDevice(op)) ? WalkResult::interrupt()
                                        : WalkResult::advance();
      });
      if (r.wasInterrupted())
        return signalPassFailure();
    }
  }
};
} // namespace
