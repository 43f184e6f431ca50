//===- RandomRules.cpp - the counter-based random ops as bodies -----------===//
//
// tp.rand, tp.randn, tp.bernoulli and tp.dropout_seeded become pointwise
// loaders: element i computes the Philox4x32-10 block its words come from
// (the stream of TpRandomOps.td; reference: include/Stax/Interpreter/
// Philox.h) out of the RNG state, the op's counter and i, in 32-bit integer
// arithmetic. No element depends on another, so the bodies fuse, vectorize
// and parallelize like any pointwise node, and a recomputed op draws the
// same numbers. A block costs ~60 integer ops; an element uses one or two
// of its four words, recomputing the block rather than sharing it across
// elements (which would serialize the loop).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Interpreter/Philox.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include <array>

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::lowering;
namespace tp = mlir::tp;

namespace {

using Result = RuleResult;
using Words = std::array<Value, 4>;

/// v * scale (a constant of v's type).
Value scaled(BodyBuilder &bb, Value v, double scale) {
  return arith::MulFOp::create(bb.b, bb.loc, v, bb.constant(scale, v.getType()));
}

/// Integer arithmetic on u32 words (i32 values) and u64 (i64) in a body.
struct WordBuilder {
  explicit WordBuilder(BodyBuilder &bb)
      : bb(bb), i32(bb.b.getI32Type()), i64(bb.b.getI64Type()) {}

  Value u32(uint32_t v) {
    return arith::ConstantOp::create(bb.b, bb.loc,
                                     IntegerAttr::get(i32, APInt(32, v)));
  }
  Value u64(uint64_t v) {
    return arith::ConstantOp::create(bb.b, bb.loc,
                                     IntegerAttr::get(i64, APInt(64, v)));
  }
  Value add(Value a, Value b) { return arith::AddIOp::create(bb.b, bb.loc, a, b); }
  Value xor_(Value a, Value b) { return arith::XOrIOp::create(bb.b, bb.loc, a, b); }
  Value and_(Value a, Value b) { return arith::AndIOp::create(bb.b, bb.loc, a, b); }
  Value or_(Value a, Value b) { return arith::OrIOp::create(bb.b, bb.loc, a, b); }
  Value shr(Value a, Value b) { return arith::ShRUIOp::create(bb.b, bb.loc, a, b); }
  Value shl(Value a, Value b) { return arith::ShLIOp::create(bb.b, bb.loc, a, b); }
  Value lo(Value v) { return arith::TruncIOp::create(bb.b, bb.loc, i32, v); }
  Value hi(Value v) { return lo(shr(v, u64(32))); }
  Value wide(Value w) { return arith::ExtUIOp::create(bb.b, bb.loc, i64, w); }
  Value select(Value c, Value a, Value b) {
    return arith::SelectOp::create(bb.b, bb.loc, c, a, b);
  }
  // One op-creating call per statement below: the order of argument
  // evaluation differs between compilers, and so would the IR.

  /// `v & mask` is not zero (an i1).
  Value bitSet(Value v, uint64_t mask) {
    bool wide64 = v.getType() == i64;
    Value m = wide64 ? u64(mask) : u32(static_cast<uint32_t>(mask));
    Value bits = and_(v, m);
    Value zero = wide64 ? u64(0) : u32(0);
    return arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::ne, bits,
                                 zero);
  }
  /// Double word lo | hi << 32.
  Value dword(Value lo32, Value hi32) {
    Value low = wide(lo32);
    Value high = shl(wide(hi32), u64(32));
    return or_(low, high);
  }
  /// (v >> shift) as an exact f64, plus `plus` (v's type).
  Value shiftedToF64(Value v, unsigned shift, uint64_t plus = 0) {
    bool wide64 = v.getType() == i64;
    Value amount = wide64 ? u64(shift) : u32(shift);
    Value top = shr(v, amount);
    if (plus) { // no overflow: the shift freed the top bits
      Value c = wide64 ? u64(plus) : u32(static_cast<uint32_t>(plus));
      top = add(top, c);
    }
    return toF64(top);
  }
  /// The exact f64 value of the unsigned integer `v` (< 2^53 here).
  Value toF64(Value v) {
    return arith::UIToFPOp::create(bb.b, bb.loc, bb.b.getF64Type(), v);
  }

  /// philox4x32-10 of counter (lo32(b), hi32(b), 0, 0) under the key
  /// (lo32(seed), hi32(seed)), as philox::philox4x32 computes it.
  Words block(Value seed, Value b) {
    using namespace stax::philox;
    Value k0 = lo(seed), k1 = hi(seed);
    Words c = {lo(b), hi(b), u32(0), u32(0)};
    auto product = [&](uint32_t m, Value x) {
      Value factor = u64(m);
      Value x64 = wide(x);
      return arith::MulIOp::create(bb.b, bb.loc, factor, x64);
    };
    for (unsigned r = 0; r < 10; ++r) {
      if (r > 0) {
        k0 = add(k0, u32(kWeyl0));
        k1 = add(k1, u32(kWeyl1));
      }
      Value p0 = product(kMultiplier0, c[0]);
      Value p1 = product(kMultiplier1, c[2]);
      c = {xor_(xor_(hi(p1), c[1]), k0), lo(p1), xor_(xor_(hi(p0), c[3]), k1),
           lo(p0)};
    }
    return c;
  }

  BodyBuilder &bb;
  Type i32, i64;
};

/// The stream of a random op at element `idx` of a result of `shape`: its
/// row-major position i (an i64) and the base block offset + counter.
struct Draw {
  Draw(BodyBuilder &bb, const NodePtr &state, uint64_t counter,
       ArrayRef<int64_t> shape, ArrayRef<AffineExpr> idx)
      : w(bb), index(idx) {
    AffineExpr linear = getAffineConstantExpr(0, bb.b.getContext());
    for (auto [e, stride] : llvm::zip(idx, RuleContext::rowMajor(shape)))
      linear = linear + e * stride;
    i = arith::IndexCastOp::create(bb.b, bb.loc, w.i64, bb.index(linear));
    MLIRContext *ctx = bb.b.getContext();
    seed = state->load(bb, {getAffineConstantExpr(0, ctx)});
    Value offset = state->load(bb, {getAffineConstantExpr(1, ctx)});
    base = w.add(offset, w.u64(counter));
  }
  /// The block of element i when each block serves 2^shift elements.
  Words blockOf(unsigned shift) {
    return w.block(seed, w.add(base, w.shr(i, w.u64(shift))));
  }
  /// Word i of the stream (rand of 16/32-bit floats, bernoulli, dropout).
  Value word() {
    Words c = blockOf(2);
    Value b0 = w.bitSet(i, 1), b1 = w.bitSet(i, 2);
    Value high = w.select(b0, c[3], c[2]);
    Value low = w.select(b0, c[1], c[0]);
    return w.select(b1, high, low);
  }
  /// The uniform (word i >> 8) * 2^-24 in f64 (exact).
  Value uniform24() {
    Value u = w.shiftedToF64(word(), 8);
    return scaled(w.bb, u, 0x1.0p-24);
  }

  WordBuilder w;
  ArrayRef<AffineExpr> index; // the element's indices
  Value i, seed, base;
};

/// The node of a random op of type `rt`: `draw(bb, d)` is the element at
/// the stream position `d` describes.
NodePtr randomNode(RankedTensorType rt, NodePtr state, uint64_t counter,
                   std::function<Value(BodyBuilder &, Draw &)> draw) {
  return std::make_shared<ComputedNode>(
      rt, [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) -> Value {
        Draw d(bb, state, counter, rt.getShape(), idx);
        return draw(bb, d);
      });
}

Result lowerRand(RuleContext &ctx) {
  auto op = cast<tp::RandOp>(ctx.op);
  RankedTensorType rt = ctx.resultType();
  Type elt = rt.getElementType();
  return SmallVector<NodePtr>{randomNode(
      rt, ctx.operands[0], op.getCounter(), [=](BodyBuilder &bb, Draw &d) {
        WordBuilder &w = d.w;
        if (elt.isF64()) {
          // Double word i: words 2i, 2i + 1, two per block.
          Words c = d.blockOf(1);
          Value odd = w.bitSet(d.i, 1);
          Value low = w.select(odd, c[2], c[0]);
          Value high = w.select(odd, c[3], c[1]);
          Value dw = w.dword(low, high);
          return scaled(bb, w.shiftedToF64(dw, 11), 0x1.0p-53);
        }
        unsigned bits = elt.isF16() ? 11 : elt.isBF16() ? 8 : 24;
        Value u = w.shiftedToF64(d.word(), 32 - bits);
        return bb.convert(scaled(bb, u, std::ldexp(1.0, -int(bits))), elt);
      })};
}

/// Box-Muller on element pairs (2k, 2k + 1), in f64 as philox::boxMuller.
Result lowerRandn(RuleContext &ctx) {
  auto op = cast<tp::RandnOp>(ctx.op);
  RankedTensorType rt = ctx.resultType();
  Type elt = rt.getElementType();
  return SmallVector<NodePtr>{randomNode(
      rt, ctx.operands[0], op.getCounter(), [=](BodyBuilder &bb, Draw &d) {
        WordBuilder &w = d.w;
        Value u1, u2;
        if (elt.isF64()) {
          // Double words 2k, 2k + 1: one block per pair.
          Words c = d.blockOf(1);
          Value a = w.dword(c[0], c[1]), b = w.dword(c[2], c[3]);
          u1 = scaled(bb, w.shiftedToF64(a, 11, /*plus=*/1), 0x1.0p-53);
          u2 = scaled(bb, w.shiftedToF64(b, 11), 0x1.0p-53);
        } else {
          // Words 2k, 2k + 1: two pairs per block.
          Words c = d.blockOf(2);
          Value second = w.bitSet(d.i, 2);
          Value a = w.select(second, c[2], c[0]);
          Value b = w.select(second, c[3], c[1]);
          u1 = scaled(bb, w.shiftedToF64(a, 8, /*plus=*/1), 0x1.0p-24);
          u2 = scaled(bb, w.shiftedToF64(b, 8), 0x1.0p-24);
        }
        // Where the normal is rounded to f32 or narrower, the functions
        // may be approximated (afn): compiled code then uses
        // --stax-approximate-math's f64 kernels (relative error ~1e-11)
        // instead of three libm calls per element, and rounds to the
        // interpreter's value but for a result within 1e-11 of a rounding
        // boundary (1 ulp). u1 is in [2^-24, 1] and 2 pi u2 in [0, 2 pi):
        // the kernels' domain.
        auto fastmath = arith::FastMathFlagsAttr::get(
            bb.b.getContext(), elt.isF64() ? arith::FastMathFlags::none
                                           : arith::FastMathFlags::afn);
        Value logU1 = math::LogOp::create(bb.b, bb.loc, u1, fastmath);
        Value r = math::SqrtOp::create(bb.b, bb.loc, scaled(bb, logU1, -2.0));
        Value t = scaled(bb, u2, 6.283185307179586); // 2 pi rounded to f64
        Value cos = math::CosOp::create(bb.b, bb.loc, t, fastmath);
        Value sin = math::SinOp::create(bb.b, bb.loc, t, fastmath);
        Value trig = w.select(w.bitSet(d.i, 1), sin, cos);
        Value z = arith::MulFOp::create(bb.b, bb.loc, r, trig);
        return bb.convert(z, elt);
      })};
}

Result lowerBernoulli(RuleContext &ctx) {
  auto op = cast<tp::BernoulliOp>(ctx.op);
  RankedTensorType rt = ctx.resultType();
  Type elt = rt.getElementType();
  NodePtr self = ctx.operands[0];
  std::optional<double> p;
  if (auto attr = op.getPAttr())
    p = attr.getValueAsDouble();
  return SmallVector<NodePtr>{randomNode(
      rt, ctx.operands[1], op.getCounter(), [=](BodyBuilder &bb, Draw &d) {
        Type f64 = bb.b.getF64Type();
        Value pi = p ? bb.constant(*p, f64)
                     : bb.convert(self->load(bb, d.index), f64);
        Value hit = arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::OLT,
                                          d.uniform24(), pi);
        Value one = bb.constant(1.0, elt);
        Value zero = bb.constant(0.0, elt);
        return d.w.select(hit, one, zero);
      })};
}

/// (input * mask) * scale and the keep mask, as aten.native_dropout.
Result lowerDropout(RuleContext &ctx) {
  auto op = cast<tp::DropoutSeededOp>(ctx.op);
  RankedTensorType rt = ctx.resultType(0);
  Type elt = rt.getElementType(), ct = computeType(elt);
  NodePtr x = ctx.operands[0], state = ctx.operands[1];
  uint64_t counter = op.getCounter();
  double keepProb = 1.0 - op.getP().convertToDouble();
  NodePtr keep = randomNode(
      ctx.resultType(1), state, counter, [=](BodyBuilder &bb, Draw &d) -> Value {
        Value u = d.uniform24();
        Value threshold = bb.constant(keepProb, bb.b.getF64Type());
        return arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::OLT, u,
                                     threshold);
      });
  auto out = std::make_shared<ComputedNode>(
      rt, [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) -> Value {
        // The scale rounded to the computation type first, as the kernel.
        Value scale = bb.convert(
            bb.constant(keepProb == 0.0 ? 0.0 : 1.0 / keepProb, bb.b.getF64Type()),
            ct);
        Value kept = keep->load(bb, idx);
        Value one = bb.constant(1.0, ct);
        Value zero = bb.constant(0.0, ct);
        Value m = arith::SelectOp::create(bb.b, bb.loc, kept, one, zero);
        Value v = arith::MulFOp::create(bb.b, bb.loc,
                                        bb.convert(x->load(bb, idx), ct), m);
        return bb.convert(arith::MulFOp::create(bb.b, bb.loc, v, scale), elt);
      });
  return SmallVector<NodePtr>{out, keep};
}

} // namespace

void stax::lowering::registerRandomRules(RuleTable &r) {
  r["tp.rand"] = lowerRand;
  r["tp.randn"] = lowerRandn;
  r["tp.bernoulli"] = lowerBernoulli;
  r["tp.dropout_seeded"] = lowerDropout;
}
