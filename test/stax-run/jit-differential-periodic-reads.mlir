// Reads whose address is a floordiv or mod of the vector lane by a power
// of two (the gradient of a strided slice, as in a pooling or strided
// convolution's backward and a transposed convolution's col2im) are
// vectorized when each vector starts at a multiple of the period
// (Vectorize.cpp, Periodic lanes): lane l reads lane 0's address plus a
// fixed offset, so one or two contiguous loads and a shuffle replace the
// scalar loop; remainders by the period are constants, and the masks built
// from them fold. Two lanes that read one element (l floordiv 2) load it
// when either is enabled and keep 0 where disabled. Loads are exact, so
// the JIT must equal the interpreter bitwise: f32, f64 and i64, starts 0
// and 1 (a scalar prologue up to the first multiple of the period), steps
// 2, 4 and 3 (not a power of two: scalar), vector tails, and 4 threads.
// RUN: stax-run %s --entry=periodic --random-inputs --print=hash | sed 1d > %t.interp
// RUN: FileCheck %s --input-file=%t.interp
// RUN: stax-run %s --entry=periodic --random-inputs --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=periodic --random-inputs --print=hash --jit --pipeline-options="grain=1 call-grain=0" --num-threads=4 | sed 1d > %t.threads
// RUN: diff %t.interp %t.threads
// RUN: stax-run %s --entry=periodic --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s --check-prefix=CHECK-IR

// CHECK-COUNT-7: result #{{[0-9]}}: tensor<{{.*}}> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-NOT: result

// Step 2 from 1: lane l of a vector starting at an even index reads
// element (l - 1) floordiv 2 from lane 0's, under the constant parity mask
// of the odd lanes: one masked load (its mask the enabled lanes' moved onto
// the elements, two lanes per element) and a shuffle that repeats the
// elements. From 0 the same with the even lanes; nearest upsampling by 2
// (expand + reshape) reads each element for two lanes, in the kernel
// strips it shares with them. Step 4, whose normalized loops end in a loop
// of 4, has that loop merged back with the one outside it
// (MergeLaneLoops.h): 16 lanes from 4 elements. f64 and i64 alike; step 3
// (not a power of two) stays scalar, no gathers.
// CHECK-IR-LABEL: func.func @periodic(
// CHECK-IR: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 3, 5, 7, 9, 11, 13, 15, 16, 16, 16, 16, 16, 16, 16] : vector<16xi1>, vector<16xi1>
// CHECK-IR: vector.maskedload
// CHECK-IR: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8] : vector<16xf32>, vector<16xf32>
// CHECK-IR: vector.store
// CHECK-IR: vector.shuffle %{{.*}}, %{{.*}} [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7] : vector<16xf32>, vector<16xf32>
// CHECK-IR: vector.store %{{.*}}, %arg11
// CHECK-IR: vector.shuffle %{{.*}}, %{{.*}} [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3] : vector<16xf32>, vector<16xf32>
// CHECK-IR: vector.shuffle %{{.*}}, %{{.*}} [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7] : vector<16xf64>, vector<16xf64>
// CHECK-IR: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8] : vector<16xi64>, vector<16xi64>
// CHECK-IR-NOT: vector.gather
func.func @periodic(%x: tensor<7x33xf32>, %y: tensor<5x9xf32>, %d: tensor<3x20xf64>, %i: tensor<4x17xi64>, %z: tensor<6x11xf32>) -> (tensor<7x67xf32>, tensor<5x36xf32>, tensor<3x41xf64>, tensor<4x35xi64>, tensor<6x33xf32>, tensor<7x67xf32>, tensor<7x66xf32>) {
  %a = tp.slice_backward %x {dim = 1 : i64, start = 1 : i64, end = 66 : i64, step = 2 : i64, input_sizes = array<i64: 7, 67>} : tensor<7x33xf32> -> tensor<7x67xf32>
  %r0 = tp.neg %a : tensor<7x67xf32> -> tensor<7x67xf32>
  %b = tp.slice_backward %y {dim = 1 : i64, start = 0 : i64, end = 36 : i64, step = 4 : i64, input_sizes = array<i64: 5, 36>} : tensor<5x9xf32> -> tensor<5x36xf32>
  %r1 = tp.neg %b : tensor<5x36xf32> -> tensor<5x36xf32>
  %c = tp.slice_backward %d {dim = 1 : i64, start = 0 : i64, end = 40 : i64, step = 2 : i64, input_sizes = array<i64: 3, 41>} : tensor<3x20xf64> -> tensor<3x41xf64>
  %r2 = tp.neg %c : tensor<3x41xf64> -> tensor<3x41xf64>
  %e = tp.slice_backward %i {dim = 1 : i64, start = 1 : i64, end = 35 : i64, step = 2 : i64, input_sizes = array<i64: 4, 35>} : tensor<4x17xi64> -> tensor<4x35xi64>
  %r3 = tp.neg %e : tensor<4x35xi64> -> tensor<4x35xi64>
  %f = tp.slice_backward %z {dim = 1 : i64, start = 0 : i64, end = 31 : i64, step = 3 : i64, input_sizes = array<i64: 6, 33>} : tensor<6x11xf32> -> tensor<6x33xf32>
  %r4 = tp.neg %f : tensor<6x33xf32> -> tensor<6x33xf32>
  // Two overlapping windows' gradients (a 3-wide pooling window at stride
  // 2): every odd element gets one term, every even one two.
  %g0 = tp.slice_backward %x {dim = 1 : i64, start = 0 : i64, end = 65 : i64, step = 2 : i64, input_sizes = array<i64: 7, 67>} : tensor<7x33xf32> -> tensor<7x67xf32>
  %g1 = tp.slice_backward %x {dim = 1 : i64, start = 1 : i64, end = 66 : i64, step = 2 : i64, input_sizes = array<i64: 7, 67>} : tensor<7x33xf32> -> tensor<7x67xf32>
  %g2 = tp.slice_backward %x {dim = 1 : i64, start = 2 : i64, end = 67 : i64, step = 2 : i64, input_sizes = array<i64: 7, 67>} : tensor<7x33xf32> -> tensor<7x67xf32>
  %g01 = tp.add %g0, %g1 : tensor<7x67xf32>, tensor<7x67xf32> -> tensor<7x67xf32>
  %r5 = tp.add %g01, %g2 : tensor<7x67xf32>, tensor<7x67xf32> -> tensor<7x67xf32>
  %u = tp.unsqueeze %x {dim = 2 : i64} : tensor<7x33xf32> -> tensor<7x33x1xf32>
  %ue = tp.expand %u {size = array<i64: 7, 33, 2>} : tensor<7x33x1xf32> -> tensor<7x33x2xf32>
  %r6 = tp.reshape %ue {size = array<i64: 7, 66>} : tensor<7x33x2xf32> -> tensor<7x66xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<7x67xf32>, tensor<5x36xf32>, tensor<3x41xf64>, tensor<4x35xi64>, tensor<6x33xf32>, tensor<7x67xf32>, tensor<7x66xf32>
}
