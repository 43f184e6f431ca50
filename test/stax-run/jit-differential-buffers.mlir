// Differential tests of the compiled code against the interpreter on random
// inputs: intermediate buffers and element-wise ops. The scalar code
// (vector-width=1) combines everything in the interpreter's order and has no
// transcendental function here, so it is bitwise equal (class 1), sequential
// or on threads (grain=1: every node parallel). Where vectorization only moves
// data, compares or works on integers, the default configuration is bitwise
// equal too; vectorized float sums, products and variances are class 2 and run
// in scalar form only.
//
// @arena_i64: integer matmuls (exact, the runtime's i64 loop) between nodes:
// four intermediates sharing two arena slots.
// RUN: stax-run %s --entry=arena_i64 --random-inputs --int-low=-3 --int-high=3 --print=hash | sed 1d > %t.arena_i64.interp
// RUN: FileCheck %s --check-prefix=CHECK-ARENA-I64 --input-file=%t.arena_i64.interp
// RUN: stax-run %s --entry=arena_i64 --random-inputs --int-low=-3 --int-high=3 --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.arena_i64.scalar
// RUN: diff %t.arena_i64.interp %t.arena_i64.scalar
// RUN: stax-run %s --entry=arena_i64 --random-inputs --int-low=-3 --int-high=3 --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.arena_i64.threads
// RUN: diff %t.arena_i64.interp %t.arena_i64.threads
// RUN: stax-run %s --entry=arena_i64 --random-inputs --int-low=-3 --int-high=3 --print=hash --jit | sed 1d > %t.arena_i64.default
// RUN: diff %t.arena_i64.interp %t.arena_i64.default
// @kmax: a kernel of row max, subtraction, row min and division.
// RUN: stax-run %s --entry=kmax --random-inputs --print=hash | sed 1d > %t.kmax.interp
// RUN: FileCheck %s --check-prefix=CHECK-KMAX --input-file=%t.kmax.interp
// RUN: stax-run %s --entry=kmax --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.kmax.scalar
// RUN: diff %t.kmax.interp %t.kmax.scalar
// RUN: stax-run %s --entry=kmax --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.kmax.threads
// RUN: diff %t.kmax.interp %t.kmax.threads
// RUN: stax-run %s --entry=kmax --random-inputs --print=hash --jit | sed 1d > %t.kmax.default
// RUN: diff %t.kmax.interp %t.kmax.default
// @conv: conversions between f32, f64, i32 and i64.
// RUN: stax-run %s --entry=conv --random-inputs --int-low=-100 --int-high=100 --print=hash | sed 1d > %t.conv.interp
// RUN: FileCheck %s --check-prefix=CHECK-CONV --input-file=%t.conv.interp
// RUN: stax-run %s --entry=conv --random-inputs --int-low=-100 --int-high=100 --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.conv.scalar
// RUN: diff %t.conv.interp %t.conv.scalar
// RUN: stax-run %s --entry=conv --random-inputs --int-low=-100 --int-high=100 --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.conv.threads
// RUN: diff %t.conv.interp %t.conv.threads
// RUN: stax-run %s --entry=conv --random-inputs --int-low=-100 --int-high=100 --print=hash --jit | sed 1d > %t.conv.default
// RUN: diff %t.conv.interp %t.conv.default
// @twouse: a transposed value with several readers (materialized with its read
// layout).
// RUN: stax-run %s --entry=twouse --random-inputs --print=hash | sed 1d > %t.twouse.interp
// RUN: FileCheck %s --check-prefix=CHECK-TWOUSE --input-file=%t.twouse.interp
// RUN: stax-run %s --entry=twouse --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.twouse.scalar
// RUN: diff %t.twouse.interp %t.twouse.scalar
// RUN: stax-run %s --entry=twouse --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.twouse.threads
// RUN: diff %t.twouse.interp %t.twouse.threads
// RUN: stax-run %s --entry=twouse --random-inputs --print=hash --jit | sed 1d > %t.twouse.default
// RUN: diff %t.twouse.interp %t.twouse.default
// @arena_chain: a chain of materialized intermediates and transposes.
// RUN: stax-run %s --entry=arena_chain --random-inputs --print=hash | sed 1d > %t.arena_chain.interp
// RUN: FileCheck %s --check-prefix=CHECK-ARENA-CHAIN --input-file=%t.arena_chain.interp
// RUN: stax-run %s --entry=arena_chain --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.arena_chain.scalar
// RUN: diff %t.arena_chain.interp %t.arena_chain.scalar
// RUN: stax-run %s --entry=arena_chain --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.arena_chain.threads
// RUN: diff %t.arena_chain.interp %t.arena_chain.threads
// @elementwise: maximum, clamp, remainder, round, sqrt, sign.
// RUN: stax-run %s --entry=elementwise --random-inputs --print=hash | sed 1d > %t.elementwise.interp
// RUN: FileCheck %s --check-prefix=CHECK-ELEMENTWISE --input-file=%t.elementwise.interp
// RUN: stax-run %s --entry=elementwise --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.elementwise.scalar
// RUN: diff %t.elementwise.interp %t.elementwise.scalar
// RUN: stax-run %s --entry=elementwise --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.elementwise.threads
// RUN: diff %t.elementwise.interp %t.elementwise.threads
// RUN: stax-run %s --entry=elementwise --random-inputs --print=hash --jit | sed 1d > %t.elementwise.default
// RUN: diff %t.elementwise.interp %t.elementwise.default
// @half: f16 and bf16 intermediates (2-byte arena slots), a bf16 sum.
// RUN: stax-run %s --entry=half --random-inputs --print=hash | sed 1d > %t.half.interp
// RUN: FileCheck %s --check-prefix=CHECK-HALF --input-file=%t.half.interp
// RUN: stax-run %s --entry=half --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.half.scalar
// RUN: diff %t.half.interp %t.half.scalar
// RUN: stax-run %s --entry=half --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.half.threads
// RUN: diff %t.half.interp %t.half.threads

// CHECK-ARENA-I64: result #0: tensor<4x8xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ARENA-I64-NOT: result
func.func @arena_i64(%x: tensor<4x8xi64>, %w: tensor<8x8xi64>) -> tensor<4x8xi64> {
  %a = tp.mul.Scalar %x {other = 2 : i64} : tensor<4x8xi64> -> tensor<4x8xi64>
  %b = tp.mm %a, %w : (tensor<4x8xi64>, tensor<8x8xi64>) -> tensor<4x8xi64>
  %c = tp.relu %b : tensor<4x8xi64> -> tensor<4x8xi64>
  %d = tp.mm %c, %w : (tensor<4x8xi64>, tensor<8x8xi64>) -> tensor<4x8xi64>
  %e = tp.neg %d : tensor<4x8xi64> -> tensor<4x8xi64>
  return %e : tensor<4x8xi64>
}

// CHECK-KMAX: result #0: tensor<64x100xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-KMAX-NOT: result
func.func @kmax(%x: tensor<64x100xf32>) -> tensor<64x100xf32> {
  %m = tp.amax %x {dims = array<i64: 1>, keepdim = true} : tensor<64x100xf32> -> tensor<64x1xf32>
  %d = tp.sub %x, %m : tensor<64x100xf32>, tensor<64x1xf32> -> tensor<64x100xf32>
  %n = tp.amin %d {dims = array<i64: 1>, keepdim = true} : tensor<64x100xf32> -> tensor<64x1xf32>
  %r = tp.div %d, %n : tensor<64x100xf32>, tensor<64x1xf32> -> tensor<64x100xf32>
  return %r : tensor<64x100xf32>
}

// CHECK-CONV: result #0: tensor<30x50xf64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CONV-NEXT: result #1: tensor<30x50xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CONV-NEXT: result #2: tensor<30x50xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CONV-NEXT: result #3: tensor<30xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CONV-NEXT: result #4: tensor<30x50xi32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CONV-NOT: result
func.func @conv(%x: tensor<30x50xf32>, %i: tensor<30x50xi32>) -> (tensor<30x50xf64>, tensor<30x50xi64>, tensor<30x50xf32>, tensor<30xi64>, tensor<30x50xi32>) {
  %0 = tp._to_copy %x {dtype = f64} : tensor<30x50xf32> -> tensor<30x50xf64>
  %1 = tp._to_copy %x {dtype = i64} : tensor<30x50xf32> -> tensor<30x50xi64>
  %2 = tp._to_copy %i {dtype = f32} : tensor<30x50xi32> -> tensor<30x50xf32>
  %3 = tp.sum %i {dims = array<i64: 1>} : tensor<30x50xi32> -> tensor<30xi64>
  %4 = tp.mul.Scalar %i {other = 3 : i64} : tensor<30x50xi32> -> tensor<30x50xi32>
  return %0, %1, %2, %3, %4 : tensor<30x50xf64>, tensor<30x50xi64>, tensor<30x50xf32>, tensor<30xi64>, tensor<30x50xi32>
}

// CHECK-TWOUSE: result #0: tensor<48x64xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-TWOUSE-NEXT: result #1: tensor<48xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-TWOUSE-NEXT: result #2: tensor<48x64xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-TWOUSE-NOT: result
func.func @twouse(%x: tensor<64x48xf32>) -> (tensor<48x64xf32>, tensor<48xf32>, tensor<48x64xf32>) {
  %t = tp.t %x : tensor<64x48xf32> -> tensor<48x64xf32>
  %e = tp.mul %t, %t : tensor<48x64xf32>, tensor<48x64xf32> -> tensor<48x64xf32>
  %a = tp.add %e, %t : tensor<48x64xf32>, tensor<48x64xf32> -> tensor<48x64xf32>
  %b = tp.sub %e, %t : tensor<48x64xf32>, tensor<48x64xf32> -> tensor<48x64xf32>
  %c = tp.mul %e, %a : tensor<48x64xf32>, tensor<48x64xf32> -> tensor<48x64xf32>
  %s = tp.amax %c {dims = array<i64: 1>} : tensor<48x64xf32> -> tensor<48xf32>
  return %a, %s, %b : tensor<48x64xf32>, tensor<48xf32>, tensor<48x64xf32>
}

// CHECK-ARENA-CHAIN: result #0: tensor<64x100xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ARENA-CHAIN-NEXT: result #1: tensor<100xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ARENA-CHAIN-NOT: result
func.func @arena_chain(%x: tensor<64x100xf32>, %y: tensor<100x64xf32>) -> (tensor<64x100xf32>, tensor<100xf32>) {
  %yt = tp.t %y : tensor<100x64xf32> -> tensor<64x100xf32>
  %a = tp.add %x, %yt : tensor<64x100xf32>, tensor<64x100xf32> -> tensor<64x100xf32>
  %b = tp.mul %a, %a : tensor<64x100xf32>, tensor<64x100xf32> -> tensor<64x100xf32>
  %c = tp.sum %b {dims = array<i64: 0>} : tensor<64x100xf32> -> tensor<100xf32>
  %d = tp.sub %b, %a : tensor<64x100xf32>, tensor<64x100xf32> -> tensor<64x100xf32>
  %e = tp.t %d : tensor<64x100xf32> -> tensor<100x64xf32>
  %f = tp.mul %e, %y : tensor<100x64xf32>, tensor<100x64xf32> -> tensor<100x64xf32>
  %g = tp.t %f : tensor<100x64xf32> -> tensor<64x100xf32>
  %h = tp.add %g, %b : tensor<64x100xf32>, tensor<64x100xf32> -> tensor<64x100xf32>
  return %h, %c : tensor<64x100xf32>, tensor<100xf32>
}

// CHECK-ELEMENTWISE: result #0: tensor<20x70xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ELEMENTWISE-NEXT: result #1: tensor<20x70xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ELEMENTWISE-NEXT: result #2: tensor<20x70xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ELEMENTWISE-NEXT: result #3: tensor<20x70xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ELEMENTWISE-NEXT: result #4: tensor<20x70xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ELEMENTWISE-NEXT: result #5: tensor<20x70xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ELEMENTWISE-NOT: result
func.func @elementwise(%x: tensor<20x70xf32>, %y: tensor<20x70xf32>) -> (tensor<20x70xf32>, tensor<20x70xf32>, tensor<20x70xf32>, tensor<20x70xf32>, tensor<20x70xf32>, tensor<20x70xf32>) {
  %0 = tp.maximum %x, %y : tensor<20x70xf32>, tensor<20x70xf32> -> tensor<20x70xf32>
  %1 = tp.clamp %x {min = -0.5 : f64, max = 0.25 : f64} : tensor<20x70xf32> -> tensor<20x70xf32>
  %2 = tp.remainder %x, %y : tensor<20x70xf32>, tensor<20x70xf32> -> tensor<20x70xf32>
  %3 = tp.round %x : tensor<20x70xf32> -> tensor<20x70xf32>
  %4 = tp.sqrt %1 : tensor<20x70xf32> -> tensor<20x70xf32>
  %5 = tp.sign %x : tensor<20x70xf32> -> tensor<20x70xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<20x70xf32>, tensor<20x70xf32>, tensor<20x70xf32>, tensor<20x70xf32>, tensor<20x70xf32>, tensor<20x70xf32>
}

// CHECK-HALF: result #0: tensor<30x50xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-HALF-NEXT: result #1: tensor<30xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-HALF-NOT: result
func.func @half(%x: tensor<30x50xf32>) -> (tensor<30x50xf32>, tensor<30xf32>) {
  %0 = tp._to_copy %x {dtype = f16} : tensor<30x50xf32> -> tensor<30x50xf16>
  %1 = tp.mul %0, %0 : tensor<30x50xf16>, tensor<30x50xf16> -> tensor<30x50xf16>
  %2 = tp._to_copy %1 {dtype = f32} : tensor<30x50xf16> -> tensor<30x50xf32>
  %3 = tp._to_copy %x {dtype = bf16} : tensor<30x50xf32> -> tensor<30x50xbf16>
  %4 = tp.sum %3 {dims = array<i64: 1>} : tensor<30x50xbf16> -> tensor<30xbf16>
  %5 = tp._to_copy %4 {dtype = f32} : tensor<30xbf16> -> tensor<30xf32>
  return %2, %5 : tensor<30x50xf32>, tensor<30xf32>
}
