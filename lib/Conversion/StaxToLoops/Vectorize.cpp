//===- Vectorize.cpp - vector code for innermost node loops ---------------===//
#include "Vectorize.h"
#include "Combiner.h"
#include "LinearIndex.h"
#include "Stax/Analysis/Materialization.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include <limits>

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

namespace {

/// How a body value varies along the vectorized loop. `Gathered` index
/// values depend on data per lane (an indirect index of loaded values and
/// the addresses computed from it): a vector of indices.
///
/// `Periodic` index values are quasi-affine in the lane (a floordiv or mod
/// of it by a constant: nearest upsampling, a strided slice's gradient, a
/// transposed convolution's input): when every vector starts at a lane
/// index that is a multiple of `period`, lane l holds lane 0's value plus
/// `pattern[l]`.
struct Lanes {
  enum Kind { Uniform, Strided, Vector, Gathered, Periodic };
  Lanes(Kind kind = Uniform, int64_t stride = 0) : kind(kind), stride(stride) {}

  Kind kind;
  int64_t stride = 0; ///< for Strided (index) values: the per-lane step
  int64_t period = 0; ///< for Periodic values
  SmallVector<int64_t> pattern; ///< for Periodic values: width offsets
  /// For Periodic values that do not depend on where the vector starts (a
  /// remainder by a divisor of the period): lane 0's value.
  std::optional<int64_t> laneZero;
};

/// The `stride` of a load whose address is Gathered: no step relates one
/// lane's address to the next (a gather, as any stride but 0 and 1).
constexpr int64_t kDataDependentStride = std::numeric_limits<int64_t>::min();
/// The `stride` of a load whose address is Periodic.
constexpr int64_t kPeriodicStride = kDataDependentStride + 1;

/// The lane stride of an affine.apply given its operands' strides, or
/// failure when the map is not linear in a varying operand (the uniform
/// ones may appear anywhere: a merged row index under a floordiv).
FailureOr<int64_t> applyStride(affine::AffineApplyOp apply,
                               const DenseMap<Value, Lanes> &lanes) {
  int64_t stride = 0;
  for (auto [k, operand] : llvm::enumerate(apply.getOperands())) {
    const Lanes &l = lanes.at(operand);
    if (l.kind == Lanes::Periodic)
      return failure();
    if (l.kind == Lanes::Uniform || l.stride == 0)
      continue;
    std::optional<int64_t> c = linearCoefficientOf(apply, k);
    if (!c)
      return failure();
    stride += *c * l.stride;
  }
  return stride;
}

/// An affine expression at lane index `period` m + l (l < width, m any
/// integer): `uniform`, which does not depend on l (the lane index replaced
/// by `period` m, m a dim after the map's), plus `lanes[l]`.
struct LaneSplit {
  AffineExpr uniform;
  SmallVector<int64_t> lanes;
};

/// Splits quasi-affine expressions of a lane index as LaneSplit.
class LaneSplitter {
public:
  LaneSplitter(AffineMap map, ArrayRef<bool> isLaneOperand, int64_t period,
               int64_t width)
      : map(map), isLaneOperand(isLaneOperand), period(period), width(width) {}

  /// Fails where a floordiv or mod of a lane-dependent operand does not
  /// divide its uniform part (its lanes then do not repeat with the period).
  std::optional<LaneSplit> split(AffineExpr e) const {
    MLIRContext *ctx = e.getContext();
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return LaneSplit{getAffineConstantExpr(0, ctx),
                       SmallVector<int64_t>(width, c.getValue())};
    if (isLane(e)) {
      LaneSplit lane{getAffineDimExpr(map.getNumDims(), ctx) * period, {}};
      for (int64_t l = 0; l < width; ++l)
        lane.lanes.push_back(l);
      return lane;
    }
    bool laneFree = true;
    e.walk([&](AffineExpr sub) { laneFree &= !isLane(sub); });
    if (laneFree)
      return LaneSplit{e, SmallVector<int64_t>(width)};
    auto bin = cast<AffineBinaryOpExpr>(e);
    std::optional<LaneSplit> lhs = split(bin.getLHS());
    if (!lhs)
      return std::nullopt;
    if (e.getKind() == AffineExprKind::Add) {
      std::optional<LaneSplit> rhs = split(bin.getRHS());
      if (!rhs)
        return std::nullopt;
      for (int64_t l = 0; l < width; ++l)
        lhs->lanes[l] += rhs->lanes[l];
      lhs->uniform = simplified(lhs->uniform + rhs->uniform);
      return lhs;
    }
    // Products, quotients and remainders of a lane-dependent operand are
    // affine only by a constant (the right operand in canonical form).
    auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (!c)
      return std::nullopt;
    int64_t k = c.getValue();
    if (e.getKind() == AffineExprKind::Mul) {
      for (int64_t &v : lhs->lanes)
        v *= k;
      lhs->uniform = simplified(lhs->uniform * k);
      return lhs;
    }
    // (u + g) floordiv k = u / k + g floordiv k, (u + g) mod k = g mod k
    // when k divides u.
    if (k <= 0 || lhs->uniform.getLargestKnownDivisor() % k != 0)
      return std::nullopt;
    for (int64_t &v : lhs->lanes) {
      switch (e.getKind()) {
      case AffineExprKind::FloorDiv:
        v = llvm::divideFloorSigned(v, k);
        break;
      case AffineExprKind::CeilDiv:
        v = llvm::divideCeilSigned(v, k);
        break;
      default:
        v = (v % k + k) % k;
        break;
      }
    }
    lhs->uniform = e.getKind() == AffineExprKind::Mod
                       ? getAffineConstantExpr(0, ctx)
                       : simplified(lhs->uniform.floorDiv(k));
    return lhs;
  }

private:
  bool isLane(AffineExpr e) const {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return d.getPosition() < map.getNumDims() &&
             isLaneOperand[d.getPosition()];
    if (auto s = dyn_cast<AffineSymbolExpr>(e))
      return isLaneOperand[map.getNumDims() + s.getPosition()];
    return false;
  }

  AffineExpr simplified(AffineExpr e) const {
    return simplifyAffineExpr(e, map.getNumDims() + 1, map.getNumSymbols());
  }

  AffineMap map;
  ArrayRef<bool> isLaneOperand;
  int64_t period, width;
};

/// The Periodic lanes of an affine.apply of the lane index (and uniform
/// values) that applyStride rejected, with the smallest power-of-two
/// period dividing `width` that makes its lanes repeat; or failure.
FailureOr<Lanes> periodicLanes(affine::AffineApplyOp apply, Value lane,
                               const DenseMap<Value, Lanes> &lanes,
                               int64_t width) {
  AffineMap map = apply.getAffineMap();
  SmallVector<bool> isLaneOperand;
  for (Value operand : apply.getOperands()) {
    const Lanes &l = lanes.at(operand);
    bool varying = l.kind != Lanes::Uniform &&
                   !(l.kind == Lanes::Strided && l.stride == 0);
    if (varying && operand != lane)
      return failure();
    isLaneOperand.push_back(varying);
  }
  for (int64_t period = 2; period <= width; period *= 2) {
    if (width % period != 0)
      break;
    std::optional<LaneSplit> split =
        LaneSplitter(map, isLaneOperand, period, width).split(map.getResult(0));
    if (!split)
      continue;
    Lanes periodic(Lanes::Periodic);
    periodic.period = period;
    // A constant uniform part (a remainder): the lanes are known.
    if (auto c = dyn_cast<AffineConstantExpr>(split->uniform))
      periodic.laneZero = c.getValue() + split->lanes.front();
    for (int64_t v : split->lanes)
      periodic.pattern.push_back(v - split->lanes.front());
    return periodic;
  }
  return failure();
}

/// The number of elements from the lowest to the highest a Periodic load
/// with `pattern` reads.
int64_t periodicSpan(ArrayRef<int64_t> pattern) {
  auto [lo, hi] = std::minmax_element(pattern.begin(), pattern.end());
  return *hi - *lo + 1;
}

/// Classifies the values of `body` along block argument `lane`; fails on
/// anything the vector emitter does not handle. Index results (a
/// scatter's address) are allowed only with `indexResults`.
/// With `periodicWidth` (the vector width; 0: none), an affine.apply of
/// the lane that is not linear in it may be Periodic.
FailureOr<DenseMap<Value, Lanes>>
analyze(Block &body, Value lane, bool indexResults = false,
        const DenseMap<Operation *, bool> *known = nullptr,
        int64_t periodicWidth = 0) {
  DenseMap<Value, Lanes> lanes;
  auto of = [&](Value v) -> Lanes {
    auto it = lanes.find(v);
    return it == lanes.end() ? Lanes{} : it->second;
  };
  for (BlockArgument a : body.getArguments())
    lanes[a] = a == lane ? Lanes{Lanes::Strided, 1} : Lanes{};
  auto gathered = [&](Value v) { return of(v).kind == Lanes::Gathered; };
  for (Operation &op : body.without_terminator()) {
    // An indirect index uniform along the lane (a gathered row: embedding,
    // index_select) is computed once per vector; one that varies gives a
    // vector of indices, which only addresses (affine.apply) and the loads
    // at them (gathers) may use.
    if (isa<IndirectIndexOp>(op) &&
        of(op.getOperand(0)).kind != Lanes::Uniform) {
      lanes[op.getResult(0)] = Lanes{Lanes::Gathered, 0};
      continue;
    }
    if (isa<affine::AffineApplyOp>(op) &&
        llvm::any_of(op.getOperands(), gathered)) {
      lanes[op.getResult(0)] = Lanes{Lanes::Gathered, 0};
      continue;
    }
    if (auto load = dyn_cast<LoadOp>(op); load && readsEmptyTensor(load))
      return failure();
    if (auto load = dyn_cast<LoadOp>(op); load && gathered(load.getAddress())) {
      lanes[load.getResult()] = Lanes{Lanes::Vector, kDataDependentStride};
      continue;
    }
    if (llvm::any_of(op.getOperands(), gathered))
      return failure();
    // Special functions are runtime calls of one scalar each: these are rare
    // functions (lgamma, erfinv, ...), not the transcendental functions of
    // hot loops, so their bodies keep the scalar loop rather than calling
    // the runtime once per lane.
    if (isa<SpecialFunctionOp>(op))
      return failure();
    // Divisor checks are scalar code (NodeLoops.h).
    if (needsDivisorCheck(&op))
      return failure();
    // vector<Nxi1> is packed bits in LLVM; buffers hold one byte per i1.
    if (auto load = dyn_cast<LoadOp>(op); load && load.getType().isInteger(1))
      return failure();
    // A ui8 element is read widened (i8 in memory, an i16 value).
    if (auto load = dyn_cast<LoadOp>(op);
        load &&
        load.getType() !=
            cast<RankedTensorType>(load.getBuffer().getType()).getElementType())
      return failure();
    bool varying = llvm::any_of(op.getOperands(), [&](Value v) {
      return of(v).kind != Lanes::Uniform;
    });
    if (!varying || (known && known->contains(&op))) {
      if (op.getNumRegions() != 0)
        return failure();
      for (Value r : op.getResults())
        lanes[r] = Lanes{};
      continue;
    }
    if (auto load = dyn_cast<LoadOp>(op)) {
      const Lanes &address = of(load.getAddress());
      // Lanes spread over more than two vectors of elements would be
      // gathered (pixel shuffles): the scalar loop does as well.
      if (address.kind == Lanes::Periodic &&
          periodicSpan(address.pattern) > 2 * periodicWidth)
        return failure();
      lanes[load.getResult()] = Lanes{
          Lanes::Vector,
          address.kind == Lanes::Periodic ? kPeriodicStride : address.stride};
      continue;
    }
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
      FailureOr<int64_t> s = applyStride(apply, lanes);
      if (succeeded(s)) {
        lanes[apply.getResult()] = Lanes{Lanes::Strided, *s};
        continue;
      }
      FailureOr<Lanes> periodic =
          periodicWidth ? periodicLanes(apply, lane, lanes, periodicWidth)
                        : FailureOr<Lanes>(failure());
      if (failed(periodic))
        return failure();
      lanes[apply.getResult()] = *periodic;
      continue;
    }
    if (op.getNumRegions() != 0 || op.getNumResults() != 1 ||
        !op.hasTrait<OpTrait::Elementwise>() ||
        op.getResult(0).getType().isIndex())
      return failure();
    lanes[op.getResult(0)] = Lanes{Lanes::Vector, 0};
  }
  for (Value v : body.getTerminator()->getOperands())
    if ((v.getType().isIndex() && !indexResults) || gathered(v))
      return failure();
  return lanes;
}

/// True when some load of `body` varies along the lane with a stride other
/// than 0 or 1 (a gather); with `width`, other than those a vector of
/// `width` lanes reads as whole vectors and shuffles (readsWholeVectors).
bool hasGather(Block &body, const DenseMap<Value, Lanes> &lanes,
               int64_t width = 0) {
  auto shuffled = [&](int64_t stride) {
    return width > 0 && lowering::readsWholeVectors(stride) && stride < width;
  };
  for (Operation &inner : body.without_terminator())
    if (auto load = dyn_cast<LoadOp>(inner)) {
      const Lanes &l = lanes.at(load.getResult());
      if (l.kind == Lanes::Vector && l.stride != 0 && l.stride != 1 &&
          !shuffled(l.stride))
        return true;
    }
  return false;
}

/// The value of every element of the buffer `load` reads, when that buffer
/// is a splat constant (a pooling divisor, a scale): the load folds to it,
/// as LLVM folds a scalar load of a constant but not a vector one.
TypedAttr splatValue(LoadOp load) {
  auto constant = load.getBuffer().getDefiningOp<tp::ConstantOp>();
  if (!constant)
    return {};
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValueAttr());
  if (!dense || !dense.isSplat() || dense.getElementType() != load.getType())
    return {};
  return dyn_cast<TypedAttr>(dense.getSplatValue<Attribute>());
}

/// Emits one vector evaluation of a body whose lane argument is at `iv`
/// (lane 0) and the other arguments at `fixed`.
class VectorBody {
public:
  VectorBody(OpBuilder &b, Block &body, const DenseMap<Value, Lanes> &lanes,
             BufferMap &buffers, int64_t width,
             const VectorPlan &plan = noPlan())
      : b(b), body(body), lanes(lanes), buffers(buffers), width(width),
        plan(plan) {}

  SmallVector<Value> emit(ValueRange args) {
    emitOps(args);
    SmallVector<Value> out;
    for (Value v : body.getTerminator()->getOperands())
      out.push_back(asVector(v));
    return out;
  }

  /// The body's ops at `args`, without its results.
  void emitOps(ValueRange args) {
    scalar.clear();
    vector.clear();
    scalar.map(body.getArguments(), args);
    for (Operation &op : body.without_terminator())
      emitOp(op);
  }

  /// Lane 0 of a uniform or strided (index) value.
  Value laneZero(Value orig) { return scalar.lookupOrDefault(orig); }

  Value asVector(Value orig) {
    if (Value v = vector.lookup(orig))
      return v;
    Value s = scalar.lookupOrDefault(orig);
    Location loc = s.getLoc();
    auto type = VectorType::get({width}, s.getType());
    Value splat = vector::BroadcastOp::create(b, loc, type, s);
    auto it = lanes.find(orig);
    if (it != lanes.end() && it->second.kind == Lanes::Strided &&
        it->second.stride != 0)
      splat =
          arith::AddIOp::create(b, loc, splat, steps(loc, it->second.stride));
    if (it != lanes.end() && it->second.kind == Lanes::Periodic) {
      const Lanes &l = it->second;
      SmallVector<int64_t> values(l.pattern);
      if (l.laneZero) {
        // A constant: masks built from it fold.
        for (int64_t &v : values)
          v += *l.laneZero;
        return arith::ConstantOp::create(b, loc, b.getIndexVectorAttr(values));
      }
      Value pattern =
          arith::ConstantOp::create(b, loc, b.getIndexVectorAttr(values));
      splat = arith::AddIOp::create(b, loc, splat, pattern);
    }
    return splat;
  }

private:
  static const VectorPlan &noPlan() {
    static const VectorPlan none;
    return none;
  }

  OpBuilder &b;
  Block &body;
  const DenseMap<Value, Lanes> &lanes;
  BufferMap &buffers;
  int64_t width;
  const VectorPlan &plan;
  IRMapping scalar;              // uniform and strided values (lane 0)
  DenseMap<Value, Value> vector; // per-lane values

  Value steps(Location loc, int64_t stride) {
    auto type = VectorType::get({width}, b.getIndexType());
    Value iota = vector::StepOp::create(b, loc, type);
    if (stride == 1)
      return iota;
    Value s = vector::BroadcastOp::create(
        b, loc, type, arith::ConstantIndexOp::create(b, loc, stride));
    return arith::MulIOp::create(b, loc, iota, s);
  }

  /// The zero `load` reads where its mask is false.
  Value zeroOf(LoadOp load, Type type) {
    return arith::ConstantOp::create(b, load.getLoc(), type,
                                     b.getZeroAttr(type));
  }

  /// A load that is the same for every lane; a masked one reads only
  /// where its (uniform) mask holds.
  Value uniformLoad(LoadOp load) {
    Location loc = load.getLoc();
    Value mem = buffers.storageOf(load.getBuffer());
    Value addr = scalar.lookupOrDefault(load.getAddress());
    Value mask = load.getMask();
    if (!mask)
      return memref::LoadOp::create(b, loc, mem, addr);
    Type t = load.getType();
    auto ifOp =
        scf::IfOp::create(b, loc, TypeRange{t}, scalar.lookupOrDefault(mask),
                          /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value read = memref::LoadOp::create(b, loc, mem, addr);
    scf::YieldOp::create(b, loc, read);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, zeroOf(load, t));
    return ifOp.getResult(0);
  }

  /// The lanes of masked load `load` at lane stride `stride`: a masked
  /// vector load when contiguous, else a masked gather.
  Value maskedLanes(LoadOp load, int64_t stride, Value mask) {
    Location loc = load.getLoc();
    Value mem = buffers.storageOf(load.getBuffer());
    Value a0 = scalar.lookupOrDefault(load.getAddress());
    auto type = VectorType::get({width}, load.getType());
    Value pass = zeroOf(load, type);
    if (stride == 1)
      return vector::MaskedLoadOp::create(b, loc, type, mem, ValueRange{a0},
                                          mask, pass);
    if (stride == 0) {
      // One element, read when some lane is enabled, for all of them (not
      // a gather of the same address per lane).
      Value any =
          vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, mask);
      auto oneType = VectorType::get({1}, load.getType());
      Value oneMask = vector::BroadcastOp::create(
          b, loc, VectorType::get({1}, b.getI1Type()), any);
      Value one = vector::MaskedLoadOp::create(
          b, loc, oneType, mem, ValueRange{a0}, oneMask, zeroOf(load, oneType));
      Value element = vector::ExtractOp::create(b, loc, one, 0);
      Value all = vector::BroadcastOp::create(b, loc, type, element);
      return arith::SelectOp::create(b, loc, mask, all, pass);
    }
    if (readsContiguousParts(stride))
      return contiguousParts(loc, mem, a0, type, stride, mask);
    auto idxType = VectorType::get({width}, b.getIndexType());
    Value idx = vector::BroadcastOp::create(b, loc, idxType, a0);
    if (stride != 0)
      idx = arith::AddIOp::create(b, loc, idx, steps(loc, stride));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    return vector::GatherOp::create(b, loc, type, mem, ValueRange{zero}, idx,
                                    mask, pass);
  }

  /// Whether a load at lane stride `stride` is read as contiguous vectors
  /// and shuffles rather than gathered: a flip (-1) or a small stride
  /// (more parts would cost more shuffles than a gather's lane loads save;
  /// materialization decisions assume the same, readsWholeVectors).
  bool readsContiguousParts(int64_t stride) const {
    return stride != 1 && lowering::readsWholeVectors(stride) && stride < width;
  }

  /// The lanes of a load at lane stride -1 (a flip) or a small stride s > 1
  /// (a strided slice, a pooling window, a strided convolution's im2col):
  /// the elements a0 - width + 1 .. a0, or the s vectors from a0, loaded
  /// contiguously and shuffled into place, instead of a gather's load per
  /// lane (the same cache lines are read either way). Under lane mask
  /// `laneMask` each part reads only the elements of the lanes it enables;
  /// without one (null), only the last part of s > 1 is masked, to its
  /// lanes' elements: those after the last lane's, a0 + s * (width - 1),
  /// may lie past the buffer.
  Value contiguousParts(Location loc, Value mem, Value a0, VectorType type,
                        int64_t stride, Value laneMask) {
    int64_t parts = stride == -1 ? 1 : stride;
    Value first = a0;
    if (stride == -1)
      first = arith::SubIOp::create(
          b, loc, a0, arith::ConstantIndexOp::create(b, loc, width - 1));
    SmallVector<Value> loaded;
    for (int64_t k = 0; k < parts; ++k) {
      // Element e of part k (e = k * width + j from `first`) is lane e / s
      // (stride s) or lane width - 1 - j (a flip), or no lane's.
      SmallVector<int64_t> laneOf;
      for (int64_t j = 0; j < width; ++j) {
        int64_t e = k * width + j;
        laneOf.push_back(stride == -1      ? width - 1 - j
                         : e % stride == 0 ? e / stride
                                           : -1);
      }
      Value mask = partMask(loc, laneOf, laneMask,
                            /*lastPart=*/k + 1 == parts && stride > 1);
      loaded.push_back(loadPart(loc, mem, first, k, type, mask));
    }
    if (stride == -1) {
      SmallVector<int64_t> reverse;
      for (int64_t i = 0; i < width; ++i)
        reverse.push_back(width - 1 - i);
      return vector::ShuffleOp::create(b, loc, loaded[0], loaded[0], reverse);
    }
    // Lane i is element s * i: lane (s * i) % width of part (s * i) / width.
    // Each shuffle fills the lanes one more part holds (indices >= width
    // select from its second operand); the others keep what they hold.
    Value lanesSoFar = loaded[0];
    for (int64_t k = 1; k < parts; ++k) {
      SmallVector<int64_t> pick;
      for (int64_t i = 0; i < width; ++i) {
        int64_t e = stride * i;
        pick.push_back(e / width == k        ? width + e % width
                       : k == 1 && e < width ? e
                                             : i);
      }
      lanesSoFar =
          vector::ShuffleOp::create(b, loc, lanesSoFar, loaded[k], pick);
    }
    return lanesSoFar;
  }

  /// Part k of a load read as whole vectors (the `width` elements from
  /// first + k * width): all of them, or those `mask` enables (null: all)
  /// and 0 for the others.
  Value loadPart(Location loc, Value mem, Value first, int64_t k,
                 VectorType type, Value mask) {
    Value at = first;
    if (k > 0)
      at = arith::AddIOp::create(
          b, loc, first, arith::ConstantIndexOp::create(b, loc, k * width));
    if (!mask)
      return vector::LoadOp::create(b, loc, type, mem, ValueRange{at});
    Value pass = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
    return vector::MaskedLoadOp::create(b, loc, type, mem, ValueRange{at},
                                        mask, pass);
  }

  /// The mask of one contiguous part whose element j belongs to lane
  /// laneOf[j] (-1: none); null for an unmasked load of all its elements.
  Value partMask(Location loc, ArrayRef<int64_t> laneOf, Value laneMask,
                 bool lastPart) {
    auto maskType = VectorType::get({width}, b.getI1Type());
    if (!laneMask) {
      // Every lane reads: the parts before the last are in the buffer
      // (elements between two lanes' are read and dropped); the last one
      // reads only its lanes' elements.
      if (!lastPart)
        return Value();
      SmallVector<bool> needed;
      for (int64_t l : laneOf)
        needed.push_back(l >= 0);
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(maskType, needed));
    }
    // The lane mask moved to the elements: index `width` reads the first
    // lane of an all-false vector.
    SmallVector<int64_t> pick;
    for (int64_t l : laneOf)
      pick.push_back(l >= 0 ? l : width);
    Value none = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(maskType, false));
    return vector::ShuffleOp::create(b, loc, laneMask, none, pick);
  }

  /// The lanes of a load at a Periodic address, lane l at a0 + pattern[l]
  /// (a0 lane 0's address): the elements from the lowest to the highest
  /// address, at most two vectors (analyze checks), loaded contiguously and
  /// shuffled into place. Elements past the highest address are
  /// not read (they may lie past the buffer); under lane mask `laneMask`
  /// an element is read when an enabled lane reads it, and masked-off lanes
  /// are 0, as in scalar code.
  Value periodicLoad(LoadOp load, ArrayRef<int64_t> pattern, Value laneMask) {
    Location loc = load.getLoc();
    Value mem = buffers.storageOf(load.getBuffer());
    Value a0 = scalar.lookupOrDefault(load.getAddress());
    auto type = VectorType::get({width}, load.getType());
    int64_t lo = *std::min_element(pattern.begin(), pattern.end());
    int64_t span = periodicSpan(pattern);
    assert(span <= 2 * width && "analyze rejects wider Periodic loads");
    Value first = arith::AddIOp::create(
        b, loc, a0, arith::ConstantIndexOp::create(b, loc, lo));
    int64_t parts = llvm::divideCeil(span, width);
    SmallVector<Value> loaded;
    for (int64_t k = 0; k < parts; ++k) {
      // The lanes reading element j of part k.
      SmallVector<SmallVector<int64_t>> lanesOf(width);
      for (int64_t l = 0; l < width; ++l) {
        int64_t e = pattern[l] - lo - k * width;
        if (e >= 0 && e < width)
          lanesOf[e].push_back(l);
      }
      Value mask = periodicPartMask(loc, lanesOf, laneMask,
                                    /*past=*/span - k * width);
      loaded.push_back(loadPart(loc, mem, first, k, type, mask));
    }
    SmallVector<int64_t> pick;
    for (int64_t p : pattern)
      pick.push_back(p - lo);
    Value v =
        vector::ShuffleOp::create(b, loc, loaded.front(), loaded.back(), pick);
    if (!laneMask || llvm::all_of(pattern, [&](int64_t p) {
          return llvm::count(pattern, p) == 1;
        }))
      return v;
    // An element two lanes read is loaded when either is enabled.
    return arith::SelectOp::create(b, loc, laneMask, v, zeroOf(load, type));
  }

  /// The mask of one contiguous part of a Periodic load whose element j
  /// lanes lanesOf[j] read, and whose elements from `past` on lie past the
  /// highest address; null for an unmasked load of every element.
  Value periodicPartMask(Location loc, ArrayRef<SmallVector<int64_t>> lanesOf,
                         Value laneMask, int64_t past) {
    auto maskType = VectorType::get({width}, b.getI1Type());
    if (!laneMask) {
      if (past >= width)
        return Value();
      SmallVector<bool> inside;
      for (int64_t j = 0; j < width; ++j)
        inside.push_back(j < past);
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(maskType, inside));
    }
    // The lane mask moved to the elements, once per lane reading the same
    // element (index `width`: the first lane of an all-false vector).
    Value none = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(maskType, false));
    size_t readers = 0;
    for (const SmallVector<int64_t> &l : lanesOf)
      readers = std::max(readers, l.size());
    Value mask;
    for (size_t r = 0; r < std::max<size_t>(readers, 1); ++r) {
      SmallVector<int64_t> pick;
      for (const SmallVector<int64_t> &l : lanesOf)
        pick.push_back(r < l.size() ? l[r] : width);
      Value m = vector::ShuffleOp::create(b, loc, laneMask, none, pick);
      mask = mask ? arith::OrIOp::create(b, loc, mask, m) : m;
    }
    return mask;
  }

  /// The lanes of a load at a Gathered address: one gather, masked by the
  /// load's mask (masked-off lanes read nothing and are 0).
  Value gatheredLanes(LoadOp load) {
    Location loc = load.getLoc();
    Value mem = buffers.storageOf(load.getBuffer());
    auto type = VectorType::get({width}, load.getType());
    Value mask = load.getMask();
    if (mask) {
      mask = asVector(mask);
    } else {
      auto maskType = VectorType::get({width}, b.getI1Type());
      mask = arith::ConstantOp::create(b, loc,
                                       DenseElementsAttr::get(maskType, true));
    }
    Value pass = zeroOf(load, type);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value idx = vector.lookup(load.getAddress());
    // 32-bit offsets where the buffer allows them: x86 gathers 16 lanes of
    // 32-bit offsets at once, but only 8 of 64-bit ones.
    auto memType = cast<MemRefType>(mem.getType());
    if (memType.hasStaticShape() &&
        memType.getNumElements() <= std::numeric_limits<int32_t>::max())
      idx = arith::IndexCastOp::create(
          b, loc, VectorType::get({width}, b.getI32Type()), idx);
    return vector::GatherOp::create(b, loc, type, mem, ValueRange{zero}, idx,
                                    mask, pass);
  }

  /// A Gathered index: an indirect index of a vector of loaded values, or
  /// an affine.apply of one, evaluated lane-wise on vector<N x index>.
  void emitGathered(Operation &op) {
    if (auto index = dyn_cast<IndirectIndexOp>(op)) {
      vector[index.getResult()] =
          emitIndirectIndexLanes(b, index, asVector(index.getValue()), buffers);
      return;
    }
    auto apply = cast<affine::AffineApplyOp>(op);
    AffineMap map = apply.getAffineMap();
    SmallVector<Value> operands;
    for (Value v : apply.getOperands())
      operands.push_back(asVector(v));
    ArrayRef<Value> all(operands);
    vector[apply.getResult()] = laneExpr(apply.getLoc(), map.getResult(0),
                                         all.take_front(map.getNumDims()),
                                         all.drop_front(map.getNumDims()));
  }

  /// `e` over vector<N x index> dims and symbols, with arith's lane-wise
  /// ops (affine's mod is non-negative: remsi, then + c where negative).
  Value laneExpr(Location loc, AffineExpr e, ArrayRef<Value> dims,
                 ArrayRef<Value> syms) {
    auto type = VectorType::get({width}, b.getIndexType());
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return dims[d.getPosition()];
    if (auto s = dyn_cast<AffineSymbolExpr>(e))
      return syms[s.getPosition()];
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, b.getIndexAttr(c.getValue())));
    auto bin = cast<AffineBinaryOpExpr>(e);
    Value l = laneExpr(loc, bin.getLHS(), dims, syms);
    Value r = laneExpr(loc, bin.getRHS(), dims, syms);
    switch (e.getKind()) {
    case AffineExprKind::Add:
      return arith::AddIOp::create(b, loc, l, r);
    case AffineExprKind::Mul:
      return arith::MulIOp::create(b, loc, l, r);
    case AffineExprKind::FloorDiv:
      return arith::FloorDivSIOp::create(b, loc, l, r);
    case AffineExprKind::CeilDiv:
      return arith::CeilDivSIOp::create(b, loc, l, r);
    default: {
      Value rem = arith::RemSIOp::create(b, loc, l, r);
      Value zero = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, b.getIndexAttr(0)));
      Value neg =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
      Value up = arith::AddIOp::create(b, loc, rem, r);
      return arith::SelectOp::create(b, loc, neg, up, rem);
    }
    }
  }

  /// The lanes of staged load `s` at the body's current arguments.
  Value stagedLanes(const StagedLoad &s, VectorType type) {
    Location loc = s.load->getLoc();
    MLIRContext *ctx = b.getContext();
    unsigned n = body.getNumArguments();
    AffineExpr row = getAffineDimExpr(0, ctx), rowLb = getAffineDimExpr(1, ctx),
               col = getAffineDimExpr(2, ctx), colLb = getAffineDimExpr(3, ctx);
    auto map = AffineMap::get(4, 0, (row - rowLb) * s.cols + col - colLb);
    Value addr = affine::AffineApplyOp::create(
        b, loc, map,
        ValueRange{scalar.lookup(body.getArgument(n - 2)), s.rowLb,
                   scalar.lookup(body.getArgument(n - 1)), s.colLb});
    return vector::LoadOp::create(b, loc, type, s.tile, ValueRange{addr});
  }

  /// The conjuncts of i1 `v` (through arith.andi), the uniform ones and
  /// the ones that vary along the lane.
  void conjuncts(Value v, SmallVectorImpl<Value> &uniform,
                 SmallVectorImpl<Value> &varying) {
    auto it = lanes.find(v);
    if (it == lanes.end() || it->second.kind == Lanes::Uniform) {
      uniform.push_back(v);
      return;
    }
    if (auto andOp = v.getDefiningOp<arith::AndIOp>()) {
      conjuncts(andOp.getLhs(), uniform, varying);
      conjuncts(andOp.getRhs(), uniform, varying);
      return;
    }
    varying.push_back(v);
  }

  /// The lanes of `load` (Vector lanes `l`). The uniform conjuncts of its
  /// mask (one piece of a concatenation along an outer dim, one kernel
  /// offset's slice in a col2im) decide once whether anything is read; the
  /// others mask the lanes.
  Value maskedLoadLanes(LoadOp load, const Lanes &l) {
    Value mask = load.getMask();
    SmallVector<Value> uniform, varying;
    if (mask)
      conjuncts(mask, uniform, varying);
    if (uniform.empty() || l.stride == kDataDependentStride)
      return loadLanes(load, l, mask ? asVector(mask) : Value());
    Location loc = load.getLoc();
    Value laneMask;
    for (Value v : varying) {
      Value m = asVector(v);
      laneMask = laneMask ? arith::AndIOp::create(b, loc, laneMask, m) : m;
    }
    Value holds;
    for (Value v : uniform) {
      Value c = scalar.lookupOrDefault(v);
      holds = holds ? arith::AndIOp::create(b, loc, holds, c) : c;
    }
    auto type = VectorType::get({width}, load.getType());
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, holds,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, loadLanes(load, l, laneMask));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, zeroOf(load, type));
    return ifOp.getResult(0);
  }

  /// The lanes of `load` (Vector lanes `l`) under the vector `laneMask`
  /// (null: every lane reads; a Gathered load takes its own mask).
  Value loadLanes(LoadOp load, const Lanes &l, Value laneMask) {
    Location loc = load.getLoc();
    Operation &op = *load;
    Value mem = buffers.storageOf(load.getBuffer());
    Value a0 = scalar.lookupOrDefault(load.getAddress());
    auto type = VectorType::get({width}, load.getType());
    Value v;
    const StagedLoad *stage = llvm::find_if(
        plan.staged, [&](const StagedLoad &s) { return s.load == &op; });
    const PrefetchedLoad *prefetch =
        llvm::find_if(plan.prefetched,
                      [&](const PrefetchedLoad &p) { return p.load == &op; });
    if (l.stride == kDataDependentStride) {
      v = gatheredLanes(load);
    } else if (l.stride == kPeriodicStride) {
      v = periodicLoad(load, lanes.at(load.getAddress()).pattern, laneMask);
    } else if (laneMask) {
      // Masked-off lanes read nothing (their address may be out of
      // range: concatenation, padding) and are 0, as in scalar code.
      v = maskedLanes(load, l.stride, laneMask);
    } else if (stage != plan.staged.end()) {
      v = stagedLanes(*stage, type);
    } else if (l.stride == 1) {
      if (prefetch != plan.prefetched.end()) {
        Value next = arith::AddIOp::create(b, loc, a0, prefetch->offset);
        memref::PrefetchOp::create(b, loc, mem, ValueRange{next},
                                   /*isWrite=*/false, /*localityHint=*/3,
                                   /*isDataCache=*/true);
      }
      v = vector::LoadOp::create(b, loc, type, mem, ValueRange{a0});
    } else if (l.stride == 0) {
      v = vector::BroadcastOp::create(b, loc, type,
                                      memref::LoadOp::create(b, loc, mem, a0));
    } else if (readsContiguousParts(l.stride)) {
      v = contiguousParts(loc, mem, a0, type, l.stride, /*laneMask=*/{});
    } else {
      // Operands in named locals: the order in which a call's arguments
      // are evaluated (and so the IR's op order) differs between GCC and
      // Clang.
      auto idxType = VectorType::get({width}, b.getIndexType());
      Value base = vector::BroadcastOp::create(b, loc, idxType, a0);
      Value idx = arith::AddIOp::create(b, loc, base, steps(loc, l.stride));
      auto maskType = VectorType::get({width}, b.getI1Type());
      Value all = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(maskType, true));
      Value pass = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, b.getZeroAttr(load.getType())));
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      v = vector::GatherOp::create(b, loc, type, mem, ValueRange{zero}, idx,
                                   all, pass);
    }
    return v;
  }

  void emitOp(Operation &op) {
    if (auto known = plan.knownCompares.find(&op);
        known != plan.knownCompares.end()) {
      scalar.map(op.getResult(0), arith::ConstantIntOp::create(
                                      b, op.getLoc(), known->second, 1));
      return;
    }
    auto it = op.getNumResults() ? lanes.find(op.getResult(0)) : lanes.end();
    Lanes l = it == lanes.end() ? Lanes{} : it->second;
    if (l.kind == Lanes::Gathered) {
      emitGathered(op);
      return;
    }
    if (l.kind != Lanes::Vector) {
      // Vector code is CPU code (CUDA nodes have one lane).
      if (auto index = dyn_cast<IndirectIndexOp>(op)) {
        Value raw = scalar.lookupOrDefault(index.getValue());
        scalar.map(index.getResult(),
                   emitIndirectIndex(b, index, raw, buffers, /*gpu=*/false));
        return;
      }
      if (auto load = dyn_cast<LoadOp>(op)) {
        scalar.map(load.getResult(), uniformLoad(load));
        return;
      }
      b.clone(op, scalar);
      return;
    }
    Location loc = op.getLoc();
    if (auto load = dyn_cast<LoadOp>(op); load && splatValue(load)) {
      auto type = VectorType::get({width}, load.getType());
      Value v = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, splatValue(load)));
      if (Value mask = load.getMask())
        v = arith::SelectOp::create(b, loc, asVector(mask), v,
                                    zeroOf(load, type));
      vector[load.getResult()] = v;
      return;
    }
    if (auto load = dyn_cast<LoadOp>(op)) {
      vector[load.getResult()] = maskedLoadLanes(load, l);
      return;
    }

    OperationState state(loc, op.getName());
    for (Value operand : op.getOperands())
      state.addOperands(asVector(operand));
    state.addTypes(VectorType::get({width}, op.getResult(0).getType()));
    state.addAttributes(op.getAttrs());
    vector[op.getResult(0)] = b.create(state)->getResult(0);
  }
};

} // namespace

void codegen::stripMine(OpBuilder &b, Location loc, Value lb, Value ub,
                        int64_t width, function_ref<void(Value)> whole,
                        function_ref<void(Value)> tail) {
  // end = lb + floor((ub - lb) / width) * width
  Value w = arith::ConstantIndexOp::create(b, loc, width);
  Value n = arith::SubIOp::create(b, loc, ub, lb);
  Value groups =
      arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, n, w), w);
  Value end = arith::AddIOp::create(b, loc, lb, groups);
  Value step = arith::ConstantIndexOp::create(b, loc, width);
  auto strips = scf::ForOp::create(b, loc, lb, end, step);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(strips.getBody());
    whole(strips.getInductionVar());
  }
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto rest = scf::ForOp::create(b, loc, end, ub, one);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(rest.getBody());
  tail(rest.getInductionVar());
}

/// The checks every vectorized pointwise node passes: a result contiguous
/// along the lane (its last loop), at least `width` lanes, no i1 or
/// unsigned elements (stored widened), and a body `analyze` accepts.
static FailureOr<DenseMap<Value, Lanes>>
analyzePointwise(PointwiseOp op, int64_t width,
                 const DenseMap<Operation *, bool> *known = nullptr,
                 bool periodic = false) {
  ArrayRef<int64_t> ranges = op.getIterationRanges();
  SmallVector<int64_t> strides = op.getLayout().getEffectiveStrides(ranges);
  if (ranges.empty() || strides.back() != 1 || ranges.back() < width ||
      op.getType().getElementType().isInteger(1) ||
      op.getType().getElementType().isUnsignedInteger())
    return failure();
  Block &body = op.getBody().front();
  return analyze(body, body.getArguments().back(), /*indexResults=*/false,
                 known, periodic ? width : 0);
}

/// The period every vector of a body with `lanes` must start at a multiple
/// of (1: any start).
static int64_t periodOf(const DenseMap<Value, Lanes> &lanes) {
  int64_t period = 1;
  for (const auto &[value, l] : lanes)
    if (l.kind == Lanes::Periodic)
      period = std::max(period, l.period);
  return period;
}

int64_t codegen::vectorPeriod(PointwiseOp op, int64_t width) {
  FailureOr<DenseMap<Value, Lanes>> lanes =
      analyzePointwise(op, width, /*known=*/nullptr, /*periodic=*/true);
  return succeeded(lanes) ? periodOf(*lanes) : 1;
}

Value codegen::periodicStart(OpBuilder &b, Location loc, Value lb, Value ub,
                             int64_t period,
                             function_ref<void(Value)> scalarTail) {
  if (period == 1)
    return lb;
  Value below = arith::ConstantIndexOp::create(b, loc, period - 1);
  Value raised = arith::AddIOp::create(b, loc, lb, below);
  Value multiple = arith::AndIOp::create(
      b, loc, raised, arith::ConstantIndexOp::create(b, loc, -period));
  Value start = arith::MinSIOp::create(b, loc, multiple, ub);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto prologue = scf::ForOp::create(b, loc, lb, start, one);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(prologue.getBody());
  scalarTail(prologue.getInductionVar());
  return start;
}

namespace {
/// A comparison `lane <pred> c` (or `c <pred> lane`) of a body's lane index
/// with a constant: true exactly for the lane indices in [lo, hi).
struct LaneCompare {
  Operation *op;
  int64_t lo, hi;
};
} // namespace

/// c when `v` is the lane index plus a constant c (an affine.apply of the
/// lane alone: a shifted window's bounds check).
static std::optional<int64_t> laneOffset(Value v, Value lane) {
  if (v == lane)
    return 0;
  auto apply = v.getDefiningOp<affine::AffineApplyOp>();
  if (!apply || apply.getNumOperands() != 1 || apply.getOperand(0) != lane)
    return std::nullopt;
  AffineMap map = apply.getAffineMap();
  AffineExpr offset =
      simplifyAffineExpr(map.getResult(0) - getAffineDimExpr(0, v.getContext()),
                         map.getNumDims(), map.getNumSymbols());
  if (auto c = dyn_cast<AffineConstantExpr>(offset))
    return c.getValue();
  return std::nullopt;
}

/// The comparisons of the lane index (or the lane index plus a constant)
/// with constants in `op`'s body (concatenation and padding masks), as the
/// range of lane indices each one holds on.
static SmallVector<LaneCompare> laneCompares(PointwiseOp op) {
  Block &body = op.getBody().front();
  Value lane = body.getArguments().back();
  constexpr int64_t lowest = std::numeric_limits<int64_t>::min();
  constexpr int64_t highest = std::numeric_limits<int64_t>::max();
  SmallVector<LaneCompare> found;
  for (Operation &inner : body.without_terminator()) {
    auto cmp = dyn_cast<arith::CmpIOp>(inner);
    if (!cmp)
      continue;
    using P = arith::CmpIPredicate;
    P pred = cmp.getPredicate();
    Value other = cmp.getRhs();
    if (cmp.getLhs() == cmp.getRhs())
      continue;
    std::optional<int64_t> shift = laneOffset(cmp.getLhs(), lane);
    if (!shift) { // c <pred> lane is lane <swapped pred> c
      shift = laneOffset(cmp.getRhs(), lane);
      if (!shift)
        continue;
      other = cmp.getLhs();
      // clang-format off
      switch (pred) {
      case P::slt: pred = P::sgt; break;
      case P::sle: pred = P::sge; break;
      case P::sgt: pred = P::slt; break;
      case P::sge: pred = P::sle; break;
      case P::ult: pred = P::ugt; break;
      case P::ule: pred = P::uge; break;
      case P::ugt: pred = P::ult; break;
      case P::uge: pred = P::ule; break;
      default: break;
      }
      // clang-format on
    }
    // lane + shift may be negative, where unsigned order differs.
    if (*shift != 0 &&
        (pred == P::ult || pred == P::ule || pred == P::ugt || pred == P::uge))
      continue;
    auto bound = getConstantIntValue(other);
    // lane + shift <pred> bound is lane <pred> bound - shift.
    std::optional<int64_t> c;
    if (bound && *bound != highest && *bound != lowest)
      c = *bound - *shift;
    if (!c || *c < 0 || *c == highest)
      continue;
    // Lane indices are non-negative, so signed and unsigned agree.
    // clang-format off
    switch (pred) {
    case P::slt: case P::ult: found.push_back({cmp, lowest, *c}); break;
    case P::sle: case P::ule: found.push_back({cmp, lowest, *c + 1}); break;
    case P::sgt: case P::ugt: found.push_back({cmp, *c + 1, highest}); break;
    case P::sge: case P::uge: found.push_back({cmp, *c, highest}); break;
    default: break;
    }
    // clang-format on
  }
  return found;
}

/// The storage address of result element `args` of a node with `layout`
/// over `ranges`: offset + sum args[k] * stride[k].
static Value layoutAddress(OpBuilder &b, Location loc, LayoutAttr layout,
                           ArrayRef<int64_t> ranges, ValueRange args) {
  SmallVector<int64_t> strides = layout.getEffectiveStrides(ranges);
  AffineExpr e = getAffineConstantExpr(layout.getOffset(), b.getContext());
  for (auto [k, s] : llvm::enumerate(strides))
    e = e + getAffineDimExpr(k, b.getContext()) * s;
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(strides.size(), 0, e), args);
}

/// One vector evaluation of `op` at loop indices `args` (the last is lane
/// 0) and its store.
static void storeLanes(OpBuilder &b, PointwiseOp op,
                       const DenseMap<Value, Lanes> &lanes, ValueRange args,
                       BufferMap &buffers, int64_t width,
                       function_ref<void(Value, Value)> checkStore,
                       const VectorPlan &plan = VectorPlan(),
                       int64_t align = 0) {
  Location loc = op.getLoc();
  VectorBody vb(b, op.getBody().front(), lanes, buffers, width, plan);
  Value v = vb.emit(args)[0];
  Value addr =
      layoutAddress(b, loc, op.getLayout(), op.getIterationRanges(), args);
  checkStore(v, addr);
  vector::StoreOp::create(b, loc, v, buffers.storageOf(op.getResult()),
                          ValueRange{addr}, /*nontemporal=*/align != 0,
                          align ? llvm::MaybeAlign(align) : llvm::MaybeAlign());
}

bool codegen::isVectorizablePointwise(PointwiseOp op, int64_t width,
                                      bool periodic) {
  return succeeded(analyzePointwise(op, width, /*known=*/nullptr, periodic));
}

/// The alignment in bytes of `op`'s non-temporal vector stores of `width`
/// lanes: the vector's bytes up to a line, or 0 when they are not a power
/// of two of at least 16 (no aligned vector store for them).
static int64_t nontemporalAlignment(PointwiseOp op, BufferMap &buffers,
                                    int64_t width) {
  auto mem = cast<MemRefType>(buffers.storageOf(op.getResult()).getType());
  int64_t bytes = width * mem.getElementTypeBitWidth() / 8;
  if (bytes < 16 || !llvm::isPowerOf2_64(bytes))
    return 0;
  return std::min<int64_t>(bytes, 64);
}

/// The first index in [lb, ub) of the innermost loop (the others at
/// `fixed`) whose result element is `align`-byte aligned, or ub.
static Value alignedStart(OpBuilder &b, PointwiseOp op, ValueRange fixed,
                          Value lb, Value ub, BufferMap &buffers,
                          int64_t align) {
  Location loc = op.getLoc();
  Value mem = buffers.storageOf(op.getResult());
  int64_t elementBytes =
      cast<MemRefType>(mem.getType()).getElementTypeBitWidth() / 8;
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> args(fixed);
  args.push_back(lb);
  Value first =
      layoutAddress(b, loc, op.getLayout(), op.getIterationRanges(), args);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, mem);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, mem);
  Value element = arith::AddIOp::create(b, loc, metadata.getOffset(), first);
  Value offset = arith::MulIOp::create(b, loc, element, cst(elementBytes));
  Value address = arith::AddIOp::create(b, loc, base, offset);
  // (align - address mod align) mod align bytes to the next boundary.
  Value mask = cst(align - 1);
  Value negAddress = arith::SubIOp::create(b, loc, cst(0), address);
  Value gapBytes = arith::AndIOp::create(b, loc, negAddress, mask);
  Value gap = arith::DivUIOp::create(b, loc, gapBytes, cst(elementBytes));
  Value start = arith::AddIOp::create(b, loc, lb, gap);
  return arith::MinSIOp::create(b, loc, start, ub);
}

/// The index-set split of a body with lane comparisons: [lb, ub) is cut at
/// every comparison's bound, and each piece is strip-mined with the
/// comparisons replaced by their value there. A concatenation then reads
/// each operand with plain vector loads over its own columns, instead of
/// masked loads of every operand everywhere. (Scalar tails and chunk
/// edges keep the general body.)
static LogicalResult
vectorizePieces(OpBuilder &b, PointwiseOp op, ValueRange fixed, Value lb,
                Value ub, BufferMap &buffers, int64_t width,
                function_ref<void(Value)> scalarTail,
                function_ref<void(Value, Value)> checkStore,
                const VectorPlan &plan, ArrayRef<LaneCompare> compares) {
  Location loc = op.getLoc();
  constexpr int64_t lowest = std::numeric_limits<int64_t>::min();
  constexpr int64_t highest = std::numeric_limits<int64_t>::max();
  SmallVector<int64_t> cuts;
  for (const LaneCompare &c : compares)
    for (int64_t bound : {c.lo, c.hi})
      if (bound != lowest && bound != highest)
        cuts.push_back(bound);
  llvm::sort(cuts);
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  // Pieces [cuts[k-1], cuts[k]) clamped to [lb, ub); the first starts at
  // lb, the last ends at ub.
  auto clamp = [&](int64_t bound) -> Value {
    Value c = arith::ConstantIndexOp::create(b, loc, bound);
    return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, c, lb),
                                  ub);
  };
  for (size_t k = 0; k <= cuts.size(); ++k) {
    int64_t from = k ? cuts[k - 1] : lowest;
    VectorPlan piece = plan;
    for (const LaneCompare &c : compares)
      piece.knownCompares[c.op] = c.lo <= from && from < c.hi;
    FailureOr<DenseMap<Value, Lanes>> lanes =
        analyzePointwise(op, width, &piece.knownCompares, /*periodic=*/true);
    if (failed(lanes))
      return failure();
    Value start = k ? clamp(cuts[k - 1]) : lb;
    Value end = k < cuts.size() ? clamp(cuts[k]) : ub;
    start = periodicStart(b, loc, start, end, periodOf(*lanes), scalarTail);
    stripMine(
        b, loc, start, end, width,
        [&](Value iv) {
          SmallVector<Value> args(fixed);
          args.push_back(iv);
          storeLanes(b, op, *lanes, args, buffers, width, checkStore, piece);
        },
        scalarTail);
  }
  return success();
}

LogicalResult codegen::vectorizePointwise(
    OpBuilder &b, PointwiseOp op, ValueRange fixed, Value lb, Value ub,
    BufferMap &buffers, int64_t width, function_ref<void(Value)> scalarTail,
    function_ref<void(Value, Value)> checkStore, const VectorPlan &plan) {
  FailureOr<DenseMap<Value, Lanes>> lanes =
      analyzePointwise(op, width, /*known=*/nullptr, /*periodic=*/true);
  if (failed(lanes))
    return failure();
  Location loc = op.getLoc();
  int64_t period = periodOf(*lanes);
  // Vectors of a Periodic body start at multiples of its period, not at
  // aligned addresses.
  int64_t align = plan.nontemporal && period == 1
                      ? nontemporalAlignment(op, buffers, width)
                      : 0;
  Value start = lb;
  if (align) {
    // Scalar elements up to the first aligned one.
    start = alignedStart(b, op, fixed, lb, ub, buffers, align);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto prologue = scf::ForOp::create(b, loc, lb, start, one);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(prologue.getBody());
    scalarTail(prologue.getInductionVar());
  }
  SmallVector<LaneCompare> compares =
      align ? SmallVector<LaneCompare>() : laneCompares(op);
  if (!compares.empty())
    return vectorizePieces(b, op, fixed, lb, ub, buffers, width, scalarTail,
                           checkStore, plan, compares);
  start = periodicStart(b, loc, start, ub, period, scalarTail);
  stripMine(
      b, loc, start, ub, width,
      [&](Value iv) {
        SmallVector<Value> args(fixed);
        args.push_back(iv);
        storeLanes(b, op, *lanes, args, buffers, width, checkStore, plan,
                   align);
      },
      scalarTail);
  // Non-temporal stores are weakly ordered: a full fence makes them
  // visible before this thread's later reads and the loop's barrier.
  if (align)
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
  return success();
}

LogicalResult
codegen::vectorizePointwiseLanes(OpBuilder &b, PointwiseOp op, ValueRange args,
                                 BufferMap &buffers, int64_t width,
                                 function_ref<void(Value, Value)> checkStore) {
  FailureOr<DenseMap<Value, Lanes>> lanes =
      analyzePointwise(op, width, /*known=*/nullptr, /*periodic=*/true);
  if (failed(lanes))
    return failure();
  storeLanes(b, op, *lanes, args, buffers, width, checkStore);
  return success();
}

/// The lane-wise combine of sum/prod/max/min (NaN-propagating for floats).
static Value combine(OpBuilder &b, Location loc, ReductionKind kind, Value a,
                     Value v) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(a.getType()));
  switch (kind) {
  case ReductionKind::Sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc, a, v))
                   : Value(arith::AddIOp::create(b, loc, a, v));
  case ReductionKind::Prod:
    return isFloat ? Value(arith::MulFOp::create(b, loc, a, v))
                   : Value(arith::MulIOp::create(b, loc, a, v));
  case ReductionKind::Max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc, a, v))
                   : Value(arith::MaxSIOp::create(b, loc, a, v));
  case ReductionKind::Min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, a, v))
                   : Value(arith::MinSIOp::create(b, loc, a, v));
  default:
    llvm_unreachable("not a vectorizable combine");
  }
}

static vector::CombiningKind horizontalKind(ReductionKind kind, bool isFloat) {
  switch (kind) {
  case ReductionKind::Sum:
    return vector::CombiningKind::ADD;
  case ReductionKind::Prod:
    return vector::CombiningKind::MUL;
  case ReductionKind::Max:
    return isFloat ? vector::CombiningKind::MAXIMUMF
                   : vector::CombiningKind::MAXSI;
  default:
    return isFloat ? vector::CombiningKind::MINIMUMF
                   : vector::CombiningKind::MINSI;
  }
}

/// argmax/argmin along one reduction loop: each lane keeps the (value,
/// position) of its own elements in order (the first NaN, else the first
/// strict extreme, as the scalar combine does), then one horizontal
/// combine picks the first NaN, else the extreme with the smallest
/// position; the scalar tail (later positions) continues from there.
/// Four independent (value, position) accumulators run first, merged lane
/// by lane by position: one alone makes every step wait for the previous
/// compare and select. Returns the combine state (value, position,
/// count). Positions are exact, so the result is bitwise the scalar
/// loop's.
static SmallVector<Value> argExtremeLanes(OpBuilder &b, ReductionOp op,
                                          ValueRange idx, ValueRange init,
                                          const DenseMap<Value, Lanes> &lanes,
                                          BufferMap &buffers, int64_t width) {
  Location loc = op.getLoc();
  bool isMax = op.getKind() == ReductionKind::Argmax;
  Block &body = op.getBody().front();
  Type t = body.getTerminator()->getOperand(0).getType();
  bool isFloat = isa<FloatType>(t);
  Type i64 = b.getI64Type();
  auto vtype = VectorType::get({width}, t);
  auto itype = VectorType::get({width}, i64);
  int64_t n = op.getReductionRanges().back();
  int64_t end = n / width * width;
  const int64_t unroll = n >= 4 * width ? 4 : 1;
  int64_t endU = n / (unroll * width) * (unroll * width);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto lanePositions = llvm::to_vector(llvm::seq<int64_t>(0, width));
  Value iota = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(itype, ArrayRef<int64_t>(lanePositions)));
  auto fcmp = [&](arith::CmpFPredicate p, Value x, Value y) -> Value {
    return arith::CmpFOp::create(b, loc, p, x, y);
  };
  auto icmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  // Whether `v` replaces `best` in a lane: a NaN, or a strict extreme,
  // unless `best` is a NaN already.
  auto replaces = [&](Value v, Value best) -> Value {
    if (!isFloat)
      return icmp(isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
                  v, best);
    Value nanOrBetter = fcmp(
        isMax ? arith::CmpFPredicate::UGT : arith::CmpFPredicate::ULT, v, best);
    Value ordered = fcmp(arith::CmpFPredicate::ORD, best, best);
    return arith::AndIOp::create(b, loc, ordered, nanOrBetter);
  };
  // Whether lane state (v, p) wins over (bestV, bestP), which holds other
  // positions: the first NaN, else the extreme, else the first position.
  auto wins = [&](Value v, Value p, Value bestV, Value bestP) -> Value {
    Value earlier = icmp(arith::CmpIPredicate::slt, p, bestP);
    if (!isFloat) {
      Value better =
          icmp(isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, v,
               bestV);
      Value tie = icmp(arith::CmpIPredicate::eq, v, bestV);
      Value earlierTie = arith::AndIOp::create(b, loc, tie, earlier);
      return arith::OrIOp::create(b, loc, better, earlierTie);
    }
    Value nan = fcmp(arith::CmpFPredicate::UNO, v, v);
    Value bestOrdered = fcmp(arith::CmpFPredicate::ORD, bestV, bestV);
    Value better =
        fcmp(isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, v,
             bestV);
    Value tie = fcmp(arith::CmpFPredicate::OEQ, v, bestV);
    Value earlierTie = arith::AndIOp::create(b, loc, tie, earlier);
    Value number = arith::OrIOp::create(b, loc, better, earlierTie);
    Value nanFirst = arith::OrIOp::create(b, loc, bestOrdered, earlier);
    Value numberWins = arith::AndIOp::create(b, loc, bestOrdered, number);
    return arith::SelectOp::create(b, loc, nan, nanFirst, numberWins);
  };
  Value bestV0 = vector::BroadcastOp::create(b, loc, vtype, init[0]);
  Value bestI0 = vector::BroadcastOp::create(b, loc, itype, init[1]);
  VectorBody vb(b, body, lanes, buffers, width);
  // Steps each lane state of `best` (value, position pairs) over its
  // vector: the k-th pair over the one at j + k * width.
  auto stepLanes = [&](Value j, ValueRange best) {
    SmallVector<Value> next;
    for (int64_t k = 0; 2 * k < int64_t(best.size()); ++k) {
      Value at =
          k ? arith::AddIOp::create(b, loc, j, cst(k * width)).getResult() : j;
      SmallVector<Value> args(idx);
      args.push_back(at);
      Value v = vb.emit(args)[0];
      Value atI64 = arith::IndexCastOp::create(b, loc, i64, at);
      Value base = vector::BroadcastOp::create(b, loc, itype, atI64);
      Value pos = arith::AddIOp::create(b, loc, base, iota);
      Value take = replaces(v, best[2 * k]);
      next.push_back(arith::SelectOp::create(b, loc, take, v, best[2 * k]));
      next.push_back(
          arith::SelectOp::create(b, loc, take, pos, best[2 * k + 1]));
    }
    return next;
  };
  auto lanesLoop = [&](int64_t lb, int64_t ub, int64_t stride,
                       ValueRange best) {
    // Bounds in named locals: argument evaluation order differs between
    // compilers, and the IR must not.
    Value lower = cst(lb);
    Value upper = cst(ub);
    Value step = cst(stride);
    return scf::ForOp::create(
        b, loc, lower, upper, step, best, // in order
        [&](OpBuilder &nb, Location, Value j, ValueRange iter) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc, stepLanes(j, iter));
        });
  };
  SmallVector<Value> states;
  for (int64_t k = 0; k < unroll; ++k)
    states.append({bestV0, bestI0});
  auto unrolled = lanesLoop(0, endU, unroll * width, states);
  Value bestV = unrolled.getResult(0), bestI = unrolled.getResult(1);
  for (int64_t k = 1; k < unroll; ++k) {
    Value v = unrolled.getResult(2 * k), p = unrolled.getResult(2 * k + 1);
    Value take = wins(v, p, bestV, bestI);
    bestV = arith::SelectOp::create(b, loc, take, v, bestV);
    bestI = arith::SelectOp::create(b, loc, take, p, bestI);
  }
  if (endU < end) {
    auto rest = lanesLoop(endU, end, width, ValueRange{bestV, bestI});
    bestV = rest.getResult(0);
    bestI = rest.getResult(1);
  }
  // The lanes' combine: the extreme value, then its first position.
  Value none = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(itype, b.getI64IntegerAttr(INT64_MAX)));
  auto firstWhere = [&](Value mask) -> Value {
    return vector::ReductionOp::create(
        b, loc, vector::CombiningKind::MINSI,
        arith::SelectOp::create(b, loc, mask, bestI, none));
  };
  Value value, position;
  if (isFloat) {
    Value nanLanes =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, bestV, bestV);
    Value firstNan = firstWhere(nanLanes);
    double away = isMax ? -INFINITY : INFINITY;
    Value numbers = arith::SelectOp::create(
        b, loc, nanLanes,
        vector::BroadcastOp::create(
            b, loc, vtype,
            arith::ConstantOp::create(b, loc, FloatAttr::get(t, away))),
        bestV);
    Value extreme =
        vector::ReductionOp::create(b, loc,
                                    isMax ? vector::CombiningKind::MAXIMUMF
                                          : vector::CombiningKind::MINIMUMF,
                                    numbers);
    Value atExtreme = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OEQ, numbers,
        vector::BroadcastOp::create(b, loc, vtype, extreme));
    Value hasNan = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, firstNan,
        arith::ConstantIntOp::create(b, loc, INT64_MAX, 64));
    Value nan = arith::ConstantOp::create(
        b, loc,
        FloatAttr::get(
            t, APFloat::getQNaN(cast<FloatType>(t).getFloatSemantics())));
    value = arith::SelectOp::create(b, loc, hasNan, nan, extreme);
    position = arith::SelectOp::create(b, loc, hasNan, firstNan,
                                       firstWhere(atExtreme));
  } else {
    Value extreme = vector::ReductionOp::create(
        b, loc,
        isMax ? vector::CombiningKind::MAXSI : vector::CombiningKind::MINSI,
        bestV);
    value = extreme;
    position = firstWhere(arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, bestV,
        vector::BroadcastOp::create(b, loc, vtype, extreme)));
  }
  return {value, position, arith::ConstantIntOp::create(b, loc, end, 64)};
}

/// Welford (or its partial-state combine) along the innermost reduction
/// loop: each lane keeps the (mean, M2, count) of the elements it sees,
/// the elements after the last whole vector go into a scalar state, and
/// Chan's combine merges the lanes pairwise, then the scalar state, then
/// `init`. A reordering (class 2): Section 6.5's Welford bound holds for
/// any tree of combines. Returns the final state.
static SmallVector<Value>
welfordLanes(OpBuilder &b, ReductionOp op, ValueRange init, VectorBody &vb,
             SmallVector<Value> &ivs, int64_t width,
             function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
             function_ref<SmallVector<Value>(Value)> scalarValues) {
  Location loc = op.getLoc();
  Block &body = op.getBody().front();
  Type t = body.getTerminator()->getOperand(0).getType();
  auto vtype = VectorType::get({width}, t);
  Combiner merge(ReductionKind::WelfordCombine, t);
  ArrayRef<int64_t> rranges = op.getReductionRanges();
  int64_t n = rranges.back(), end = n / width * width;
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // Empty lane states, then the empty scalar state.
  SmallVector<Value> start;
  for (Value v : merge.init(b, loc))
    start.push_back(vector::BroadcastOp::create(b, loc, vtype, v));
  for (Value v : merge.init(b, loc))
    start.push_back(v);
  auto innermost = [&](ValueRange state) {
    Value vLb = cst(0), vUb = cst(end), vStep = cst(width); // in order
    auto vloop = scf::ForOp::create(
        b, loc, vLb, vUb, vStep, state.take_front(3),
        [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          SmallVector<Value> args(ivs);
          args.push_back(iv);
          scf::YieldOp::create(b, loc, step(iter, vb.emit(args)));
        });
    Value sLb = cst(end), sUb = cst(n), sStep = cst(1);
    auto sloop = scf::ForOp::create(
        b, loc, sLb, sUb, sStep, state.drop_front(3),
        [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc, step(iter, scalarValues(iv)));
        });
    SmallVector<Value> next(vloop.getResults());
    next.append(sloop.getResults().begin(), sloop.getResults().end());
    return next;
  };
  SmallVector<Value> state =
      carriedLoopNest(b, loc, rranges.drop_back(), start,
                      [&](ValueRange outer, ValueRange iter) {
                        unsigned fixed = ivs.size();
                        ivs.append(outer.begin(), outer.end());
                        SmallVector<Value> next = innermost(iter);
                        ivs.truncate(fixed);
                        return next;
                      });
  // The lanes' states, merged pairwise (a tree: log2(width) levels).
  SmallVector<SmallVector<Value>> parts;
  for (int64_t lane = 0; lane < width; ++lane) {
    SmallVector<Value> part;
    for (int k = 0; k < 3; ++k)
      part.push_back(vector::ExtractOp::create(b, loc, state[k], lane));
    parts.push_back(part);
  }
  while (parts.size() > 1) {
    SmallVector<SmallVector<Value>> merged;
    for (size_t j = 0; j + 1 < parts.size(); j += 2)
      merged.push_back(merge.step(b, loc, parts[j], parts[j + 1]));
    if (parts.size() % 2)
      merged.push_back(parts.back());
    parts = std::move(merged);
  }
  SmallVector<Value> lanes =
      merge.step(b, loc, parts[0], ValueRange(state).drop_front(3));
  return merge.step(b, loc, init, lanes);
}

FailureOr<SmallVector<Value>> codegen::vectorizeReduction(
    OpBuilder &b, ReductionOp op, ValueRange idx, ValueRange init,
    BufferMap &buffers, int64_t width,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<SmallVector<Value>(ValueRange)> scalarBody) {
  ReductionKind kind = op.getKind();
  bool argExtreme =
      kind == ReductionKind::Argmax || kind == ReductionKind::Argmin;
  bool welford =
      kind == ReductionKind::Welford || kind == ReductionKind::WelfordCombine;
  if (kind != ReductionKind::Sum && kind != ReductionKind::Prod &&
      kind != ReductionKind::Max && kind != ReductionKind::Min && !argExtreme &&
      !welford)
    return failure();
  ArrayRef<int64_t> rranges = op.getReductionRanges();
  if (rranges.empty() || rranges.back() < width)
    return failure();
  // Positions are counted along one loop (with several, the scalar tails
  // of the inner loop would interleave with the vectors in position order).
  if (argExtreme && rranges.size() != 1)
    return failure();
  Block &body = op.getBody().front();
  Type t = body.getTerminator()->getOperand(0).getType();
  if (t.isInteger(1))
    return failure();
  FailureOr<DenseMap<Value, Lanes>> lanes =
      analyze(body, body.getArguments().back());
  if (failed(lanes))
    return failure();
  // Gathers would make a strided reduction both slower and reordered:
  // the scalar loop keeps it class 1.
  if (hasGather(body, *lanes))
    return failure();
  Location loc = op.getLoc();
  bool isFloat = isa<FloatType>(t);
  auto vtype = VectorType::get({width}, t);
  VectorBody vb(b, body, *lanes, buffers, width);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> ivs(idx);
  // Scalar evaluation for the tail: the same body, one lane, as the
  // scalar loop emits it (masked loads, checked indirect indices).
  auto scalarValues = [&](Value iv) {
    SmallVector<Value> args(ivs);
    args.push_back(iv);
    return scalarBody(args);
  };
  auto scalarValue = [&](Value iv) { return scalarValues(iv)[0]; };
  int64_t n = rranges.back();
  int64_t end = n / width * width;
  if (welford)
    return welfordLanes(b, op, init, vb, ivs, width, step, scalarValues);
  if (argExtreme) {
    SmallVector<Value> state =
        argExtremeLanes(b, op, idx, init, *lanes, buffers, width);
    Value sLb = cst(end), sUb = cst(n), sStep = cst(1); // in order
    auto tail = scf::ForOp::create(
        b, loc, sLb, sUb, sStep, state,
        [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc, step(iter, ValueRange{scalarValue(iv)}));
        });
    return SmallVector<Value>(tail.getResults());
  }
  // A float sum's rounding error grows with its longest chain of additions
  // (Higham, Accuracy and Stability, 4.2): each lane of each accumulator
  // adds n / (4 * width) elements in turn, 2^15 for a 2^21-element slice,
  // where eager's cascade sum adds a few dozen (a 16M-element sum of equal
  // values was off by 2e-3). Blocked summation cuts the chain to
  // kBlock + steps / kBlock: the unrolled loop runs in blocks of kBlock
  // steps, each summed from zero and added to the accumulators once; with
  // outer reduction loops, each innermost loop sums from zero and adds its
  // sum to the carried accumulators once. Only the order changes (class 2).
  constexpr int64_t kBlock = 64;
  bool blocked = isFloat && kind == ReductionKind::Sum;
  bool fresh = blocked && rranges.size() > 1;
  // The innermost reduction loop for the outer reduction indices in `ivs`:
  // the unrolled vector loop (in blocks), the vector loop for the rest of
  // the vectors, then the scalar tail; returns (vector accumulator, scalar
  // accumulator).
  auto innermost = [&](Value accV, Value accS) -> std::pair<Value, Value> {
    Value identity = vector::BroadcastOp::create(b, loc, vtype, init[0]);
    Value carriedV = accV, carriedS = accS;
    // The scalar tail too, when there is one.
    bool freshTail = fresh && end < n;
    if (fresh)
      accV = identity;
    if (freshTail)
      accS = init[0];
    // Four independent accumulators first: one alone makes the loop wait
    // on the add latency instead of on memory. A float max/min step is a
    // chain of five to six instructions (LLVM's expansion of IEEE maximum:
    // zeros ordered by sign, NaN propagated): eight accumulators. They are
    // exact in any order.
    bool longStep =
        isFloat && (kind == ReductionKind::Max || kind == ReductionKind::Min);
    int64_t unroll = longStep && n >= 8 * width ? 8 : n >= 4 * width ? 4 : 1;
    int64_t endU = n / (unroll * width) * (unroll * width);
    auto unrolledLoop = [&](Value lb, Value ub, ValueRange accs) {
      Value uStep = cst(unroll * width);
      auto uloop = scf::ForOp::create(
          b, loc, lb, ub, uStep, accs,
          [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            SmallVector<Value> next;
            for (int64_t j = 0; j < unroll; ++j) {
              SmallVector<Value> args(ivs);
              args.push_back(j == 0 ? iv
                                    : Value(arith::AddIOp::create(
                                          b, loc, iv, cst(j * width))));
              next.push_back(combine(b, loc, kind, iter[j], vb.emit(args)[0]));
            }
            scf::YieldOp::create(b, loc, next);
          });
      return SmallVector<Value>(uloop.getResults());
    };
    SmallVector<Value> accs{accV};
    for (int64_t j = 1; j < unroll; ++j)
      accs.push_back(identity);
    // Bounds in named locals: argument evaluation order differs between
    // compilers, and so would the order of the constants in the IR.
    int64_t block = kBlock * unroll * width, blockedEnd = 0;
    if (blocked && endU >= 2 * block) {
      Value bLb = cst(0), bUb = cst(endU / block * block), bStep = cst(block);
      auto bloop = scf::ForOp::create(
          b, loc, bLb, bUb, bStep, accs,
          [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            Value hi = arith::AddIOp::create(b, loc, iv, cst(block));
            SmallVector<Value> zeros(unroll, identity);
            SmallVector<Value> sums = unrolledLoop(iv, hi, zeros);
            SmallVector<Value> next;
            for (int64_t j = 0; j < unroll; ++j)
              next.push_back(combine(b, loc, kind, iter[j], sums[j]));
            scf::YieldOp::create(b, loc, next);
          });
      accs.assign(bloop.getResults().begin(), bloop.getResults().end());
      blockedEnd = endU / block * block;
    }
    // The unrolled steps after the blocks (all of them when unblocked).
    SmallVector<Value> parts = accs;
    if (blockedEnd < endU) {
      Value uLb = cst(blockedEnd), uUb = cst(endU);
      parts = unrolledLoop(uLb, uUb, accs);
    }
    while (parts.size() > 1) {
      SmallVector<Value> half;
      for (size_t j = 0; j + 1 < parts.size(); j += 2)
        half.push_back(combine(b, loc, kind, parts[j], parts[j + 1]));
      parts = half;
    }
    accV = parts[0];
    Value vLb = cst(endU), vUb = cst(end), vStep = cst(width);
    auto vloop = scf::ForOp::create(
        b, loc, vLb, vUb, vStep, ValueRange{accV},
        [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          SmallVector<Value> args(ivs);
          args.push_back(iv);
          Value v = vb.emit(args)[0];
          scf::YieldOp::create(b, loc, combine(b, loc, kind, iter[0], v));
        });
    Value sLb = cst(end), sUb = cst(n), sStep = cst(1);
    auto sloop = scf::ForOp::create(
        b, loc, sLb, sUb, sStep, ValueRange{accS},
        [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc,
                               combine(b, loc, kind, iter[0], scalarValue(iv)));
        });
    Value v = vloop.getResult(0), sAcc = sloop.getResult(0);
    if (fresh)
      v = combine(b, loc, kind, carriedV, v);
    if (freshTail)
      sAcc = combine(b, loc, kind, carriedS, sAcc);
    return {v, sAcc};
  };
  // (vector accumulator, scalar accumulator) through the outer reduction
  // loops (in blocks too when long: blockedSumLoopNest).
  Value accV0 = vector::BroadcastOp::create(b, loc, vtype, init[0]);
  SmallVector<Value> start{accV0, init[0]};
  auto outerStep = [&](ValueRange outer, ValueRange iter) {
    ivs.append(outer.begin(), outer.end());
    auto [v, sAcc] = innermost(iter[0], iter[1]);
    ivs.truncate(idx.size());
    return SmallVector<Value>{v, sAcc};
  };
  SmallVector<Value> accs =
      fresh
          ? blockedSumLoopNest(
                b, loc, rranges.drop_back(), start, start, outerStep,
                [&](ValueRange x, ValueRange y) {
                  return SmallVector<Value>{combine(b, loc, kind, x[0], y[0]),
                                            combine(b, loc, kind, x[1], y[1])};
                })
          : carriedLoopNest(b, loc, rranges.drop_back(), start, outerStep);
  Value accV = accs[0], accS = accs[1];
  Value lanesCombined =
      vector::ReductionOp::create(b, loc, horizontalKind(kind, isFloat), accV);
  return SmallVector<Value>{combine(b, loc, kind, accS, lanesCombined)};
}

/// The checks of vectorizeReductionOutputs: the analysis of `op`'s body
/// along its last output loop, or failure.
static FailureOr<DenseMap<Value, Lanes>>
analyzeReductionOutputs(ReductionOp op, int64_t width) {
  ReductionKind kind = op.getKind();
  bool argExtreme =
      kind == ReductionKind::Argmax || kind == ReductionKind::Argmin;
  ArrayRef<int64_t> ranges = op.getIterationRanges();
  SmallVector<int64_t> strides = op.getLayout().getEffectiveStrides(ranges);
  if (ranges.empty() || strides.back() != 1 || ranges.back() < width)
    return failure();
  Block &body = op.getBody().front();
  Type t = body.getTerminator()->getOperand(0).getType();
  if (t.isInteger(1))
    return failure();
  // An argmax/argmin stores the position (i64) of its (value, position)
  // state; the other kinds each state as it is.
  for (Value r : op.getResults()) {
    Type stored = cast<RankedTensorType>(r.getType()).getElementType();
    if (argExtreme ? !stored.isInteger(64) : stored != t)
      return failure();
  }
  Value lane = body.getArgument(ranges.size() - 1);
  FailureOr<DenseMap<Value, Lanes>> lanes = analyze(body, lane);
  if (failed(lanes))
    return failure();
  if (!hasGather(body, *lanes))
    return lanes;
  // Strided reads: the row-wise vectorization does better where it
  // applies (vectorizeReduction). Pooling windows are too short for it:
  // their small strides are read as whole vectors and shuffled.
  ArrayRef<int64_t> rranges = op.getReductionRanges();
  bool rowWise = !rranges.empty() && rranges.back() >= width &&
                 (!argExtreme || rranges.size() == 1);
  if (rowWise || hasGather(body, *lanes, width))
    return failure();
  return lanes;
}

int64_t codegen::narrowLanes(int64_t extent, int64_t width) {
  if (width <= 1 || extent >= width || extent < kMinNarrowLanes)
    return width;
  return int64_t(llvm::bit_floor(uint64_t(extent)));
}

bool codegen::isVectorizableReductionOutputs(ReductionOp op, int64_t width) {
  return succeeded(analyzeReductionOutputs(op, width));
}

int64_t codegen::outputVectorsPerWalk(ReductionOp op) {
  // Eight accumulators and their loads leave registers for the body; a
  // walk over a column reads eight whole cache lines per row (one would
  // leave the walk latency bound: 11 GB/s against 94 in a C model of
  // x[1024, 1024].sum(0)).
  constexpr int64_t kAccumulators = 8;
  // One state per result; an argmax/argmin keeps (value, position, count).
  bool argExtreme = op.getKind() == ReductionKind::Argmax ||
                    op.getKind() == ReductionKind::Argmin;
  int64_t states = argExtreme ? 3 : op.getNumResults();
  return std::max<int64_t>(kAccumulators / std::max<int64_t>(states, 1), 1);
}

/// The reductions of `groups` x `width` outputs at output indices `out`
/// (the last is lane 0 of the first group), each lane in the scalar order
/// (a long float sum in blocks), and their stores. The groups share one
/// walk of the reduction loops.
static void
reduceLanes(OpBuilder &b, ReductionOp op, const DenseMap<Value, Lanes> &lanes,
            ValueRange out, BufferMap &buffers, int64_t width, int64_t groups,
            ValueRange init,
            function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
            function_ref<void(Value, Value)> checkStore) {
  Location loc = op.getLoc();
  VectorBody vb(b, op.getBody().front(), lanes, buffers, width);
  // out with its last index moved to group g's lane 0.
  auto groupOut = [&](OpBuilder &gb, ValueRange base, int64_t g) {
    SmallVector<Value> at(base);
    if (g > 0)
      at.back() = arith::AddIOp::create(
          gb, loc, at.back(),
          arith::ConstantIndexOp::create(gb, loc, g * width));
    return at;
  };
  size_t numStates = init.size();
  SmallVector<Value> state;
  for (int64_t g = 0; g < groups; ++g)
    for (Value v : init)
      state.push_back(vector::BroadcastOp::create(
          b, loc, VectorType::get({width}, v.getType()), v));
  auto walkStep = [&](ValueRange rivs, ValueRange st) {
    SmallVector<Value> next;
    for (int64_t g = 0; g < groups; ++g) {
      SmallVector<Value> args = groupOut(b, out, g);
      args.append(rivs.begin(), rivs.end());
      llvm::append_range(
          next, step(st.slice(g * numStates, numStates), vb.emit(args)));
    }
    return next;
  };
  Type combineType =
      op.getBody().front().getTerminator()->getOperand(0).getType();
  if (op.getKind() == ReductionKind::Sum && isa<FloatType>(combineType)) {
    // Long columns in blocks (each lane is one sum: class 2 there).
    SmallVector<Value> identity(state);
    state = blockedSumLoopNest(
        b, loc, op.getReductionRanges(), state, identity, walkStep,
        [&](ValueRange st, ValueRange blockSums) {
          SmallVector<Value> merged;
          for (auto [s, blockSum] : llvm::zip_equal(st, blockSums))
            llvm::append_range(merged,
                               step(ValueRange{s}, ValueRange{blockSum}));
          return merged;
        });
  } else {
    state = carriedLoopNest(b, loc, op.getReductionRanges(), state, walkStep);
  }
  for (int64_t g = 0; g < groups; ++g) {
    Value addr = layoutAddress(b, loc, op.getLayout(), op.getIterationRanges(),
                               groupOut(b, out, g));
    ArrayRef<Value> groupState =
        ArrayRef(state).slice(g * numStates, numStates);
    // An argmax/argmin stores its positions (Combiner::finish).
    if (op.getKind() == ReductionKind::Argmax ||
        op.getKind() == ReductionKind::Argmin)
      groupState = groupState.slice(1, 1);
    for (auto [k, v] : llvm::enumerate(groupState)) {
      checkStore(v, addr);
      vector::StoreOp::create(b, loc, v, buffers.storageOf(op.getResult(k)),
                              ValueRange{addr});
    }
  }
}

LogicalResult codegen::vectorizeReductionOutputs(
    OpBuilder &b, ReductionOp op, ValueRange fixed, Value lb, Value ub,
    BufferMap &buffers, int64_t width, ValueRange init,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<void(Value)> scalarTail,
    function_ref<void(Value, Value)> checkStore) {
  FailureOr<DenseMap<Value, Lanes>> lanes = analyzeReductionOutputs(op, width);
  if (failed(lanes))
    return failure();
  Location loc = op.getLoc();
  auto reduceAt = [&](Value iv, int64_t groups) {
    SmallVector<Value> out(fixed);
    out.push_back(iv);
    reduceLanes(b, op, *lanes, out, buffers, width, groups, init, step,
                checkStore);
  };
  // Strips of outputVectorsPerWalk vectors, then of one vector, then
  // single outputs.
  int64_t groups = outputVectorsPerWalk(op);
  int64_t wide = width * groups;
  Value n = arith::SubIOp::create(b, loc, ub, lb);
  Value w = arith::ConstantIndexOp::create(b, loc, wide);
  Value end = arith::AddIOp::create(
      b, loc, lb,
      arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, n, w), w));
  if (groups > 1) {
    auto strips = scf::ForOp::create(b, loc, lb, end, w);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(strips.getBody());
    reduceAt(strips.getInductionVar(), groups);
  } else {
    end = lb;
  }
  stripMine(
      b, loc, end, ub, width, [&](Value iv) { reduceAt(iv, 1); }, scalarTail);
  return success();
}

LogicalResult codegen::vectorizeReductionLanes(
    OpBuilder &b, ReductionOp op, ValueRange out, BufferMap &buffers,
    int64_t width, ValueRange init,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<void(Value, Value)> checkStore) {
  FailureOr<DenseMap<Value, Lanes>> lanes = analyzeReductionOutputs(op, width);
  if (failed(lanes))
    return failure();
  reduceLanes(b, op, *lanes, out, buffers, width, /*groups=*/1, init, step,
              checkStore);
  return success();
}

/// The lanes of scatter `op`'s body along its last loop, when its
/// addresses are consecutive there (lane stride 1: no two lanes of a
/// vector write the same element, so their order does not matter) and the
/// body does not read the tensor it scatters into (whose storage the
/// result may share: the vector reads all lanes before it writes any).
static FailureOr<DenseMap<Value, Lanes>> analyzeScatter(ScatterOp op) {
  Block &body = op.getBody().front();
  if (body.getNumArguments() == 0)
    return failure();
  FailureOr<DenseMap<Value, Lanes>> lanes =
      analyze(body, body.getArguments().back(), /*indexResults=*/true);
  if (failed(lanes))
    return failure();
  auto address = lanes->find(body.getTerminator()->getOperand(0));
  if (address == lanes->end() || address->second.kind != Lanes::Strided ||
      address->second.stride != 1)
    return failure();
  for (Operation &inner : body.without_terminator())
    if (auto load = dyn_cast<LoadOp>(inner);
        load && load.getBuffer() == op.getBase())
      return failure();
  return lanes;
}

bool codegen::scatterColumnsAreDisjoint(ScatterOp op) {
  Block &body = op.getBody().front();
  if (body.getNumArguments() == 0)
    return false;
  Value lane = body.getArguments().back();
  int64_t cols = op.getRanges().back();
  auto apply = body.getTerminator()
                   ->getOperand(0)
                   .getDefiningOp<affine::AffineApplyOp>();
  if (!apply || cols < 1) // an empty scatter has no columns to split
    return false;
  FailureOr<SmallVector<int64_t>> coeffs = linearCoefficients(apply);
  if (failed(coeffs))
    return false;
  // address = c + lane + terms whose coefficients are multiples of the
  // column count, whatever their values (rows read from an index tensor
  // included): address mod cols = (c + lane) mod cols differs between
  // columns, so two columns never reach the same element.
  unsigned laneTerms = 0;
  for (auto [k, operand] : llvm::enumerate(apply.getOperands())) {
    if (operand == lane) {
      if ((*coeffs)[k] != 1)
        return false;
      ++laneTerms;
    } else if ((*coeffs)[k] % cols != 0) {
      return false;
    }
  }
  return laneTerms == 1;
}

bool codegen::isVectorizableScatter(ScatterOp op, int64_t width) {
  ArrayRef<int64_t> ranges = op.getRanges();
  return width > 1 && !ranges.empty() && ranges.back() >= width &&
         succeeded(analyzeScatter(op));
}

FailureOr<std::pair<Value, Value>>
codegen::vectorizeScatterLanes(OpBuilder &b, ScatterOp op, ValueRange args,
                               BufferMap &buffers, int64_t width) {
  FailureOr<DenseMap<Value, Lanes>> lanes = analyzeScatter(op);
  if (failed(lanes))
    return failure();
  Block &body = op.getBody().front();
  VectorBody emitter(b, body, *lanes, buffers, width);
  emitter.emitOps(args);
  Operation *yield = body.getTerminator();
  Value address = emitter.laneZero(yield->getOperand(0));
  Value value = emitter.asVector(yield->getOperand(1));
  return std::make_pair(address, value);
}
