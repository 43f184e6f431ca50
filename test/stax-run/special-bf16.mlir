// RUN: stax-run %s --print=exact | FileCheck %s
// RUN: stax-opt %s --stax-lower | FileCheck %s --check-prefix=LOWER

// nextafter steps in bf16, not in the f32 it computes other functions in
// (interpreted only: lowering keeps a half-precision nextafter a tp op).
// PyTorch 1.13: [1.0078125, -9.18354962e-41, 3, nan, -1.0078125].
func.func @bf16() -> tensor<5xbf16> {
  %a = tp.constant dense<[1.0, 0.0, 3.0, 0x7FC0, -1.0]> : tensor<5xbf16>
  %b = tp.constant dense<[2.0, -1.0, 3.0, 1.0, -2.0]> : tensor<5xbf16>
  %n = tp.nextafter %a, %b : tensor<5xbf16>, tensor<5xbf16> -> tensor<5xbf16>
  return %n : tensor<5xbf16>
}
// CHECK: result #0: tensor<5xbf16>
// CHECK-NEXT:   [0] 1.008{{$}}
// CHECK-NEXT:   [1] -9.184e-41{{$}}
// CHECK-NEXT:   [2] 3{{$}}
// CHECK-NEXT:   [3] nan{{$}}
// CHECK-NEXT:   [4] -1.008{{$}}
// LOWER: tp.nextafter
