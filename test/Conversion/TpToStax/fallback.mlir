// RUN: stax-opt --stax-decompose --stax-lower %s -verify-diagnostics -split-input-file | FileCheck %s --check-prefix=CHECK-LOWER
// RUN: stax-opt --stax-decompose --stax-lower="remarks=true" %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-REMARKS

// An external call is remarked on only with remarks=true (it is as planned);
// an op without a rule always is.
// CHECK-REMARKS: fallback.mlir:[[@LINE+11]]:8: remark: external call: 'tp.mm' reads row-major buffers

// Matmuls are external calls: their operands are materialized row-major
// (here the transposed weight), the call stays a tp op.
// CHECK-LOWER-LABEL: func.func @external
// CHECK-LOWER: %[[WT:.*]] = stax.pointwise layout <[32, 1]> : tensor<64x32xf32>
// CHECK-LOWER: %[[MM:.*]] = tp.mm %arg0, %[[WT]]
// CHECK-LOWER: stax.pointwise
// CHECK-LOWER: stax.load %[[MM]]
func.func @external(%x: tensor<8x64xf32>, %w: tensor<32x64xf32>) -> tensor<8x32xf32> {
  %wt = tp.t %w : tensor<32x64xf32> -> tensor<64x32xf32>
  %m = tp.mm %x, %wt : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %r = tp.relu %m : tensor<8x32xf32> -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// Ops without a rule stay, reading a materialized buffer, with a remark
// (strict.mlir: strict mode makes it an error).
// CHECK-LOWER-LABEL: func.func @fallback
// CHECK-LOWER: %[[A:.*]] = stax.pointwise
// CHECK-LOWER: tp.pow.Tensor_Scalar %[[A]] {other = -2 : i64}
func.func @fallback(%x: tensor<4x8xi64>) -> tensor<4x8xi64> {
  %a = tp.mul.Scalar %x {other = 3 : i64} : tensor<4x8xi64> -> tensor<4x8xi64>
  // An integer power with a negative scalar exponent is an error of the op
  // (eager refuses it whatever the values): it stays.
  // expected-remark @+1 {{fallback: 'tp.pow.Tensor_Scalar' has no lowering rule: this instance (types or attributes) is not covered}}
  %d = tp.pow.Tensor_Scalar %a {other = -2 : i64} : tensor<4x8xi64> -> tensor<4x8xi64>
  return %d : tensor<4x8xi64>
}
