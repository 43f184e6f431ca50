// RUN: stax-opt %s -split-input-file -verify-diagnostics --stax-checkpoint
// RUN: not stax-opt %s -split-input-file --stax-checkpoint="schedule=treeverse" 2>&1 | FileCheck %s --check-prefix=CHECK-SCHED
// RUN: not stax-opt %s -split-input-file --stax-checkpoint="report=/nonexistent/dir/r.json" 2>&1 | FileCheck %s --check-prefix=CHECK-REPORT

// CHECK-SCHED: for the --schedule option: Cannot find option named 'treeverse'!
// CHECK-REPORT: error: cannot write /nonexistent/dir/r.json

// A module without a joint function.
// expected-error @below {{no joint function (tp.joint_outputs) to checkpoint; run --stax-joint-graph first}}
module {
  func.func @f(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
    %y = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// Marked joint, but an op has no phase.
func.func @nophase(%x: tensor<4xf32>, %t: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  // expected-error @below {{has no tp.phase in a joint function (run --stax-joint-graph first)}}
  %y = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
  %g = tp.mul %t, %y {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// Two outputs computed from disjoint inputs: no value lies on every path.
// expected-remark @below {{no chain of layers: no forward value lies on every path from the inputs to the outputs; left unchanged}}
func.func @nochain(%x: tensor<4xf32> {tp.requires_grad}, %y: tensor<4xf32> {tp.requires_grad}, %t0: tensor<4xf32> {tp.tangent}, %t1: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 2 : i64} {
  %a = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %b = tp.exp %y {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %ga = tp.mul %t0, %a {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %gb = tp.mul %t1, %b {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %a, %b, %ga, %gb : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// exp then sum: a chain of one step, below the default min-chain-length=2.
// expected-remark @below {{chain length 1 is below min-chain-length=2; left unchanged}}
func.func @short(%x: tensor<4xf32> {tp.requires_grad}, %t: tensor<f32> {tp.tangent}) -> (tensor<f32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
  %a = tp.exp %x {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
  %s = tp.sum %a {dims = array<i64>, tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<f32>
  %e = tp.expand %t {size = array<i64: 4>, tp.phase = #tp.phase<bw>} : tensor<f32> -> tensor<4xf32>
  %g = tp.mul %e, %a {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %s, %g : tensor<f32>, tensor<4xf32>
}
