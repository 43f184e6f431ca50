// The Stax pipelines are pipelines of module passes: nested below the
// module they are an error naming the anchor (adding a module pass there
// was a fatal error, and the lowering pipeline did nothing), at the top they
// run.
// RUN: not stax-opt %s --pass-pipeline="builtin.module(func.func(stax-pipeline))" 2>&1 | FileCheck %s --check-prefix=CHECK-NESTED
// RUN: not stax-opt %s --pass-pipeline="builtin.module(func.func(stax-lowering-pipeline))" 2>&1 | FileCheck %s --check-prefix=CHECK-NESTED-LOWERING
// RUN: stax-opt %s --pass-pipeline="builtin.module(stax-lowering-pipeline)" | FileCheck %s --check-prefix=CHECK-TOP
// RUN: stax-opt %s --pass-pipeline="builtin.module(stax-pipeline{target=cpu})" | FileCheck %s --check-prefix=CHECK-TOP-LLVM
// A module nested in the input is compiled by running the pipeline on it.
// RUN: stax-opt %s --split-input-file --pass-pipeline="builtin.module(builtin.module(stax-pipeline{target=cpu}))" | FileCheck %s --check-prefix=CHECK-INNER

// CHECK-NESTED: error: 'stax-pipeline' runs on a builtin.module, not nested on 'func.func'
// CHECK-NESTED-LOWERING: error: 'stax-lowering-pipeline' runs on a builtin.module, not nested on 'func.func'
// CHECK-TOP: stax.pointwise
// CHECK-TOP-LLVM: llvm.func @double

func.func @double(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tp.add %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-INNER: module @inner
// CHECK-INNER: llvm.func @inner_double
module @outer {
  module @inner {
    func.func @inner_double(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = tp.add %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
  }
}
