//===- MergeGpuModules.cpp - one gpu.module for all kernels ---------------===//
#include "Stax/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXMERGEGPUMODULES
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;

namespace {
/// Shared-memory (workgroup) globals of the host module: outlining copied
/// the kernels' uses and their globals into gpu.modules; the host cannot
/// lower them.
void eraseSharedMemoryGlobals(ModuleOp module) {
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
    if (auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
            global.getType().getMemorySpace());
        space && space.getValue() == gpu::AddressSpace::Workgroup)
      global.erase();
}

struct StaxMergeGpuModulesPass
    : stax::impl::StaxMergeGpuModulesBase<StaxMergeGpuModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    eraseSharedMemoryGlobals(module);
    SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
    if (modules.size() < 2)
      return;
    gpu::GPUModuleOp target = modules.front();
    SymbolTable table(target);
    // (module, kernel) -> the kernel's name in the merged module: outlining
    // makes module names unique, not the names of the functions inside.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp other : llvm::drop_begin(modules)) {
      for (Operation &op :
           llvm::make_early_inc_range(other.getBody()->getOperations())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol) {
          op.moveBefore(target.getBody(), target.getBody()->end());
          continue;
        }
        StringAttr old = symbol.getNameAttr();
        // Outlining copied this symbol (a libdevice declaration, a shared
        // memory global) from the host module into every kernel's module:
        // the merged module needs one, and uses find it by name.
        if (!isa<gpu::GPUFuncOp>(op) && table.lookup(old)) {
          op.erase();
          continue;
        }
        op.moveBefore(target.getBody(), target.getBody()->end());
        StringAttr fresh = table.insert(&op); // renames on a clash
        renamed[{other.getSymNameAttr(), old}] = fresh;
      }
    }
    StringAttr root = target.getSymNameAttr();
    module.walk([&](gpu::LaunchFuncOp launch) {
      StringAttr name = launch.getKernelName();
      auto it = renamed.find({launch.getKernelModuleName(), name});
      if (it != renamed.end())
        name = it->second;
      launch.setKernelAttr(
          SymbolRefAttr::get(root, {FlatSymbolRefAttr::get(name)}));
    });
    for (gpu::GPUModuleOp other : llvm::drop_begin(modules))
      other.erase();
  }
};
} // namespace
