//===- TypeInference.h - shapes and dtypes of tp results --------*- C++ -*-===//
//
// Broadcasting and the type-promotion modes of the spec's Section 6.2, shared
// by the op families of TpOps.td. Each function emits a diagnostic naming the
// op when the operands are invalid and `loc` is present.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_TP_IR_TYPEINFERENCE_H
#define STAX_DIALECT_TP_IR_TYPEINFERENCE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::tp {

/// How an op's result element type follows from its operands'.
enum class Promotion {
  Same,       ///< the (promoted) operand type
  Default,    ///< PyTorch's common type of the operands
  IntToFloat, ///< common type, integers and bool become the default float
  FloatOnly,  ///< common type, which must be floating
  IntOnly,    ///< common type, which must be integer or bool
  IntToLong,  ///< integers and bool accumulate in i64 (sum, prod)
  ToBool,     ///< the result is i1 (comparisons, logical ops)
};

/// Which element types a scan op (TpScanOps.td) takes.
enum class ScanElements {
  NumbersNotBool, ///< integers but i1, and floats (cumsum)
  FloatOnly,      ///< floats (logcumsumexp)
  Any,            ///< integers, i1 and floats (cummax, cummin)
};

/// The default floating type of the eager framework (float32).
Type getDefaultFloatType(MLIRContext *ctx);

/// True for the attributes a scalar argument may be: i64, f64 or i1.
bool isScalarAttr(Attribute attr);
/// An i64 scalar attribute.
TypedAttr getIntScalar(MLIRContext *ctx, int64_t value);
/// A scalar attribute's value as a double (bool: 0 or 1).
double getScalarAsDouble(TypedAttr attr);
/// A scalar attribute's value as an integer: exact for i64 (a double holds
/// 53 bits), 0 or 1 for a bool (an i1 `true` sign-extends to -1), truncated
/// toward zero for a float.
int64_t getScalarAsInt(TypedAttr attr);

/// PyTorch's type categories, in promotion order: bool < integer < floating.
/// Element types of no category (index, complex...) are Unsupported.
enum class TypeCategory { Bool, Integer, Floating, Unsupported };
TypeCategory getTypeCategory(Type elementType);
/// The common type of two tensor element types (result_type of two
/// dimensioned tensors).
Type promoteElementTypes(Type a, Type b);

/// Numpy broadcasting of two static shapes; failure when they do not
/// broadcast.
FailureOr<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                ArrayRef<int64_t> b);
/// `shape` as diagnostics print it: "[4, 3]".
std::string shapeString(ArrayRef<int64_t> shape);
/// Maps `dim` in [-rank, rank) to [0, rank). A 0-d tensor accepts -1 and 0.
std::optional<int64_t> normalizeDim(int64_t dim, int64_t rank);

/// Emits "'<op>' op <message>" at `loc` when present; always returns failure.
LogicalResult emitInferError(std::optional<Location> loc, StringRef opName,
                             const Twine &message);

LogicalResult inferUnary(std::optional<Location> loc, StringRef opName,
                         Type self, Promotion promotion,
                         SmallVectorImpl<Type> &types);
LogicalResult inferBinary(std::optional<Location> loc, StringRef opName,
                          Type self, Type other, Promotion promotion,
                          SmallVectorImpl<Type> &types);
LogicalResult inferBinaryScalar(std::optional<Location> loc, StringRef opName,
                                Type self, TypedAttr scalar,
                                Promotion promotion,
                                SmallVectorImpl<Type> &types);
LogicalResult inferReduction(std::optional<Location> loc, StringRef opName,
                             Type self, ArrayRef<int64_t> dims, bool keepdim,
                             std::optional<Type> dtype, Promotion promotion,
                             SmallVectorImpl<Type> &types);
LogicalResult inferReshape(std::optional<Location> loc, StringRef opName,
                           Type self, ArrayRef<int64_t> size,
                           SmallVectorImpl<Type> &types);

/// A scan: the result has self's type; with `withIndices`, an i64 tensor of
/// the same shape follows. Checks `dim` against self's rank.
LogicalResult inferScan(std::optional<Location> loc, StringRef opName,
                        Value self, int64_t dim, ScanElements elements,
                        bool withIndices, SmallVectorImpl<Type> &types);

LogicalResult inferArgReduction(std::optional<Location> loc, StringRef opName,
                                Type self, std::optional<uint64_t> dim,
                                bool keepdim, SmallVectorImpl<Type> &types);

/// True when an op that mutates its operand in place (no value semantics,
/// e.g. tp.add_) uses `v`.
bool hasInPlaceUser(Value v);

/// The shape after reducing `dims` (all dims when empty); failure with a
/// diagnostic when a dim is out of range or repeated.
FailureOr<SmallVector<int64_t>>
reducedShape(std::optional<Location> loc, StringRef opName,
             ArrayRef<int64_t> shape, ArrayRef<int64_t> dims, bool keepdim);

} // namespace mlir::tp

#endif // STAX_DIALECT_TP_IR_TYPEINFERENCE_H
