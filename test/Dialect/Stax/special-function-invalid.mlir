// RUN: stax-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of stax.special_function.

func.func @arity(%a: f32, %b: f32) {
  // expected-error @+1 {{'stax.special_function' op 'lgamma' takes 1 operand(s), not 2}}
  %0 = stax.special_function lgamma(%a, %b) : (f32, f32) -> f32
  return
}

// -----

func.func @nextafter_arity(%a: f32) {
  // expected-error @+1 {{'stax.special_function' op 'nextafter' takes 2 operand(s), not 1}}
  %0 = stax.special_function nextafter(%a) : (f32) -> f32
  return
}

// -----

func.func @half(%a: f16) {
  // expected-error @+1 {{'stax.special_function' op operands must be f32 or f64 (the runtime's types), not 'f16'}}
  %0 = stax.special_function erfinv(%a) : (f16) -> f16
  return
}

// -----

func.func @mixed(%a: f32, %b: f64) {
  // expected-error @+1 {{'stax.special_function' op operands must have one type}}
  %0 = stax.special_function nextafter(%a, %b) : (f32, f64) -> f32
  return
}

// -----

func.func @result_type(%a: f32) {
  // expected-error @+1 {{'stax.special_function' op result must be 'f32', not 'f64'}}
  %0 = stax.special_function erfcx(%a) : (f32) -> f64
  return
}

// -----

func.func @exponent_type(%a: f64) {
  // expected-error @+1 {{'stax.special_function' op result must be 'i32', not 'f64'}}
  %0 = stax.special_function frexp_exponent(%a) : (f64) -> f64
  return
}

// -----

func.func @order_missing(%a: f32) {
  // expected-error @+1 {{'stax.special_function' op takes an order n if and only if it is 'polygamma'}}
  %0 = stax.special_function polygamma(%a) : (f32) -> f32
  return
}

// -----

func.func @order_extra(%a: f32) {
  // expected-error @+1 {{'stax.special_function' op takes an order n if and only if it is 'polygamma'}}
  %0 = stax.special_function digamma(%a) {n = 1 : i64} : (f32) -> f32
  return
}

// -----

func.func @order_negative(%a: f32) {
  // expected-error @+1 {{'stax.special_function' op order n = -2 must be >= 0}}
  %0 = stax.special_function polygamma(%a) {n = -2 : i64} : (f32) -> f32
  return
}
