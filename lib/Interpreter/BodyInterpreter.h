//===- BodyInterpreter.h - concrete values of node bodies -------*- C++ -*-===//
//
// Internal to lib/Interpreter. A `stax` node body is compiled once into a
// list of steps over numbered slots (one per SSA value), then run for every
// index: the concrete-value interpretation of Section 6.7. Floating steps
// round once to their (mapped) result type, integers wrap to their width,
// `index` is 64-bit.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_INTERPRETER_BODYINTERPRETER_H
#define STAX_LIB_INTERPRETER_BODYINTERPRETER_H

#include "Kernels.h"
#include <functional>
#include <vector>

namespace mlir::stax::detail {

/// One scalar: floats in `f`, integers, bools and indices in `i`.
struct Scalar {
  double f = 0;
  int64_t i = 0;
};

using Slots = std::vector<Scalar>;
using Step = std::function<mlir::LogicalResult(Slots &)>;

/// A compiled body, ready to run at one index.
struct CompiledBody {
  std::vector<Step> steps;
  llvm::SmallVector<unsigned> yields;
  Slots slots;

  /// Runs the body with its index arguments set to `index`.
  mlir::LogicalResult run(llvm::ArrayRef<int64_t> index) {
    for (auto [k, v] : llvm::enumerate(index))
      slots[k].i = v;
    for (Step &s : steps)
      if (mlir::failed(s(slots)))
        return mlir::failure();
    return mlir::success();
  }
  const Scalar &yield(unsigned k) const { return slots[yields[k]]; }
};

/// Compiles the single-block body of a node; `lookup` gives the buffers its
/// loads read. Ops without an interpretation are reported at the op.
mlir::FailureOr<CompiledBody>
compileBody(mlir::Region &region, const KernelContext &ctx,
            llvm::function_ref<const Tensor *(mlir::Value)> lookup);

/// `v` wrapped to the width of integer (or index) type `t`, sign-extended as
/// arith reads it: an i1 is 0 or -1 (true), so that `addi` is xor and
/// `cmpi slt` orders true below false, as compiled code does. Stored into a
/// bool tensor, -1 is true.
int64_t wrapInt(int64_t v, mlir::Type t);

} // namespace mlir::stax::detail

#endif // STAX_LIB_INTERPRETER_BODYINTERPRETER_H
