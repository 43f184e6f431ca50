// RUN: stax-run %s --random-inputs --seed 0 | FileCheck %s
// RUN: stax-run %s --random-inputs --seed 0 --f64 | FileCheck %s --check-prefix=F64
// Golden summaries (min/max/mean of each result) on seeded inputs; the
// values were checked against PyTorch 1.13's aten ops in float64.
// Pointwise backward operators (grad_output broadcast against the saved
// tensor) and dropout in its exact cases, on seeded random inputs.
func.func @main(%g: tensor<3x1xf32>, %x: tensor<3x4xf32>, %m: tensor<3x4xi1>)
    -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>,
        tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi1>,
        tensor<3x4xf32>) {
  %0 = tp.gelu_backward %g, %x : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = tp.gelu_backward %g, %x {approximate = #tp.approximate<tanh>} : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = tp.threshold_backward %g, %x {threshold = 0.0 : f64} : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %3 = tp.tanh_backward %g, %x : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %4 = tp.sigmoid_backward %g, %x : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %5 = tp.silu_backward %g, %x : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %d:2 = tp.native_dropout %x {p = 0.0 : f64} : tensor<3x4xf32> -> tensor<3x4xf32>, tensor<3x4xi1>
  %6 = tp.native_dropout_backward %x, %m {scale = 2.0 : f64} : (tensor<3x4xf32>, tensor<3x4xi1>) -> tensor<3x4xf32>
  return %0, %1, %2, %3, %4, %5, %d#0, %d#1, %6
      : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>,
        tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi1>,
        tensor<3x4xf32>
}

// CHECK: result #0: tensor<3x4xf32> min=-0.959940016 max=1.00870204 mean=-0.0479840729
// CHECK: result #1: tensor<3x4xf32> min=-0.959627807 max=1.00838697 mean=-0.0480307769
// CHECK: result #2: tensor<3x4xf32> min=-0.920861959 max=0.984290421 mean=-0.159531901
// CHECK: result #3: tensor<3x4xf32> min=-0.831765652 max=0.961291611 mean=-0.160939063
// CHECK: result #4: tensor<3x4xf32> min=-0.197339356 max=1.13636518 mean=0.133442765
// CHECK: result #5: tensor<3x4xf32> min=-0.81278646 max=0.852052271 mean=-0.0636763951
// CHECK: result #6: tensor<3x4xf32> min=-0.885680437 max=0.860862195 mean=0.101450989
// CHECK: result #7: tensor<3x4xi1> min=1 max=1 mean=1
// CHECK: result #8: tensor<3x4xf32> min=-1.77136087 max=1.62520552 mean=0.140471748
// F64: result #0: tensor<3x4xf64> min=-0.959940027 max=1.00870206 mean=-0.0479840809
// F64: result #1: tensor<3x4xf64> min=-0.95962788 max=1.00838706 mean=-0.048030782
// F64: result #2: tensor<3x4xf64> min=-0.920861959 max=0.984290421 mean=-0.159531901
// F64: result #3: tensor<3x4xf64> min=-0.831765657 max=0.961291632 mean=-0.160939059
// F64: result #4: tensor<3x4xf64> min=-0.197339372 max=1.13636515 mean=0.133442765
// F64: result #5: tensor<3x4xf64> min=-0.812786536 max=0.852052235 mean=-0.0636763979
// F64: result #6: tensor<3x4xf64> min=-0.885680437 max=0.860862195 mean=0.101450989
// F64: result #7: tensor<3x4xi1> min=1 max=1 mean=1
// F64: result #8: tensor<3x4xf64> min=-1.77136087 max=1.62520552 mean=0.140471748
