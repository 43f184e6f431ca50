// RUN: stax-opt --stax-lowering-pipeline="fuse=false" --stax-to-loops="vector-width=8" %s 2>/dev/null | FileCheck %s

// ui8 memory is i8 (arith computes on signless types only): a load
// zero-extends to the body's i16, a store keeps the low byte. Such loops
// stay scalar (the vector emitter reads and writes the element type).

// The global of @constant below comes first in the module: a ui8 constant
// is a global of its bytes.
// CHECK: memref.global "private" constant @constant_const0 : memref<2xi8> = dense<[-1, 7]>

// CHECK-LABEL: func.func @wrap(
// CHECK-SAME: %{{[^:]*}}: memref<37xi8>, %{{[^:]*}}: memref<37xi8> {stax.output}, %{{[^:]*}}: memref<37xi1> {stax.output})
// CHECK-NOT: vector.
// CHECK: %[[L:.*]] = memref.load %{{.*}} : memref<37xi8>
// CHECK: %[[X:.*]] = arith.extui %[[L]] : i8 to i16
// CHECK: arith.addi %[[X]], %{{.*}} : i16
// CHECK: arith.trunci %{{.*}} : i16 to i8
// CHECK: memref.store %{{.*}} : memref<37xi8>
// CHECK: arith.extui %{{.*}} : i8 to i16
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i16
func.func @wrap(%x: tensor<37xui8>) -> (tensor<37xui8>, tensor<37xi1>) {
  %0 = tp.add.Scalar %x {other = 200 : i64} : tensor<37xui8> -> tensor<37xui8>
  %1 = tp.gt.Scalar %0 {other = 127 : i64} : tensor<37xui8> -> tensor<37xi1>
  return %0, %1 : tensor<37xui8>, tensor<37xi1>
}

// CHECK-LABEL: func.func @constant(
// CHECK-SAME: memref<2xi8> {stax.output}
func.func @constant() -> tensor<2xui8> {
  %c = tp.constant dense<[255, 7]> : tensor<2xui8>
  return %c : tensor<2xui8>
}
