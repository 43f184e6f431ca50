// RUN: stax-opt --stax-decompose --stax-lower %s -verify-diagnostics | FileCheck %s
// Lowered for either target, every function interprets bit for bit like the
// tp function.
// RUN: stax-run %s --entry=mm --random-inputs --print=hash | sed 1d > %t.mm.tp
// RUN: stax-opt --stax-lowering-pipeline="target=cpu" %s 2>/dev/null | stax-run - --entry=mm --random-inputs --print=hash | sed 1d > %t.mm.cpu
// RUN: diff %t.mm.tp %t.mm.cpu
// RUN: stax-opt --stax-lowering-pipeline="target=cuda" %s 2>/dev/null | stax-run - --entry=mm --random-inputs --print=hash | sed 1d > %t.mm.cuda
// RUN: diff %t.mm.tp %t.mm.cuda
// RUN: stax-run %s --entry=sort --random-inputs --print=hash | sed 1d > %t.sort.tp
// RUN: stax-opt --stax-lowering-pipeline="target=cpu" %s 2>/dev/null | stax-run - --entry=sort --random-inputs --print=hash | sed 1d > %t.sort.cpu
// RUN: diff %t.sort.tp %t.sort.cpu
// RUN: stax-run %s --entry=scatter_add --random-inputs --int-high=5 --print=hash | sed 1d > %t.scatter.tp
// RUN: stax-opt --stax-lowering-pipeline="target=cpu" %s 2>/dev/null | stax-run - --entry=scatter_add --random-inputs --int-high=5 --print=hash | sed 1d > %t.scatter.cpu
// RUN: diff %t.scatter.tp %t.scatter.cpu

// Matrix products and sorts are external calls with f32, f64 and integer
// kernels: half precision runs on f32 copies of the operands, and the
// rounding back to bf16 fuses into the product's user, before its own
// rounding (the reference rounds the product once, then the multiply).
// CHECK-LABEL: func.func @mm
// CHECK: %[[A:.*]] = stax.pointwise layout <[8, 1]> : tensor<4x8xf32>
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[B:.*]] = stax.pointwise layout <[3, 1]> : tensor<8x3xf32>
// CHECK: %[[P:.*]] = tp.mm %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK: stax.pointwise layout <[3, 1]> : tensor<4x3xbf16>
// CHECK: stax.load %[[P]]
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT: arith.extf
// CHECK: arith.mulf
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
func.func @mm(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>) -> tensor<4x3xbf16> {
  %p = tp.mm %a, %b : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xbf16>
  %r = tp.mul.Scalar %p {other = 3.0 : f64} : tensor<4x3xbf16> -> tensor<4x3xbf16>
  return %r : tensor<4x3xbf16>
}

// Sorting an f32 copy is exact; only the values are narrowed back.
// CHECK-LABEL: func.func @sort
// CHECK: %[[X:.*]] = stax.pointwise layout <[6, 1]> : tensor<5x6xf32>
// CHECK: %[[V:.*]], %[[I:.*]] = tp.sort %[[X]] {dim = 1 : i64} : tensor<5x6xf32> -> tensor<5x6xf32>, tensor<5x6xi64>
// CHECK: stax.load %[[V]]
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// CHECK: return %{{.*}}, %[[I]] : tensor<5x6xf16>, tensor<5x6xi64>
func.func @sort(%x: tensor<5x6xf16>) -> (tensor<5x6xf16>, tensor<5x6xi64>) {
  %s:2 = tp.sort %x {dim = 1 : i64, descending = false} : tensor<5x6xf16> -> tensor<5x6xf16>, tensor<5x6xi64>
  return %s#0, %s#1 : tensor<5x6xf16>, tensor<5x6xi64>
}

// An accumulating half-precision scatter adds in an f32 copy of its base
// and rounds once at the end, as the reference does.
// CHECK-LABEL: func.func @scatter_add
// CHECK: %[[BASE:.*]] = stax.pointwise layout <[1]> : tensor<5xf32>
// CHECK: %[[S:.*]] = stax.scatter accumulate %[[BASE]] [7] layout <[1]> : tensor<5xf32>
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: stax.pointwise layout <[1]> : tensor<5xbf16>
// CHECK: stax.load %[[S]]
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
func.func @scatter_add(%x: tensor<5xbf16>, %i: tensor<7xi64>, %v: tensor<7xbf16>) -> tensor<5xbf16> {
  %r = tp.scatter_add %x, %i, %v {dim = 0 : i64} : (tensor<5xbf16>, tensor<7xi64>, tensor<7xbf16>) -> tensor<5xbf16>
  return %r : tensor<5xbf16>
}

// An overwriting scatter needs no wider copy.
// CHECK-LABEL: func.func @index_put
// CHECK: stax.scatter overwrite %{{.*}} [3] layout <[1]> : tensor<5xf16>
func.func @index_put(%x: tensor<5xf16>, %i: tensor<3xi64>, %v: tensor<3xf16>) -> tensor<5xf16> {
  %r = tp.index_put %x[%i], %v {dims = array<i64: 0>} : (tensor<5xf16>, tensor<3xi64>, tensor<3xf16>) -> tensor<5xf16>
  return %r : tensor<5xf16>
}
