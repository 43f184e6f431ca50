//===- Kernels.h - kernel registry and helpers of the interpreter -*- C++ -*-===//
//
// Internal to lib/Interpreter. Each op family registers its kernels in one
// file (ElementwiseKernels.cpp, ReductionKernels.cpp, ...), keyed by op name,
// so that the driver is a table lookup rather than a switch.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_INTERPRETER_KERNELS_H
#define STAX_LIB_INTERPRETER_KERNELS_H

#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Interpreter/Interpreter.h"
#include "Stax/Interpreter/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include <cmath>
#include <functional>
#include <vector>

namespace mlir::stax::detail {

using Inputs = llvm::ArrayRef<const Tensor *>;

/// What a kernel needs to know about the current run.
class KernelContext {
public:
  explicit KernelContext(const InterpreterOptions &options) : options(options) {}
  /// The type values of type `t` are computed in (f64 when promoting).
  mlir::Type mapType(mlir::Type t) const;
  /// A zero-filled tensor of the (mapped) type of result `i` of `op`.
  Tensor result(mlir::Operation *op, unsigned i = 0) const;

  const InterpreterOptions &options;
};

using KernelFn = std::function<mlir::LogicalResult(
    mlir::Operation *, Inputs, llvm::SmallVectorImpl<Tensor> &,
    const KernelContext &)>;

class KernelRegistry {
public:
  /// Registers a single-result kernel:
  ///   FailureOr<Tensor> fn(OpT op, Inputs in, const KernelContext &ctx).
  template <typename OpT, typename Fn> void add(Fn fn) {
    kernels[OpT::getOperationName()] =
        [fn](mlir::Operation *op, Inputs in, llvm::SmallVectorImpl<Tensor> &out,
             const KernelContext &ctx) -> mlir::LogicalResult {
      mlir::FailureOr<Tensor> r = fn(llvm::cast<OpT>(op), in, ctx);
      if (mlir::failed(r))
        return mlir::failure();
      out.push_back(std::move(*r));
      return mlir::success();
    };
  }
  /// Registers a multi-result kernel:
  ///   LogicalResult fn(OpT op, Inputs in, SmallVectorImpl<Tensor> &out,
  ///                    const KernelContext &ctx).
  template <typename OpT, typename Fn> void addMulti(Fn fn) {
    kernels[OpT::getOperationName()] =
        [fn](mlir::Operation *op, Inputs in, llvm::SmallVectorImpl<Tensor> &out,
             const KernelContext &ctx) -> mlir::LogicalResult {
      return fn(llvm::cast<OpT>(op), in, out, ctx);
    };
  }
  const KernelFn *lookup(llvm::StringRef name) const {
    auto it = kernels.find(name);
    return it == kernels.end() ? nullptr : &it->second;
  }

private:
  llvm::StringMap<KernelFn> kernels;
};

// One registration function per family file.
void registerElementwiseKernels(KernelRegistry &registry);
void registerSpecialKernels(KernelRegistry &registry);
void registerShapeKernels(KernelRegistry &registry);
void registerReductionKernels(KernelRegistry &registry);
void registerScanKernels(KernelRegistry &registry);
void registerNNKernels(KernelRegistry &registry);
void registerIndexingKernels(KernelRegistry &registry);
void registerLinalgKernels(KernelRegistry &registry);
void registerRandomKernels(KernelRegistry &registry);

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Emits "'<op>' op <message>" at the op and returns failure: the way every
/// run-time error (bad index, unsupported case) is reported.
mlir::LogicalResult runtimeError(mlir::Operation *op, const llvm::Twine &message);

/// The type in which intermediate values of element type `t` are computed and
/// accumulated: f32 for f16/bf16 (half precision is rounded once on store),
/// `t` otherwise.
mlir::Type accumulationType(mlir::Type t);

/// Strides to read a tensor of `inShape` broadcast to `outShape` (numpy
/// rules, right-aligned): 0 along broadcast dims.
llvm::SmallVector<int64_t> broadcastStrides(llvm::ArrayRef<int64_t> inShape,
                                            llvm::ArrayRef<int64_t> outShape);
/// sum(index[i] * strides[i]).
int64_t dot(llvm::ArrayRef<int64_t> index, llvm::ArrayRef<int64_t> strides);

/// Normalizes dims (empty = all) into a per-dim mask; dims are already
/// verified by the op.
llvm::SmallVector<bool> reducedMask(llvm::ArrayRef<int64_t> dims, int64_t rank);
/// For every output position of a reduction over the dims in `mask`, the
/// linear input indices it combines, in lexicographic order of the reduced
/// indices. Groups are in row-major order of the kept dims.
std::vector<std::vector<int64_t>> reductionGroups(llvm::ArrayRef<int64_t> shape,
                                                  llvm::ArrayRef<bool> mask);

/// Floating arithmetic in one type: every primitive rounds its result once.
/// Composite kernels are written with it so that each step is the rounding a
/// decomposition into primitives would perform.
struct FloatMath {
  mlir::Type t;
  double r(double v) const { return roundToFloatType(v, t); }
  double add(double a, double b) const { return r(a + b); }
  double sub(double a, double b) const { return r(a - b); }
  double mul(double a, double b) const { return r(a * b); }
  double div(double a, double b) const { return r(a / b); }
  double neg(double a) const { return -a; }
  double exp(double a) const { return r(std::exp(a)); }
  double log(double a) const { return r(std::log(a)); }
  double log1p(double a) const { return r(std::log1p(a)); }
  double sqrt(double a) const { return r(std::sqrt(a)); }
  double rsqrt(double a) const { return r(1.0 / std::sqrt(a)); }
  double tanh(double a) const { return r(std::tanh(a)); }
  double erf(double a) const { return r(std::erf(a)); }
  double sigmoid(double a) const { return div(1.0, add(1.0, exp(neg(a)))); }
  /// NaN-propagating max/min (eager semantics).
  double max(double a, double b) const {
    return std::isnan(a) || std::isnan(b) ? NAN : (a > b ? a : b);
  }
  double min(double a, double b) const {
    return std::isnan(a) || std::isnan(b) ? NAN : (a < b ? a : b);
  }
};

/// Wraps a (possibly negative) index into [0, size) or reports it.
mlir::FailureOr<int64_t> wrapIndex(mlir::Operation *op, int64_t index,
                                   int64_t size, llvm::StringRef what);

/// True for the `stax` nodes (pointwise, reduction, scatter), whose bodies
/// read enclosing buffers and so are run by evaluateNode, not a kernel.
bool isNode(mlir::Operation *op);
/// Runs a `stax` node; `lookup` gives the value of each buffer its body reads.
mlir::LogicalResult
evaluateNode(mlir::Operation *op,
             llvm::function_ref<const Tensor *(mlir::Value)> lookup,
             llvm::SmallVectorImpl<Tensor> &out, const KernelContext &ctx);

/// The elements of `v` in row-major order. A node stores its result with
/// its layout (a transposed or offset one): the interpreter keeps that
/// storage for the loads of later nodes, and hands this to everything else
/// (externals, calls, the function's results). None when the storage is
/// already row-major.
std::optional<Tensor> logicalOrder(mlir::Value v, const Tensor &storage);

/// Copy of `t` converted to the (mapped) element type `elt`.
Tensor convertTo(const Tensor &t, mlir::Type elt);

} // namespace mlir::stax::detail

#endif // STAX_LIB_INTERPRETER_KERNELS_H
