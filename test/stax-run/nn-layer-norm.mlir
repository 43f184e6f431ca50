// RUN: stax-run %s --random-inputs --seed 0 | FileCheck %s
// RUN: stax-run %s --random-inputs --seed 0 --f64 | FileCheck %s --check-prefix=F64
// Golden summaries (min/max/mean of each result) on seeded inputs; the
// values were checked against PyTorch 1.13's aten ops in float64.
// native_layer_norm and its backward (weight and bias present) on seeded
// random inputs.
func.func @main(%x: tensor<2x3x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>,
                %g: tensor<2x3x8xf32>)
    -> (tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>,
        tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %y:3 = tp.native_layer_norm %x weight(%w) bias(%b) {normalized_shape = array<i64: 8>, eps = 1.0e-5 : f64}
      : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  %d:3 = tp.native_layer_norm_backward %g, %x, %y#1, %y#2 weight(%w) bias(%b) {normalized_shape = array<i64: 8>}
      : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>, tensor<8xf32>, tensor<8xf32>)
      -> (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %y#0, %y#1, %y#2, %d#0, %d#1, %d#2
      : tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>,
        tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// CHECK: result #0: tensor<2x3x8xf32> min=-1.98345566 max=1.89728117 mean=0.0374240635
// CHECK: result #1: tensor<2x3x1xf32> min=-0.225379318 max=0.283674628 mean=-0.0176801967
// CHECK: result #2: tensor<2x3x1xf32> min=1.62029564 max=2.27809477 mean=1.91043067
// CHECK: result #3: tensor<2x3x8xf32> min=-1.04678226 max=0.770528436 mean=-1.063745e-08
// CHECK: result #4: tensor<8xf32> min=-1.8180126 max=2.5719521 mean=-0.468941374
// CHECK: result #5: tensor<8xf32> min=-0.605257154 max=2.25073218 mean=0.14167158
// F64: result #0: tensor<2x3x8xf64> min=-1.98345555 max=1.89728129 mean=0.0374240661
// F64: result #1: tensor<2x3x1xf64> min=-0.225379319 max=0.283674639 mean=-0.0176801912
// F64: result #2: tensor<2x3x1xf64> min=1.62029565 max=2.27809455 mean=1.91043066
// F64: result #3: tensor<2x3x8xf64> min=-1.0467823 max=0.770528553 mean=-4.62592927e-18
// F64: result #4: tensor<8xf64> min=-1.81801264 max=2.5719522 mean=-0.468941352
// F64: result #5: tensor<8xf64> min=-0.605257213 max=2.25073217 mean=0.14167154
