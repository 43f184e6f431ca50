// RUN: stax-run %s --random-inputs --seed 0 | FileCheck %s
// RUN: stax-run %s --random-inputs --seed 0 --f64 | FileCheck %s --check-prefix=F64
// Golden summaries (min/max/mean of each result) on seeded inputs; the
// values were checked against PyTorch 1.13's aten ops in float64.
// Softmax, log-softmax, nll_loss and mse_loss with their backward operators on
// seeded random inputs (random integer targets lie in [0, 2)).
func.func @main(%x: tensor<4x6xf32>, %t: tensor<4xi64>, %w: tensor<6xf32>,
                %target: tensor<6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<f32>, tensor<f32>,
        tensor<4x6xf32>, tensor<4x6xf32>, tensor<4xf32>, tensor<f32>,
        tensor<4x6xf32>) {
  %sm = tp._softmax %x {dim = 1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  %ls = tp._log_softmax %x {dim = 1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  %nll:2 = tp.nll_loss_forward %ls, %t weight(%w) {reduction = #tp.reduction<mean>}
      : (tensor<4x6xf32>, tensor<4xi64>, tensor<6xf32>) -> (tensor<f32>, tensor<f32>)
  %one = tp.full {value = 1.0 : f64} : tensor<f32>
  %gls = tp.nll_loss_backward %one, %ls, %t weight(%w), %nll#1 {reduction = #tp.reduction<mean>}
      : (tensor<f32>, tensor<4x6xf32>, tensor<4xi64>, tensor<6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %gx = tp._log_softmax_backward_data %gls, %ls {dim = 1 : i64}
      : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %none:2 = tp.nll_loss_forward %ls, %t {reduction = #tp.reduction<none>, ignore_index = 1 : i64}
      : (tensor<4x6xf32>, tensor<4xi64>) -> (tensor<4xf32>, tensor<f32>)
  %mse = tp.mse_loss %sm, %target : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<f32>
  %gmse = tp.mse_loss_backward %one, %sm, %target
      : (tensor<f32>, tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  return %sm, %ls, %nll#0, %nll#1, %gls, %gx, %none#0, %mse, %gmse
      : tensor<4x6xf32>, tensor<4x6xf32>, tensor<f32>, tensor<f32>,
        tensor<4x6xf32>, tensor<4x6xf32>, tensor<4xf32>, tensor<f32>,
        tensor<4x6xf32>
}

// CHECK: result #0: tensor<4x6xf32> min=0.0632378682 max=0.424985737 mean=0.166666673
// CHECK: result #1: tensor<4x6xf32> min=-2.7608521 max=-0.855699718 mean=-1.91914665
// CHECK: result #2: tensor<f32> min=4.33307362 max=4.33307362 mean=4.33307362
// CHECK: result #3: tensor<f32> min=0.186495915 max=0.186495915 mean=0.186495915
// CHECK: result #4: tensor<4x6xf32> min=-4.59837198 max=1.19945729 mean=-0.0416666716
// CHECK: result #5: tensor<4x6xf32> min=-4.14043522 max=1.20254183 mean=-3.10440858e-10
// CHECK: result #6: tensor<4xf32> min=0 max=2.52040339 mean=1.30769831
// CHECK: result #7: tensor<f32> min=0.388983697 max=0.388983697 mean=0.388983697
// CHECK: result #8: tensor<4x6xf32> min=-0.0733656362 max=0.0759158209 mean=-0.0250400137
// F64: result #0: tensor<4x6xf64> min=0.0632378602 max=0.424985715 mean=0.166666667
// F64: result #1: tensor<4x6xf64> min=-2.7608521 max=-0.855699723 mean=-1.91914665
// F64: result #2: tensor<f64> min=4.33307301 max=4.33307301 mean=4.33307301
// F64: result #3: tensor<f64> min=0.186495945 max=0.186495945 mean=0.186495945
// F64: result #4: tensor<4x6xf64> min=-4.59837142 max=1.19945714 mean=-0.0416666667
// F64: result #5: tensor<4x6xf64> min=-4.14043473 max=1.20254166 mean=-5.49329101e-17
// F64: result #6: tensor<4xf64> min=0 max=2.52040339 mean=1.30769832
// F64: result #7: tensor<f64> min=0.388983661 max=0.388983661 mean=0.388983661
// F64: result #8: tensor<4x6xf64> min=-0.0733656348 max=0.0759158181 mean=-0.0250400131
