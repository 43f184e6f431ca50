// RUN: stax-opt %s --stax-decompose --stax-lower --stax-range-analysis | FileCheck %s --check-prefix=CHECK-RA
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-range-analysis -o %t.ra.mlir
// RUN: stax-opt %s --stax-decompose --stax-lower -o %t.plain.mlir
// RUN: stax-run %t.ra.mlir --random-inputs --entry=g2 --seed 1 --print=hash > %t.ra.txt
// RUN: stax-run %t.plain.mlir --random-inputs --entry=g2 --seed 1 --print=hash > %t.plain.txt
// RUN: diff %t.ra.txt %t.plain.txt

// Example 6.3: two indirect reads of x (Listings 6.5 and 6.6). The analysis
// never changes a value: g2 prints the same with and without it.

// The map of g2's direct read (maps print before the functions).
// CHECK-RA: #[[MOD:.*]] = affine_map<(d0) -> ((d0 * 3) mod 128)>

// g1's index is read from memory, [-inf, +inf]: both the negative-index
// wrap and the bounds check stay (Listing 6.5).
// CHECK-RA-LABEL: func.func @g1
// CHECK-RA: stax.pointwise layout <[1]> : tensor<128xf32> attributes {stax.index_bitwidth = 32 : i64}
// CHECK-RA: %[[IDX:.*]] = stax.load %arg1[%{{.*}}] : tensor<128xi64>
// CHECK-RA: stax.indirect_index %[[IDX]], 128 {check_bounds, wrap_negative} : i64
func.func @g1(%x: tensor<128xf32>, %idx: tensor<128xi64>) -> tensor<128xf32> {
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<128xi64>) -> tensor<128xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<128xf32> -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// g2's index depends on the loop index only: index propagation turns
// arange, the multiplication and the modulo into the address (3 * i0) mod 128,
// in [0, 127], so the read is direct and unchecked (Listing 6.6).
// CHECK-RA-LABEL: func.func @g2
// CHECK-RA: stax.pointwise layout <[1]> : tensor<128xf32> attributes {stax.index_bitwidth = 32 : i64}
// CHECK-RA-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-RA-NEXT: %[[A:.*]] = affine.apply #[[MOD]](%[[I]])
// CHECK-RA-NEXT: stax.load %arg0[%[[A]]] : tensor<128xf32>
// CHECK-RA-NOT: stax.indirect_index
// CHECK-RA-NOT: arith.remsi
// CHECK-RA: return
func.func @g2(%x: tensor<128xf32>) -> tensor<128xf32> {
  %a = tp.arange {start = 0 : i64, end = 128 : i64} : tensor<128xi64>
  %m = tp.mul.Scalar %a {other = 3 : i64} : tensor<128xi64> -> tensor<128xi64>
  %r = tp.remainder.Scalar %m {other = 128 : i64} : tensor<128xi64> -> tensor<128xi64>
  %0 = tp.index %x[%r] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<128xi64>) -> tensor<128xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<128xf32> -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

