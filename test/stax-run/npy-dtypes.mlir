// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=make --output-dir=%t
// RUN: FileCheck %s --check-prefix=CHECK-I16 --input-file=%t/result0.npy
// RUN: FileCheck %s --check-prefix=CHECK-U8 --input-file=%t/result1.npy
// RUN: stax-run %s --entry=use --input=%t/result0.npy --input=%t/result1.npy --print=exact | FileCheck %s
// RUN: not stax-run %s --entry=brain --output-dir=%t 2>&1 | FileCheck %s --check-prefix=CHECK-BF16

// int16 and uint8 results are written as NumPy's '<i2' and '|u1' and read
// back as i16 and ui8 (uint8 keeps 128..255). bf16 has no NumPy dtype.

// CHECK-I16: {'descr': '<i2', 'fortran_order': False, 'shape': (3,), }
// CHECK-U8: {'descr': '|u1', 'fortran_order': False, 'shape': (3,), }
func.func @make() -> (tensor<3xi16>, tensor<3xui8>) {
  %0 = tp.constant dense<[-32768, -1, 32767]> : tensor<3xi16>
  %1 = tp.constant dense<[0, 128, 255]> : tensor<3xui8>
  return %0, %1 : tensor<3xi16>, tensor<3xui8>
}

// CHECK: result #0: tensor<3xi16>
// CHECK-NEXT: [0] -32767
// CHECK-NEXT: [1] 0
// CHECK-NEXT: [2] -32768
// CHECK: result #1: tensor<3xui8>
// CHECK-NEXT: [0] 1
// CHECK-NEXT: [1] 129
// CHECK-NEXT: [2] 0
func.func @use(%a: tensor<3xi16>, %b: tensor<3xui8>) -> (tensor<3xi16>, tensor<3xui8>) {
  %0 = tp.add.Scalar %a {other = 1 : i64} : tensor<3xi16> -> tensor<3xi16>
  %1 = tp.add.Scalar %b {other = 1 : i64} : tensor<3xui8> -> tensor<3xui8>
  return %0, %1 : tensor<3xi16>, tensor<3xui8>
}

// CHECK-BF16: cannot write element type bf16 to .npy (NumPy has no bfloat16)
func.func @brain() -> tensor<2xbf16> {
  %0 = tp.full {value = 1.5 : f64} : tensor<2xbf16>
  return %0 : tensor<2xbf16>
}
