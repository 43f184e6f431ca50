//===- StaxDialect.cpp - stax dialect registration ------------------------===//
#include "Stax/Dialect/Stax/IR/StaxDialect.h"
#include "Stax/Dialect/Stax/IR/DiscardableAttrs.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stax;

#include "Stax/Dialect/Stax/IR/StaxOpsDialect.cpp.inc"

void StaxDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "Stax/Dialect/Stax/IR/StaxOps.cpp.inc"
      >();
}

std::optional<unsigned> stax::getIndexBitwidth(Operation *op) {
  if (auto w = op->getAttrOfType<IntegerAttr>(kIndexBitwidthAttr))
    return static_cast<unsigned>(w.getInt());
  return std::nullopt;
}

void stax::setIndexBitwidth(Operation *op, unsigned bitwidth) {
  op->setAttr(kIndexBitwidthAttr,
              IntegerAttr::get(IntegerType::get(op->getContext(), 64), bitwidth));
}

LogicalResult StaxDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kOutputAttr)
    return op->emitOpError() << "unknown stax argument attribute '" << name
                             << "'";
  // Kept through the conversion to LLVM, where the memref is a pointer.
  if (!isa<UnitAttr>(attr.getValue()) || !isa<FunctionOpInterface>(op))
    return op->emitOpError() << "argument attribute '" << name
                             << "' must be a unit attribute on a function "
                                "argument";
  return success();
}

LogicalResult StaxDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kErrorSitesAttr) {
    auto sites = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !sites ||
        !llvm::all_of(sites, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitOpError() << "attribute '" << name
                               << "' must be an array of strings on a module";
    return success();
  }
  if (name != kIndexBitwidthAttr)
    return op->emitOpError() << "unknown stax attribute '" << name << "'";
  if (!isa<PointwiseOp, ReductionOp, ScatterOp, KernelOp>(op))
    return op->emitOpError() << "attribute '" << name
                             << "' is only valid on a stax node or kernel";
  auto w = dyn_cast<IntegerAttr>(attr.getValue());
  if (!w || !w.getType().isSignlessInteger(64) ||
      (w.getInt() != 32 && w.getInt() != 64))
    return op->emitOpError() << "attribute '" << name
                             << "' must be 32 or 64 (i64)";
  return success();
}
