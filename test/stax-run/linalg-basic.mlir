// RUN: stax-run %s --random-inputs --seed 0 | FileCheck %s
// RUN: stax-run %s --random-inputs --seed 0 --f64 | FileCheck %s --check-prefix=F64
// Golden summaries (min/max/mean of each result) on seeded inputs; the
// values were checked against PyTorch 1.13's aten ops in float64.
// Matrix products on seeded random inputs: mm, bmm, dot, numpy matmul with
// 1-D operands and broadcast batch dims, addmm, baddbmm, integer mm.
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %ba: tensor<2x1x4x8xf32>,
                %bb: tensor<3x8x5xf32>, %v: tensor<8xf32>, %bias: tensor<5xf32>,
                %b3: tensor<3x4x8xf32>, %bs: tensor<1x4x1xf32>, %i: tensor<3x4xi64>,
                %k: tensor<4x2xi64>)
    -> (tensor<4x5xf32>, tensor<2x3x4x5xf32>, tensor<f32>, tensor<5xf32>, tensor<4xf32>,
        tensor<3x5xf32>, tensor<4x5xf32>, tensor<3x4x5xf32>, tensor<3x4x5xf32>,
        tensor<3x2xi64>) {
  %0 = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %1 = tp.matmul %ba, %bb : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = tp.dot %v, %v : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  %3 = tp.matmul %v, %b : (tensor<8xf32>, tensor<8x5xf32>) -> tensor<5xf32>
  %4 = tp.matmul %a, %v : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  %5 = tp.matmul %v, %bb : (tensor<8xf32>, tensor<3x8x5xf32>) -> tensor<3x5xf32>
  %6 = tp.addmm %bias, %a, %b {beta = 0.5 : f64, alpha = 2.0 : f64} : (tensor<5xf32>, tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %7 = tp.bmm %b3, %bb : (tensor<3x4x8xf32>, tensor<3x8x5xf32>) -> tensor<3x4x5xf32>
  %8 = tp.baddbmm %bs, %b3, %bb : (tensor<1x4x1xf32>, tensor<3x4x8xf32>, tensor<3x8x5xf32>) -> tensor<3x4x5xf32>
  %9 = tp.mm %i, %k : (tensor<3x4xi64>, tensor<4x2xi64>) -> tensor<3x2xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : tensor<4x5xf32>, tensor<2x3x4x5xf32>, tensor<f32>, tensor<5xf32>, tensor<4xf32>,
        tensor<3x5xf32>, tensor<4x5xf32>, tensor<3x4x5xf32>, tensor<3x4x5xf32>,
        tensor<3x2xi64>
}

// CHECK: result #0: tensor<4x5xf32> min=-2.41046929 max=2.44207168 mean=0.141873622
// CHECK: result #1: tensor<2x3x4x5xf32> min=-2.14268994 max=2.35680747 mean=0.123648109
// CHECK: result #2: tensor<f32> min=2.41547585 max=2.41547585 mean=2.41547585
// CHECK: result #3: tensor<5xf32> min=-2.14803553 max=0.65462786 mean=-0.338026848
// CHECK: result #4: tensor<4xf32> min=-1.70261192 max=1.09025764 mean=-0.236190528
// CHECK: result #5: tensor<3x5xf32> min=-1.84789944 max=1.16421294 mean=-0.13866591
// CHECK: result #6: tensor<4x5xf32> min=-5.00276756 max=4.85171318 mean=0.32739113
// CHECK: result #7: tensor<3x4x5xf32> min=-2.03914976 max=2.335217 mean=0.0642138041
// CHECK: result #8: tensor<3x4x5xf32> min=-2.21355319 max=1.83346558 mean=0.0381627128
// CHECK: result #9: tensor<3x2xi64> min=0 max=3 mean=1.33333333
// F64: result #0: tensor<4x5xf64> min=-2.4104691 max=2.44207153 mean=0.141873646
// F64: result #1: tensor<2x3x4x5xf64> min=-2.14269027 max=2.35680743 mean=0.123648101
// F64: result #2: tensor<f64> min=2.41547574 max=2.41547574 mean=2.41547574
// F64: result #3: tensor<5xf64> min=-2.14803536 max=0.654627892 mean=-0.338026799
// F64: result #4: tensor<4xf64> min=-1.70261204 max=1.0902577 mean=-0.236190553
// F64: result #5: tensor<3x5xf64> min=-1.84789944 max=1.1642129 mean=-0.138665915
// F64: result #6: tensor<4x5xf64> min=-5.00276699 max=4.85171304 mean=0.327391192
// F64: result #7: tensor<3x4x5xf64> min=-2.03914981 max=2.33521732 mean=0.0642138197
// F64: result #8: tensor<3x4x5xf64> min=-2.21355322 max=1.83346567 mean=0.0381627342
// F64: result #9: tensor<3x2xi64> min=0 max=3 mean=1.33333333
