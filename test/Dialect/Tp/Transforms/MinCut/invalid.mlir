// RUN: not stax-opt %s --stax-joint-graph --stax-mincut="algorithm=simplex" 2>&1 | FileCheck %s --check-prefix=CHECK-ALGO
// RUN: not stax-opt %s --stax-joint-graph --stax-mincut="memory-budget=lots" 2>&1 | FileCheck %s --check-prefix=CHECK-BUDGET
// RUN: not stax-opt %s --stax-joint-graph --stax-mincut="memory-budget=nan" 2>&1 | FileCheck %s --check-prefix=CHECK-NAN
// RUN: not stax-opt %s --stax-joint-graph --stax-mincut="memory-budget=inf" 2>&1 | FileCheck %s --check-prefix=CHECK-INF
// RUN: not stax-opt %s --stax-joint-graph --stax-mincut="memory-budget=1.5" 2>&1 | FileCheck %s --check-prefix=CHECK-FRACTION
// RUN: not stax-opt %s --stax-joint-graph --stax-mincut="report=/nonexistent/dir/r.json" 2>&1 | FileCheck %s --check-prefix=CHECK-REPORT
// RUN: stax-opt %s --stax-mincut | FileCheck %s --check-prefix=CHECK-NOJOINT

// CHECK-ALGO: for the --algorithm option: Cannot find option named 'simplex'!
// CHECK-BUDGET: invalid.mlir:[[@LINE+7]]:1: error: memory-budget must be a byte count or a fraction in [0, 1], got 'lots'
// CHECK-NAN: error: memory-budget must be a byte count or a fraction in [0, 1], got 'nan'
// CHECK-INF: error: memory-budget must be a byte count or a fraction in [0, 1], got 'inf'
// CHECK-FRACTION: error: memory-budget must be a byte count or a fraction in [0, 1], got '1.5'
// CHECK-REPORT: error: cannot write /nonexistent/dir/r.json
// A function that is not a joint graph is left alone.
// CHECK-NOJOINT: func.func @f(%{{.*}}: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32>
func.func @f(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
