// A failing pipeline writes MLIR's reproducer to the temporary directory
// and says where. Diagnostics are one line each (no "see current
// operation" with the op printed after them).
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env TMPDIR=%t.dir not stax-opt %s --stax-lower 2>&1 | FileCheck %s
// RUN: ls %t.dir | count 1

// CHECK: error: in-place op 'tp.mul_': --stax-lower needs functional tp
// CHECK-NOT: see current operation
// CHECK: note: Pipeline failed while executing [`StaxLower` on 'func.func' operation: @f]: reproducer generated at `{{.*}}/stax-reproducer-{{.*}}.mlir`

// An explicit file wins; the reproducer runs with --run-reproducer and
// fails the same way.
// RUN: not stax-opt %s --stax-lower --mlir-pass-pipeline-crash-reproducer=%t.mine.mlir 2>&1 | FileCheck %s --check-prefix=CHECK-MINE
// RUN: env TMPDIR=%t.dir not stax-opt %t.mine.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=CHECK-AGAIN
// CHECK-MINE: reproducer generated at `{{.*}}mine.mlir`
// CHECK-AGAIN: error: in-place op 'tp.mul_': --stax-lower needs functional tp

// With -verify-diagnostics the failure is what the test expects: no file.
// RUN: rm -rf %t.quiet && mkdir %t.quiet
// RUN: env TMPDIR=%t.quiet stax-opt %s --stax-lower -verify-diagnostics
// RUN: ls %t.quiet | count 0

func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{in-place op 'tp.mul_': --stax-lower needs functional tp; run --stax-functionalize first}}
  %0 = tp.mul_ %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
