// With check-nan, compiled code tests every floating-point value a node
// stores: the first NaN of a call fails it with the node's op and location
// (the module's stax.error_sites), the element's index in the result and
// the function. Scalar loops, vector loops (the first NaN lane), both
// vectorized reductions, nodes in a kernel and BLAS outputs all report the
// same element.
// RUN: not stax-run %s --entry=pointwise --jit --pipeline-options="check-nan=true" 2>&1 | FileCheck %s --check-prefix=CHECK-POINTWISE
// RUN: not stax-run %s --entry=pointwise --jit --pipeline-options="check-nan=true vector-width=1 parallel=false" 2>&1 | FileCheck %s --check-prefix=CHECK-POINTWISE
// RUN: not stax-run %s --entry=pointwise --jit --pipeline-options="check-nan=true vector-width=8" 2>&1 | FileCheck %s --check-prefix=CHECK-POINTWISE
// RUN: not stax-run %s --entry=pointwise --jit --pipeline-options="check-nan=true vector-width=4" 2>&1 | FileCheck %s --check-prefix=CHECK-POINTWISE
// RUN: not stax-run %s --entry=rows --jit --pipeline-options="check-nan=true" 2>&1 | FileCheck %s --check-prefix=CHECK-ROWS
// RUN: not stax-run %s --entry=rows --jit --pipeline-options="check-nan=true vector-width=1" 2>&1 | FileCheck %s --check-prefix=CHECK-ROWS
// RUN: not stax-run %s --entry=columns --jit --pipeline-options="check-nan=true vector-width=8" 2>&1 | FileCheck %s --check-prefix=CHECK-COLUMNS
// RUN: not stax-run %s --entry=columns --jit --pipeline-options="check-nan=true vector-width=1" 2>&1 | FileCheck %s --check-prefix=CHECK-COLUMNS
// RUN: not stax-run %s --entry=kernel --jit --pipeline-options="check-nan=true" 2>&1 | FileCheck %s --check-prefix=CHECK-KERNEL
// RUN: not stax-run %s --entry=matmul --random-inputs --jit --pipeline-options="check-nan=true" 2>&1 | FileCheck %s --check-prefix=CHECK-MATMUL
// RUN: not stax-run %s --entry=input --random-inputs --jit --pipeline-options="check-nan=true" 2>&1 | FileCheck %s --check-prefix=CHECK-INPUT
// Many NaNs on 4 threads: one error, whichever comes first.
// RUN: not stax-run %s --entry=many --random-inputs --jit --num-threads=4 --pipeline-options="check-nan=true" 2>&1 | FileCheck %s --check-prefix=CHECK-MANY
// Without the option (the default): no check, and the NaN in the result.
// RUN: stax-run %s --entry=pointwise --jit --print-values 2>&1 | FileCheck %s --check-prefix=CHECK-OFF
// RUN: stax-run %s --entry=pointwise --jit --print-values --pipeline-options="check-nan=false" 2>&1 | FileCheck %s --check-prefix=CHECK-OFF
// CHECK-OFF-NOT: run-time error
// CHECK-OFF: result #0: tensor<37xf32>
// CHECK-OFF-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, {{-?}}nan, 1, 1,

// 0/0 at element 11 only: lane 3 of the second vector of 8 (or of the
// third of 4), the scalar loop's 12th iteration.
// CHECK-POINTWISE-NOT: result
// CHECK-POINTWISE: stax-run: run-time error: NaN at element 11 of the result of 'stax.pointwise' at loc("{{.*}}jit-nan-error.mlir":[[@LINE+4]]:8) in @pointwise
// CHECK-POINTWISE-NOT: result
func.func @pointwise() -> tensor<37xf32> {
  %x = tp.arange {start = -11 : i64, end = 26 : i64} : tensor<37xf32>
  %0 = tp.div %x, %x : tensor<37xf32>, tensor<37xf32> -> tensor<37xf32>
  return %0 : tensor<37xf32>
}

// The 0/0 fuses into the sum, whose final store of row 1 is the first NaN
// (a vector accumulator along the row, or the scalar loop).
// CHECK-ROWS: stax-run: run-time error: NaN at element 1 of the result of 'stax.reduction' at loc("{{.*}}jit-nan-error.mlir":[[@LINE+5]]:8) in @rows
func.func @rows() -> tensor<4xf32> {
  %x = tp.arange {start = -40 : i64, end = 88 : i64} : tensor<128xf32>
  %q = tp.div %x, %x : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
  %r = tp.view %q {size = array<i64: 4, 32>} : tensor<128xf32> -> tensor<4x32xf32>
  %s = tp.sum %r {dims = array<i64: 1>} : tensor<4x32xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// A sum over columns runs 8 outputs per vector: column 5 is lane 5.
// CHECK-COLUMNS: stax-run: run-time error: NaN at element 5 of the result of 'stax.reduction' at loc("{{.*}}jit-nan-error.mlir":[[@LINE+5]]:8) in @columns
func.func @columns() -> tensor<16xf32> {
  %x = tp.arange {start = -21 : i64, end = 491 : i64} : tensor<512xf32>
  %q = tp.div %x, %x : tensor<512xf32>, tensor<512xf32> -> tensor<512xf32>
  %r = tp.view %q {size = array<i64: 32, 16>} : tensor<512xf32> -> tensor<32x16xf32>
  %s = tp.sum %r {dims = array<i64: 0>} : tensor<32x16xf32> -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// 1/0 is +inf at element 40 (no NaN yet); in softmax's kernel, row 1's max
// is inf and exp(inf - inf) the first NaN, at element 40 of the exp node
// (the whole row is NaN in the result).
// CHECK-KERNEL: stax-run: run-time error: NaN at element 40 of the result of 'stax.pointwise' at loc("{{.*}}jit-nan-error.mlir":[[@LINE+5]]:8) in @kernel
func.func @kernel() -> tensor<4x32xf32> {
  %x = tp.arange {start = -40 : i64, end = 88 : i64} : tensor<128xf32>
  %l = tp.reciprocal %x : tensor<128xf32> -> tensor<128xf32>
  %r = tp.view %l {size = array<i64: 4, 32>} : tensor<128xf32> -> tensor<4x32xf32>
  %s = tp._softmax %r {dim = 1 : i64} : tensor<4x32xf32> -> tensor<4x32xf32>
  return %s : tensor<4x32xf32>
}

// BLAS computes 0 * inf in column 0: the output is checked after the call.
// CHECK-MATMUL: stax-run: run-time error: NaN at element 0 of the result of 'tp.mm' at loc("{{.*}}jit-nan-error.mlir":[[@LINE+6]]:8) in @matmul
func.func @matmul(%a: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %x = tp.arange {start = -2 : i64, end = 4 : i64} : tensor<6xf32>
  %inv = tp.reciprocal %x : tensor<6xf32> -> tensor<6xf32>
  %w = tp.view %inv {size = array<i64: 3, 2>} : tensor<6xf32> -> tensor<3x2xf32>
  %z = tp.mul.Scalar %a {other = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  %m = tp.mm %z, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// The log of a negative input: the NaN is reported at the first node that
// stores it (inputs themselves are not checked), here the node that the log
// fused into, which has the location of the op it materializes (tp.neg).
// CHECK-INPUT: stax-run: run-time error: NaN at element {{[0-9]+}} of the result of 'stax.pointwise' at loc("{{.*}}jit-nan-error.mlir":[[@LINE+3]]:8) in @input
func.func @input(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = tp.log %x : tensor<64xf32> -> tensor<64xf32>
  %1 = tp.neg %0 : tensor<64xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// CHECK-MANY: stax-run: run-time error: NaN at element {{[0-9]+}} of the result of 'stax.pointwise' at loc("{{.*}}jit-nan-error.mlir":[[@LINE+4]]:8) in @many
// CHECK-MANY-NOT: run-time error
// CHECK-MANY-NOT: result
func.func @many(%x: tensor<65536xf32>) -> tensor<65536xf32> {
  %0 = tp.log %x : tensor<65536xf32> -> tensor<65536xf32>
  return %0 : tensor<65536xf32>
}
