//===- VectorMathCalls.cpp - f64 math on vectors without libm per lane ---===//
//
// --stax-vector-math-calls: f64 math functions on vectors become calls of
// glibc's vector variants (Passes.td), and exp, expm1, tanh, sin, cos,
// tan, asin, acos, atan, atan2, erf and erfc, whose variants are 1.2-3.5
// ulp (atan2 has none), float64 kernels of ours
// (F64ExactKernels.cpp). The vector function ABI names the variants
// _ZGV<isa>N<lanes><one v per operand>_<name>: `e` is AVX-512 (8 doubles
// in a zmm register), `d` AVX2 (4 in a ymm); LLVM passes a <8 x double>
// argument in zmm0 like the library expects.
//
//===----------------------------------------------------------------------===//
#include "F64ExactKernels.h"
#include "Stax/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/TargetParser/Host.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXVECTORMATHCALLS
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;
using mlir::stax::VectorMathLibrary;
namespace codegen = mlir::stax::codegen;

mlir::stax::VectorMathLibrary
mlir::stax::resolveVectorMathLibrary(VectorMathLibrary library) {
  if (library != VectorMathLibrary::Auto)
    return library;
#ifdef STAX_HAVE_LIBMVEC
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return VectorMathLibrary::AVX512;
  if (features.lookup("avx2") && features.lookup("fma"))
    return VectorMathLibrary::AVX2;
#endif
  return VectorMathLibrary::None;
}

namespace {

// Each statement creates its ops in one order: C++ leaves the order in
// which a call's arguments are evaluated unspecified (GCC and Clang
// differ), and the IR must not depend on the compiler.

/// The libm name of each op that libmvec may compute.
StringRef libmName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case([](math::LogOp) { return "log"; })
      .Case([](math::Log1pOp) { return "log1p"; })
      .Case([](math::Log2Op) { return "log2"; })
      .Case([](math::Log10Op) { return "log10"; })
      .Case([](math::Exp2Op) { return "exp2"; })
      .Case([](math::SinhOp) { return "sinh"; })
      .Case([](math::CoshOp) { return "cosh"; })
      .Case([](math::AsinhOp) { return "asinh"; })
      .Case([](math::AcoshOp) { return "acosh"; })
      .Case([](math::AtanhOp) { return "atanh"; })
      .Case([](math::PowFOp) { return "pow"; })
      .Default([](Operation *) { return StringRef(); });
}

/// Whether the variant of `name` for `library` is within 2 ulp of the
/// exact value (docs/Numerics.md: each domain swept against long double).
/// The AVX2 variants of log1p, asinh, acosh and atanh (2.3-2.6 ulp)
/// exceed it; so do both ISAs' exp (2.9), expm1 (2.1-2.9), sin, cos
/// (3.5), tan (3.2), asin (2.5), atan (2.4), erf (2.5) and erfc (2.0
/// with AVX-512), which get kernels of ours (and so do tanh, 1.15-2.13,
/// and acos, 1.7). pow is within 1 ulp with both.
bool withinTwoUlp(StringRef name, VectorMathLibrary library) {
  if (name.empty())
    return false;
  if (library == VectorMathLibrary::AVX512)
    return true;
  return llvm::is_contained(
      {"log", "log2", "log10", "exp2", "sinh", "cosh", "pow"}, name);
}

/// `op` (an f64 math function on a vector) as `kernel`, the lanes outside
/// the kernel's range from libm in a branch taken only when a vector holds
/// one; a unary function's NaN lanes (and with keepZeros, signed zeros)
/// returned as they are.
void rewriteWithKernel(Operation *op, const codegen::ExactF64Kernel &kernel) {
  using P = arith::CmpFPredicate;
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  codegen::F64Builder f(b, loc, x.getType());
  Value y = kernel.kernel(f, op->getOperands());
  if (!std::isinf(kernel.lower) || !std::isinf(kernel.upper)) {
    Value below = f.cmp(P::OLT, x, f.constant(kernel.lower));
    Value above = f.cmp(P::OGT, x, f.constant(kernel.upper));
    Value outside = arith::OrIOp::create(b, loc, below, above);
    y = codegen::replaceLanesOutside(b, loc, outside, y,
                                     [&](OpBuilder &nested, Location) {
                                       return nested.clone(*op)->getResult(0);
                                     });
  }
  if (op->getNumOperands() == 1) {
    Value keep = f.cmp(P::UNO, x, x);
    if (kernel.keepZeros)
      keep =
          arith::OrIOp::create(b, loc, keep, f.cmp(P::OEQ, x, f.constant(0.0)));
    y = arith::SelectOp::create(b, loc, keep, x, y);
  }
  op->getResult(0).replaceAllUsesWith(y);
  op->erase();
}

struct StaxVectorMathCalls
    : stax::impl::StaxVectorMathCallsBase<StaxVectorMathCalls> {
  using Base::Base;

  void runOnOperation() override {
    if (library == VectorMathLibrary::None)
      return;
    // Kernels of ours, on any host.
    // Scalars too: a loop's scalar tail (or a reduction kept scalar)
    // recomputing a value a vector body computed must get the same bits,
    // or an equality between two computations of it (a max's gradient
    // mask) fails.
    SmallVector<std::pair<Operation *, codegen::ExactF64Kernel>> kernels;
    getOperation().walk([&](Operation *op) {
      if (op->getNumResults() != 1 || !isF64OrVector(op->getResult(0).getType()))
        return;
      if (auto kernel = codegen::lookupExactF64Kernel(op))
        kernels.emplace_back(op, *kernel);
    });
    for (auto &[op, kernel] : kernels)
      rewriteWithKernel(op, kernel);

    VectorMathLibrary resolved = stax::resolveVectorMathLibrary(library);
    if (resolved == VectorMathLibrary::None)
      return;
    bool avx512 = resolved == VectorMathLibrary::AVX512;
    lanes = avx512 ? 8 : 4;
    isa = avx512 ? 'e' : 'd';

    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (withinTwoUlp(libmName(op), resolved) && rewritable(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      rewrite(op);
  }

  /// f64 or a 1-D f64 vector.
  static bool isF64OrVector(Type type) {
    if (type.isF64())
      return true;
    auto vector = dyn_cast<VectorType>(type);
    return vector && vector.getRank() == 1 && !vector.isScalable() &&
           vector.getElementType().isF64();
  }

  /// Every f64 value and 1-D vector: a scalar or a vector that is not a
  /// multiple of the library's lanes is padded to whole calls, since
  /// libm's result for a lane can differ from the variant's by an ulp and
  /// one value recomputed in a vector body and in a scalar tail must get
  /// the same bits.
  bool rewritable(Operation *op) const {
    return isF64OrVector(op->getResult(0).getType());
  }

  /// The vector function ABI's name of `op`'s variant: one `v` per
  /// vector operand (pow: `_ZGVeN8vv_pow`).
  std::string variantName(Operation *op) const {
    return (Twine("_ZGV") + Twine(isa) + "N" + Twine(lanes) +
            std::string(op->getNumOperands(), 'v') + "_" + libmName(op))
        .str();
  }

  /// `op` as one call per `lanes` slice of its operands; a scalar, or
  /// the last slice of a vector whose length is not a multiple of
  /// `lanes`, padded with 1.0 (in every function's domain).
  void rewrite(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type type = op->getResult(0).getType();
    auto slice = VectorType::get({lanes}, b.getF64Type());
    func::FuncOp callee = declare(variantName(op), op->getNumOperands(), slice);
    if (!callee)
      return;
    auto vector = dyn_cast<VectorType>(type);
    Value result;
    if (!vector) {
      SmallVector<Value> parts;
      for (Value operand : op->getOperands())
        parts.push_back(vector::BroadcastOp::create(b, loc, slice, operand));
      Value value = func::CallOp::create(b, loc, callee, parts).getResult(0);
      result = vector::ExtractOp::create(b, loc, value, ArrayRef<int64_t>{0});
    } else if (vector.getNumElements() == lanes) {
      result =
          func::CallOp::create(b, loc, callee, op->getOperands()).getResult(0);
    } else {
      result = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      int64_t n = vector.getNumElements();
      for (int64_t at = 0; at < n; at += lanes) {
        int64_t width = std::min<int64_t>(lanes, n - at);
        SmallVector<Value> parts;
        for (Value operand : op->getOperands())
          parts.push_back(sliceOf(b, loc, operand, at, width, slice));
        Value value = func::CallOp::create(b, loc, callee, parts).getResult(0);
        if (width < lanes)
          value = vector::ExtractStridedSliceOp::create(
              b, loc, value, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{width},
              ArrayRef<int64_t>{1});
        result = vector::InsertStridedSliceOp::create(
            b, loc, value, result, ArrayRef<int64_t>{at}, ArrayRef<int64_t>{1});
      }
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }

  /// Lanes [at, at + width) of `operand` as a `slice` vector, the lanes
  /// beyond `width` 1.0.
  static Value sliceOf(OpBuilder &b, Location loc, Value operand, int64_t at,
                       int64_t width, VectorType slice) {
    Value part = vector::ExtractStridedSliceOp::create(
        b, loc, operand, ArrayRef<int64_t>{at}, ArrayRef<int64_t>{width},
        ArrayRef<int64_t>{1});
    if (width == slice.getNumElements())
      return part;
    Value ones = arith::ConstantOp::create(
        b, loc, slice, DenseElementsAttr::get(slice, b.getF64FloatAttr(1.0)));
    return vector::InsertStridedSliceOp::create(
        b, loc, part, ones, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1});
  }

  /// The private declaration `name : (slice, ...) -> slice` with `arity`
  /// operands, made once; null (and the pass failed) where the module
  /// defines `name` otherwise.
  func::FuncOp declare(const std::string &name, unsigned arity,
                       VectorType slice) {
    ModuleOp module = getOperation();
    SmallVector<Type> inputs(arity, slice);
    FunctionType type = FunctionType::get(&getContext(), inputs, {slice});
    if (Operation *existing = module.lookupSymbol(name)) {
      auto fn = dyn_cast<func::FuncOp>(existing);
      if (fn && fn.getFunctionType() == type)
        return fn;
      existing->emitError()
          << "--stax-vector-math-calls: @" << name << " is libmvec's " << type
          << ", but the module defines it otherwise";
      signalPassFailure();
      return {};
    }
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
    fn.setPrivate();
    return fn;
  }

  int64_t lanes = 8;
  char isa = 'e';
};

} // namespace
