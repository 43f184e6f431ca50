//===- TypeInference.cpp - broadcasting and type promotion ----------------===//
//
// Section 6.2 of the spec: every pointwise operator declares one promotion
// mode. The rules follow PyTorch's `result_type`: dimensioned tensors decide
// the type; a 0-d tensor or a scalar only matters when its category (bool <
// integer < floating) is higher, and a higher-category scalar contributes
// the default type of its category (f32, i64).
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include "Stax/Dialect/Tp/IR/TpDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::tp;

Type tp::getDefaultFloatType(MLIRContext *ctx) { return Float32Type::get(ctx); }

bool tp::isScalarAttr(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getType().isF64();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getType().isSignlessInteger(64) || i.getType().isSignlessInteger(1);
  return false;
}

TypedAttr tp::getIntScalar(MLIRContext *ctx, int64_t value) {
  return IntegerAttr::get(IntegerType::get(ctx, 64), value);
}

double tp::getScalarAsDouble(TypedAttr attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  auto i = cast<IntegerAttr>(attr);
  if (i.getType().isSignlessInteger(1))
    return i.getValue().getBoolValue() ? 1.0 : 0.0;
  return static_cast<double>(i.getValue().getSExtValue());
}

int64_t tp::getScalarAsInt(TypedAttr attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return static_cast<int64_t>(f.getValueAsDouble());
  auto i = cast<IntegerAttr>(attr);
  if (i.getType().isSignlessInteger(1))
    return i.getValue().getBoolValue() ? 1 : 0;
  return i.getValue().getSExtValue();
}

TypeCategory tp::getTypeCategory(Type t) {
  if (t.isSignlessInteger(1))
    return TypeCategory::Bool;
  // PyTorch's signed integers (int8 to int64) are signless types; uint8,
  // the one unsigned dtype it computes with, is `ui8`. Signed (`si8`),
  // other unsigned and other widths (i2, i128) have no PyTorch dtype, and
  // no kernel knows their semantics; nor do the floats beyond f16, bf16,
  // f32 and f64 (f80, f128, tf32, the f8 types), which the interpreter
  // and code generation cannot store.
  if (t.isSignlessInteger(8) || t.isSignlessInteger(16) ||
      t.isSignlessInteger(32) || t.isSignlessInteger(64) ||
      t.isUnsignedInteger(8))
    return TypeCategory::Integer;
  if (t.isF16() || t.isBF16() || t.isF32() || t.isF64())
    return TypeCategory::Floating;
  return TypeCategory::Unsupported;
}

static int floatRank(Type t) {
  if (t.isF64())
    return 3;
  if (t.isF32())
    return 2;
  return 1; // f16, bf16
}

Type tp::promoteElementTypes(Type a, Type b) {
  if (a == b)
    return a;
  TypeCategory ca = getTypeCategory(a), cb = getTypeCategory(b);
  if (ca != cb)
    return ca > cb ? a : b;
  if (ca == TypeCategory::Floating) {
    int ra = floatRank(a), rb = floatRank(b);
    if (ra == 1 && rb == 1) // f16 with bf16
      return Float32Type::get(a.getContext());
    return ra >= rb ? a : b;
  }
  // Integers: the wider wins. Unsigned with signed needs a signed type that
  // holds both ranges: uint8 with int8 is int16, with int16 or wider the
  // signed type (PyTorch's promotion table).
  unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
  if (a.isUnsignedInteger() != b.isUnsignedInteger()) {
    unsigned wu = a.isUnsignedInteger() ? wa : wb;
    unsigned ws = a.isUnsignedInteger() ? wb : wa;
    return IntegerType::get(a.getContext(), std::max(ws, 2 * wu));
  }
  return wa >= wb ? a : b;
}

FailureOr<SmallVector<int64_t>> tp::broadcastShapes(ArrayRef<int64_t> a,
                                                    ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return failure();
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::optional<int64_t> tp::normalizeDim(int64_t dim, int64_t rank) {
  int64_t r = std::max<int64_t>(rank, 1);
  if (dim < -r || dim >= r)
    return std::nullopt;
  return dim < 0 ? dim + r : dim;
}

LogicalResult tp::emitInferError(std::optional<Location> loc, StringRef opName,
                                 const Twine &message) {
  if (loc)
    mlir::emitError(*loc) << "'" << opName << "' op " << message;
  return failure();
}

std::string mlir::tp::shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

/// Applies a promotion mode to an already-promoted element type.
static FailureOr<Type> applyPromotion(std::optional<Location> loc,
                                      StringRef opName, Type t,
                                      Promotion promotion) {
  MLIRContext *ctx = t.getContext();
  TypeCategory cat = getTypeCategory(t);
  if (cat == TypeCategory::Unsupported)
    return emitInferError(loc, opName, "unsupported element type");
  switch (promotion) {
  case Promotion::Same:
  case Promotion::Default:
    return t;
  case Promotion::IntToFloat:
    return cat == TypeCategory::Floating ? t : getDefaultFloatType(ctx);
  case Promotion::FloatOnly:
    if (cat != TypeCategory::Floating)
      return emitInferError(loc, opName,
                            "expects floating-point operands, got integer or "
                            "bool");
    return t;
  case Promotion::IntOnly:
    if (cat == TypeCategory::Floating)
      return emitInferError(loc, opName,
                            "expects integer or bool operands, got floating "
                            "point");
    return t;
  case Promotion::IntToLong:
    return cat == TypeCategory::Floating ? t : Type(IntegerType::get(ctx, 64));
  case Promotion::ToBool:
    return Type(IntegerType::get(ctx, 1));
  }
  llvm_unreachable("unknown promotion");
}

static FailureOr<RankedTensorType> asTensor(std::optional<Location> loc,
                                            StringRef opName, Type t) {
  auto tt = dyn_cast<RankedTensorType>(t);
  if (!tt)
    return emitInferError(loc, opName, "expects ranked tensor operands");
  if (!tt.hasStaticShape())
    return emitInferError(loc, opName,
                          "dynamic dimensions are not supported yet");
  return tt;
}

LogicalResult tp::inferUnary(std::optional<Location> loc, StringRef opName,
                             Type self, Promotion promotion,
                             SmallVectorImpl<Type> &types) {
  auto t = asTensor(loc, opName, self);
  if (failed(t))
    return failure();
  auto elt = applyPromotion(loc, opName, t->getElementType(), promotion);
  if (failed(elt))
    return failure();
  types.push_back(RankedTensorType::get(t->getShape(), *elt));
  return success();
}

LogicalResult tp::inferBinary(std::optional<Location> loc, StringRef opName,
                              Type self, Type other, Promotion promotion,
                              SmallVectorImpl<Type> &types) {
  auto a = asTensor(loc, opName, self), b = asTensor(loc, opName, other);
  if (failed(a) || failed(b))
    return failure();
  auto shape = broadcastShapes(a->getShape(), b->getShape());
  if (failed(shape))
    return emitInferError(loc, opName,
                          "operand shapes " + shapeString(a->getShape()) + " and " +
                              shapeString(b->getShape()) + " do not broadcast");
  Type ea = a->getElementType(), eb = b->getElementType();
  Type common;
  bool za = a->getRank() == 0, zb = b->getRank() == 0;
  if (za == zb)
    common = promoteElementTypes(ea, eb);
  else {
    Type dimT = za ? eb : ea, zeroT = za ? ea : eb;
    common = getTypeCategory(zeroT) > getTypeCategory(dimT) ? zeroT : dimT;
  }
  auto elt = applyPromotion(loc, opName, common, promotion);
  if (failed(elt))
    return failure();
  types.push_back(RankedTensorType::get(*shape, *elt));
  return success();
}

LogicalResult tp::inferBinaryScalar(std::optional<Location> loc,
                                    StringRef opName, Type self,
                                    TypedAttr scalar, Promotion promotion,
                                    SmallVectorImpl<Type> &types) {
  auto a = asTensor(loc, opName, self);
  if (failed(a))
    return failure();
  if (!scalar || !isScalarAttr(scalar))
    return emitInferError(loc, opName, "expects an i64, f64 or bool scalar");
  Type t = a->getElementType();
  TypeCategory ct = getTypeCategory(t), cs = getTypeCategory(scalar.getType());
  if (cs > ct)
    t = cs == TypeCategory::Floating ? getDefaultFloatType(t.getContext())
                : Type(IntegerType::get(t.getContext(), 64));
  auto elt = applyPromotion(loc, opName, t, promotion);
  if (failed(elt))
    return failure();
  types.push_back(RankedTensorType::get(a->getShape(), *elt));
  return success();
}

FailureOr<SmallVector<int64_t>>
tp::reducedShape(std::optional<Location> loc, StringRef opName,
                 ArrayRef<int64_t> shape, ArrayRef<int64_t> dims,
                 bool keepdim) {
  int64_t rank = shape.size();
  llvm::SmallSet<int64_t, 8> reduced;
  for (int64_t d : dims) {
    auto nd = normalizeDim(d, rank);
    if (!nd)
      return emitInferError(loc, opName,
                            "dim " + Twine(d) + " is out of range for rank " +
                                Twine(rank));
    if (!reduced.insert(*nd).second)
      return emitInferError(loc, opName,
                            "dim " + Twine(d) + " appears more than once");
  }
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < rank; ++i) {
    bool isReduced = dims.empty() || reduced.contains(i);
    if (!isReduced)
      out.push_back(shape[i]);
    else if (keepdim)
      out.push_back(1);
  }
  return out;
}

LogicalResult tp::inferReduction(std::optional<Location> loc, StringRef opName,
                                 Type self, ArrayRef<int64_t> dims,
                                 bool keepdim, std::optional<Type> dtype,
                                 Promotion promotion,
                                 SmallVectorImpl<Type> &types) {
  auto a = asTensor(loc, opName, self);
  if (failed(a))
    return failure();
  auto shape = reducedShape(loc, opName, a->getShape(), dims, keepdim);
  if (failed(shape))
    return failure();
  FailureOr<Type> elt = dtype ? FailureOr<Type>(*dtype)
                              : applyPromotion(loc, opName,
                                               a->getElementType(), promotion);
  if (failed(elt))
    return failure();
  types.push_back(RankedTensorType::get(*shape, *elt));
  return success();
}

LogicalResult tp::inferReshape(std::optional<Location> loc, StringRef opName,
                               Type self, ArrayRef<int64_t> size,
                               SmallVectorImpl<Type> &types) {
  auto a = asTensor(loc, opName, self);
  if (failed(a))
    return failure();
  int64_t known = 1, inferred = -1;
  SmallVector<int64_t> shape(size);
  for (auto [i, d] : llvm::enumerate(size)) {
    if (d == -1) {
      if (inferred >= 0)
        return emitInferError(loc, opName, "only one dimension can be -1");
      inferred = i;
    } else if (d < 0) {
      return emitInferError(loc, opName, "invalid size " + Twine(d));
    } else {
      known *= d;
    }
  }
  int64_t numel = a->getNumElements();
  if (inferred >= 0) {
    if (known == 0 || numel % known != 0)
      return emitInferError(loc, opName,
                            "cannot infer -1 in " + shapeString(size) + " for " +
                                Twine(numel) + " elements");
    shape[inferred] = numel / known;
  } else if (known != numel) {
    return emitInferError(loc, opName,
                          "shape " + shapeString(size) + " has " + Twine(known) +
                              " elements but the input has " + Twine(numel));
  }
  types.push_back(RankedTensorType::get(shape, a->getElementType()));
  return success();
}

bool tp::hasInPlaceUser(Value v) {
  // tp ops are Pure unless they mutate (the in-place overloads).
  return llvm::any_of(v.getUsers(), [](Operation *user) {
    return isa<TpDialect>(user->getDialect()) && !isPure(user);
  });
}
