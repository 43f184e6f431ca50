// RUN: stax-opt %s --stax-range-analysis | FileCheck %s --check-prefix=CHECK-BW

// 32-bit address arithmetic is chosen when every index and address of a
// node (and of every node of a kernel) is below 2^31, and refused from
// 2^31 on. The shapes only appear in types: nothing here is interpreted.

// The largest loop index and address is 2^31 - 1.
// CHECK-BW-LABEL: func.func @loop_below
// CHECK-BW: stax.index_bitwidth = 32 : i64
func.func @loop_below(%x: tensor<2147483648xf32>) -> tensor<2147483648xf32> {
  %p = stax.pointwise layout <[1]> : tensor<2147483648xf32> {
  ^bb0(%i: index):
    %v = stax.load %x[%i] : tensor<2147483648xf32>
    stax.yield %v : f32
  }
  return %p : tensor<2147483648xf32>
}

// One more element: the loop index reaches 2^31.
// CHECK-BW-LABEL: func.func @loop_at
// CHECK-BW: stax.index_bitwidth = 64 : i64
func.func @loop_at(%x: tensor<2147483649xf32>) -> tensor<2147483649xf32> {
  %p = stax.pointwise layout <[1]> : tensor<2147483649xf32> {
  ^bb0(%i: index):
    %v = stax.load %x[%i] : tensor<2147483649xf32>
    stax.yield %v : f32
  }
  return %p : tensor<2147483649xf32>
}

// Small loops, but a read address i + 2 reaches 2^31 at i = 2^31 - 2 ...
// CHECK-BW-LABEL: func.func @address_at
// CHECK-BW: stax.index_bitwidth = 64 : i64
func.func @address_at(%x: tensor<2147483649xf32>) -> tensor<2147483647xf32> {
  %p = stax.pointwise layout <[1]> : tensor<2147483647xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> (d0 + 2)>(%i)
    %v = stax.load %x[%a] : tensor<2147483649xf32>
    stax.yield %v : f32
  }
  return %p : tensor<2147483647xf32>
}

// ... while i + 1 stays at 2^31 - 1.
// CHECK-BW-LABEL: func.func @address_below
// CHECK-BW: stax.index_bitwidth = 32 : i64
func.func @address_below(%x: tensor<2147483649xf32>) -> tensor<2147483647xf32> {
  %p = stax.pointwise layout <[1]> : tensor<2147483647xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %v = stax.load %x[%a] : tensor<2147483649xf32>
    stax.yield %v : f32
  }
  return %p : tensor<2147483647xf32>
}

// A store address counts too: with a padded row stride of 2^31, element
// (1, 2^30 - 1) is stored at 2^31 + 2^30 - 1, so the node is 64-bit
// although every index it reads with is below 2^31.
// CHECK-BW-LABEL: func.func @store_at
// CHECK-BW: stax.index_bitwidth = 64 : i64
func.func @store_at(%x: tensor<2x1073741824xf32>) -> tensor<2x1073741824xf32> {
  %p = stax.pointwise layout <[2147483648, 1]> : tensor<2x1073741824xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 1073741824 + d1)>(%i, %j)
    %v = stax.load %x[%a] : tensor<2x1073741824xf32>
    stax.yield %v : f32
  }
  return %p : tensor<2x1073741824xf32>
}

// A row-major reduction over 2^31 elements: the address 2^31 * 0 + r is
// below 2^31, and a kernel whose nodes are all narrow is narrow.
// CHECK-BW-LABEL: func.func @kernel_below
// CHECK-BW: stax.kernel [1] attributes {stax.index_bitwidth = 32 : i64}
// CHECK-BW: stax.reduction {{.*}} attributes {stax.index_bitwidth = 32 : i64}
// CHECK-BW: stax.pointwise {{.*}} attributes {stax.index_bitwidth = 32 : i64}
func.func @kernel_below(%x: tensor<1x2147483648xf32>) -> tensor<1x2147483648xf32> {
  %k = stax.kernel [1] : tensor<1x2147483648xf32> {
    %s = stax.reduction sum [2147483648] layout <[1]> : tensor<1xf32> {
    ^bb0(%i: index, %r: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 2147483648 + d1)>(%i, %r)
      %v = stax.load %x[%a] : tensor<1x2147483648xf32>
      stax.yield %v : f32
    }
    %d = stax.pointwise layout <[2147483648, 1]> : tensor<1x2147483648xf32> {
    ^bb0(%i: index, %j: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 2147483648 + d1)>(%i, %j)
      %v = stax.load %x[%a] : tensor<1x2147483648xf32>
      %t = stax.load %s[%i] : tensor<1xf32>
      %q = arith.divf %v, %t : f32
      stax.yield %q : f32
    }
    stax.yield %d : tensor<1x2147483648xf32>
  }
  return %k : tensor<1x2147483648xf32>
}

// One node of 2^31 + 1 loads makes the whole kernel 64-bit.
// CHECK-BW-LABEL: func.func @kernel_at
// CHECK-BW: stax.kernel [1] attributes {stax.index_bitwidth = 64 : i64}
// CHECK-BW: stax.reduction {{.*}} attributes {stax.index_bitwidth = 64 : i64}
// CHECK-BW: stax.pointwise {{.*}} attributes {stax.index_bitwidth = 32 : i64}
func.func @kernel_at(%x: tensor<2147483649xf32>) -> tensor<1xf32> {
  %k = stax.kernel [1] : tensor<1xf32> {
    %s = stax.reduction sum [2147483649] layout <[1]> : tensor<1xf32> {
    ^bb0(%i: index, %r: index):
      %v = stax.load %x[%r] : tensor<2147483649xf32>
      stax.yield %v : f32
    }
    %d = stax.pointwise layout <[1]> : tensor<1xf32> {
    ^bb0(%i: index):
      %t = stax.load %s[%i] : tensor<1xf32>
      stax.yield %t : f32
    }
    stax.yield %d : tensor<1xf32>
  }
  return %k : tensor<1xf32>
}
