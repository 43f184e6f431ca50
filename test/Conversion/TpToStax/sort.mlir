// RUN: stax-opt --stax-decompose --stax-lower %s -verify-diagnostics | FileCheck %s
// Lowered for either target (and scheduled), every function interprets bit
// for bit like the tp function.
// RUN: stax-run %s --entry=floats --random-inputs --print=hash | sed 1d > %t.floats.tp
// RUN: stax-opt --stax-lowering-pipeline="target=cpu" %s 2>/dev/null | stax-run - --entry=floats --random-inputs --print=hash | sed 1d > %t.floats.cpu
// RUN: diff %t.floats.tp %t.floats.cpu
// RUN: stax-opt --stax-lowering-pipeline="target=cuda" %s 2>/dev/null | stax-run - --entry=floats --random-inputs --print=hash | sed 1d > %t.floats.cuda
// RUN: diff %t.floats.tp %t.floats.cuda
// RUN: stax-run %s --entry=ints --random-inputs --int-low=-3 --int-high=3 --print=hash | sed 1d > %t.ints.tp
// RUN: stax-opt --stax-lowering-pipeline="target=cpu" %s 2>/dev/null | stax-run - --entry=ints --random-inputs --int-low=-3 --int-high=3 --print=hash | sed 1d > %t.ints.cpu
// RUN: diff %t.ints.tp %t.ints.cpu
// RUN: stax-opt --stax-lowering-pipeline="target=cuda" %s 2>/dev/null | stax-run - --entry=ints --random-inputs --int-low=-3 --int-high=3 --print=hash | sed 1d > %t.ints.cuda
// RUN: diff %t.ints.tp %t.ints.cuda

// tp.sort is an external call, like tp.mm: it stays a tp op, its operand is
// materialized row-major (here 3x), and the readers of both results load
// them from memory (the indices through an indirect index).
// CHECK-LABEL: func.func @floats
// CHECK: %[[IN:.*]] = stax.pointwise layout <[6, 1]> : tensor<4x6xf32>
// CHECK: arith.mulf
// CHECK: %[[V:.*]], %[[I:.*]] = tp.sort %[[IN]] {descending = true, dim = 0 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>, tensor<4x6xi64>
// CHECK: stax.pointwise
// CHECK: stax.load %[[V]]
// CHECK: stax.pointwise
// CHECK: %[[J:.*]] = stax.load %[[I]]
// CHECK: stax.indirect_index %[[J]], 4
// CHECK: return %{{.*}}, %[[I]], %{{.*}} :
func.func @floats(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xi64>, tensor<4x6xf32>) {
  %e = tp.mul.Scalar %x {other = 3.0 : f64} : tensor<4x6xf32> -> tensor<4x6xf32>
  %s:2 = tp.sort %e {dim = 0 : i64, descending = true} : tensor<4x6xf32> -> tensor<4x6xf32>, tensor<4x6xi64>
  %m = tp.mul.Scalar %s#0 {other = 2.0 : f64} : tensor<4x6xf32> -> tensor<4x6xf32>
  %g = tp.gather %x, %s#1 {dim = 0 : i64} : (tensor<4x6xf32>, tensor<4x6xi64>) -> tensor<4x6xf32>
  return %m, %s#1, %g : tensor<4x6xf32>, tensor<4x6xi64>, tensor<4x6xf32>
}

// A function argument is already a row-major buffer; topk's decomposition
// (a sort, then a slice of both results) reads the sorted buffers through
// views.
// CHECK-LABEL: func.func @ints
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.sort %arg0 {dim = -1 : i64} : tensor<3x2x5xi64> -> tensor<3x2x5xi64>, tensor<3x2x5xi64>
// CHECK: stax.load %[[V]]
// CHECK: stax.load %[[I]]
func.func @ints(%x: tensor<3x2x5xi64>) -> (tensor<3x2x2xi64>, tensor<3x2x2xi64>) {
  %s:2 = tp.sort %x {dim = -1 : i64} : tensor<3x2x5xi64> -> tensor<3x2x5xi64>, tensor<3x2x5xi64>
  %v = tp.slice %s#0 {dim = 2 : i64, start = 0 : i64, end = 2 : i64} : tensor<3x2x5xi64> -> tensor<3x2x2xi64>
  %i = tp.slice %s#1 {dim = 2 : i64, start = 0 : i64, end = 2 : i64} : tensor<3x2x5xi64> -> tensor<3x2x2xi64>
  return %v, %i : tensor<3x2x2xi64>, tensor<3x2x2xi64>
}
