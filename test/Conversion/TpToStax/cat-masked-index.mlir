// RUN: stax-opt --stax-lowering-pipeline %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline %s | stax-run - --random-inputs --entry=forward --print=hash > %t.lowered
// RUN: stax-run %s --random-inputs --entry=forward --print=hash > %t.tp
// RUN: diff %t.tp %t.lowered
// RUN: stax-run %s --jit --random-inputs --entry=forward --print=hash | sed 1d > %t.jit
// RUN: sed 1d %t.tp | diff - %t.jit

// A concatenation evaluates each input's body at every position and selects
// one (the others are masked). Here the first input flips rows with a
// constant-index gather whose index is 1 - i: at the rows of the second
// input (i = 2, 3) it is -1 and -2. Found by the differential tester (seed
// 106044): the bounds check trapped on the unselected rows. Under the mask
// the index is replaced by 0, so the check only sees selected rows.

// CHECK-LABEL: func.func @forward
// CHECK: %[[LT:.*]] = arith.cmpi slt
// CHECK: %[[IDX:.*]] = arith.select %[[LT]], %{{.*}}, %{{.*}} : i64
// CHECK: stax.indirect_index %[[IDX]]
func.func @forward(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>, %z: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %i = tp.arange {end = -1 : i64, start = 1 : i64, step = -1 : i64} : tensor<2xi64>
  %f = tp.index_select %y, %i {dim = 0 : i64} : (tensor<2x1xf32>, tensor<2xi64>) -> tensor<2x1xf32>
  %m = tp.minimum %x, %f : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  %c = tp.cat %m, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}
