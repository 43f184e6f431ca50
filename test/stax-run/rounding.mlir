// RUN: stax-run %s | FileCheck %s
// RUN: stax-run %s --f64 | FileCheck %s --check-prefix=F64

// Each primitive rounds to its element type: in f32, 2^24 + 1 is not
// representable, so (2^24 + 1) - 2^24 is 0; in f64 it is 1.
func.func @main() -> tensor<f32> {
  %a = tp.full {value = 16777216.0 : f64} : tensor<f32>
  %0 = tp.add.Scalar %a {other = 1 : i64} : tensor<f32> -> tensor<f32>
  %1 = tp.sub %0, %a : tensor<f32>, tensor<f32> -> tensor<f32>
  return %1 : tensor<f32>
}
// CHECK: result #0: tensor<f32> min=0 max=0
// F64: result #0: tensor<f64> min=1 max=1
