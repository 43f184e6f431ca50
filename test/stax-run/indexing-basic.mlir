// RUN: stax-run %s --random-inputs --seed 0 | FileCheck %s
// RUN: stax-run %s --random-inputs --seed 0 --f64 | FileCheck %s --check-prefix=F64
// Golden summaries (min/max/mean of each result) on seeded inputs; the
// values were checked against PyTorch 1.13's aten ops in float64.
// Advanced indexing (adjacent and non-adjacent dims), index_put, gather,
// scatter, embedding on seeded random inputs (random indices lie in [0, 2)).
func.func @main(%x: tensor<5x4x3xf32>, %i: tensor<2x2xi64>, %j: tensor<2xi64>,
                %v: tensor<2x2x4xf32>, %g3: tensor<5x2x3xi64>, %src: tensor<5x4x3xf32>,
                %w: tensor<6x3xf32>, %go: tensor<2x2x3xf32>)
    -> (tensor<2x2x4xf32>, tensor<5x2x2xf32>, tensor<5x4x3xf32>, tensor<5x4x3xf32>,
        tensor<5x2x3xf32>, tensor<5x4x3xf32>, tensor<5x4x3xf32>, tensor<5x2x3xf32>,
        tensor<2x2x3xf32>, tensor<6x3xf32>) {
  %a = tp.index %x[%i, %j] {dims = array<i64: 0, 2>} : (tensor<5x4x3xf32>, tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2x4xf32>
  %b = tp.index %x[%i, %j] {dims = array<i64: 1, 2>} : (tensor<5x4x3xf32>, tensor<2x2xi64>, tensor<2xi64>) -> tensor<5x2x2xf32>
  %c = tp.index_put %x[%i, %j], %v {dims = array<i64: 0, 2>} : (tensor<5x4x3xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2x2x4xf32>) -> tensor<5x4x3xf32>
  %d = tp.index_put %x[%i, %j], %v {dims = array<i64: 0, 2>, accumulate = true} : (tensor<5x4x3xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2x2x4xf32>) -> tensor<5x4x3xf32>
  %e = tp.gather %x, %g3 {dim = 1 : i64} : (tensor<5x4x3xf32>, tensor<5x2x3xi64>) -> tensor<5x2x3xf32>
  %f = tp.scatter %x, %g3, %src {dim = 1 : i64} : (tensor<5x4x3xf32>, tensor<5x2x3xi64>, tensor<5x4x3xf32>) -> tensor<5x4x3xf32>
  %h = tp.scatter_add %x, %g3, %src {dim = 1 : i64} : (tensor<5x4x3xf32>, tensor<5x2x3xi64>, tensor<5x4x3xf32>) -> tensor<5x4x3xf32>
  %s = tp.index_select %x, %j {dim = 1 : i64} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<5x2x3xf32>
  %em = tp.embedding %w, %i : (tensor<6x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
  %eb = tp.embedding_dense_backward %go, %i {num_weights = 6 : i64, padding_idx = 0 : i64, scale_grad_by_freq = true}
      : (tensor<2x2x3xf32>, tensor<2x2xi64>) -> tensor<6x3xf32>
  return %a, %b, %c, %d, %e, %f, %h, %s, %em, %eb
      : tensor<2x2x4xf32>, tensor<5x2x2xf32>, tensor<5x4x3xf32>, tensor<5x4x3xf32>,
        tensor<5x2x3xf32>, tensor<5x4x3xf32>, tensor<5x4x3xf32>, tensor<5x2x3xf32>,
        tensor<2x2x3xf32>, tensor<6x3xf32>
}

// CHECK: result #0: tensor<2x2x4xf32> min=-0.680413246 max=0.860862195 mean=0.0975343045
// CHECK: result #1: tensor<5x2x2xf32> min=-0.769123375 max=0.860862195 mean=-0.15260915
// CHECK: result #2: tensor<5x4x3xf32> min=-0.988720298 max=0.984290421 mean=-0.124944402
// CHECK: result #3: tensor<5x4x3xf32> min=-1.53018069 max=1.2802422 mean=-0.0729254229
// CHECK: result #4: tensor<5x2x3xf32> min=-0.885680437 max=0.984290421 mean=-0.172286366
// CHECK: result #5: tensor<5x4x3xf32> min=-0.992483556 max=0.970941007 mean=-0.008124868
// CHECK: result #6: tensor<5x4x3xf32> min=-1.48475718 max=0.970941007 mean=-0.0794851627
// CHECK: result #7: tensor<5x2x3xf32> min=-0.960132122 max=0.984290421 mean=-0.110833603
// CHECK: result #8: tensor<2x2x3xf32> min=-0.981499076 max=0.503116906 mean=-0.145875262
// CHECK: result #9: tensor<6x3xf32> min=-0.542587876 max=0.425756395 mean=-0.0032275315
// F64: result #0: tensor<2x2x4xf64> min=-0.680413246 max=0.860862195 mean=0.0975343045
// F64: result #1: tensor<5x2x2xf64> min=-0.769123375 max=0.860862195 mean=-0.15260915
// F64: result #2: tensor<5x4x3xf64> min=-0.988720298 max=0.984290421 mean=-0.124944402
// F64: result #3: tensor<5x4x3xf64> min=-1.53018069 max=1.28024215 mean=-0.0729254262
// F64: result #4: tensor<5x2x3xf64> min=-0.885680437 max=0.984290421 mean=-0.172286366
// F64: result #5: tensor<5x4x3xf64> min=-0.992483556 max=0.970941007 mean=-0.008124868
// F64: result #6: tensor<5x4x3xf64> min=-1.48475723 max=0.970941007 mean=-0.079485161
// F64: result #7: tensor<5x2x3xf64> min=-0.960132122 max=0.984290421 mean=-0.110833603
// F64: result #8: tensor<2x2x3xf64> min=-0.981499076 max=0.503116906 mean=-0.145875262
// F64: result #9: tensor<6x3xf64> min=-0.542587906 max=0.425756405 mean=-0.00322753205
