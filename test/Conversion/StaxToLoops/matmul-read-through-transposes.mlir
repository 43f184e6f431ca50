// RUN: stax-opt --stax-lowering-pipeline="fuse=false" --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s

// A product reads its operand through transpose nodes, with a transpose
// flag, also where the transpose is materialized for another user, and a
// transpose of a transpose as the buffer itself: a product and its
// recomputation (min cut), whose transposes have different users, are then
// the same runtime call on the same buffer, and give the same bits.

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:[^:]*]]: memref<1280xf32>, %[[W:[^:]*]]: memref<2048xf32>, %[[G:[^:]*]]: memref<2560xf32>,
// x @ w^T: w with the flag set.
// CHECK: %[[PW:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: %[[AW:.*]] = arith.index_cast %[[PW]] : index to i64
// CHECK: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %{{.*}}, %[[AW]], %{{.*}})
// g @ (w^T)^T: w itself, no flag.
// CHECK: %[[PW2:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: %[[AW2:.*]] = arith.index_cast %[[PW2]] : index to i64
// CHECK: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %{{.*}}, %[[AW2]], %{{.*}})
func.func @f(%x: tensor<40x32xf32>, %w: tensor<64x32xf32>, %g: tensor<40x64xf32>)
    -> (tensor<40x64xf32>, tensor<40x32xf32>, tensor<64x32xf32>) {
  %wt = tp.t %w : tensor<64x32xf32> -> tensor<32x64xf32>
  %h = tp.mm %x, %wt : (tensor<40x32xf32>, tensor<32x64xf32>) -> tensor<40x64xf32>
  %wtt = tp.t %wt : tensor<32x64xf32> -> tensor<64x32xf32>
  %dx = tp.mm %g, %wtt : (tensor<40x64xf32>, tensor<64x32xf32>) -> tensor<40x32xf32>
  return %h, %dx, %wtt : tensor<40x64xf32>, tensor<40x32xf32>, tensor<64x32xf32>
}
