// RUN: not stax-run --jit --random-inputs %s 2>&1 | FileCheck %s

// A function whose only op is its return has no tp op to reject an element
// type that no PyTorch dtype has: compiling it is a one-line error naming
// the type (it used to corrupt the heap while packing the buffers).
// CHECK: jit-unsupported-element-type.mlir:[[@LINE+1]]:1: error: compiled code cannot take or return 'tensor<2xf80>': its element type is no PyTorch dtype's (f16, bf16, f32, f64, i1, i8, ui8, i16, i32, i64)
func.func @identity(%x: tensor<2xf80>) -> tensor<2xf80> {
  return %x : tensor<2xf80>
}
