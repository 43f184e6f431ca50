// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | FileCheck %s --check-prefix=CHECK-IR
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-REMARK
// RUN: stax-opt %s --stax-decompose --stax-lower | stax-run - --random-inputs --entry=softmax --print=hash > %t.lowered
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | stax-run - --random-inputs --entry=softmax --print=hash > %t.fused
// RUN: diff %t.lowered %t.fused

// Softmax over rows: the row max, the exp (materialized: two readers), the
// row sum and the division all read what they need at their own row i0, so
// they run as one kernel over the rows; only the division is written.

// CHECK-IR-LABEL: func.func @softmax
// CHECK-IR-SAME: (%[[X:.*]]: tensor<4x6xf32>)
// CHECK-IR-NEXT: %[[K:.*]] = stax.kernel [4] : tensor<4x6xf32> {
// CHECK-IR-NEXT:   %[[MAX:.*]] = stax.reduction max [6] layout <[1, 1]> : tensor<4x1xf32> {
// CHECK-IR:          stax.load %[[X]]
// CHECK-IR:        %[[EXP:.*]] = stax.pointwise layout <[6, 1]> : tensor<4x6xf32> {
// CHECK-IR:          stax.load %[[MAX]][%i0]
// CHECK-IR:          math.exp
// CHECK-IR:        %[[SUM:.*]] = stax.reduction sum [6] layout <[1, 1]> : tensor<4x1xf32> {
// CHECK-IR:          stax.load %[[EXP]]
// CHECK-IR:        %[[DIV:.*]] = stax.pointwise layout <[6, 1]> : tensor<4x6xf32> {
// CHECK-IR:          stax.load %[[EXP]]
// CHECK-IR:          stax.load %[[SUM]][%i0]
// CHECK-IR:          arith.divf
// CHECK-IR:        stax.yield %[[DIV]] : tensor<4x6xf32>
// CHECK-IR-NEXT: }
// CHECK-IR-NEXT: return %[[K]] : tensor<4x6xf32>

// Pairs merge best first by the bytes they save (Section 6.7 read/write
// sets): the max and the exp (the max's write and read, 2 x 16 bytes, and
// one of two reads of x, 96), then the division joins the sum (its write and
// read, 32, and one read of exp, 96), then the two kernels merge (the exp's
// write and its read by the sum, 2 x 96).
// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [4]): saves 128 bytes
// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [4]): saves 128 bytes
// CHECK-REMARK: remark: fused 'stax.reduction' and its kernel into the kernel of 'stax.reduction' (outer ranges [4]): saves 192 bytes
// CHECK-REMARK-NOT: remark
func.func @softmax(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
