// RUN: stax-opt %s --stax-decompose="keep=tp.relu" -verify-diagnostics
// RUN: not stax-opt %s --stax-decompose="only=tp._softmax,no_such_op" 2>&1 | FileCheck %s

// The options name ops of the decomposition table only.

// CHECK: error: stax-decompose: only names 'no_such_op', which has no decomposition

// expected-error @below {{stax-decompose: keep names 'tp.relu', which has no decomposition}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tp.relu %x : tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
