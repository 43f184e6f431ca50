// Example 6.3: two indirect reads of x. Reads and a multiplication by 2 are
// exact (class 1): every configuration of the compiled code is bitwise
// equal to the interpreter.
//
// g1 reads x at indices from memory, drawn in [-128, 128): negative ones
// wrap (+128), and the bounds check stays (Listing 6.5).
// RUN: stax-run %s --entry=g1 --random-inputs --int-low=-128 --int-high=128 --print=hash | sed 1d > %t.g1.interp
// RUN: FileCheck %s --check-prefix=CHECK-G1 --input-file=%t.g1.interp
// RUN: stax-run %s --entry=g1 --random-inputs --int-low=-128 --int-high=128 --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.g1.scalar
// RUN: diff %t.g1.interp %t.g1.scalar
// RUN: stax-run %s --entry=g1 --random-inputs --int-low=-128 --int-high=128 --print=hash --jit | sed 1d > %t.g1.default
// RUN: diff %t.g1.interp %t.g1.default
// RUN: stax-run %s --entry=g1 --random-inputs --int-low=-128 --int-high=128 --print=hash --jit --pipeline-options="grain=16" --num-threads=4 | sed 1d > %t.g1.threads
// RUN: diff %t.g1.interp %t.g1.threads
// Only non-negative indices, another seed: the same, and another hash.
// RUN: stax-run %s --entry=g1 --random-inputs --seed=3 --int-high=128 --print=hash | sed 1d > %t.g1.interp3
// RUN: stax-run %s --entry=g1 --random-inputs --seed=3 --int-high=128 --print=hash --jit | sed 1d > %t.g1.default3
// RUN: diff %t.g1.interp3 %t.g1.default3
// RUN: not diff %t.g1.interp %t.g1.interp3
//
// g2's index (3 i) mod 128 is a direct read (Listing 6.6). Its lanes are
// no constant stride apart, which the vectorizer must not assume.
// RUN: stax-run %s --entry=g2 --random-inputs --print=hash | sed 1d > %t.g2.interp
// RUN: FileCheck %s --check-prefix=CHECK-G2 --input-file=%t.g2.interp
// RUN: stax-run %s --entry=g2 --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.g2.scalar
// RUN: diff %t.g2.interp %t.g2.scalar
// RUN: stax-run %s --entry=g2 --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=16" --num-threads=4 | sed 1d > %t.g2.threads
// RUN: diff %t.g2.interp %t.g2.threads
// RUN: stax-run %s --entry=g2 --random-inputs --print=hash --jit | sed 1d > %t.g2.default
// RUN: diff %t.g2.interp %t.g2.default
// RUN: stax-run %s --entry=g2 --random-inputs --print=hash --jit --pipeline-options="vector-width=8" | sed 1d > %t.g2.w8
// RUN: diff %t.g2.interp %t.g2.w8
//
// Literal indices: g1 on x = arange(128) picks 2 * idx (mod 128).
// RUN: stax-run %s --entry=g1_literal --jit --print=exact | FileCheck %s --check-prefix=CHECK-LIT
// RUN: stax-run %s --entry=g1_literal --print=exact | FileCheck %s --check-prefix=CHECK-LIT

// CHECK-G1: result #0: tensor<128xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-G1-NOT: result
func.func @g1(%x: tensor<128xf32>, %idx: tensor<128xi64>) -> tensor<128xf32> {
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<128xi64>) -> tensor<128xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<128xf32> -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// CHECK-G2: result #0: tensor<128xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-G2-NOT: result
func.func @g2(%x: tensor<128xf32>) -> tensor<128xf32> {
  %a = tp.arange {start = 0 : i64, end = 128 : i64} : tensor<128xi64>
  %m = tp.mul.Scalar %a {other = 3 : i64} : tensor<128xi64> -> tensor<128xi64>
  %r = tp.remainder.Scalar %m {other = 128 : i64} : tensor<128xi64> -> tensor<128xi64>
  %0 = tp.index %x[%r] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<128xi64>) -> tensor<128xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<128xf32> -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// CHECK-LIT: @g1_literal
// CHECK-LIT-NEXT: result #0: tensor<5xf32>
// CHECK-LIT-NEXT: [0] 0{{$}}
// CHECK-LIT-NEXT: [1] 254{{$}}
// CHECK-LIT-NEXT: [2] 14{{$}}
// CHECK-LIT-NEXT: [3] 2{{$}}
// CHECK-LIT-NEXT: [4] 200{{$}}
func.func @g1_literal() -> tensor<5xf32> {
  %x = tp.arange {start = 0 : i64, end = 128 : i64} : tensor<128xf32>
  %idx = tp.constant dense<[0, 127, 7, -127, -28]> : tensor<5xi64>
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<5xi64>) -> tensor<5xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<5xf32> -> tensor<5xf32>
  return %1 : tensor<5xf32>
}
