// RUN: stax-translate --stax-to-llvmir -split-input-file -verify-diagnostics %s

// stax-translate reads every Stax dialect; the tp and stax ops of a module
// that is not lowered yet are named, with what to do (llvm-module.mlir has
// the positive case).

func.func @tp_module(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tp.exp' is not in the LLVM dialect: lower the module to LLVM first (stax-opt --stax-pipeline)}}
  %y = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @stax_module(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    // expected-error @+1 {{'stax.load' is not in the LLVM dialect}}
    %v = stax.load %x[%i] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %r : tensor<4xf32>
}
