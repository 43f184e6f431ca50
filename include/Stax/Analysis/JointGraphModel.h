//===- JointGraphModel.h - a joint function as a remat problem --*- C++ -*-===//
//
// Internal to the min-cut pass: reads the forward values of a joint function
// (ops marked tp.phase = "fw"), classifies them by the rules of Section 5.4
// and produces the RematProblem of Definition 5.2, plus what the split and
// the report need to know about each value.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_JOINTGRAPHMODEL_H
#define STAX_ANALYSIS_JOINTGRAPHMODEL_H

#include "Stax/Analysis/Rematerialization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace mlir::stax::mincut {

struct ModelOptions {
  bool forceSaveNearFar = false;
  unsigned nearFarDistance = 8;
  bool forceSaveChainEnd = true;
  unsigned chainLength = 4;
};

/// A forward value of the joint function.
struct ValueInfo {
  mlir::Value value;
  unsigned ordinal = 0;   ///< position among forward values, for valueName
  bool isView = false;    ///< free to recompute, never saved
  double recomputeFlops = 0; ///< cost of recomputing it from its operands
};

struct JointGraphModel {
  mlir::func::FuncOp fn;
  unsigned numOutputs = 0;            ///< leading results that are outputs
  llvm::SmallVector<ValueInfo> values;
  llvm::DenseMap<mlir::Value, unsigned> index;
  RematProblem problem;
};

/// Builds the model, or fails with a diagnostic when `fn` is not a joint
/// function.
mlir::FailureOr<JointGraphModel> buildModel(mlir::func::FuncOp fn,
                                            const ModelOptions &options);

/// Bytes of a tensor value (i1 counts one byte per element).
int64_t tensorBytes(mlir::Value v);

/// A stable, readable name for a value (its importer node name when the
/// location carries one, else `<op>_<k>`).
std::string valueName(mlir::Value v, unsigned k);

} // namespace mlir::stax::mincut

#endif // STAX_ANALYSIS_JOINTGRAPHMODEL_H
