// RUN: stax-opt --stax-lower %s | FileCheck %s
// RUN: stax-run %s --print=exact | FileCheck %s --check-prefix=CHECK-VALUES
// RUN: stax-opt --stax-lower %s | stax-run --print=exact | FileCheck %s --check-prefix=CHECK-VALUES

// uint8 (ui8) in bodies: a load gives the value as an i16 (in [0, 255]), on
// which signed arith is exact; a ui8 result wraps to its low byte
// (trunci + extui) and a float converts through i32, whose low byte is the
// interpreter's cast. The lowered function interprets like the tp one:
// 250 + 200 wraps to 194, which is greater than every int8.

// CHECK-LABEL: func.func @f
// CHECK: stax.pointwise layout <[1]> : tensor<4xui8> {
// CHECK:   %[[X:.*]] = stax.load %{{.*}}[%{{.*}}] : tensor<4xui8>
// CHECK:   %[[C:.*]] = arith.constant 200 : i16
// CHECK:   %[[S:.*]] = arith.addi %[[X]], %[[C]] : i16
// CHECK:   %[[T:.*]] = arith.trunci %[[S]] : i16 to i8
// CHECK:   %[[W:.*]] = arith.extui %[[T]] : i8 to i16
// CHECK:   stax.yield %[[W]] : i16
// CHECK: stax.pointwise layout <[1]> : tensor<4xi1> {
// CHECK:   %[[U:.*]] = stax.load %{{.*}}[%{{.*}}] : tensor<4xui8>
// CHECK:   %[[Y:.*]] = stax.load %{{.*}}[%{{.*}}] : tensor<4xi8>
// CHECK:   %[[Y16:.*]] = arith.extsi %[[Y]] : i8 to i16
// CHECK:   arith.cmpi slt, %[[U]], %[[Y16]] : i16
// CHECK: stax.pointwise layout <[1]> : tensor<4xf32> {
// CHECK:   arith.sitofp %{{.*}} : i16 to f32
// CHECK: stax.pointwise layout <[1]> : tensor<4xui8> {
// CHECK:   %[[F:.*]] = arith.fptosi %{{.*}} : f32 to i32
// CHECK:   %[[B:.*]] = arith.trunci %[[F]] : i32 to i8
// CHECK:   arith.extui %[[B]] : i8 to i16

// CHECK-VALUES: result #0: tensor<4xui8>
// CHECK-VALUES-NEXT: [0] 200
// CHECK-VALUES-NEXT: [1] 201
// CHECK-VALUES-NEXT: [2] 194
// CHECK-VALUES-NEXT: [3] 199
// CHECK-VALUES: result #1: tensor<4xi1>
// CHECK-VALUES-NEXT: [0] 0
// CHECK-VALUES-NEXT: [1] 0
// CHECK-VALUES-NEXT: [2] 0
// CHECK-VALUES-NEXT: [3] 0
// CHECK-VALUES: result #2: tensor<4xf32>
// CHECK-VALUES-NEXT: [0] 200
// CHECK-VALUES-NEXT: [1] 201
// CHECK-VALUES-NEXT: [2] 194
// CHECK-VALUES-NEXT: [3] 199
// CHECK-VALUES: result #3: tensor<4xui8>
// CHECK-VALUES-NEXT: [0] 0
// CHECK-VALUES-NEXT: [1] 1
// CHECK-VALUES-NEXT: [2] 255
// CHECK-VALUES-NEXT: [3] 44
func.func @f() -> (tensor<4xui8>, tensor<4xi1>, tensor<4xf32>, tensor<4xui8>) {
  %x = tp.constant dense<[0, 1, 250, 255]> : tensor<4xui8>
  %y = tp.constant dense<[-128, 0, 100, 127]> : tensor<4xi8>
  %z = tp.constant dense<[0.5, 1.9, 255.0, 300.0]> : tensor<4xf32>
  %0 = tp.add.Scalar %x {other = 200 : i64} : tensor<4xui8> -> tensor<4xui8>
  %1 = tp.lt %0, %y : tensor<4xui8>, tensor<4xi8> -> tensor<4xi1>
  %2 = tp._to_copy %0 {dtype = f32} : tensor<4xui8> -> tensor<4xf32>
  %3 = tp._to_copy %z {dtype = ui8} : tensor<4xf32> -> tensor<4xui8>
  return %0, %1, %2, %3 : tensor<4xui8>, tensor<4xi1>, tensor<4xf32>, tensor<4xui8>
}
