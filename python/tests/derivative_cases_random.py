"""Derivative cases of the random ops: with the RNG state an operand, they
are deterministic, so their derivatives are checked like any other op's."""

CASES = [
    ("dropout_seeded", """
func.func @f(%x: tensor<4x8xf64> {tp.requires_grad}, %s: tensor<2xi64>) -> (tensor<4x8xf64>, tensor<4x8xi1>) {
  %o, %m = tp.dropout_seeded %x, %s {counter = 0 : i64, p = 0.25 : f64} : (tensor<4x8xf64>, tensor<2xi64>) -> (tensor<4x8xf64>, tensor<4x8xi1>)
  return %o, %m : tensor<4x8xf64>, tensor<4x8xi1>
}
""", [("float", (4, 8)), ("index", (2,), 0, 1000)]),
    ("bernoulli", """
func.func @f(%p: tensor<16xf64> {tp.requires_grad}, %s: tensor<2xi64>) -> tensor<16xf64> {
  %b = tp.bernoulli %p, %s {counter = 0 : i64} : (tensor<16xf64>, tensor<2xi64>) -> tensor<16xf64>
  %y = tp.mul %b, %p : tensor<16xf64>, tensor<16xf64> -> tensor<16xf64>
  return %y : tensor<16xf64>
}
""", [("positive", (16,)), ("index", (2,), 0, 1000)]),
]
