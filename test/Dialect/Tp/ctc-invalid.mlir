// RUN: stax-opt %s -split-input-file -verify-diagnostics

func.func @rank(%lp: tensor<7x5xf32>, %tg: tensor<1x4xi64>, %l: tensor<1xi64>) {
  // expected-error @+1 {{'tp.ctc_loss' op log_probs must be a 3-D (time, batch, class) f32 or f64 tensor}}
  %n, %a = tp.ctc_loss %lp, %tg, %l, %l : (tensor<7x5xf32>, tensor<1x4xi64>, tensor<1xi64>, tensor<1xi64>) -> (tensor<1xf32>, tensor<1x7x9xf32>)
  return
}

// -----

func.func @half(%lp: tensor<7x1x5xf16>, %tg: tensor<1x4xi64>, %l: tensor<1xi64>) {
  // expected-error @+1 {{'tp.ctc_loss' op log_probs must be a 3-D (time, batch, class) f32 or f64 tensor}}
  %n, %a = tp.ctc_loss %lp, %tg, %l, %l : (tensor<7x1x5xf16>, tensor<1x4xi64>, tensor<1xi64>, tensor<1xi64>) -> (tensor<1xf16>, tensor<1x7x9xf16>)
  return
}

// -----

func.func @targets(%lp: tensor<7x2x5xf32>, %tg: tensor<3x4xi64>, %l: tensor<2xi64>) {
  // expected-error @+1 {{'tp.ctc_loss' op targets must be 2-D (batch, max target length) with log_probs' batch size}}
  %n, %a = tp.ctc_loss %lp, %tg, %l, %l : (tensor<7x2x5xf32>, tensor<3x4xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2x7x9xf32>)
  return
}

// -----

func.func @lengths(%lp: tensor<7x2x5xf32>, %tg: tensor<2x4xi64>, %l: tensor<2xi64>, %bad: tensor<3xi64>) {
  // expected-error @+1 {{'tp.ctc_loss' op the lengths must be 1-D with one entry per sample}}
  %n, %a = tp.ctc_loss %lp, %tg, %l, %bad : (tensor<7x2x5xf32>, tensor<2x4xi64>, tensor<2xi64>, tensor<3xi64>) -> (tensor<2xf32>, tensor<2x7x9xf32>)
  return
}

// -----

func.func @blank(%lp: tensor<7x2x5xf32>, %tg: tensor<2x4xi64>, %l: tensor<2xi64>) {
  // expected-error @+1 {{'tp.ctc_loss' op blank 5 is not a class (there are 5)}}
  %n, %a = tp.ctc_loss %lp, %tg, %l, %l {blank = 5 : i64} : (tensor<7x2x5xf32>, tensor<2x4xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2x7x9xf32>)
  return
}

// -----

func.func @alpha(%g: tensor<2xf32>, %lp: tensor<7x2x5xf32>, %tg: tensor<2x4xi64>, %l: tensor<2xi64>, %nll: tensor<2xf32>, %alpha: tensor<2x7x8xf32>) {
  // expected-error @+1 {{'tp.ctc_loss_backward' op log_alpha must be a 3-D tensor of log_probs' type, as tp.ctc_loss produces it}}
  %r = tp.ctc_loss_backward %g, %lp, %tg, %l, %l, %nll, %alpha : (tensor<2xf32>, tensor<7x2x5xf32>, tensor<2x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xf32>, tensor<2x7x8xf32>) -> tensor<7x2x5xf32>
  return
}

