//===- Npy.h - NumPy .npy files for interpreter inputs/outputs --*- C++ -*-===//
#ifndef STAX_INTERPRETER_NPY_H
#define STAX_INTERPRETER_NPY_H

#include "Stax/Interpreter/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include <string>

namespace mlir::stax {

/// Reads a C-order .npy file (f16, f32, f64, i8, i16, i32, i64, bool, u8).
/// Returns failure with a message in `error`.
mlir::FailureOr<Tensor> readNpy(llvm::StringRef path, mlir::MLIRContext *ctx,
                                std::string &error);
/// Writes `t` as a C-order .npy file of its element type.
mlir::LogicalResult writeNpy(llvm::StringRef path, const Tensor &t,
                             std::string &error);

/// The dtype string of bf16, which NumPy lacks: elements are the raw
/// little-endian 16-bit words (a uint16 array in NumPy). The C API passes
/// bf16 buffers under it; .npy files cannot hold them.
constexpr const char kBF16Descr[] = "<bf16";

/// The NumPy dtype string of an element type ("<f4", "|b1", "|u1" for ui8,
/// kBF16Descr for bf16, ...), or "".
std::string npyDescr(mlir::Type elementType);
/// The element type of a NumPy dtype string, or null.
mlir::Type typeFromNpyDescr(llvm::StringRef descr, mlir::MLIRContext *ctx);

/// Fills tensor element `i` from raw little-endian bytes of element type
/// `t`, and the reverse. Shared by the .npy reader and the C API.
void loadRawElement(Tensor &tensor, int64_t i, const char *bytes);
void storeRawElement(const Tensor &tensor, int64_t i, char *bytes);
/// Bytes per element of the tensor's element type.
unsigned rawElementSize(mlir::Type elementType);

} // namespace mlir::stax

#endif // STAX_INTERPRETER_NPY_H
