//===- Interpreter.h - reference interpreter for tp functions ---*- C++ -*-===//
//
// Executes a `tp` function on concrete tensors with naive loops and a fixed
// evaluation order: each elementwise primitive rounds to its element type once,
// and reductions combine in lexicographic order of the reduced indices (the
// semantics of the spec's Section 6.9). With `promoteToF64` every floating
// value is computed in float64, which gives the references of numeric tests.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_INTERPRETER_INTERPRETER_H
#define STAX_INTERPRETER_INTERPRETER_H

#include "Stax/Interpreter/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::stax {

struct InterpreterOptions {
  /// Compute every floating value in f64 (inputs are converted on entry).
  bool promoteToF64 = false;
};

/// Runs function `entry` of `module` on `args`. Errors (unsupported ops,
/// arity or type mismatches, out-of-range indices at run time) are emitted as
/// diagnostics at the offending op's location and yield failure.
mlir::FailureOr<llvm::SmallVector<Tensor>>
interpret(mlir::ModuleOp module, llvm::StringRef entry,
          llvm::ArrayRef<Tensor> args, const InterpreterOptions &options = {});

/// True when the interpreter has a kernel for operations named `opName`.
bool hasKernel(llvm::StringRef opName);

} // namespace mlir::stax

#endif // STAX_INTERPRETER_INTERPRETER_H
