// RUN: stax-run %s --entry=literal --jit --print=exact 2>/dev/null | FileCheck %s --check-prefix=CHECK-LIT
// RUN: stax-run %s --entry=literal --jit --print=exact --pipeline-options="vector-width=1 approximate-math=false" 2>/dev/null | FileCheck %s --check-prefix=CHECK-LIT
// RUN: stax-run %s --entry=literal --print=exact 2>/dev/null | FileCheck %s --check-prefix=CHECK-LIT
// RUN: stax-run %s --entry=joint --random-inputs --jit 2>/dev/null | FileCheck %s --check-prefix=CHECK-RAND
// RUN: stax-run %s --entry=joint --random-inputs --jit --pipeline-options="vector-width=1 approximate-math=false" 2>/dev/null | FileCheck %s --check-prefix=CHECK-RAND
// RUN: stax-run %s --entry=joint --random-inputs --jit --pipeline-options="approximate-math=false" 2>/dev/null | FileCheck %s --check-prefix=CHECK-RAND
// RUN: stax-run %s --entry=joint --random-inputs 2>/dev/null | FileCheck %s --check-prefix=CHECK-RAND
// float64 (vectorized erf is libm's erf, never approximated for f64):
// RUN: stax-run %s --entry=joint64 --random-inputs --jit 2>/dev/null | FileCheck %s --check-prefix=CHECK-RAND64
// RUN: stax-run %s --entry=joint64 --random-inputs --jit --pipeline-options="vector-width=1" 2>/dev/null | FileCheck %s --check-prefix=CHECK-RAND64
// RUN: stax-run %s --entry=joint64 --random-inputs 2>/dev/null | FileCheck %s --check-prefix=CHECK-RAND64

// Example 5.1, f(x, W) = F.gelu(x @ W).sum() with W requiring grad, as its
// joint graph (Listing 5.2): the forward sum and W̄ = xᵀ @ gelu_backward(L̄, h).
// Class 2 (a BLAS matmul, erf from libm or a polynomial): the compiled code
// agrees with the interpreter and with float64 to the digits checked, not
// bitwise.

// Literal inputs with an exact product h = x @ W = [[-1, 1], [0.5, 2]] and
// L̄ = 1. float64 reference: gelu(h) = [[-0.158655254, 0.841344746],
// [0.345731231, 1.95449974]], their sum 2.98292046, GELU'(h) =
// [[-0.0833154706, 1.08331547], [0.867495125, 1.08523180]] and
// W̄ = xᵀ @ GELU'(h) = [[0.350432092, 1.62593137], [1.73499025, 2.17046360],
// [0.0833154706, -1.08331547]].
// CHECK-LIT: @literal
// CHECK-LIT-NEXT: result #0: tensor<2x2xf32>
// CHECK-LIT-NEXT: [0,0] -0.1586552{{[0-9]*$}}
// CHECK-LIT-NEXT: [0,1] 0.8413447{{[0-9]*$}}
// CHECK-LIT-NEXT: [1,0] 0.3457312{{[0-9]*$}}
// CHECK-LIT-NEXT: [1,1] 1.954499{{[0-9]*$}}
// CHECK-LIT-NEXT: result #1: tensor<f32>
// CHECK-LIT-NEXT: [] 2.982920{{[0-9]*$}}
// CHECK-LIT-NEXT: result #2: tensor<3x2xf32>
// CHECK-LIT-NEXT: [0,0] 0.3504320{{[0-9]*$}}
// CHECK-LIT-NEXT: [0,1] 1.625931{{[0-9]*$}}
// CHECK-LIT-NEXT: [1,0] 1.734990{{[0-9]*$}}
// CHECK-LIT-NEXT: [1,1] 2.170463{{[0-9]*$}}
// CHECK-LIT-NEXT: [2,0] 0.083315{{[0-9]*$}}
// CHECK-LIT-NEXT: [2,1] -1.083315{{[0-9]*$}}
// CHECK-LIT-NOT: result
func.func @literal() -> (tensor<2x2xf32>, tensor<f32>, tensor<3x2xf32>) {
  %x = tp.constant dense<[[1.0, 0.0, -1.0], [0.5, 2.0, 0.0]]> : tensor<2x3xf32>
  %w = tp.constant dense<[[1.0, 0.0], [0.0, 1.0], [2.0, -1.0]]> : tensor<3x2xf32>
  %t = tp.constant dense<1.0> : tensor<f32>
  %h = tp.mm %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %g = tp.gelu %h : tensor<2x2xf32> -> tensor<2x2xf32>
  %s = tp.sum %g {dims = array<i64>} : tensor<2x2xf32> -> tensor<f32>
  %e = tp.expand %t {size = array<i64: 2, 2>} : tensor<f32> -> tensor<2x2xf32>
  %gb = tp.gelu_backward %e, %h : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %xt = tp.t %x : tensor<2x3xf32> -> tensor<3x2xf32>
  %wb = tp.mm %xt, %gb : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %g, %s, %wb : tensor<2x2xf32>, tensor<f32>, tensor<3x2xf32>
}

// The spec's sizes, x 32x64, W 64x64, on random inputs (seed 0; the tangent
// is random too). float64 reference: the sum 2062.54829, W̄ min -2.81239926,
// max 3.17758313, mean 0.0381113654.
// CHECK-RAND: @joint
// CHECK-RAND-NEXT: result #0: tensor<f32> min=2062.5{{[0-9]*}} max=2062.5{{[0-9]*}} mean=2062.5{{[0-9]*}}
// CHECK-RAND-NEXT: [2062.5{{[0-9]*}}]
// CHECK-RAND-NEXT: result #1: tensor<64x64xf32> min=-2.81239{{[0-9]*}} max=3.17758{{[0-9]*}} mean=0.038111{{[0-9]*}}
// CHECK-RAND-NOT: result
func.func @joint(%x: tensor<32x64xf32>, %w: tensor<64x64xf32>, %tangent: tensor<f32>) -> (tensor<f32>, tensor<64x64xf32>) {
  %h = tp.mm %x, %w : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %g = tp.gelu %h : tensor<32x64xf32> -> tensor<32x64xf32>
  %s = tp.sum %g {dims = array<i64>} : tensor<32x64xf32> -> tensor<f32>
  %e = tp.expand %tangent {size = array<i64: 32, 64>} : tensor<f32> -> tensor<32x64xf32>
  %gb = tp.gelu_backward %e, %h : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %xt = tp.t %x : tensor<32x64xf32> -> tensor<64x32xf32>
  %wb = tp.mm %xt, %gb : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  return %s, %wb : tensor<f32>, tensor<64x64xf32>
}

// The same in float64. --random-inputs draws the same numbers without the
// rounding to f32, so W̄ differs from the reference above after 7 digits;
// float64 results agree to the 8 digits checked.
// CHECK-RAND64: @joint64
// CHECK-RAND64-NEXT: result #0: tensor<f64> min=2062.5483{{[0-9]*}} max=2062.5483{{[0-9]*}} mean=2062.5483{{[0-9]*}}
// CHECK-RAND64-NEXT: [2062.5483{{[0-9]*}}]
// CHECK-RAND64-NEXT: result #1: tensor<64x64xf64> min=-2.8123993{{[0-9]*}} max=3.1775832{{[0-9]*}} mean=0.038111369{{[0-9]*}}
// CHECK-RAND64-NOT: result
func.func @joint64(%x: tensor<32x64xf64>, %w: tensor<64x64xf64>, %tangent: tensor<f64>) -> (tensor<f64>, tensor<64x64xf64>) {
  %h = tp.mm %x, %w : (tensor<32x64xf64>, tensor<64x64xf64>) -> tensor<32x64xf64>
  %g = tp.gelu %h : tensor<32x64xf64> -> tensor<32x64xf64>
  %s = tp.sum %g {dims = array<i64>} : tensor<32x64xf64> -> tensor<f64>
  %e = tp.expand %tangent {size = array<i64: 32, 64>} : tensor<f64> -> tensor<32x64xf64>
  %gb = tp.gelu_backward %e, %h : (tensor<32x64xf64>, tensor<32x64xf64>) -> tensor<32x64xf64>
  %xt = tp.t %x : tensor<32x64xf64> -> tensor<64x32xf64>
  %wb = tp.mm %xt, %gb : (tensor<64x32xf64>, tensor<32x64xf64>) -> tensor<64x64xf64>
  return %s, %wb : tensor<f64>, tensor<64x64xf64>
}
