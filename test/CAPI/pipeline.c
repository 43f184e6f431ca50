/* The MLIR-style C API of Stax from plain C99: register the dialects, parse
 * a tp module, run the pipeline to the LLVM dialect, and the failures (bad
 * options, invalid IR, a pass that rejects its input) as diagnostics. */

// The MLIR-style C API is complete in clang builds only (STAX_MLIR_CAPI).
// REQUIRES: stax-mlir-capi
// RUN: %clang -std=c99 -pedantic-errors -Wall -Wextra -Werror %s -I%stax_src_root/include -I%stax_obj_root/include -I%mlir_include_dir -L%stax_lib_dir -lStaxCAPI -Wl,-rpath,%stax_lib_dir -o %t
// RUN: %t | FileCheck %s

#include "Stax-c/Dialects.h"
#include "Stax-c/Passes.h"
#include "Stax-c/Pipelines.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>

static const char *squareSum =
    "func.func @square_sum(%x: tensor<4x8xf32> {tp.requires_grad})"
    "    -> tensor<f32> {\n"
    "  %0 = tp.mul %x, %x : tensor<4x8xf32>, tensor<4x8xf32>"
    " -> tensor<4x8xf32>\n"
    "  %1 = tp.sum %0 {dims = array<i64: 0, 1>}"
    " : tensor<4x8xf32> -> tensor<f32>\n"
    "  return %1 : tensor<f32>\n"
    "}\n";

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

/* Every diagnostic of the context, one line each: location, message. */
static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), print, stdout);
  printf(": ");
  mlirDiagnosticPrint(diagnostic, print, stdout);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirContext createContext(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  staxRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  return ctx;
}

static MlirModule parse(MlirContext ctx, const char *text) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
}

static void printModule(MlirModule module) {
  mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
  printf("\n");
}

// main() first prints the tp dialect handle's namespace.
// CHECK-LABEL: dialects: tp and more

/* tp to the LLVM dialect in one call. */
static int testPipeline(MlirContext ctx) {
  MlirModule module = parse(ctx, squareSum);
  if (mlirModuleIsNull(module))
    return 1;
  MlirLogicalResult result = staxModuleRunPipeline(
      module, mlirStringRefCreateFromCString("target=cpu vector-width=1"));
  printf("pipeline: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  printModule(module);
  mlirModuleDestroy(module);
  return mlirLogicalResultIsFailure(result);
}
// CHECK-LABEL: pipeline: success
// CHECK: llvm.func @square_sum(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {stax.output})
// CHECK-NOT: tp.
// CHECK: llvm.return

/* A pass manager of one's own: a pass created through the generated pass
 * API, then the lowering pipeline appended with options. */
static int testPassManager(MlirContext ctx) {
  MlirModule module = parse(ctx, squareSum);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  mlirPassManagerAddOwnedPass(pm, mlirCreateTpStaxJointGraph());
  if (mlirLogicalResultIsFailure(staxOpPassManagerAddLoweringPipeline(
          opm, mlirStringRefCreateFromCString("target=cpu fuse=false"), print,
          stdout)))
    return 1;
  printf("pass pipeline: ");
  mlirPrintPassPipeline(opm, print, stdout);
  printf("\n");
  MlirLogicalResult result =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printModule(module);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return mlirLogicalResultIsFailure(result);
}
// CHECK-LABEL: pass pipeline: {{any|builtin.module}}(stax-joint-graph{{.*}}stax-decompose{{.*}}func.func(cse,stax-lower{{.*}}target=cpu
// CHECK: func.func @square_sum(
// CHECK-SAME: -> (tensor<f32>, tensor<4x8xf32>)
// CHECK: stax.pointwise
// CHECK-NOT: tp.

/* Textual pipelines name the registered passes, as in stax-opt. */
static int testTextualPipeline(MlirContext ctx) {
  staxRegisterAllPasses();
  staxRegisterAllPasses(); /* idempotent */
  MlirModule module = parse(ctx, squareSum);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(stax-pipeline{target=cpu parallel=false})"),
      print, stdout);
  MlirLogicalResult result =
      mlirLogicalResultIsSuccess(parsed)
          ? mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))
          : parsed;
  printf("textual pipeline: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return mlirLogicalResultIsFailure(result);
}
// CHECK-LABEL: textual pipeline: success

/* Failures: each returns failure with one diagnostic, nothing crashes. */
static int testFailures(MlirContext ctx) {
  int unexpected = 0;

  printf("bad option value:\n");
  MlirModule module = parse(ctx, squareSum);
  unexpected += mlirLogicalResultIsSuccess(staxModuleRunPipeline(
      module, mlirStringRefCreateFromCString("target=tpu")));
  mlirModuleDestroy(module);
  // CHECK-LABEL: bad option value:
  // CHECK-NEXT: diagnostic: loc("-":0:0): invalid --stax-pipeline options 'target=tpu'

  printf("unknown option to a pass manager:\n");
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  unexpected += mlirLogicalResultIsSuccess(staxOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("vectorwidth=8"), print, stdout));
  printf("\n");
  mlirPassManagerDestroy(pm);
  // CHECK-LABEL: unknown option to a pass manager:
  // CHECK-NEXT: invalid --stax-pipeline options 'vectorwidth=8': {{.*}}no such option vectorwidth

  printf("wrong anchor:\n");
  pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("func.func"));
  unexpected += mlirLogicalResultIsSuccess(staxOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreateFromCString(""),
      print, stdout));
  printf("\n");
  mlirPassManagerDestroy(pm);
  // CHECK-LABEL: wrong anchor:
  // CHECK-NEXT: --stax-pipeline runs on 'builtin.module', not on 'func.func'

  printf("invalid IR:\n");
  module = parse(ctx, "func.func @f(%x: tensor<4xf32>) -> tensor<f32> {\n"
                      "  %0 = tp.sum %x : tensor<4xf32>\n"
                      "  return %0 : tensor<f32>\n"
                      "}\n");
  unexpected += !mlirModuleIsNull(module);
  // CHECK-LABEL: invalid IR:
  // CHECK-NEXT: diagnostic: loc("-":2:{{[0-9]+}}): expected '->'

  printf("a pass rejects its input:\n");
  module = parse(ctx, "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                      "  %0 = \"tp.mul_\"(%x, %x) : (tensor<4xf32>,"
                      " tensor<4xf32>) -> tensor<4xf32>\n"
                      "  return %0 : tensor<4xf32>\n"
                      "}\n");
  unexpected += mlirModuleIsNull(module) ||
                mlirLogicalResultIsSuccess(staxModuleRunPipeline(
                    module, mlirStringRefCreateFromCString("")));
  mlirModuleDestroy(module);
  // CHECK-LABEL: a pass rejects its input:
  // CHECK-NEXT: diagnostic: loc("-":2:8): in-place op 'tp.mul_': --stax-decompose needs functional tp
  return unexpected;
}

int main(void) {
  MlirContext ctx = createContext();
  MlirDialectHandle tp = mlirGetDialectHandle__tp__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(tp);
  printf("dialects: %.*s %s\n", (int)ns.length, ns.data,
         mlirContextGetNumRegisteredDialects(ctx) > 10 ? "and more" : "only");

  int failures = testPipeline(ctx);
  failures += testPassManager(ctx);
  failures += testTextualPipeline(ctx);
  failures += testFailures(ctx);
  mlirContextDestroy(ctx);
  printf("unexpected results: %d\n", failures);
  return failures != 0;
}
// CHECK: unexpected results: 0
