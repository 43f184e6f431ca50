//===- TpAttrs.cpp - tp attributes and their verification ----------------===//
//
// The enumerated attributes of tp, the accessors of the discardable attributes
// (DiscardableAttrs.h) and the dialect hooks that verify them.
//
//===----------------------------------------------------------------------===//
#include "Stax/Dialect/Tp/IR/DiscardableAttrs.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tp;

#include "Stax/Dialect/Tp/IR/TpEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Stax/Dialect/Tp/IR/TpAttrs.cpp.inc"

void TpDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Stax/Dialect/Tp/IR/TpAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Accessors
//===----------------------------------------------------------------------===//

bool tp::requiresGrad(FunctionOpInterface fn, unsigned arg) {
  return static_cast<bool>(fn.getArgAttr(arg, kRequiresGradAttr));
}

bool tp::isTangent(FunctionOpInterface fn, unsigned arg) {
  return static_cast<bool>(fn.getArgAttr(arg, kTangentAttr));
}

NamedAttribute tp::getTangentArgAttr(MLIRContext *ctx) {
  return NamedAttribute(StringAttr::get(ctx, kTangentAttr), UnitAttr::get(ctx));
}

void tp::setMutated(FunctionOpInterface fn, unsigned arg) {
  fn.setArgAttr(arg, kMutatedAttr, UnitAttr::get(fn.getContext()));
}

NamedAttribute tp::getCopyBackResultAttr(MLIRContext *ctx, unsigned arg) {
  return NamedAttribute(StringAttr::get(ctx, kCopyBackAttr),
                        IntegerAttr::get(IntegerType::get(ctx, 64), arg));
}

std::optional<Phase> tp::getPhase(Operation *op) {
  if (auto phase = op->getAttrOfType<PhaseAttr>(kPhaseAttr))
    return phase.getValue();
  return std::nullopt;
}

void tp::setPhase(Operation *op, Phase phase) {
  op->setAttr(kPhaseAttr, PhaseAttr::get(op->getContext(), phase));
}

std::optional<unsigned> tp::getJointOutputs(Operation *fn) {
  if (auto n = fn->getAttrOfType<IntegerAttr>(kJointOutputsAttr))
    return static_cast<unsigned>(n.getInt());
  return std::nullopt;
}

void tp::setJointOutputs(Operation *fn, unsigned numOutputs) {
  fn->setAttr(kJointOutputsAttr,
              IntegerAttr::get(IntegerType::get(fn->getContext(), 64),
                               numOutputs));
}

void tp::removeJointOutputs(Operation *fn) { fn->removeAttr(kJointOutputsAttr); }

/// The phase of the op that computes `v`; Forward for arguments other than
/// tangents.
static std::optional<Phase> phaseOf(FunctionOpInterface fn, Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return isTangent(fn, arg.getArgNumber()) ? Phase::Backward : Phase::Forward;
  return getPhase(v.getDefiningOp());
}

LogicalResult tp::verifyJointFunction(FunctionOpInterface fn) {
  std::optional<unsigned> outputs = getJointOutputs(fn);
  if (!outputs || fn.isExternal() || !fn.getFunctionBody().hasOneBlock())
    return fn.emitError() << "is not a joint function (run --stax-joint-graph "
                             "first)";
  Block &body = fn.getFunctionBody().front();
  for (Operation &op : body.without_terminator()) {
    std::optional<Phase> phase = getPhase(&op);
    if (!phase)
      return op.emitError() << "has no " << kPhaseAttr
                            << " in a joint function (run --stax-joint-graph "
                               "first)";
    if (*phase == Phase::Backward)
      continue;
    for (OpOperand &operand : op.getOpOperands())
      if (phaseOf(fn, operand.get()) != Phase::Forward)
        return op.emitError() << "is a forward op but its operand #"
                              << operand.getOperandNumber()
                              << " is a backward value or a tangent";
  }
  Operation *ret = body.getTerminator();
  for (unsigned i = 0; i < *outputs; ++i)
    if (phaseOf(fn, ret->getOperand(i)) != Phase::Forward)
      return ret->emitError() << "returns forward output #" << i
                              << ", but the backward computes it";
  return success();
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// An i64 attribute in [0, bound), or an error naming `what`.
static LogicalResult verifyIndexAttr(Operation *op, NamedAttribute attr,
                                     int64_t bound, StringRef what) {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || !value.getType().isSignlessInteger(64))
    return op->emitOpError() << "attribute '" << attr.getName().getValue()
                             << "' must be an i64 integer";
  int64_t v = value.getInt();
  if (v < 0 || v >= bound)
    return op->emitOpError()
           << "attribute '" << attr.getName().getValue() << "' is " << v << ", but "
           << what << " (" << bound << ")";
  return success();
}

LogicalResult TpDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kPhaseAttr) {
    if (!isa<PhaseAttr>(attr.getValue()))
      return op->emitOpError() << "attribute '" << name
                               << "' must be #tp.phase<fw> or #tp.phase<bw>";
    return success();
  }
  if (name == kJointOutputsAttr || name == kRngBlocksAttr) {
    auto fn = dyn_cast<FunctionOpInterface>(op);
    if (!fn)
      return op->emitOpError() << "attribute '" << name
                               << "' is only valid on a function";
    if (name == kRngBlocksAttr)
      return verifyIndexAttr(op, attr, std::numeric_limits<int64_t>::max(),
                             "it must be non-negative");
    return verifyIndexAttr(op, attr, fn.getNumResults(),
                           "it must be less than the number of results");
  }
  if (name == kRequiresGradAttr || name == kTangentAttr ||
      name == kRngStateAttr || name == kMutatedAttr)
    return op->emitOpError() << "attribute '" << name
                             << "' is only valid on a function argument";
  if (name == kCopyBackAttr)
    return op->emitOpError() << "attribute '" << name
                             << "' is only valid on a function result";
  return op->emitOpError() << "unknown tp attribute '" << name << "'";
}

LogicalResult TpDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                  unsigned, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kRequiresGradAttr || name == kTangentAttr ||
      name == kRngStateAttr || name == kMutatedAttr) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "argument attribute '" << name
                               << "' must be a unit attribute";
    return success();
  }
  return op->emitOpError() << "'" << name
                           << "' is not a tp argument attribute";
}

LogicalResult TpDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                     unsigned,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kCopyBackAttr)
    return op->emitOpError() << "'" << name << "' is not a tp result attribute";
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn)
    return op->emitOpError() << "'" << name << "' is only valid on a function";
  return verifyIndexAttr(op, attr, fn.getNumArguments(),
                         "it must name an argument");
}
