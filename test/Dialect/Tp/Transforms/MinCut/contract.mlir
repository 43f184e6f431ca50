// RUN: stax-opt %s -split-input-file -verify-diagnostics --stax-mincut
// RUN: stax-opt %s -split-input-file -verify-diagnostics --stax-checkpoint

// The joint-graph contract the partitioners rely on is checked, and each
// violation is one error at the offending op or function (these inputs used
// to crash --stax-mincut).

// expected-error @+1 {{'func.func' op attribute 'tp.joint_outputs' is -1, but it must be less than the number of results (2)}}
func.func @negative(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = -1 : i64} {
  %y = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op attribute 'tp.joint_outputs' is 2, but it must be less than the number of results (2)}}
func.func @all_outputs(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 2 : i64} {
  %y = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op attribute 'tp.joint_outputs' is 7, but it must be less than the number of results (2)}}
func.func @too_many(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 7 : i64} {
  %y = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// The forward result was removed: what is left in its place is a gradient.
func.func @forward_result_removed(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  %y = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // expected-error @+1 {{returns forward output #0, but the backward computes it}}
  return %g, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @forward_reads_backward(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  %y = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // expected-error @+1 {{is a forward op but its operand #1 is a backward value or a tangent}}
  %z = tp.mul %y, %g {tp.phase = #tp.phase<fw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %z, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @forward_reads_tangent(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  // expected-error @+1 {{is a forward op but its operand #1 is a backward value or a tangent}}
  %y = tp.mul %x, %t {tp.phase = #tp.phase<fw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @no_phase(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  // expected-error @+1 {{has no tp.phase in a joint function (run --stax-joint-graph first)}}
  %y = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// A phase that is not #tp.phase<...> is rejected by the dialect.
func.func @string_phase(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  // expected-error @+1 {{'tp.exp' op attribute 'tp.phase' must be #tp.phase<fw> or #tp.phase<bw>}}
  %y = tp.exp %x {tp.phase = "fw"} : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @in_place(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  %y = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  // expected-error-re @+1 {{in-place op 'tp.mul_': --stax-{{mincut|checkpoint}} needs functional tp; run --stax-functionalize first}}
  %g = "tp.mul_"(%t, %y) {tp.phase = #tp.phase<bw>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// A JVP of a joint graph (Hessian-vector products) is no joint graph: its
// tangent results are not gradients, and --stax-jvp drops the joint marks.
// This input is what --stax-jvp used to leave behind.
func.func @after_jvp(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<4xf32> {tp.tangent}, %v: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  %y = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // expected-error @+1 {{has no tp.phase in a joint function (run --stax-joint-graph first)}}
  %dy = tp.mul %v, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %g, %dy : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
