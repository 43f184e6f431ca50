// One function per op family of tp, to read next to docs/WritingTp.md.
// Every function runs: build/bin/stax-run examples/ops.mlir --entry=<name> --random-inputs

// Elementwise: unary, binary (broadcasting), with a scalar, selection.
func.func @elementwise(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = tp.exp %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tp.add %0, %y {alpha = 2 : i64} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %2 = tp.mul.Scalar %1 {other = 5.000000e-01 : f64} : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = tp.gt.Scalar %x {other = 0 : i64} : tensor<2x3xf32> -> tensor<2x3xi1>
  %4 = tp.where %3, %2, %x : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

// Reductions: over listed dims (empty: all), keepdim, values and indices.
func.func @reductions(%x: tensor<4x5xf32>) -> (tensor<4x1xf32>, tensor<f32>, tensor<5xi64>) {
  %0 = tp.sum %x {dims = array<i64: 1>, keepdim = true} : tensor<4x5xf32> -> tensor<4x1xf32>
  %1 = tp.amax %x {dims = array<i64>} : tensor<4x5xf32> -> tensor<f32>
  %v, %i = tp.max.dim %x {dim = 0 : i64} : tensor<4x5xf32> -> tensor<5xf32>, tensor<5xi64>
  return %0, %1, %i : tensor<4x1xf32>, tensor<f32>, tensor<5xi64>
}

// Shapes and views: no data moves once lowered.
func.func @views(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<3x2xf32>) {
  %0 = tp.view %x {size = array<i64: 6, 4>} : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = tp.t %0 : tensor<6x4xf32> -> tensor<4x6xf32>
  %2 = tp.select %x {dim = 2 : i64, index = 0 : i64} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %3 = tp.transpose %2 {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %1, %3 : tensor<4x6xf32>, tensor<3x2xf32>
}

// Indexing: gathers by data-dependent indices (--random-inputs draws
// integers in [0, 2), valid indices here).
func.func @indexing(%table: tensor<10x4xf32>, %ids: tensor<3xi64>) -> (tensor<3x4xf32>, tensor<10x4xf32>) {
  %0 = tp.embedding %table, %ids : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  %1 = tp.index_put %table[%ids], %0 {dims = array<i64: 0>, accumulate = true} : (tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>) -> tensor<10x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<10x4xf32>
}

// NN: softmax, layer norm, a loss.
func.func @nn(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>, %t: tensor<4xi64>) -> tensor<f32> {
  %n, %mean, %rstd = tp.native_layer_norm %x weight(%w) bias(%b) {eps = 1.000000e-05 : f64, normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  %p = tp._log_softmax %n {dim = 1 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  %loss, %total = tp.nll_loss_forward %p, %t {reduction = #tp.reduction<mean>} : (tensor<4x8xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<f32>)
  return %loss : tensor<f32>
}

// Linear algebra.
func.func @linalg(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>, %v: tensor<8xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>) {
  %0 = tp.bmm %a, %b : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  %1 = tp.matmul %a, %v : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
  return %0, %1 : tensor<2x4x3xf32>, tensor<2x4xf32>
}

// Creation: shape and dtype come from the result type.
func.func @creation() -> (tensor<2x3xf32>, tensor<5xi64>, tensor<2xf32>) {
  %0 = tp.full {value = 1 : i64} : tensor<2x3xf32>
  %1 = tp.arange {start = 0 : i64, end = 5 : i64} : tensor<5xi64>
  %2 = tp.constant dense<[1.5, -2.0]> : tensor<2xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<5xi64>, tensor<2xf32>
}
