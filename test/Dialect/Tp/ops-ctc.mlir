// RUN: stax-opt %s | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | stax-opt | FileCheck %s

// tp.ctc_loss: per-sample losses of log_probs' type and log_alpha [N, T,
// 2S + 1]; blank and zero_infinity default to 0 and false (not printed).
// CHECK-LABEL: func.func @forward
// CHECK: tp.ctc_loss %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<7x3x5xf32>, tensor<3x4xi64>, tensor<3xi64>, tensor<3xi64>) -> (tensor<3xf32>, tensor<3x7x9xf32>)
// CHECK: tp.ctc_loss %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {blank = 4 : i64, zero_infinity = true} : (tensor<7x3x5xf64>, tensor<3x0xi64>, tensor<3xi64>, tensor<3xi64>) -> (tensor<3xf64>, tensor<3x7x1xf64>)
func.func @forward(%lp: tensor<7x3x5xf32>, %tg: tensor<3x4xi64>, %il: tensor<3xi64>, %tl: tensor<3xi64>,
                   %lp64: tensor<7x3x5xf64>, %empty: tensor<3x0xi64>) -> (tensor<3xf32>, tensor<3xf64>) {
  %n, %a = tp.ctc_loss %lp, %tg, %il, %tl {blank = 0 : i64, zero_infinity = false}
      : (tensor<7x3x5xf32>, tensor<3x4xi64>, tensor<3xi64>, tensor<3xi64>) -> (tensor<3xf32>, tensor<3x7x9xf32>)
  %m, %b = tp.ctc_loss %lp64, %empty, %il, %tl {blank = 4 : i64, zero_infinity = true}
      : (tensor<7x3x5xf64>, tensor<3x0xi64>, tensor<3xi64>, tensor<3xi64>) -> (tensor<3xf64>, tensor<3x7x1xf64>)
  return %n, %m : tensor<3xf32>, tensor<3xf64>
}

// CHECK-LABEL: func.func @backward
// CHECK: tp.ctc_loss_backward %{{.*}} {zero_infinity = true} : (tensor<3xf32>, tensor<7x3x5xf32>, tensor<3x4xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xf32>, tensor<3x7x9xf32>) -> tensor<7x3x5xf32>
func.func @backward(%g: tensor<3xf32>, %lp: tensor<7x3x5xf32>, %tg: tensor<3x4xi64>, %il: tensor<3xi64>, %tl: tensor<3xi64>,
                    %nll: tensor<3xf32>, %alpha: tensor<3x7x9xf32>) -> tensor<7x3x5xf32> {
  %r = tp.ctc_loss_backward %g, %lp, %tg, %il, %tl, %nll, %alpha {zero_infinity = true}
      : (tensor<3xf32>, tensor<7x3x5xf32>, tensor<3x4xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xf32>, tensor<3x7x9xf32>) -> tensor<7x3x5xf32>
  return %r : tensor<7x3x5xf32>
}
