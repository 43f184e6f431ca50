//===- Functionalize.cpp - in-place ops to value semantics (Section 4.9) --===//
//
// A tensor that in-place ops mutate is a *storage*: the SSA values that
// denote it (self, the in-place ops' results, the values this pass creates)
// share one root. The body is walked in program order; each in-place op M
// on storage R
//
//   1. becomes its functional twin (`kTwins` below), cast back to self's
//      dtype, whose result N is R's new contents;
//   2. every use of self that comes after M, and every use of M's result,
//      is redirected to N — so later reads see the mutation — and N joins R.
//
// Since uses are redirected as the walk goes, the operand `self` of an
// in-place op is always R's current value. A mutated function argument's
// final value is returned as an extra result (copy-back, see Passes.td).
//
// Views alias their source, which value semantics cannot express without
// replaying the view: a mutation through a view result, and a mutation of a
// tensor one of whose views is read afterwards, are reported. A view whose
// source is a temporary that nothing else reads afterwards (the
// `_unsafe_view` of a matmul) is the tensor's only handle, so mutating
// through it is a plain mutation.
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tp {
#define GEN_PASS_DEF_STAXFUNCTIONALIZE
#include "Stax/Dialect/Tp/Transforms/Passes.h.inc"
} // namespace mlir::tp

using namespace mlir;
namespace tp = mlir::tp;

namespace {

//===----------------------------------------------------------------------===//
// The functional twins
//===----------------------------------------------------------------------===//

using TwinFn = Value (*)(OpBuilder &, Operation *);

struct Twin {
  StringRef name;
  TwinFn fn;
};

template <typename OpT, Value (*Fn)(OpBuilder &, OpT)> Twin twin() {
  return {OpT::getOperationName(),
          [](OpBuilder &b, Operation *op) { return Fn(b, cast<OpT>(op)); }};
}

Value add(OpBuilder &b, tp::AddInPlaceOp op) {
  return tp::AddOp::create(b, op.getLoc(), op.getSelf(), op.getOther(),
                           op.getAlphaAttr());
}
Value sub(OpBuilder &b, tp::SubInPlaceOp op) {
  return tp::SubOp::create(b, op.getLoc(), op.getSelf(), op.getOther(),
                           op.getAlphaAttr());
}
Value mul(OpBuilder &b, tp::MulInPlaceOp op) {
  return tp::MulOp::create(b, op.getLoc(), op.getSelf(), op.getOther());
}
Value div(OpBuilder &b, tp::DivInPlaceOp op) {
  return tp::DivOp::create(b, op.getLoc(), op.getSelf(), op.getOther(),
                           op.getRoundingModeAttr());
}
Value addScalar(OpBuilder &b, tp::AddScalarInPlaceOp op) {
  return tp::AddScalarOp::create(b, op.getLoc(), op.getSelf(), op.getOther(),
                                 op.getAlphaAttr());
}
Value subScalar(OpBuilder &b, tp::SubScalarInPlaceOp op) {
  return tp::SubScalarOp::create(b, op.getLoc(), op.getSelf(), op.getOther(),
                                 op.getAlphaAttr());
}
Value mulScalar(OpBuilder &b, tp::MulScalarInPlaceOp op) {
  return tp::MulScalarOp::create(b, op.getLoc(), op.getSelf(), op.getOther());
}
Value divScalar(OpBuilder &b, tp::DivScalarInPlaceOp op) {
  return tp::DivScalarOp::create(b, op.getLoc(), op.getSelf(), op.getOther(),
                                 op.getRoundingModeAttr());
}
Value neg(OpBuilder &b, tp::NegInPlaceOp op) {
  return tp::NegOp::create(b, op.getLoc(), op.getSelf());
}
Value relu(OpBuilder &b, tp::ReluInPlaceOp op) {
  return tp::ReluOp::create(b, op.getLoc(), op.getSelf());
}
Value sigmoid(OpBuilder &b, tp::SigmoidInPlaceOp op) {
  return tp::SigmoidOp::create(b, op.getLoc(), op.getSelf());
}
Value tanh(OpBuilder &b, tp::TanhInPlaceOp op) {
  return tp::TanhOp::create(b, op.getLoc(), op.getSelf());
}
Value clamp(OpBuilder &b, tp::ClampInPlaceOp op) {
  return tp::ClampOp::create(b, op.getLoc(), op.getSelf(), op.getMinAttr(),
                             op.getMaxAttr());
}
Value maskedFill(OpBuilder &b, tp::MaskedFillScalarInPlaceOp op) {
  return tp::MaskedFillScalarOp::create(b, op.getLoc(), op.getSelf(),
                                        op.getMask(), op.getValue());
}
Value indexPut(OpBuilder &b, tp::IndexPutInPlaceOp op) {
  return tp::IndexPutOp::create(b, op.getLoc(), op.getSelf(), op.getIndices(),
                                op.getValues(), op.getDimsAttr(),
                                op.getAccumulateAttr());
}
Value fill(OpBuilder &b, tp::FillScalarInPlaceOp op) {
  return tp::FullOp::create(b, op.getLoc(), op.getSelf().getType(),
                            op.getValue());
}
Value zero(OpBuilder &b, tp::ZeroInPlaceOp op) {
  Type elt = op.getSelf().getType().getElementType();
  TypedAttr value = isa<FloatType>(elt) ? TypedAttr(b.getF64FloatAttr(0.0))
                    : elt.isInteger(1)  ? TypedAttr(b.getBoolAttr(false))
                                        : TypedAttr(b.getI64IntegerAttr(0));
  return tp::FullOp::create(b, op.getLoc(), op.getSelf().getType(), value);
}
/// src cast to self's dtype and broadcast to its shape; always a new value
/// (a clone when src already has self's type), so that src and self stay
/// distinct tensors.
Value copy(OpBuilder &b, tp::CopyInPlaceOp op) {
  auto self = op.getSelf().getType();
  Value v = op.getSrc();
  auto src = cast<RankedTensorType>(v.getType());
  if (src.getElementType() != self.getElementType())
    v = tp::ToCopyOp::create(b, op.getLoc(), v,
                             TypeAttr::get(self.getElementType()));
  if (src.getShape() != self.getShape())
    v = tp::ExpandOp::create(b, op.getLoc(), v, self.getShape());
  if (v == op.getSrc())
    v = tp::CloneOp::create(b, op.getLoc(), v);
  return v;
}

const Twin kTwins[] = {
    twin<tp::AddInPlaceOp, add>(),
    twin<tp::SubInPlaceOp, sub>(),
    twin<tp::MulInPlaceOp, mul>(),
    twin<tp::DivInPlaceOp, div>(),
    twin<tp::AddScalarInPlaceOp, addScalar>(),
    twin<tp::SubScalarInPlaceOp, subScalar>(),
    twin<tp::MulScalarInPlaceOp, mulScalar>(),
    twin<tp::DivScalarInPlaceOp, divScalar>(),
    twin<tp::NegInPlaceOp, neg>(),
    twin<tp::ReluInPlaceOp, relu>(),
    twin<tp::SigmoidInPlaceOp, sigmoid>(),
    twin<tp::TanhInPlaceOp, tanh>(),
    twin<tp::ClampInPlaceOp, clamp>(),
    twin<tp::MaskedFillScalarInPlaceOp, maskedFill>(),
    twin<tp::IndexPutInPlaceOp, indexPut>(),
    twin<tp::FillScalarInPlaceOp, fill>(),
    twin<tp::ZeroInPlaceOp, zero>(),
    twin<tp::CopyInPlaceOp, copy>(),
};

const Twin *lookupTwin(Operation *op) {
  StringRef name = op->getName().getStringRef();
  for (const Twin &t : kTwins)
    if (t.name == name)
      return &t;
  return nullptr;
}

/// Ops whose results alias operand 0 in eager: the View category (view,
/// slice, select, t, transpose, permute, expand, (un)squeeze, as_strided,
/// split, unbind, alias, detach, ...) except the identities that copy.
bool isView(Operation *op) {
  return op->hasTrait<OpTrait::tp::View>() &&
         !isa<tp::CloneOp, tp::LiftFreshCopyOp>(op);
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

class Functionalizer {
public:
  Functionalizer(func::FuncOp fn) : fn(fn), body(fn.getBody().front()) {}

  LogicalResult run();
  /// Mutated arguments and their final values, in argument order.
  llvm::MapVector<unsigned, Value> copyBack;

private:
  Value rootOf(Value v) const {
    auto it = root.find(v);
    return it == root.end() ? v : it->second;
  }
  bool isAfter(Operation *m, OpOperand &use) {
    Operation *owner = body.findAncestorOpInBlock(*use.getOwner());
    return owner && owner != m && m->isBeforeInBlock(owner);
  }
  bool usedAfter(Value v, Operation *m) {
    return llvm::any_of(v.getUses(), [&](OpOperand &u) { return isAfter(m, u); });
  }
  void registerView(Operation *op);
  LogicalResult checkViews(Operation *m, Value self);
  LogicalResult rewrite(Operation *m, const Twin &twin);

  func::FuncOp fn;
  Block &body;
  /// Value -> root of its storage (absent: the value is its own root).
  llvm::DenseMap<Value, Value> root;
  /// View result -> the value it views.
  llvm::DenseMap<Value, Value> viewSource;
  /// Storage root -> the view results of its values.
  llvm::DenseMap<Value, SmallVector<Value>> views;
};

void Functionalizer::registerView(Operation *op) {
  Value src = op->getOperand(0);
  Value r = rootOf(src);
  for (Value v : op->getResults()) {
    viewSource[v] = src;
    root[v] = r;
    views[r].push_back(v);
  }
}

/// Rejects what value semantics cannot express: a mutation of a tensor with
/// a view read after `m`, and a mutation through a view (unless the viewed
/// value is a temporary that nothing reads after `m`, in which case the
/// view becomes a storage of its own).
LogicalResult Functionalizer::checkViews(Operation *m, Value self) {
  auto it = viewSource.find(self);
  if (it != viewSource.end()) {
    Value src = it->second;
    Operation *viewOp = self.getDefiningOp();
    Value r = rootOf(src);
    bool soleHandle =
        !isa<BlockArgument>(r) && !viewSource.count(src) &&
        llvm::all_of(src.getUses(),
                     [&](OpOperand &u) {
                       return u.getOwner() == viewOp || !isAfter(m, u);
                     }) &&
        llvm::all_of(views[r], [&](Value v) {
          return v == self || !usedAfter(v, m);
        });
    if (!soleHandle)
      return m->emitOpError()
             << "mutates the result of '" << viewOp->getName()
             << "': mutation through a view is not supported yet";
    // The view is now the only handle of its contents.
    viewSource.erase(self);
    llvm::erase(views[r], self);
    root.erase(self);
  }
  for (Value v : views[rootOf(self)]) {
    if (!usedAfter(v, m))
      continue;
    return m->emitOpError()
           << "mutates a tensor whose view (the result of '"
           << v.getDefiningOp()->getName()
           << "') is read afterwards: mutation of a viewed tensor is not "
              "supported yet";
  }
  return success();
}

LogicalResult Functionalizer::rewrite(Operation *m, const Twin &twin) {
  Value self = m->getOperand(0);
  if (failed(checkViews(m, self)))
    return failure();
  Value r = rootOf(self);
  OpBuilder b(m);
  Value next = twin.fn(b, m);
  Type selfType = self.getType();
  if (next.getType() != selfType)
    next = tp::ToCopyOp::create(
        b, m->getLoc(), next,
        TypeAttr::get(cast<RankedTensorType>(selfType).getElementType()));
  if (next.getType() != selfType)
    return m->emitOpError() << "internal error: the functional form has type "
                            << next.getType() << ", self " << selfType;
  self.replaceUsesWithIf(next, [&](OpOperand &u) { return isAfter(m, u); });
  m->getResult(0).replaceAllUsesWith(next);
  root[next] = r;
  if (auto arg = dyn_cast<BlockArgument>(r); arg && arg.getOwner() == &body)
    copyBack[arg.getArgNumber()] = next;
  m->erase();
  return success();
}

LogicalResult Functionalizer::run() {
  SmallVector<Operation *> ops;
  for (Operation &op : body)
    ops.push_back(&op);
  for (Operation *op : ops) {
    if (isView(op)) {
      registerView(op);
      continue;
    }
    if (const Twin *t = lookupTwin(op)) {
      if (failed(rewrite(op, *t)))
        return failure();
      continue;
    }
    // In-place ops below this level (in a region of an op) are not walked.
    WalkResult nested = op->walk([&](Operation *inner) {
      if (inner != op && lookupTwin(inner)) {
        inner->emitOpError() << "is nested in a region: functionalization of "
                                "nested regions is not supported yet";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (nested.wasInterrupted())
      return failure();
  }
  return success();
}

bool hasInPlaceOps(Operation *op) {
  return op->walk([](Operation *o) {
             return lookupTwin(o) ? WalkResult::interrupt()
                                  : WalkResult::advance();
           }).wasInterrupted();
}

struct FunctionalizePass
    : public tp::impl::StaxFunctionalizeBase<FunctionalizePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal() || !hasInPlaceOps(fn))
        continue;
      if (!fn.getBody().hasOneBlock()) {
        fn.emitError() << "has in-place ops and several blocks: "
                          "functionalization of control flow is not "
                          "supported yet";
        return signalPassFailure();
      }
      Functionalizer f(fn);
      if (failed(f.run()) || failed(addCopyBack(fn, f.copyBack)))
        return signalPassFailure();
    }
  }

  /// Returns each mutated argument's final value as an extra result.
  LogicalResult addCopyBack(func::FuncOp fn,
                            const llvm::MapVector<unsigned, Value> &copyBack) {
    if (copyBack.empty())
      return success();
    if (!SymbolTable::symbolKnownUseEmpty(fn, getOperation()))
      return fn.emitError()
             << "mutates its arguments and is called: copy-back through "
                "calls is not supported yet";
    auto ret = dyn_cast<func::ReturnOp>(fn.getBody().front().getTerminator());
    if (!ret)
      return fn.emitError() << "has no func.return";
    SmallVector<std::pair<unsigned, Value>> sorted(copyBack.begin(),
                                                   copyBack.end());
    llvm::sort(sorted, [](auto &a, auto &b) { return a.first < b.first; });
    MLIRContext *ctx = fn.getContext();
    for (auto [arg, value] : sorted) {
      unsigned index = fn.getNumResults();
      ret->insertOperands(ret->getNumOperands(), value);
      NamedAttribute attr = tp::getCopyBackResultAttr(ctx, arg);
      if (failed(fn.insertResult(index, value.getType(),
                                 DictionaryAttr::get(ctx, {attr}))))
        return fn.emitError() << "cannot add a copy-back result";
      tp::setMutated(fn, arg);
    }
    return success();
  }
};

} // namespace
