// RUN: stax-translate --stax-to-llvmir -split-input-file -verify-diagnostics %s
// RUN: stax-translate --stax-to-llvmir -split-input-file %s 2>/dev/null | FileCheck %s

// stax-translate reads every Stax dialect. A module lowered to the LLVM
// dialect becomes LLVM IR; tp and stax ops are named, with what to do.

// CHECK: define float @add(float %0, float %1)
// CHECK-NEXT: %[[S:.*]] = fadd float %0, %1
// CHECK-NEXT: ret float %[[S]]
llvm.func @add(%a: f32, %b: f32) -> f32 {
  %s = llvm.fadd %a, %b : f32
  llvm.return %s : f32
}

// -----

func.func @tp_module(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tp.exp' is not in the LLVM dialect: lower the module to LLVM first (stax-opt with the code-generation pipeline)}}
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
