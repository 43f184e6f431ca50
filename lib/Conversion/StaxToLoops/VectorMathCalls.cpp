//===- VectorMathCalls.cpp - f64 math on vectors without libm per lane ---===//
//
// --stax-vector-math-calls: f64 math functions on vectors become calls of
// glibc's vector variants (Passes.td), and exp, sin and cos, whose variants
// are 2.9-3.5 ulp, float64 kernels of ours. The vector function ABI names
// the variants
// _ZGV<isa>N<lanes>v_<name>: `e` is AVX-512 (8 doubles in a zmm register),
// `d` AVX2 (4 in a ymm); LLVM passes a <8 x double> argument in zmm0 like
// the library expects.
//
//===----------------------------------------------------------------------===//
#include "F64MathBuilder.h"
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
      .Case([](math::TanhOp) { return "tanh"; })
      .Case([](math::LogOp) { return "log"; })
      .Case([](math::Log1pOp) { return "log1p"; })
      .Case([](math::Log2Op) { return "log2"; })
      .Case([](math::Log10Op) { return "log10"; })
      .Case([](math::Exp2Op) { return "exp2"; })
      .Case([](math::SinhOp) { return "sinh"; })
      .Case([](math::CoshOp) { return "cosh"; })
      .Case([](math::AcosOp) { return "acos"; })
      .Case([](math::AsinhOp) { return "asinh"; })
      .Case([](math::AcoshOp) { return "acosh"; })
      .Case([](math::AtanhOp) { return "atanh"; })
      .Default([](Operation *) { return StringRef(); });
}

/// Whether the variant of `name` for `library` is within 2 ulp of the
/// exact value (docs/Numerics.md: each domain swept against long double).
/// The AVX2 variants of tanh (2.13 ulp), log1p, asinh, acosh and atanh
/// (2.3-2.6) exceed it; so do both ISAs' exp (2.9), sin, cos (3.5), which
/// get kernels of ours, and expm1, tan, erf, erfc, atan and asin, which
/// stay libm calls.
bool withinTwoUlp(StringRef name, VectorMathLibrary library) {
  if (name.empty())
    return false;
  if (library == VectorMathLibrary::AVX512)
    return true;
  return llvm::is_contained(
      {"log", "log2", "log10", "exp2", "sinh", "cosh", "acos"}, name);
}

/// ln 2 = kExpLn2Hi + kExpLn2Lo, kExpLn2Hi with 32 significant bits: k
/// kExpLn2Hi is exact for |k| < 2^21, and so is x - k kExpLn2Hi near x.
constexpr double kExpLn2Hi = 0.6931471803691238;
constexpr double kExpLn2Lo = 1.9082149292705877e-10;
/// The fast path's range: 2^k is normal and so is e^x.
constexpr double kExpFastLimit = 708.0;

/// e^x for |x| <= kExpFastLimit within 1 ulp (f64; 0.66 measured): x = k
/// ln2 + r + rLo with |r| <= ln2 / 2 (x - k ln2Hi is exact; r is that
/// minus k ln2Lo rounded, rLo its rounding error), e^r = 1 + r + s with
/// s = r^2 Q(r) + rLo and Q the Taylor series to r^11 / 13! (truncation
/// < 5e-18). 1 + r is rounded with its error kept (Fast2Sum), so that the
/// only rounding above the 2^-57 level is the last addition; 2^k scales
/// exactly.
Value exactExp(codegen::F64Builder &f, Value x) {
  Value k = f.roundEven(f.mul(x, f.constant(codegen::kLog2E)));
  Value negK = f.neg(k);
  Value ln2Lo = f.constant(kExpLn2Lo);
  Value rHi = f.fma(negK, f.constant(kExpLn2Hi), x);
  Value r = f.fma(negK, ln2Lo, rHi);
  Value rLo = f.fma(negK, ln2Lo, f.sub(rHi, r));
  SmallVector<double> tail;
  double term = 0.5;
  for (int n = 3; n <= 14; ++n) {
    tail.push_back(term);
    term /= n;
  }
  Value q = f.polynomial(r, tail);
  Value small = f.fma(f.mul(r, r), q, rLo);
  Value one = f.constant(1.0);
  Value t = f.add(one, r);
  Value tError = f.add(f.sub(one, t), r);
  Value e = f.add(t, f.add(tError, small));
  return f.mul(e, f.exp2Int(f.toInt(k)));
}

/// pi/2 = kPio2Part1 + kPio2Part2 + kPio2Part3 (to 2^-119 relative); the
/// first two parts have 33 significant bits, so that k times each is
/// exact for |k| < 2^20.
constexpr double kTwoOverPi = 0.6366197723675814;
constexpr double kPio2Part1 = 1.5707963267341256;
constexpr double kPio2Part2 = 6.077100506303966e-11;
constexpr double kPio2Part3 = 2.0222662487959506e-21;
/// The fast path's range: |k| < 2^20.
constexpr double kTrigFastLimit = 1048576.0;

/// a + b as hi + lo exactly (Knuth's TwoSum).
std::pair<Value, Value> twoSum(codegen::F64Builder &f, Value a, Value b) {
  Value hi = f.add(a, b);
  Value bPart = f.sub(hi, a);
  Value aPart = f.sub(hi, bPart);
  Value aError = f.sub(a, aPart);
  Value bError = f.sub(b, bPart);
  return {hi, f.add(aError, bError)};
}

/// sin(x) (`isSin`) or cos(x) for |x| <= kTrigFastLimit within 1 ulp
/// (f64; 0.72 measured): x = k pi/2 + r + rLo with r + rLo exact to
/// 2^-98 |x| (x - k part1 and k part2 are exact, the two subtractions
/// kept as TwoSums), which leaves 2^-36 relative even at the multiple of
/// pi/2 closest to a double below 2^20. On |r| <= pi/4, Taylor series
/// to r^17 / 17! and r^18 / 18! with rLo's first-order term; the large
/// term (r, or 1 - r^2/2 summed exactly) is added last. The quadrant
/// k mod 4 selects +-sin r or +-cos r.
Value sinCos(codegen::F64Builder &f, Value x, bool isSin) {
  Value k = f.roundEven(f.mul(x, f.constant(kTwoOverPi)));
  Value negK = f.neg(k);
  Value r1 = f.fma(negK, f.constant(kPio2Part1), x);
  auto [r2, e2] = twoSum(f, r1, f.mul(negK, f.constant(kPio2Part2)));
  auto [r, e3] = twoSum(f, r2, f.mul(negK, f.constant(kPio2Part3)));
  Value rLo = f.add(e2, e3);
  Value z = f.mul(r, r);
  Value zLo = f.fma(r, r, f.neg(z));
  SmallVector<double> sinTail, cosTail;
  double term = 1.0;
  for (int n = 1; n <= 18; ++n) {
    term /= n;
    double sign = (n / 2) % 2 ? -1.0 : 1.0;
    if (n >= 3 && n % 2 == 1)
      sinTail.push_back(sign * term); // -1/3!, 1/5!, ...
    if (n >= 4 && n % 2 == 0)
      cosTail.push_back(sign * term); // 1/4!, -1/6!, ...
  }
  Value one = f.constant(1.0);
  Value half = f.constant(0.5);
  // sin(r + rLo) = r + r^3 S(z) + rLo (1 - z/2).
  Value rLoCos = f.fma(f.neg(f.mul(half, z)), rLo, rLo);
  Value cube = f.mul(r, z);
  Value sinSmall = f.fma(cube, f.polynomial(z, sinTail), rLoCos);
  Value sinR = f.add(r, sinSmall);
  // cos(r + rLo) = (1 - z/2) - zLo/2 + z^2 C(z) - r rLo, 1 - z/2 summed
  // with its error (Fast2Sum: 1 >= z/2).
  Value h = f.mul(half, z);
  Value t = f.sub(one, h);
  Value tError = f.sub(f.sub(one, t), h);
  Value lower = f.fma(f.neg(half), zLo, tError);
  lower = f.fma(f.neg(r), rLo, lower);
  Value z2 = f.mul(z, z);
  Value cosSmall = f.fma(z2, f.polynomial(z, cosTail), lower);
  Value cosR = f.add(t, cosSmall);
  // Quadrant n = k mod 4 (cos: n + 1): odd ones swap, 2 and 3 negate.
  Value n = f.toInt(k);
  if (!isSin)
    n = f.addInt(n, f.intConstant(1));
  auto bit = [&](int64_t mask) {
    return f.cmpInt(arith::CmpIPredicate::ne, f.andInt(n, mask), 0);
  };
  Value value = f.select(bit(1), cosR, sinR);
  Value negate = bit(2);
  return f.select(negate, f.neg(value), value);
}

/// `op` (f64 math.exp, sin or cos on a vector) as `kernel`, the lanes
/// beyond +-`limit` (where the kernel is not valid, infinities included)
/// from libm in a branch taken only when a vector holds one; NaN lanes
/// (and with `keepZeros`, sin's signed zeros) are returned as they are.
template <typename OpT>
void rewriteWithKernel(OpT op,
                       function_ref<Value(codegen::F64Builder &, Value)> kernel,
                       double limit, bool keepZeros) {
  using P = arith::CmpFPredicate;
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value x = op.getOperand();
  codegen::F64Builder f(b, loc, x.getType());
  Value fast = kernel(f, x);
  Value magnitude = f.abs(x);
  Value outside = f.cmp(P::OGT, magnitude, f.constant(limit));
  Value y = codegen::replaceLanesOutside(
      b, loc, outside, fast, [&](OpBuilder &nested, Location loc) {
        return OpT::create(nested, loc, x).getResult();
      });
  Value keep = f.cmp(P::UNO, x, x);
  if (keepZeros)
    keep =
        arith::OrIOp::create(b, loc, keep, f.cmp(P::OEQ, x, f.constant(0.0)));
  Value result = arith::SelectOp::create(b, loc, keep, x, y);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

/// exp, sin and cos as the kernels above.
void rewriteWithKernel(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case([](math::ExpOp exp) {
        rewriteWithKernel(exp, exactExp, kExpFastLimit, /*keepZeros=*/false);
      })
      .Case([](math::SinOp sin) {
        auto kernel = [](codegen::F64Builder &f, Value x) {
          return sinCos(f, x, /*isSin=*/true);
        };
        rewriteWithKernel(sin, kernel, kTrigFastLimit, /*keepZeros=*/true);
      })
      .Case([](math::CosOp cos) {
        auto kernel = [](codegen::F64Builder &f, Value x) {
          return sinCos(f, x, /*isSin=*/false);
        };
        rewriteWithKernel(cos, kernel, kTrigFastLimit, /*keepZeros=*/false);
      });
}

struct StaxVectorMathCalls
    : stax::impl::StaxVectorMathCallsBase<StaxVectorMathCalls> {
  using Base::Base;

  void runOnOperation() override {
    if (library == VectorMathLibrary::None)
      return;
    // exp, sin and cos: kernels of ours, on any host.
    SmallVector<Operation *> kernels;
    getOperation().walk([&](Operation *op) {
      if (isa<math::ExpOp, math::SinOp, math::CosOp>(op) &&
          isF64Vector(op->getResult(0).getType()))
        kernels.push_back(op);
    });
    for (Operation *op : kernels)
      rewriteWithKernel(op);

    VectorMathLibrary resolved = stax::resolveVectorMathLibrary(library);
    if (resolved == VectorMathLibrary::None)
      return;
    bool avx512 = resolved == VectorMathLibrary::AVX512;
    lanes = avx512 ? 8 : 4;
    prefix = avx512 ? "_ZGVeN8v_" : "_ZGVdN4v_";

    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (withinTwoUlp(libmName(op), resolved) && rewritable(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      rewrite(op);
  }

  static bool isF64Vector(Type type) {
    auto vector = dyn_cast<VectorType>(type);
    return vector && vector.getRank() == 1 && !vector.isScalable() &&
           vector.getElementType().isF64();
  }

  /// A 1-D f64 vector whose lanes the library's calls cover exactly.
  bool rewritable(Operation *op) const {
    Type type = op->getResult(0).getType();
    return isF64Vector(type) &&
           cast<VectorType>(type).getNumElements() % lanes == 0;
  }

  /// `op` as one call per `lanes` slice of its operand.
  void rewrite(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto type = cast<VectorType>(op->getResult(0).getType());
    auto slice = VectorType::get({lanes}, type.getElementType());
    func::FuncOp callee = declare((prefix + libmName(op)).str(), slice);
    if (!callee)
      return;
    Value x = op->getOperand(0);
    Value result;
    if (type.getNumElements() == lanes) {
      result = func::CallOp::create(b, loc, callee, x).getResult(0);
    } else {
      result = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      for (int64_t at = 0; at < type.getNumElements(); at += lanes) {
        Value part = vector::ExtractStridedSliceOp::create(
            b, loc, x, ArrayRef<int64_t>{at}, ArrayRef<int64_t>{lanes},
            ArrayRef<int64_t>{1});
        Value value = func::CallOp::create(b, loc, callee, part).getResult(0);
        result = vector::InsertStridedSliceOp::create(
            b, loc, value, result, ArrayRef<int64_t>{at}, ArrayRef<int64_t>{1});
      }
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }

  /// The private declaration `name : (slice) -> slice`, made once; null
  /// (and the pass failed) where the module defines `name` otherwise.
  func::FuncOp declare(const std::string &name, VectorType slice) {
    ModuleOp module = getOperation();
    FunctionType type = FunctionType::get(&getContext(), {slice}, {slice});
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
  std::string prefix;
};

} // namespace
