//===- Interpreter.cpp - the reference interpreter driver -----------------===//
//
// Walks a function's body in order, looking each op's kernel up by name. The
// only ops handled here are the function structure (func.return, func.call).
//
//===----------------------------------------------------------------------===//

#include "Stax/Interpreter/Interpreter.h"
#include "Kernels.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include <deque>
#include <optional>

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

//===----------------------------------------------------------------------===//
// Helpers shared by the kernel files
//===----------------------------------------------------------------------===//

Type KernelContext::mapType(Type t) const {
  if (options.promoteToF64 && isa<FloatType>(t))
    return Float64Type::get(t.getContext());
  return t;
}

Tensor KernelContext::result(Operation *op, unsigned i) const {
  auto t = cast<RankedTensorType>(op->getResult(i).getType());
  return Tensor(t.getShape(), mapType(t.getElementType()));
}

LogicalResult stax::detail::runtimeError(Operation *op, const Twine &message) {
  return op->emitOpError() << message;
}

Type stax::detail::accumulationType(Type t) {
  if (t.isF16() || t.isBF16())
    return Float32Type::get(t.getContext());
  return t;
}

SmallVector<int64_t> stax::detail::broadcastStrides(ArrayRef<int64_t> inShape,
                                              ArrayRef<int64_t> outShape) {
  SmallVector<int64_t> strides(outShape.size(), 0);
  int64_t lead = outShape.size() - inShape.size();
  int64_t stride = 1;
  for (int64_t i = static_cast<int64_t>(inShape.size()) - 1; i >= 0; --i) {
    strides[lead + i] = inShape[i] == 1 ? 0 : stride;
    stride *= inShape[i];
  }
  return strides;
}

int64_t stax::detail::dot(ArrayRef<int64_t> index, ArrayRef<int64_t> strides) {
  int64_t s = 0;
  for (auto [i, st] : llvm::zip(index, strides))
    s += i * st;
  return s;
}

SmallVector<bool> stax::detail::reducedMask(ArrayRef<int64_t> dims, int64_t rank) {
  SmallVector<bool> mask(rank, dims.empty());
  // A 0-d tensor accepts dims 0 and -1, which name no actual dimension.
  for (int64_t d : dims)
    if (rank > 0)
      mask[*tp::normalizeDim(d, rank)] = true;
  return mask;
}

std::vector<std::vector<int64_t>>
stax::detail::reductionGroups(ArrayRef<int64_t> shape, ArrayRef<bool> mask) {
  SmallVector<int64_t> keptStrides(shape.size(), 0);
  int64_t groups = 1;
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    if (mask[i])
      continue;
    keptStrides[i] = groups;
    groups *= shape[i];
  }
  std::vector<std::vector<int64_t>> out(groups);
  forEachIndex(shape, [&](int64_t linear, ArrayRef<int64_t> index) {
    out[dot(index, keptStrides)].push_back(linear);
  });
  return out;
}

FailureOr<int64_t> stax::detail::wrapIndex(Operation *op, int64_t index, int64_t size,
                                     StringRef what) {
  int64_t wrapped = index < 0 ? index + size : index;
  if (wrapped < 0 || wrapped >= size)
    return runtimeError(op, Twine(what) + " " + Twine(index) +
                                " is out of bounds for a dimension of size " +
                                Twine(size));
  return wrapped;
}

Tensor stax::detail::convertTo(const Tensor &t, Type elt) {
  if (t.elementType() == elt)
    return t;
  return t.castTo(elt);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

static const KernelRegistry &getRegistry() {
  static const KernelRegistry registry = [] {
    KernelRegistry r;
    registerElementwiseKernels(r);
    registerSpecialKernels(r);
    registerShapeKernels(r);
    registerReductionKernels(r);
    registerScanKernels(r);
    registerNNKernels(r);
    registerIndexingKernels(r);
    registerLinalgKernels(r);
    registerRandomKernels(r);
    return r;
  }();
  return registry;
}

bool stax::hasKernel(StringRef opName) {
  return getRegistry().lookup(opName) != nullptr;
}

namespace {
class FunctionRunner {
public:
  FunctionRunner(ModuleOp module, const InterpreterOptions &options)
      : module(module), ctx(options) {}

  FailureOr<SmallVector<Tensor>> run(func::FuncOp fn, ArrayRef<Tensor> args,
                                     int depth = 0);

private:
  LogicalResult checkArgs(func::FuncOp fn, ArrayRef<Tensor> args);

  ModuleOp module;
  KernelContext ctx;
};
} // namespace

LogicalResult FunctionRunner::checkArgs(func::FuncOp fn,
                                        ArrayRef<Tensor> args) {
  auto inputs = fn.getFunctionType().getInputs();
  if (inputs.size() != args.size())
    return fn.emitError() << "expects " << inputs.size()
                          << " arguments, got " << args.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, args))) {
    auto [type, arg] = pair;
    auto t = dyn_cast<RankedTensorType>(type);
    if (!t)
      return fn.emitError() << "argument #" << i
                            << " is not a ranked tensor, which the "
                               "interpreter cannot feed";
    if (hasDynamicDim(t.getShape()))
      return fn.emitError() << "argument #" << i << " of type " << t << " "
                            << allocationError(t.getShape());
    if (t.getShape() != arg.shape() ||
        ctx.mapType(t.getElementType()) != arg.elementType())
      return fn.emitError() << "argument #" << i << " has type "
                            << arg.type() << " but the function expects "
                            << t;
  }
  return success();
}

/// Refuses, before anything runs, an op whose results the interpreter could
/// not allocate (see allocationError): a dynamic dimension, a size that
/// overflows int64, more bytes than maxTensorBytes(). Every op result is
/// allocated by the kernel or node that `run` dispatches it to, so checking
/// here covers them all, and the nodes of a `stax.kernel` too (walked).
/// A call's results are checked in the callee, where they are produced.
static LogicalResult checkResultSizes(Operation *root) {
  WalkResult walk = root->walk([](Operation *op) {
    if (isa<func::CallOp>(op))
      return WalkResult::advance();
    for (auto [i, v] : llvm::enumerate(op->getResults())) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      if (!t)
        continue;
      std::string why = allocationError(t.getShape());
      if (!why.empty()) {
        op->emitOpError() << "result #" << i << " of type " << t << " " << why;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

FailureOr<SmallVector<Tensor>>
FunctionRunner::run(func::FuncOp fn, ArrayRef<Tensor> args, int depth) {
  if (depth > 64)
    return fn.emitError() << "call depth exceeds 64 (recursion?)";
  if (fn.isExternal())
    return fn.emitError() << "cannot interpret a function without a body";
  if (failed(checkArgs(fn, args)))
    return failure();
  if (!fn.getBody().hasOneBlock())
    return fn.emitError() << "the interpreter supports single-block bodies";

  llvm::DenseMap<Value, Tensor> env;
  for (auto [arg, t] : llvm::zip(fn.getArguments(), args))
    env[arg] = t;

  const KernelRegistry &registry = getRegistry();
  for (Operation &op : fn.getBody().front()) {
    SmallVector<const Tensor *> in;
    // Nodes read other nodes' storage; everything else reads elements.
    std::deque<Tensor> reordered;
    for (Value v : op.getOperands()) {
      auto it = env.find(v);
      if (it == env.end())
        return op.emitError() << "operand has no value (not a tensor?)";
      std::optional<Tensor> logical;
      if (!isNode(&op) && (logical = logicalOrder(v, it->second)))
        in.push_back(&reordered.emplace_back(std::move(*logical)));
      else
        in.push_back(&it->second);
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Tensor> results;
      for (const Tensor *t : in)
        results.push_back(*t);
      return results;
    }
    if (failed(checkResultSizes(&op)))
      return failure();
    SmallVector<Tensor> out;
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee)
        return call.emitError() << "unknown callee @" << call.getCallee();
      SmallVector<Tensor> callArgs;
      for (const Tensor *t : in)
        callArgs.push_back(*t);
      auto r = run(callee, callArgs, depth + 1);
      if (failed(r))
        return failure();
      out = std::move(*r);
    } else if (isNode(&op)) {
      auto lookup = [&](Value v) -> const Tensor * {
        auto it = env.find(v);
        return it == env.end() ? nullptr : &it->second;
      };
      if (failed(evaluateNode(&op, lookup, out, ctx)))
        return failure();
    } else {
      const KernelFn *kernel = registry.lookup(op.getName().getStringRef());
      if (!kernel) {
        // In-place overloads (`add_`, `add_.Scalar`, ...) are never run.
        StringRef base = op.getName().stripDialect().split('.').first;
        if (base.ends_with("_") && !base.ends_with("__"))
          return op.emitError()
                 << "'" << op.getName()
                 << "' mutates its operand in place, which the reference "
                    "interpreter does not run: run --stax-functionalize first";
        return op.emitError() << "the reference interpreter has no kernel for '"
                              << op.getName() << "'";
      }
      if (failed((*kernel)(&op, in, out, ctx)))
        return failure();
    }
    if (out.size() != op.getNumResults())
      return op.emitError() << "internal error: kernel produced " << out.size()
                            << " results for " << op.getNumResults();
    for (auto [v, t] : llvm::zip(op.getResults(), out))
      env[v] = std::move(t);
  }
  return fn.emitError() << "body has no func.return";
}

FailureOr<SmallVector<Tensor>>
stax::interpret(ModuleOp module, StringRef entry, ArrayRef<Tensor> args,
                const InterpreterOptions &options) {
  auto fn = module.lookupSymbol<func::FuncOp>(entry);
  if (!fn)
    return mlir::emitError(module.getLoc()) << "no function named @" << entry;
  SmallVector<Tensor> converted;
  for (const Tensor &t : args)
    converted.push_back(options.promoteToF64 && t.isFloat()
                            ? t.castTo(Float64Type::get(module.getContext()))
                            : t);
  FunctionRunner runner(module, options);
  return runner.run(fn, converted);
}
