// A private declaration nothing calls does not stop the object: the codegen
// pipeline drops it (symbol-dce) instead of leaving it in tensor types,
// which --stax-to-object refused ("not in the LLVM dialect"). A declaration
// that is called is an error of --stax-to-loops at the call.
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-opt --stax-pipeline %s -o %t/k.mlir
// RUN: stax-translate --stax-to-object %t/k.mlir -o %t/k.o
// RUN: not stax-opt --stax-pipeline %S/Inputs/called-declaration.mlir 2>&1 | FileCheck %s

// CHECK: called-declaration.mlir:4:8: error: 'func.call' has no CPU code generation

func.func private @unused(tensor<4xf32>) -> tensor<4xf32>
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.add %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
