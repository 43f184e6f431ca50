// RUN: stax-opt %s | FileCheck %s --check-prefix=CHECK-RT
// RUN: stax-opt %s | stax-opt | FileCheck %s --check-prefix=CHECK-RT
// RUN: stax-opt --mlir-print-op-generic %s | stax-opt | FileCheck %s --check-prefix=CHECK-RT

// Every stax op round-trips in custom and generic form.

// CHECK-RT-LABEL: func.func @nodes
// CHECK-RT: stax.pointwise layout <[1, 4], offset = 2> : tensor<4x3xf32> {
// CHECK-RT: ^bb0(%i0: index, %i1: index):
// CHECK-RT: stax.load %arg0[%{{.*}}] mask %{{.*}} : tensor<4x3xf32>
// CHECK-RT: stax.reduction argmax [3] layout <[1]> : tensor<4xi64> {
// CHECK-RT: ^bb0(%i0: index, %r0: index):
// CHECK-RT: stax.reduction welford [3] layout <flexible> : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-RT: stax.scatter accumulate %{{.*}} [2] layout <[3, 1]> : tensor<4x3xf32> {
// CHECK-RT: stax.indirect_index %{{.*}}, 4 {check_bounds, wrap_negative} : i64
// CHECK-RT: stax.yield %{{.*}}, %{{.*}} : index, f32
func.func @nodes(%x: tensor<4x3xf32>, %idx: tensor<2xi64>) -> tensor<4x3xf32> {
  %p = stax.pointwise layout <[1, 4], offset = 2> : tensor<4x3xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i, %j)
    %c = arith.cmpi slt, %j, %i : index
    %v = stax.load %x[%a] mask %c : tensor<4x3xf32>
    stax.yield %v : f32
  }
  %am = stax.reduction argmax [3] layout <[1]> : tensor<4xi64> {
  ^bb0(%i: index, %r: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i, %r)
    %v = stax.load %x[%a] : tensor<4x3xf32>
    stax.yield %v : f32
  }
  %m:3 = stax.reduction welford [3] layout <flexible> : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> {
  ^bb0(%i: index, %r: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i, %r)
    %v = stax.load %x[%a] : tensor<4x3xf32>
    stax.yield %v : f32
  }
  %s = stax.scatter accumulate %x [2] layout <[3, 1]> : tensor<4x3xf32> {
  ^bb0(%k: index):
    %raw = stax.load %idx[%k] : tensor<2xi64>
    %row = stax.indirect_index %raw, 4 {wrap_negative, check_bounds} : i64
    %a = affine.apply affine_map<(d0)[s0] -> (s0 * 3 + d0)>(%k)[%row]
    %one = arith.constant 1.0 : f32
    stax.yield %a, %one : index, f32
  }
  return %s : tensor<4x3xf32>
}

// A ui8 element is an i16 value in bodies: loads zero-extend, yields and
// reductions combine in i16 and store modulo 2^8.
// CHECK-RT-LABEL: func.func @unsigned
// CHECK-RT: stax.load %arg0[%{{.*}}] : tensor<4xui8>
// CHECK-RT: stax.yield %{{.*}} : i16
// CHECK-RT: stax.reduction max [4] layout <[]> : tensor<ui8>
// CHECK-RT: stax.yield %{{.*}}, %{{.*}} : index, i16
func.func @unsigned(%x: tensor<4xui8>) -> (tensor<4xui8>, tensor<ui8>, tensor<4xui8>) {
  %p = stax.pointwise layout <[1]> : tensor<4xui8> {
  ^bb0(%i: index):
    %v = stax.load %x[%i] : tensor<4xui8>
    %c = arith.constant 255 : i16
    %r = arith.xori %v, %c : i16
    stax.yield %r : i16
  }
  %m = stax.reduction max [4] layout <[]> : tensor<ui8> {
  ^bb0(%r: index):
    %v = stax.load %x[%r] : tensor<4xui8>
    stax.yield %v : i16
  }
  %s = stax.scatter overwrite %x [1] layout <[1]> : tensor<4xui8> {
  ^bb0(%k: index):
    %c = arith.constant 300 : i16
    stax.yield %k, %c : index, i16
  }
  return %p, %m, %s : tensor<4xui8>, tensor<ui8>, tensor<4xui8>
}

// Interleaved but injective layouts are accepted (addresses 0, 2, 3, 5).
// CHECK-RT-LABEL: func.func @interleaved_layout
func.func @interleaved_layout(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = stax.pointwise layout <[3, 2]> : tensor<2x2xf32> {
  ^bb0(%i: index, %j: index):
    %v = stax.load %x[%i] : tensor<2x2xf32>
    stax.yield %v : f32
  }
  return %r : tensor<2x2xf32>
}
