// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | FileCheck %s --check-prefix=CHECK-IR
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-REMARK
// RUN: stax-opt %s --stax-decompose --stax-lower | stax-run - --random-inputs --entry=transposed --print=hash > %t.lowered
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | stax-run - --random-inputs --entry=transposed --print=hash > %t.fused
// RUN: diff %t.lowered %t.fused
// RUN: stax-opt %s --stax-decompose --stax-lower | stax-run - --random-inputs --entry=through_mm --print=hash > %t.mm.lowered
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | stax-run - --random-inputs --entry=through_mm --print=hash > %t.mm.fused
// RUN: diff %t.mm.lowered %t.mm.fused

// Dependences that need a global barrier are never fused.

// The division reads the row sums transposed: element (i, j) needs the sum
// of row j, computed at another outer index.
// CHECK-IR-LABEL: func.func @transposed
// CHECK-IR-NOT: stax.kernel
// CHECK-IR: return
// CHECK-REMARK: remark: not fused with 'stax.reduction': 'stax.pointwise' reads 'stax.reduction' at another outer index
func.func @transposed(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = tp.sum %x {dims = array<i64: 1>, keepdim = true} : tensor<4x4xf32> -> tensor<4x1xf32>
  %t = tp.t %s : tensor<4x1xf32> -> tensor<1x4xf32>
  %y = tp.div %x, %t : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// Softmax over columns: the column max and sum are read at i1, which is not
// an outer (leading) loop of the readers.
// CHECK-IR-LABEL: func.func @columns
// CHECK-IR-NOT: stax.kernel
// CHECK-IR: return
// CHECK-REMARK: remark: not fused with 'stax.reduction': no shared outer loop
// CHECK-REMARK: remark: not fused with 'stax.pointwise': a dependence through 'stax.reduction' needs a global barrier
func.func @columns(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._softmax %x {dim = 0 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// The row max feeds the shifted input of a matmul (an external call) and the
// division of the matmul's result: max and shift fuse, the division cannot
// join them, since the matmul between needs all rows first.
// CHECK-IR-LABEL: func.func @through_mm
// CHECK-IR-NEXT: %[[K:.*]]:2 = stax.kernel [4] : tensor<4x1xf32>, tensor<4x8xf32> {
// CHECK-IR:      %[[MM:.*]] = tp.mm %[[K]]#1
// CHECK-IR-NEXT: stax.pointwise
// CHECK-IR-NOT: stax.kernel
// CHECK-IR: return
// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [4]): saves 144 bytes
// CHECK-REMARK: remark: not fused with 'stax.reduction': a dependence through 'tp.mm' needs a global barrier
func.func @through_mm(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = tp.amax %x {dims = array<i64: 1>, keepdim = true} : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = tp.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %p = tp.mm %d, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = tp.div %p, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
