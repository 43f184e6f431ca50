// RUN: stax-run %s --random-inputs --seed 0 | FileCheck %s
// RUN: stax-run %s --random-inputs --seed 0 --f64 | FileCheck %s --check-prefix=F64
// Golden summaries (min/max/mean of each result) on seeded inputs; the
// values were checked against PyTorch 1.13's aten ops in float64.
// Reductions of the reference interpreter on seeded random inputs.
func.func @main(%x: tensor<3x4x5xf32>, %b: tensor<3x4xi1>, %i: tensor<3x4xi64>)
    -> (tensor<3x5xf32>, tensor<3x4xf32>, tensor<1x4x1xf32>, tensor<3x4xf32>,
        tensor<3xf32>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<3x5xf32>,
        tensor<3x5xi64>, tensor<i64>, tensor<1x1x1xi64>, tensor<4xi64>,
        tensor<3xi1>, tensor<i1>, tensor<4xi64>, tensor<3xi64>) {
  %sum = tp.sum %x {dims = array<i64: 1>} : tensor<3x4x5xf32> -> tensor<3x5xf32>
  %prod = tp.prod %x {dims = array<i64: 2>} : tensor<3x4x5xf32> -> tensor<3x4xf32>
  %mean = tp.mean %x {dims = array<i64: 0, -1>, keepdim = true} : tensor<3x4x5xf32> -> tensor<1x4x1xf32>
  %amax = tp.amax %x {dims = array<i64: 2>} : tensor<3x4x5xf32> -> tensor<3x4xf32>
  %amin = tp.amin %x {dims = array<i64: 1, 2>} : tensor<3x4x5xf32> -> tensor<3xf32>
  %lse = tp.logsumexp %x {dims = array<i64: 2>} : tensor<3x4x5xf32> -> tensor<3x4xf32>
  %var = tp.var %x {dims = array<i64: 1>} : tensor<3x4x5xf32> -> tensor<3x5xf32>
  %max:2 = tp.max.dim %x {dim = 1 : i64} : tensor<3x4x5xf32> -> tensor<3x5xf32>, tensor<3x5xi64>
  %am = tp.argmax %x : tensor<3x4x5xf32> -> tensor<i64>
  %amk = tp.argmin %x {keepdim = true} : tensor<3x4x5xf32> -> tensor<1x1x1xi64>
  %ami = tp.argmax %i {dim = 0 : i64} : tensor<3x4xi64> -> tensor<4xi64>
  %any = tp.any %b {dims = array<i64: 1>} : tensor<3x4xi1> -> tensor<3xi1>
  %all = tp.all %b {dims = array<i64>} : tensor<3x4xi1> -> tensor<i1>
  %bsum = tp.sum %b {dims = array<i64: 0>} : tensor<3x4xi1> -> tensor<4xi64>
  %isum = tp.sum %i {dims = array<i64: 1>} : tensor<3x4xi64> -> tensor<3xi64>
  return %sum, %prod, %mean, %amax, %amin, %lse, %var, %max#0, %max#1, %am, %amk, %ami, %any, %all, %bsum, %isum
      : tensor<3x5xf32>, tensor<3x4xf32>, tensor<1x4x1xf32>, tensor<3x4xf32>,
        tensor<3xf32>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<3x5xf32>,
        tensor<3x5xi64>, tensor<i64>, tensor<1x1x1xi64>, tensor<4xi64>,
        tensor<3xi1>, tensor<i1>, tensor<4xi64>, tensor<3xi64>
}

// CHECK: result #0: tensor<3x5xf32> min=-1.83045554 max=2.13877773 mean=-0.130158865
// CHECK: result #1: tensor<3x4xf32> min=-0.0814529285 max=0.0272543505 mean=-0.004413928
// CHECK: result #2: tensor<1x4x1xf32> min=-0.224068984 max=0.170558244 mean=-0.0325397104
// CHECK: result #3: tensor<3x4xf32> min=0.158528104 max=0.984290421 mean=0.740099054
// CHECK: result #4: tensor<3xf32> min=-0.960132122 max=-0.769123375 mean=-0.883372486
// CHECK: result #5: tensor<3x4xf32> min=1.3328476 max=2.10739779 mean=1.71884723
// CHECK: result #6: tensor<3x5xf32> min=0.0388348401 max=0.77631712 mean=0.323627159
// CHECK: result #7: tensor<3x5xf32> min=-0.110658184 max=0.984290421 mean=0.570075556
// CHECK: result #8: tensor<3x5xi64> min=0 max=3 mean=1.8
// CHECK: result #9: tensor<i64> min=1 max=1 mean=1
// CHECK: result #10: tensor<1x1x1xi64> min=25 max=25 mean=25
// CHECK: result #11: tensor<4xi64> min=0 max=1 mean=0.25
// CHECK: result #12: tensor<3xi1> min=1 max=1 mean=1
// CHECK: result #13: tensor<i1> min=0 max=0 mean=0
// CHECK: result #14: tensor<4xi64> min=1 max=2 mean=1.5
// CHECK: result #15: tensor<3xi64> min=1 max=3 mean=2
// F64: result #0: tensor<3x5xf64> min=-1.83045554 max=2.13877764 mean=-0.130158882
// F64: result #1: tensor<3x4xf64> min=-0.0814529263 max=0.0272543524 mean=-0.00441392744
// F64: result #2: tensor<1x4x1xf64> min=-0.224069023 max=0.170558255 mean=-0.0325397204
// F64: result #3: tensor<3x4xf64> min=0.158528104 max=0.984290421 mean=0.740099054
// F64: result #4: tensor<3xf64> min=-0.960132122 max=-0.769123375 mean=-0.883372486
// F64: result #5: tensor<3x4xf64> min=1.33284746 max=2.10739782 mean=1.7188472
// F64: result #6: tensor<3x5xf64> min=0.03883484 max=0.776317188 mean=0.323627165
// F64: result #7: tensor<3x5xf64> min=-0.110658184 max=0.984290421 mean=0.570075556
// F64: result #8: tensor<3x5xi64> min=0 max=3 mean=1.8
// F64: result #9: tensor<i64> min=1 max=1 mean=1
// F64: result #10: tensor<1x1x1xi64> min=25 max=25 mean=25
// F64: result #11: tensor<4xi64> min=0 max=1 mean=0.25
// F64: result #12: tensor<3xi1> min=1 max=1 mean=1
// F64: result #13: tensor<i1> min=0 max=0 mean=0
// F64: result #14: tensor<4xi64> min=1 max=2 mean=1.5
// F64: result #15: tensor<3xi64> min=1 max=3 mean=2
