// Random ops (docs/WritingTp.md): an explicit [seed, offset] state,
// normally an argument marked tp.rng_state, and a counter per op (its
// first Philox block), so that the backward can draw the same mask again.
// The interpreter runs them; compiled code does not have them yet.
//
//   build/bin/stax-run examples/random.mlir --random-inputs
func.func @random(%x: tensor<8xf32>, %state: tensor<2xi64> {tp.rng_state}) -> (tensor<8xf32>, tensor<8xf32>) attributes {tp.rng_blocks = 4 : i64} {
  %out, %mask = tp.dropout_seeded %x, %state {counter = 0 : i64, p = 5.000000e-01 : f64} : (tensor<8xf32>, tensor<2xi64>) -> (tensor<8xf32>, tensor<8xi1>)
  %n = tp.randn %state {counter = 2 : i64} : tensor<2xi64> -> tensor<8xf32>
  return %out, %n : tensor<8xf32>, tensor<8xf32>
}
