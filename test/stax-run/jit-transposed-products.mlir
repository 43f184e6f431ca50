// Products read only through a transpose are computed transposed by one
// runtime call, (A B)^T = B^T A^T, with the operands swapped and their
// transpose flags flipped. i64 products are exact (and wrap like the
// interpreter's), so the compiled results must equal the interpreter's
// bitwise; the intermediate values stay in the arena (@chain) and the
// batched form swaps each batch's operands (@batched). A view that merges
// the batch into the transposed rows (an unbatched attention's key
// gradient) is not a per-batch transpose: the product is written row-major
// and the node transposes it (@batch_in_rows).
// RUN: stax-run %s --entry=weight_grad --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.wg.interp
// RUN: FileCheck %s --check-prefix=CHECK-WG --input-file=%t.wg.interp
// RUN: stax-run %s --entry=weight_grad --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.wg.jit
// RUN: diff %t.wg.interp %t.wg.jit
// RUN: stax-run %s --entry=chain --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.chain.interp
// RUN: FileCheck %s --check-prefix=CHECK-CHAIN --input-file=%t.chain.interp
// RUN: stax-run %s --entry=chain --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.chain.jit
// RUN: diff %t.chain.interp %t.chain.jit
// RUN: stax-run %s --entry=batched --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.batched.interp
// RUN: FileCheck %s --check-prefix=CHECK-BATCHED --input-file=%t.batched.interp
// RUN: stax-run %s --entry=batched --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.batched.jit
// RUN: diff %t.batched.interp %t.batched.jit
// RUN: stax-run %s --entry=batch_in_rows --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.rows.interp
// RUN: FileCheck %s --check-prefix=CHECK-ROWS --input-file=%t.rows.interp
// RUN: stax-run %s --entry=batch_in_rows --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.rows.jit
// RUN: diff %t.rows.interp %t.rows.jit
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1" %s | FileCheck %s --check-prefix=CHECK-ROWS-LOOPS

// CHECK-WG: result #0: tensor<3x8xi64> fnv1a64=0x{{[0-9a-f]+}}
func.func @weight_grad(%x: tensor<5x8xi64>, %g: tensor<5x3xi64>) -> tensor<3x8xi64> {
  %xt = tp.t %x : tensor<5x8xi64> -> tensor<8x5xi64>
  %0 = tp.mm %xt, %g : (tensor<8x5xi64>, tensor<5x3xi64>) -> tensor<8x3xi64>
  %1 = tp.t %0 : tensor<8x3xi64> -> tensor<3x8xi64>
  return %1 : tensor<3x8xi64>
}

// The transposed product is an intermediate in the arena (the sort and
// the second product read its buffer), written by the first call.
// CHECK-CHAIN: result #0: tensor<6x7xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CHAIN-NEXT: result #1: tensor<3x7xi64> fnv1a64=0x{{[0-9a-f]+}}
func.func @chain(%a: tensor<7x4xi64>, %b: tensor<4x3xi64>, %c: tensor<6x3xi64>) -> (tensor<6x7xi64>, tensor<3x7xi64>) {
  %0 = tp.mm %a, %b : (tensor<7x4xi64>, tensor<4x3xi64>) -> tensor<7x3xi64>
  %1 = tp.t %0 : tensor<7x3xi64> -> tensor<3x7xi64>
  %2 = tp.mm %c, %1 : (tensor<6x3xi64>, tensor<3x7xi64>) -> tensor<6x7xi64>
  %3:2 = tp.sort %1 {dim = 1 : i64} : tensor<3x7xi64> -> tensor<3x7xi64>, tensor<3x7xi64>
  return %2, %3#0 : tensor<6x7xi64>, tensor<3x7xi64>
}

// CHECK-BATCHED: result #0: tensor<2x6x5xi64> fnv1a64=0x{{[0-9a-f]+}}
func.func @batched(%a: tensor<2x5x4xi64>, %b: tensor<2x4x6xi64>) -> tensor<2x6x5xi64> {
  %0 = tp.bmm %a, %b : (tensor<2x5x4xi64>, tensor<2x4x6xi64>) -> tensor<2x5x6xi64>
  %1 = tp.transpose %0 {dim0 = 1 : i64, dim1 = 2 : i64} : tensor<2x5x6xi64> -> tensor<2x6x5xi64>
  return %1 : tensor<2x6x5xi64>
}

// The transpose of the 4 x 3 rows of both batches: one row-major product
// call, then the transposing loop.
// CHECK-ROWS: result #0: tensor<3x4xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ROWS-LOOPS-LABEL: func.func @batch_in_rows(
// CHECK-ROWS-LOOPS: call @stax_rt_matmul_i64(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}},
// CHECK-ROWS-LOOPS: scf.for
// CHECK-ROWS-LOOPS: memref.store
func.func @batch_in_rows(%a: tensor<2x2x3xi64>, %b: tensor<2x3x3xi64>) -> tensor<3x4xi64> {
  %0 = tp.bmm %a, %b : (tensor<2x2x3xi64>, tensor<2x3x3xi64>) -> tensor<2x2x3xi64>
  %1 = tp.transpose %0 {dim0 = -2 : i64, dim1 = -1 : i64} : tensor<2x2x3xi64> -> tensor<2x3x2xi64>
  %2 = tp.transpose %1 {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<2x3x2xi64> -> tensor<3x2x2xi64>
  %3 = tp.view %2 {size = array<i64: 3, 4>} : tensor<3x2x2xi64> -> tensor<3x4xi64>
  return %3 : tensor<3x4xi64>
}
