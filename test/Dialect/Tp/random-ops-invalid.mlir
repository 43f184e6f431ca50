// RUN: stax-opt %s -split-input-file -verify-diagnostics

// Verifier diagnostics of the counter-based random ops (random-ops.mlir).

func.func @bad_state_shape(%s: tensor<3xi64>) {
  // expected-error @+1 {{'tp.rand' op operand #0 must be RNG state tensor<2xi64> ([seed, offset]), but got 'tensor<3xi64>'}}
  %0 = tp.rand %s {counter = 0 : i64} : tensor<3xi64> -> tensor<4xf32>
  return
}

// -----

func.func @bad_state_type(%s: tensor<2xi32>) {
  // expected-error @+1 {{'tp.randn' op operand #0 must be RNG state tensor<2xi64> ([seed, offset]), but got 'tensor<2xi32>'}}
  %0 = tp.randn %s {counter = 0 : i64} : tensor<2xi32> -> tensor<4xf32>
  return
}

// -----

func.func @bad_state_rank(%s: tensor<i64>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'tp.bernoulli' op operand #1 must be RNG state tensor<2xi64> ([seed, offset]), but got 'tensor<i64>'}}
  %0 = tp.bernoulli %x, %s {counter = 0 : i64, p = 0.5 : f64} : (tensor<4xf32>, tensor<i64>) -> tensor<4xf32>
  return
}

// -----

func.func @bad_state_dropout(%s: tensor<1x2xi64>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'tp.dropout_seeded' op operand #1 must be RNG state tensor<2xi64> ([seed, offset]), but got 'tensor<1x2xi64>'}}
  %0:2 = tp.dropout_seeded %x, %s {counter = 0 : i64, p = 0.5 : f64} : (tensor<4xf32>, tensor<1x2xi64>) -> (tensor<4xf32>, tensor<4xi1>)
  return
}

// -----

func.func @negative_counter(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tp.rand' op attribute 'counter' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = tp.rand %s {counter = -1 : i64} : tensor<2xi64> -> tensor<4xf32>
  return
}

// -----

func.func @missing_counter(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tp.rand' op requires attribute 'counter'}}
  %0 = "tp.rand"(%s) : (tensor<2xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @int_result(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tp.rand' op result must be a f16, bf16, f32 or f64 tensor, got 'tensor<4xi32>'}}
  %0 = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<4xi32>
  return
}

// -----

func.func @dynamic_result(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tp.randn' op result must have a static shape}}
  %0 = tp.randn %s {counter = 0 : i64} : tensor<2xi64> -> tensor<?xf32>
  return
}

// -----

func.func @bernoulli_p(%s: tensor<2xi64>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'tp.bernoulli' op p must be in [0, 1], got -0.100000}}
  %0 = tp.bernoulli %x, %s {counter = 0 : i64, p = -0.1 : f64} : (tensor<4xf32>, tensor<2xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @bernoulli_int(%s: tensor<2xi64>, %x: tensor<4xi64>) {
  // expected-error @+1 {{'tp.bernoulli' op self must be a f16, bf16, f32 or f64 tensor}}
  %0 = tp.bernoulli %x, %s {counter = 0 : i64, p = 0.5 : f64} : (tensor<4xi64>, tensor<2xi64>) -> tensor<4xi64>
  return
}

// -----

func.func @bernoulli_type(%s: tensor<2xi64>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'tp.bernoulli' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xi1>'}}
  %0 = tp.bernoulli %x, %s {counter = 0 : i64, p = 0.5 : f64} : (tensor<4xf32>, tensor<2xi64>) -> tensor<4xi1>
  return
}

// -----

func.func @dropout_p(%s: tensor<2xi64>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'tp.dropout_seeded' op p must be in [0, 1], got 1.500000}}
  %0:2 = tp.dropout_seeded %x, %s {counter = 0 : i64, p = 1.5 : f64} : (tensor<4xf32>, tensor<2xi64>) -> (tensor<4xf32>, tensor<4xi1>)
  return
}

// -----

func.func @dropout_int(%s: tensor<2xi64>, %x: tensor<4xi32>) {
  // expected-error @+1 {{'tp.dropout_seeded' op input must be a f16, bf16, f32 or f64 tensor}}
  %0:2 = tp.dropout_seeded %x, %s {counter = 0 : i64, p = 0.5 : f64} : (tensor<4xi32>, tensor<2xi64>) -> (tensor<4xi32>, tensor<4xi1>)
  return
}
