// RUN: stax-translate --stax-to-llvmir %s | FileCheck %s

// A module lowered to the LLVM dialect becomes LLVM IR.

// CHECK: define float @add(float %0, float %1)
// CHECK-NEXT: %[[S:.*]] = fadd float %0, %1
// CHECK-NEXT: ret float %[[S]]
llvm.func @add(%a: f32, %b: f32) -> f32 {
  %s = llvm.fadd %a, %b : f32
  llvm.return %s : f32
}
