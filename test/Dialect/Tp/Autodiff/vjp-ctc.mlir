// RUN: stax-opt %s --stax-joint-graph="function=loss" | FileCheck %s
// RUN: stax-opt %s --stax-jvp="function=loss" | FileCheck %s --check-prefix=CHECK-JVP
// RUN: stax-opt %s --stax-joint-graph="function=twice" -verify-diagnostics -o /dev/null

// tp.ctc_loss differentiates to tp.ctc_loss_backward (eager's
// _ctc_loss_backward: the gradient with respect to log_probs, given the
// forward's losses and log_alpha), carrying blank and zero_infinity; the
// targets and lengths get none.
// CHECK-LABEL: func.func @loss
// CHECK-SAME: (%[[LP:.*]]: tensor<7x2x5xf32> {tp.requires_grad}, %[[TG:.*]]: tensor<2x4xi64>, %[[IL:.*]]: tensor<2xi64>, %[[TL:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<2xf32> {tp.tangent})
// CHECK: %[[N:.*]], %[[A:.*]] = tp.ctc_loss %[[LP]], %[[TG]], %[[IL]], %[[TL]] {blank = 3 : i64, {{.*}}zero_infinity = true}
// CHECK: %[[G:.*]] = tp.ctc_loss_backward %[[T]], %[[LP]], %[[TG]], %[[IL]], %[[TL]], %[[N]], %[[A]] {blank = 3 : i64, {{.*}}zero_infinity = true}
// CHECK: return %[[N]], %[[G]] :
// The JVP: the tangent summed against the gradient of each loss.
// CHECK-JVP-LABEL: func.func @loss
// CHECK-JVP: %[[N:.*]], %[[A:.*]] = tp.ctc_loss
// CHECK-JVP: %[[ONES:.*]] = tp.full
// CHECK-JVP: %[[G:.*]] = tp.ctc_loss_backward %[[ONES]], {{.*}}, %[[N]], %[[A]]
// CHECK-JVP: %[[P:.*]] = tp.mul %[[G]], %{{.*}}
// CHECK-JVP: tp.sum %[[P]] {dims = array<i64: 0, 2>
func.func @loss(%lp: tensor<7x2x5xf32> {tp.requires_grad}, %tg: tensor<2x4xi64>, %il: tensor<2xi64>, %tl: tensor<2xi64>) -> tensor<2xf32> {
  %n, %a = tp.ctc_loss %lp, %tg, %il, %tl {blank = 3 : i64, zero_infinity = true} : (tensor<7x2x5xf32>, tensor<2x4xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2x7x9xf32>)
  return %n : tensor<2xf32>
}

// The gradient has no derivative of its own (as in eager).
func.func @twice(%lp: tensor<7x2x5xf32> {tp.requires_grad}, %tg: tensor<2x4xi64>, %l: tensor<2xi64>, %g: tensor<2xf32>) -> tensor<f32> {
  %n, %a = tp.ctc_loss %lp, %tg, %l, %l : (tensor<7x2x5xf32>, tensor<2x4xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2x7x9xf32>)
  // expected-error @+1 {{'tp.ctc_loss_backward' op is not differentiable, but a derivative of @twice flows through it}}
  %r = tp.ctc_loss_backward %g, %lp, %tg, %l, %l, %n, %a : (tensor<2xf32>, tensor<7x2x5xf32>, tensor<2x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xf32>, tensor<2x7x9xf32>) -> tensor<7x2x5xf32>
  %s = tp.sum %r {dims = array<i64>} : tensor<7x2x5xf32> -> tensor<f32>
  return %s : tensor<f32>
}
