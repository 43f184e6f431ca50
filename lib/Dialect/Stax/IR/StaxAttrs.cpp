//===- StaxAttrs.cpp - layouts and enums of the stax dialect --------------===//
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stax;

#include "Stax/Dialect/Stax/IR/StaxEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Stax/Dialect/Stax/IR/StaxAttrs.cpp.inc"

void StaxDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Stax/Dialect/Stax/IR/StaxAttrs.cpp.inc"
      >();
}

static SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * std::max<int64_t>(shape[i + 1], 1);
  return strides;
}

LayoutAttr LayoutAttr::getRowMajor(MLIRContext *ctx, ArrayRef<int64_t> shape) {
  return LayoutAttr::get(ctx, rowMajorStrides(shape), 0, false);
}

SmallVector<int64_t> LayoutAttr::getEffectiveStrides(ArrayRef<int64_t> shape) const {
  if (getFlexible())
    return rowMajorStrides(shape);
  return SmallVector<int64_t>(getStrides());
}

bool LayoutAttr::isRowMajor(ArrayRef<int64_t> shape) const {
  if (getOffset() != 0)
    return false;
  if (getFlexible())
    return true;
  // Strides of size-1 dims never matter.
  SmallVector<int64_t> rm = rowMajorStrides(shape);
  for (auto [i, s] : llvm::enumerate(getStrides()))
    if (shape[i] != 1 && s != rm[i])
      return false;
  return true;
}

// #stax.layout<flexible> | #stax.layout<[s0, s1, ...]> |
// #stax.layout<[s0, ...], offset = o>
Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalKeyword("flexible"))) {
    if (parser.parseGreater())
      return {};
    return LayoutAttr::get(parser.getContext(), {}, 0, true);
  }
  SmallVector<int64_t> strides;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(strides.emplace_back());
      }))
    return {};
  int64_t offset = 0;
  if (succeeded(parser.parseOptionalComma()))
    if (parser.parseKeyword("offset") || parser.parseEqual() ||
        parser.parseInteger(offset))
      return {};
  if (parser.parseGreater())
    return {};
  return LayoutAttr::get(parser.getContext(), strides, offset, false);
}

void LayoutAttr::print(AsmPrinter &printer) const {
  printer << "<";
  if (getFlexible()) {
    printer << "flexible>";
    return;
  }
  printer << "[";
  llvm::interleaveComma(getStrides(), printer);
  printer << "]";
  if (getOffset() != 0)
    printer << ", offset = " << getOffset();
  printer << ">";
}
