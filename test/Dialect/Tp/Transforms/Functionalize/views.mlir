// RUN: stax-opt %s --stax-functionalize -split-input-file -verify-diagnostics

// Mutations through views are not supported yet: the error names the
// in-place op and the view.

func.func @through_view(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %v = tp.view %x {size = array<i64: 12>} : tensor<4x3xf32> -> tensor<12xf32>
  // expected-error @+1 {{'tp.add_.Scalar' op mutates the result of 'tp.view': mutation through a view is not supported yet}}
  %0 = tp.add_.Scalar %v {other = 1 : i64} : tensor<12xf32> -> tensor<12xf32>
  return %x : tensor<4x3xf32>
}

// -----

// The viewed tensor is read after the mutation: not a temporary.
func.func @base_read_later(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %y = tp.clone %x : tensor<4x3xf32> -> tensor<4x3xf32>
  %t = tp.t %y : tensor<4x3xf32> -> tensor<3x4xf32>
  // expected-error @+1 {{'tp.mul_.Scalar' op mutates the result of 'tp.t': mutation through a view is not supported yet}}
  %0 = tp.mul_.Scalar %t {other = 2 : i64} : tensor<3x4xf32> -> tensor<3x4xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @select_row(%x: tensor<4x3xf32>, %r: tensor<3xf32>) -> tensor<4x3xf32> {
  %s = tp.select %x {dim = 0 : i64, index = 1 : i64} : tensor<4x3xf32> -> tensor<3xf32>
  // expected-error @+1 {{'tp.copy_' op mutates the result of 'tp.select': mutation through a view is not supported yet}}
  %0 = tp.copy_ %s, %r : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %x : tensor<4x3xf32>
}

// -----

// A view of the mutated tensor read afterwards would see the mutation.
func.func @view_read_later(%x: tensor<4x3xf32>) -> tensor<12xf32> {
  %y = tp.clone %x : tensor<4x3xf32> -> tensor<4x3xf32>
  %v = tp.view %y {size = array<i64: 12>} : tensor<4x3xf32> -> tensor<12xf32>
  // expected-error @+1 {{'tp.relu_' op mutates a tensor whose view (the result of 'tp.view') is read afterwards: mutation of a viewed tensor is not supported yet}}
  %0 = tp.relu_ %y : tensor<4x3xf32> -> tensor<4x3xf32>
  return %v : tensor<12xf32>
}

// -----

// Copy-back through calls is not supported yet.
// expected-error @+1 {{mutates its arguments and is called: copy-back through calls is not supported yet}}
func.func @callee(%x: tensor<4xf32>) {
  %0 = tp.zero_ %x : tensor<4xf32> -> tensor<4xf32>
  return
}
func.func @caller(%x: tensor<4xf32>) {
  call @callee(%x) : (tensor<4xf32>) -> ()
  return
}
