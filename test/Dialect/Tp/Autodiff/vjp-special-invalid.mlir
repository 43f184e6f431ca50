// RUN: stax-opt %s --stax-joint-graph -verify-diagnostics

// nextafter has no derivative (eager: not implemented): a derivative
// through it is an error naming it.
func.func @nextafter(%x: tensor<3xf32> {tp.requires_grad}, %z: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tp.nextafter' op is not differentiable, but a derivative of @nextafter flows through it}}
  %y = tp.nextafter %x, %z : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}
