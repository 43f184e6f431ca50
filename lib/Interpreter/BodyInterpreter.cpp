//===- BodyInterpreter.cpp - concrete values of node bodies ---------------===//
//
// Compiles the arith/math/affine/stax ops of a node body into steps; see
// BodyInterpreter.h. Each step mirrors the rounding of the reference
// kernels: a floating result rounds once to its type.
//
//===----------------------------------------------------------------------===//
#include "BodyInterpreter.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Stax/Support/SpecialFunctions.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;
namespace sx = ::stax;

int64_t stax::detail::wrapInt(int64_t v, Type t) {
  if (t.isIndex())
    return v;
  if (t.isInteger(1))
    return (v & 1) ? -1 : 0;
  return wrapToIntType(v, t);
}

namespace {


uint64_t asUnsigned(int64_t v, Type t) {
  unsigned w = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
  if (w >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << w) - 1);
}

/// Rounds the quotient up; INT64_MIN / -1 wraps (no negation of INT64_MIN).
int64_t ceilDiv(int64_t a, int64_t b) {
  if (b == -1)
    return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

int64_t floorDiv(int64_t a, int64_t b) {
  if (b == -1) // INT64_MIN / -1 overflows (SIGFPE on x86): wrap.
    return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

int64_t evalAffine(AffineExpr e, ArrayRef<int64_t> dims, ArrayRef<int64_t> syms) {
  switch (e.getKind()) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(e).getValue();
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(e).getPosition()];
  case AffineExprKind::SymbolId:
    return syms[cast<AffineSymbolExpr>(e).getPosition()];
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  int64_t l = evalAffine(bin.getLHS(), dims, syms);
  int64_t r = evalAffine(bin.getRHS(), dims, syms);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::FloorDiv:
    return floorDiv(l, r);
  case AffineExprKind::CeilDiv:
    return -floorDiv(-l, r);
  case AffineExprKind::Mod: {
    int64_t m = l % r;
    return m < 0 ? m + r : m;
  }
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

/// Compiles a node body into steps. Values defined outside the body (the
/// buffers a load reads) come from `lookup`.
class BodyCompiler {
public:
  BodyCompiler(const KernelContext &ctx,
               llvm::function_ref<const Tensor *(Value)> lookup)
      : ctx(ctx), lookup(lookup) {}

  /// Compiles `block`; its arguments take slots 0..n-1. Fills `yields` with
  /// the slots of the yielded values.
  LogicalResult compile(Block &block, std::vector<Step> &steps,
                        SmallVectorImpl<unsigned> &yields, unsigned &numSlots);

private:
  unsigned slotOf(Value v) { return slots.lookup(v); }
  unsigned define(Value v) {
    unsigned s = slots.size();
    slots[v] = s;
    return s;
  }
  Type mapped(Type t) const { return ctx.mapType(t); }
  double round(double v, Type t) const { return roundToFloatType(v, mapped(t)); }

  FailureOr<Step> compileOp(Operation &op);
  FailureOr<Step> compileArith(Operation &op);
  FailureOr<Step> compileMath(Operation &op);
  FailureOr<Step> compileLoad(sx::LoadOp op);
  FailureOr<Step> compileIndirect(sx::IndirectIndexOp op);
  FailureOr<Step> compileApply(affine::AffineApplyOp op);
  FailureOr<Step> compileSpecial(SpecialFunctionOp op);

  template <typename Fn> Step floatUnary(Operation &op, Fn fn) {
    unsigned a = slotOf(op.getOperand(0)), r = define(op.getResult(0));
    Type t = mapped(op.getResult(0).getType());
    return [=](Slots &s) {
      s[r].f = roundToFloatType(fn(s[a].f), t);
      return success();
    };
  }
  template <typename Fn> Step floatBinary(Operation &op, Fn fn) {
    unsigned a = slotOf(op.getOperand(0)), b = slotOf(op.getOperand(1));
    unsigned r = define(op.getResult(0));
    Type t = mapped(op.getResult(0).getType());
    return [=](Slots &s) {
      s[r].f = roundToFloatType(fn(s[a].f, s[b].f), t);
      return success();
    };
  }
  /// math.fma rounded once, in float for f32 (an fma in double rounded to
  /// float could round twice).
  Step floatFma(Operation &op) {
    unsigned a = slotOf(op.getOperand(0)), b = slotOf(op.getOperand(1)),
             c = slotOf(op.getOperand(2));
    unsigned r = define(op.getResult(0));
    Type t = mapped(op.getResult(0).getType());
    bool single = t.isF32();
    return [=](Slots &s) {
      double v = single ? static_cast<double>(std::fmaf(
                              static_cast<float>(s[a].f),
                              static_cast<float>(s[b].f),
                              static_cast<float>(s[c].f)))
                        : std::fma(s[a].f, s[b].f, s[c].f);
      s[r].f = roundToFloatType(v, t);
      return success();
    };
  }
  template <typename Fn> Step intBinary(Operation &op, Fn fn) {
    unsigned a = slotOf(op.getOperand(0)), b = slotOf(op.getOperand(1));
    unsigned r = define(op.getResult(0));
    Type t = op.getResult(0).getType();
    Operation *where = &op;
    return [=](Slots &s) -> LogicalResult {
      FailureOr<int64_t> v = fn(s[a].i, s[b].i, t);
      if (failed(v))
        return runtimeError(where, "integer division by zero");
      s[r].i = wrapInt(*v, t);
      return success();
    };
  }

  const KernelContext &ctx;
  llvm::function_ref<const Tensor *(Value)> lookup;
  llvm::DenseMap<Value, unsigned> slots;
};

LogicalResult BodyCompiler::compile(Block &block, std::vector<Step> &steps,
                                    SmallVectorImpl<unsigned> &yields,
                                    unsigned &numSlots) {
  for (BlockArgument a : block.getArguments())
    define(a);
  for (Operation &op : block) {
    if (auto y = dyn_cast<sx::YieldOp>(op)) {
      for (Value v : y.getValues())
        yields.push_back(slotOf(v));
      continue;
    }
    for (Value v : op.getOperands())
      if (!slots.count(v) && !isa<RankedTensorType>(v.getType()))
        return op.emitError() << "operand is defined outside the node body; "
                                 "bodies may only capture buffers";
    FailureOr<Step> step = compileOp(op);
    if (failed(step))
      return failure();
    steps.push_back(std::move(*step));
  }
  numSlots = slots.size();
  return success();
}

FailureOr<Step> BodyCompiler::compileOp(Operation &op) {
  if (auto load = dyn_cast<sx::LoadOp>(op))
    return compileLoad(load);
  if (auto ind = dyn_cast<sx::IndirectIndexOp>(op))
    return compileIndirect(ind);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op))
    return compileApply(apply);
  if (auto special = dyn_cast<SpecialFunctionOp>(op))
    return compileSpecial(special);
  StringRef ns = op.getDialect() ? op.getDialect()->getNamespace() : "";
  if (ns == "arith")
    return compileArith(op);
  if (ns == "math")
    return compileMath(op);
  return op.emitError() << "'" << op.getName()
                        << "' in a node body has no interpretation";
}

FailureOr<Step> BodyCompiler::compileLoad(sx::LoadOp op) {
  const Tensor *buffer = lookup(op.getBuffer());
  if (!buffer)
    return op.emitError() << "the buffer read has no value";
  unsigned addr = slotOf(op.getAddress());
  std::optional<unsigned> mask;
  if (op.getMask())
    mask = slotOf(op.getMask());
  unsigned r = define(op.getValue());
  Type type = op.getType();
  Operation *where = op;
  return Step([=](Slots &s) -> LogicalResult {
    if (mask && !s[*mask].i) {
      s[r] = Scalar();
      return success();
    }
    int64_t a = s[addr].i;
    if (a < 0 || a >= buffer->numel())
      return runtimeError(where, "address " + Twine(a) +
                                     " is outside the buffer's " +
                                     Twine(buffer->numel()) + " elements");
    if (buffer->isFloat())
      s[r].f = buffer->getF(a);
    else
      s[r].i = wrapInt(buffer->getI(a), type);
    return success();
  });
}

/// "'stax.pointwise' at loc(...)" for the node running `op`, and the kernel
/// around it, so that a failed check names the kernel at fault.
static std::string describeEnclosingNode(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Operation *node = op->getParentOp();
  os << "in '" << node->getName() << "' at " << node->getLoc();
  if (auto kernel = dyn_cast_or_null<sx::KernelOp>(node->getParentOp()))
    os << " of 'stax.kernel' at " << kernel->getLoc();
  return text;
}

FailureOr<Step> BodyCompiler::compileIndirect(sx::IndirectIndexOp op) {
  unsigned a = slotOf(op.getValue()), r = define(op.getResult());
  int64_t size = op.getSize();
  bool wrap = op.getWrapNegative(), check = op.getCheckBounds();
  Operation *where = op;
  // Built once here, not per element: the message of a failed check.
  std::string node = describeEnclosingNode(op);
  SmallVector<unsigned> loops;
  for (BlockArgument arg : op->getBlock()->getArguments())
    loops.push_back(slotOf(arg));
  return Step([=](Slots &s) -> LogicalResult {
    int64_t v = s[a].i;
    if (wrap && v < 0)
      v += size;
    if (!check || (v >= 0 && v < size)) {
      s[r].i = v;
      return success();
    }
    std::string msg;
    llvm::raw_string_ostream os(msg);
    os << "index " << s[a].i;
    if (wrap && s[a].i < 0)
      os << " (" << v << " after wrap)";
    os << " is out of bounds for a dimension of size " << size << " " << node
       << ", loop indices (";
    llvm::interleaveComma(loops, os, [&](unsigned k) { os << s[k].i; });
    os << ")";
    return runtimeError(where, msg);
  });
}

FailureOr<Step> BodyCompiler::compileApply(affine::AffineApplyOp op) {
  AffineMap map = op.getAffineMap();
  SmallVector<unsigned> operands;
  for (Value v : op.getMapOperands())
    operands.push_back(slotOf(v));
  unsigned numDims = map.getNumDims();
  AffineExpr expr = map.getResult(0);
  unsigned r = define(op.getResult());
  return Step([=](Slots &s) {
    SmallVector<int64_t, 8> vals;
    for (unsigned k : operands)
      vals.push_back(s[k].i);
    ArrayRef<int64_t> all(vals);
    s[r].i = evalAffine(expr, all.take_front(numDims), all.drop_front(numDims));
    return success();
  });
}

/// The function of Stax/Support/SpecialFunctions.h that the runtime entry
/// point of `op` calls, in double, rounded once to the (mapped) result type
/// as that entry point rounds (float versions compute in double).
FailureOr<Step> BodyCompiler::compileSpecial(SpecialFunctionOp op) {
  namespace sf = mlir::stax::special;
  using K = SpecialFunctionKind;
  unsigned a = slotOf(op.getOperands()[0]);
  unsigned b = op.getOperands().size() > 1 ? slotOf(op.getOperands()[1]) : a;
  Type t = mapped(op.getResult().getType());
  auto n = static_cast<int64_t>(op.getN().value_or(0));
  switch (op.getKind()) {
  case K::FrexpExponent:
    return Step([=, r = define(op.getResult())](Slots &s) {
      s[r].i = sf::frexpExponent(s[a].f);
      return success();
    });
  case K::Nextafter:
    return Step([=, r = define(op.getResult())](Slots &s) {
      s[r].f = t.isF64() ? sf::nextafter(s[a].f, s[b].f)
                         : sf::nextafter(static_cast<float>(s[a].f),
                                         static_cast<float>(s[b].f));
      return success();
    });
  case K::Polygamma:
    return floatUnary(*op, [n](double x) { return sf::polygamma(n, x); });
  case K::Lgamma:
    return floatUnary(*op, sf::lgamma);
  case K::Digamma:
    return floatUnary(*op, sf::digamma);
  case K::Erfinv:
    return floatUnary(*op, sf::erfinv);
  case K::Ndtri:
    return floatUnary(*op, sf::ndtri);
  case K::Erfcx:
    return floatUnary(*op, sf::erfcx);
  case K::FrexpMantissa:
    return floatUnary(*op, sf::frexpMantissa);
  }
  llvm_unreachable("unknown special function");
}

bool compareFloat(arith::CmpFPredicate p, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::AlwaysFalse: return false;
  case P::OEQ: return !unordered && a == b;
  case P::OGT: return !unordered && a > b;
  case P::OGE: return !unordered && a >= b;
  case P::OLT: return !unordered && a < b;
  case P::OLE: return !unordered && a <= b;
  case P::ONE: return !unordered && a != b;
  case P::ORD: return !unordered;
  case P::UEQ: return unordered || a == b;
  case P::UGT: return unordered || a > b;
  case P::UGE: return unordered || a >= b;
  case P::ULT: return unordered || a < b;
  case P::ULE: return unordered || a <= b;
  case P::UNE: return unordered || a != b;
  case P::UNO: return unordered;
  case P::AlwaysTrue: return true;
  }
  llvm_unreachable("unknown predicate");
}

bool compareInt(arith::CmpIPredicate p, int64_t a, int64_t b, Type t) {
  using P = arith::CmpIPredicate;
  uint64_t ua = asUnsigned(a, t), ub = asUnsigned(b, t);
  switch (p) {
  case P::eq: return a == b;
  case P::ne: return a != b;
  case P::slt: return a < b;
  case P::sle: return a <= b;
  case P::sgt: return a > b;
  case P::sge: return a >= b;
  case P::ult: return ua < ub;
  case P::ule: return ua <= ub;
  case P::ugt: return ua > ub;
  case P::uge: return ua >= ub;
  }
  llvm_unreachable("unknown predicate");
}

/// IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0.
double ieeeMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double ieeeMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

FailureOr<Step> BodyCompiler::compileArith(Operation &op) {
  using FR = FailureOr<int64_t>;
  auto ok = [](int64_t v) { return FR(v); };
  return llvm::TypeSwitch<Operation *, FailureOr<Step>>(&op)
      .Case([&](arith::ConstantOp c) -> FailureOr<Step> {
        Scalar v;
        Type t = c.getType();
        if (auto f = dyn_cast<FloatAttr>(c.getValue()))
          v.f = roundToFloatType(f.getValueAsDouble(), mapped(t));
        else if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
          v.i = t.isIndex() || t.isInteger(1) ? i.getValue().getZExtValue()
                                              : i.getValue().getSExtValue();
        else
          return c.emitError() << "only scalar constants are interpreted";
        if (t.isInteger(1))
          v.i = wrapInt(v.i, t);
        unsigned r = define(c.getResult());
        return Step([=](Slots &s) {
          s[r] = v;
          return success();
        });
      })
      .Case([&](arith::AddFOp) { return floatBinary(op, [](double a, double b) { return a + b; }); })
      .Case([&](arith::SubFOp) { return floatBinary(op, [](double a, double b) { return a - b; }); })
      .Case([&](arith::MulFOp) { return floatBinary(op, [](double a, double b) { return a * b; }); })
      .Case([&](arith::DivFOp) { return floatBinary(op, [](double a, double b) { return a / b; }); })
      .Case([&](arith::RemFOp) { return floatBinary(op, [](double a, double b) { return std::fmod(a, b); }); })
      .Case([&](arith::MaximumFOp) { return floatBinary(op, ieeeMax); })
      .Case([&](arith::MinimumFOp) { return floatBinary(op, ieeeMin); })
      .Case([&](arith::MaxNumFOp) { return floatBinary(op, [](double a, double b) { return std::fmax(a, b); }); })
      .Case([&](arith::MinNumFOp) { return floatBinary(op, [](double a, double b) { return std::fmin(a, b); }); })
      .Case([&](arith::NegFOp) { return floatUnary(op, [](double a) { return -a; }); })
      .Case([&](arith::ExtFOp) { return floatUnary(op, [](double a) { return a; }); })
      .Case([&](arith::TruncFOp) { return floatUnary(op, [](double a) { return a; }); })
      .Case([&](arith::AddIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(static_cast<int64_t>(uint64_t(a) + uint64_t(b))); }); })
      .Case([&](arith::SubIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(static_cast<int64_t>(uint64_t(a) - uint64_t(b))); }); })
      .Case([&](arith::MulIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(static_cast<int64_t>(uint64_t(a) * uint64_t(b))); }); })
      .Case([&](arith::DivSIOp) { return intBinary(op, [](int64_t a, int64_t b, Type) { return b == 0 ? FR(failure()) : FR(b == -1 ? floorDiv(a, -1) : a / b); }); })
      .Case([&](arith::RemSIOp) { return intBinary(op, [](int64_t a, int64_t b, Type) { return b == 0 ? FR(failure()) : FR(b == -1 ? 0 : a % b); }); })
      .Case([&](arith::FloorDivSIOp) { return intBinary(op, [](int64_t a, int64_t b, Type) { return b == 0 ? FR(failure()) : FR(floorDiv(a, b)); }); })
      .Case([&](arith::CeilDivSIOp) { return intBinary(op, [](int64_t a, int64_t b, Type) { return b == 0 ? FR(failure()) : FR(ceilDiv(a, b)); }); })
      .Case([&](arith::DivUIOp) { return intBinary(op, [](int64_t a, int64_t b, Type t) { uint64_t ub = asUnsigned(b, t); return ub == 0 ? FR(failure()) : FR(static_cast<int64_t>(asUnsigned(a, t) / ub)); }); })
      .Case([&](arith::RemUIOp) { return intBinary(op, [](int64_t a, int64_t b, Type t) { uint64_t ub = asUnsigned(b, t); return ub == 0 ? FR(failure()) : FR(static_cast<int64_t>(asUnsigned(a, t) % ub)); }); })
      .Case([&](arith::AndIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(a & b); }); })
      .Case([&](arith::OrIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(a | b); }); })
      .Case([&](arith::XOrIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(a ^ b); }); })
      .Case([&](arith::MaxSIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(std::max(a, b)); }); })
      .Case([&](arith::MinSIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(std::min(a, b)); }); })
      .Case([&](arith::MaxUIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type t) { return ok(asUnsigned(a, t) >= asUnsigned(b, t) ? a : b); }); })
      .Case([&](arith::MinUIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type t) { return ok(asUnsigned(a, t) <= asUnsigned(b, t) ? a : b); }); })
      .Case([&](arith::ShLIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(b >= 64 || b < 0 ? 0 : static_cast<int64_t>(uint64_t(a) << b)); }); })
      .Case([&](arith::ShRUIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type t) { unsigned w = t.isIndex() ? 64 : t.getIntOrFloatBitWidth(); return ok(b >= w || b < 0 ? 0 : static_cast<int64_t>(asUnsigned(a, t) >> b)); }); })
      .Case([&](arith::ShRSIOp) { return intBinary(op, [=](int64_t a, int64_t b, Type) { return ok(b >= 64 || b < 0 ? (a < 0 ? -1 : 0) : a >> b); }); })
      .Case([&](arith::CmpFOp c) -> FailureOr<Step> {
        unsigned a = slotOf(c.getLhs()), b = slotOf(c.getRhs()), r = define(c.getResult());
        auto p = c.getPredicate();
        return Step([=](Slots &s) {
          s[r].i = -int64_t(compareFloat(p, s[a].f, s[b].f));
          return success();
        });
      })
      .Case([&](arith::CmpIOp c) -> FailureOr<Step> {
        unsigned a = slotOf(c.getLhs()), b = slotOf(c.getRhs()), r = define(c.getResult());
        auto p = c.getPredicate();
        Type t = c.getLhs().getType();
        return Step([=](Slots &s) {
          s[r].i = -int64_t(compareInt(p, s[a].i, s[b].i, t));
          return success();
        });
      })
      .Case([&](arith::SelectOp sel) -> FailureOr<Step> {
        unsigned c = slotOf(sel.getCondition()), t = slotOf(sel.getTrueValue()),
                 f = slotOf(sel.getFalseValue()), r = define(sel.getResult());
        return Step([=](Slots &s) {
          s[r] = s[c].i ? s[t] : s[f];
          return success();
        });
      })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](auto cast) -> FailureOr<Step> {
        bool isUnsigned = isa<arith::UIToFPOp>(cast.getOperation());
        unsigned a = slotOf(cast.getIn()), r = define(cast.getOut());
        Type in = cast.getIn().getType(), out = mapped(cast.getOut().getType());
        return Step([=](Slots &s) {
          double v = isUnsigned ? static_cast<double>(asUnsigned(s[a].i, in))
                                : static_cast<double>(s[a].i);
          s[r].f = roundToFloatType(v, out);
          return success();
        });
      })
      .Case<arith::FPToSIOp, arith::FPToUIOp>([&](auto cast) -> FailureOr<Step> {
        unsigned a = slotOf(cast.getIn()), r = define(cast.getOut());
        Type out = cast.getOut().getType();
        return Step([=](Slots &s) {
          s[r].i = wrapInt(castToIntType(s[a].f, out), out);
          return success();
        });
      })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>([&](auto cast) -> FailureOr<Step> {
        unsigned a = slotOf(cast.getIn()), r = define(cast.getOut());
        Type out = cast.getOut().getType();
        return Step([=](Slots &s) {
          s[r].i = wrapInt(s[a].i, out);
          return success();
        });
      })
      .Case<arith::ExtUIOp, arith::IndexCastUIOp>([&](auto cast) -> FailureOr<Step> {
        unsigned a = slotOf(cast.getIn()), r = define(cast.getOut());
        Type in = cast.getIn().getType(), out = cast.getOut().getType();
        return Step([=](Slots &s) {
          s[r].i = wrapInt(static_cast<int64_t>(asUnsigned(s[a].i, in)), out);
          return success();
        });
      })
      .Default([&](Operation *o) -> FailureOr<Step> {
        return o->emitError() << "'" << o->getName()
                              << "' in a node body has no interpretation";
      });
}

FailureOr<Step> BodyCompiler::compileMath(Operation &op) {
  auto libm = [&](double (*fn)(double)) { return floatUnary(op, fn); };
  return llvm::TypeSwitch<Operation *, FailureOr<Step>>(&op)
      .Case([&](math::ExpOp) { return libm(std::exp); })
      .Case([&](math::Exp2Op) { return libm(std::exp2); })
      .Case([&](math::ExpM1Op) { return libm(std::expm1); })
      .Case([&](math::LogOp) { return libm(std::log); })
      .Case([&](math::Log2Op) { return libm(std::log2); })
      .Case([&](math::Log10Op) { return libm(std::log10); })
      .Case([&](math::Log1pOp) { return libm(std::log1p); })
      .Case([&](math::SqrtOp) { return libm(std::sqrt); })
      .Case([&](math::RsqrtOp) { return floatUnary(op, [](double a) { return 1.0 / std::sqrt(a); }); })
      .Case([&](math::TanhOp) { return libm(std::tanh); })
      .Case([&](math::ErfOp) { return libm(std::erf); })
      .Case([&](math::ErfcOp) { return libm(std::erfc); })
      .Case([&](math::SinOp) { return libm(std::sin); })
      .Case([&](math::CosOp) { return libm(std::cos); })
      .Case([&](math::TanOp) { return libm(std::tan); })
      .Case([&](math::AsinOp) { return libm(std::asin); })
      .Case([&](math::AcosOp) { return libm(std::acos); })
      .Case([&](math::AtanOp) { return libm(std::atan); })
      .Case([&](math::SinhOp) { return libm(std::sinh); })
      .Case([&](math::CoshOp) { return libm(std::cosh); })
      .Case([&](math::AbsFOp) { return libm(std::fabs); })
      .Case([&](math::FloorOp) { return libm(std::floor); })
      .Case([&](math::CeilOp) { return libm(std::ceil); })
      .Case([&](math::TruncOp) { return libm(std::trunc); })
      .Case([&](math::RoundEvenOp) { return libm(std::nearbyint); })
      .Case([&](math::RoundOp) { return libm(std::round); })
      .Case([&](math::PowFOp) { return floatBinary(op, [](double a, double b) { return std::pow(a, b); }); })
      .Case([&](math::Atan2Op) { return floatBinary(op, [](double a, double b) { return std::atan2(a, b); }); })
      .Case([&](math::FmaOp) { return floatFma(op); })
      .Case([&](math::CopySignOp) { return floatBinary(op, [](double a, double b) { return std::copysign(a, b); }); })
      .Case([&](math::AbsIOp absi) -> FailureOr<Step> {
        // Unary (intBinary would read a second operand that is not there).
        // Negated in uint64: abs(INT64_MIN) wraps to itself, as in PyTorch,
        // without signed overflow.
        unsigned a = slotOf(absi.getOperand()), r = define(absi.getResult());
        Type t = absi.getType();
        return Step([=](Slots &s) {
          uint64_t u = static_cast<uint64_t>(s[a].i);
          s[r].i = wrapInt(static_cast<int64_t>(s[a].i < 0 ? 0 - u : u), t);
          return success();
        });
      })
      .Case([&](math::IsNaNOp n) -> FailureOr<Step> {
        unsigned a = slotOf(n.getOperand()), r = define(n.getResult());
        return Step([=](Slots &s) {
          s[r].i = -int64_t(std::isnan(s[a].f));
          return success();
        });
      })
      .Default([&](Operation *o) -> FailureOr<Step> {
        return o->emitError() << "'" << o->getName()
                              << "' in a node body has no interpretation";
      });
}

} // namespace

FailureOr<CompiledBody>
stax::detail::compileBody(Region &region, const KernelContext &ctx,
                          llvm::function_ref<const Tensor *(Value)> lookup) {
  CompiledBody body;
  unsigned numSlots = 0;
  BodyCompiler compiler(ctx, lookup);
  if (failed(compiler.compile(region.front(), body.steps, body.yields, numSlots)))
    return failure();
  body.slots.assign(numSlots, Scalar());
  return body;
}
