//===- Pipelines.cpp - C API: Stax's pipelines on an MLIR pass manager ----===//
//
// Options arrive as the text of `--stax-pipeline="..."` and are parsed into
// the same options structs that stax-opt uses (Stax/Pipelines/Pipelines.h).
//
//===----------------------------------------------------------------------===//

#include "Stax-c/Pipelines.h"
#include "Stax/Pipelines/Pipelines.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include <algorithm>

using namespace mlir;

namespace {
/// Parses `options` and appends pipeline `name` to `pm`; on failure writes
/// one line to `errs` and leaves `pm` unchanged.
template <typename OptionsT>
LogicalResult addPipeline(OpPassManager &pm, StringRef name, StringRef options,
                          void (*build)(OpPassManager &, const OptionsT &),
                          raw_ostream &errs) {
  // Op-agnostic managers (MLIR's default) are fine: the pipeline's passes
  // check their op when the manager runs.
  StringRef anchor = pm.getOpAnchorName();
  if (anchor != ModuleOp::getOperationName() &&
      anchor != OpPassManager::getAnyOpAnchorName()) {
    errs << "--" << name << " runs on 'builtin.module', not on '" << anchor
         << "'";
    return failure();
  }
  OptionsT parsed;
  std::string messages;
  llvm::raw_string_ostream os(messages);
  if (failed(parsed.parseFromString(options, os))) {
    // The option parser may print several lines; keep one diagnostic line.
    std::string line = StringRef(messages).trim().str();
    std::replace(line.begin(), line.end(), '\n', ' ');
    errs << "invalid --" << name << " options '" << options << "'"
         << (line.empty() ? "" : ": ") << line;
    return failure();
  }
  if (std::string problem = parsed.firstInvalidValue(); !problem.empty()) {
    errs << "invalid --" << name << " option " << problem;
    return failure();
  }
  build(pm, parsed);
  return success();
}

/// Runs addPipeline with errors sent to an optional C callback.
template <typename OptionsT>
MlirLogicalResult addPipelineC(MlirOpPassManager passManager, StringRef name,
                               MlirStringRef options,
                               void (*build)(OpPassManager &, const OptionsT &),
                               MlirStringCallback callback, void *userData) {
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  LogicalResult result =
      addPipeline(*unwrap(passManager), name, unwrap(options), build, errs);
  if (failed(result) && callback) {
    detail::CallbackOstream stream(callback, userData);
    stream << errors;
  }
  return wrap(result);
}
} // namespace

MlirLogicalResult staxOpPassManagerAddPipeline(MlirOpPassManager passManager,
                                               MlirStringRef options,
                                               MlirStringCallback callback,
                                               void *userData) {
  return addPipelineC<stax::PipelineOptions>(passManager, "stax-pipeline",
                                             options, stax::buildPipeline,
                                             callback, userData);
}

MlirLogicalResult staxOpPassManagerAddLoweringPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback callback, void *userData) {
  return addPipelineC<stax::LoweringPipelineOptions>(
      passManager, "stax-lowering-pipeline", options,
      stax::buildLoweringPipeline, callback, userData);
}

MlirLogicalResult staxModuleRunPipeline(MlirModule module,
                                        MlirStringRef options) {
  ModuleOp op = unwrap(module);
  PassManager pm(op.getContext(), ModuleOp::getOperationName());
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  if (failed(addPipeline<stax::PipelineOptions>(pm, "stax-pipeline",
                                                unwrap(options),
                                                stax::buildPipeline, errs))) {
    emitError(op.getLoc()) << errors;
    return mlirLogicalResultFailure();
  }
  return wrap(pm.run(op));
}
