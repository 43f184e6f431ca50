// Narrow integer products (i8, ui8, i16, i32) compile to the runtime's
// wrapping loop nests (stax_rt_matmul_i8/i16/i32; ui8 multiplies as i8,
// the same bits modulo 256): they ran in PyTorch before. Products and sums
// wrap modulo 2^bits like eager's integer kernels and the interpreter's,
// so compiled results equal the interpreter's bitwise, transposed operands
// and batches included.
// RUN: stax-run %s --entry=narrow --random-inputs --int-low=-100 --int-high=100 --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=narrow --random-inputs --int-low=-100 --int-high=100 --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=wraps --print-values --jit | FileCheck %s
// RUN: stax-run %s --entry=wraps --print-values | FileCheck %s

func.func @narrow(%a: tensor<5x7xi8>, %b: tensor<7x3xi8>, %c: tensor<6x9xi16>,
                  %d: tensor<4x9xi16>, %e: tensor<2x5x6xi32>, %f: tensor<2x6x4xi32>,
                  %u: tensor<3x4xui8>, %v: tensor<4x5xui8>)
    -> (tensor<5x3xi8>, tensor<6x4xi16>, tensor<2x5x4xi32>, tensor<3x5xui8>) {
  %0 = tp.mm %a, %b : (tensor<5x7xi8>, tensor<7x3xi8>) -> tensor<5x3xi8>
  %dt = tp.t %d : tensor<4x9xi16> -> tensor<9x4xi16>
  %1 = tp.mm %c, %dt : (tensor<6x9xi16>, tensor<9x4xi16>) -> tensor<6x4xi16>
  %2 = tp.bmm %e, %f : (tensor<2x5x6xi32>, tensor<2x6x4xi32>) -> tensor<2x5x4xi32>
  %3 = tp.mm %u, %v : (tensor<3x4xui8>, tensor<4x5xui8>) -> tensor<3x5xui8>
  return %0, %1, %2, %3 : tensor<5x3xi8>, tensor<6x4xi16>, tensor<2x5x4xi32>, tensor<3x5xui8>
}

// 100 * 100 + 100 * 100 = 20000 = 32 (mod 256) in i8; 200 * 200 + 1 * 1 =
// 40001 = 65 (mod 256) in ui8; 2^30 * 4 = 0 (mod 2^32) in i32.
// CHECK: result #0: tensor<1x1xi8>
// CHECK-NEXT: [32]
// CHECK: result #1: tensor<1x1xui8>
// CHECK-NEXT: [65]
// CHECK: result #2: tensor<1x1xi32>
// CHECK-NEXT: [0]
func.func @wraps() -> (tensor<1x1xi8>, tensor<1x1xui8>, tensor<1x1xi32>) {
  %a = tp.constant dense<[[100, 100]]> : tensor<1x2xi8>
  %b = tp.constant dense<[[100], [100]]> : tensor<2x1xi8>
  %u = tp.constant dense<[[200, 1]]> : tensor<1x2xui8>
  %v = tp.constant dense<[[200], [1]]> : tensor<2x1xui8>
  %x = tp.constant dense<[[1073741824]]> : tensor<1x1xi32>
  %y = tp.constant dense<[[4]]> : tensor<1x1xi32>
  %0 = tp.mm %a, %b : (tensor<1x2xi8>, tensor<2x1xi8>) -> tensor<1x1xi8>
  %1 = tp.mm %u, %v : (tensor<1x2xui8>, tensor<2x1xui8>) -> tensor<1x1xui8>
  %2 = tp.mm %x, %y : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
  return %0, %1, %2 : tensor<1x1xi8>, tensor<1x1xui8>, tensor<1x1xi32>
}
