// RUN: stax-opt %s --stax-joint-graph -split-input-file -verify-diagnostics

// nextafter has no derivative (eager: not implemented): a derivative
// through it is an error naming it.
func.func @nextafter(%x: tensor<3xf32> {tp.requires_grad}, %z: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tp.nextafter' op is not differentiable, but a derivative of @nextafter flows through it}}
  %y = tp.nextafter %x, %z : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// polygamma(n)' = polygamma(n + 1): no order follows the largest one.
func.func @polygamma_largest_order(%x: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  // expected-error @+2 {{'tp.polygamma' op has no derivative: its order would be n + 1 = 2^63}}
  // expected-error @+1 {{'tp.polygamma' op has no vector-Jacobian product for this case}}
  %y = tp.polygamma %x {n = 9223372036854775807 : i64} : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}
