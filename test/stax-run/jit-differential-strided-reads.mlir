// Reads at a small constant stride along the vector lane (strided slices,
// pooling windows, the im2col of a strided convolution) and reversed reads
// (flip) are contiguous vector loads and shuffles, not gathers
// (Vectorize.cpp, contiguousParts): the last of the s loads of stride s
// stops at the last lane's element, which here is the buffer's last one,
// and reads under a mask (the zero padding of a concatenation) load only
// the elements the enabled lanes read. Loads are exact, so the JIT must
// equal the interpreter bitwise, on f32 (16 lanes), f64 (8) and i64, with
// vector tails (65 = 4 x 16 + 1), and on 4 threads.
// RUN: stax-run %s --entry=strided --random-inputs --print=hash | sed 1d > %t.interp
// RUN: FileCheck %s --input-file=%t.interp
// RUN: stax-run %s --entry=strided --random-inputs --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=strided --random-inputs --print=hash --jit --pipeline-options="grain=1 call-grain=0" --num-threads=4 | sed 1d > %t.threads
// RUN: diff %t.interp %t.threads
// RUN: stax-run %s --entry=strided --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s --check-prefix=CHECK-IR

// CHECK-COUNT-9: result #{{[0-9]}}: tensor<{{.*}}> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-NOT: result

// Stride 2, f32: two loads, the second masked to the elements its lanes
// read (those after the last lane's may lie past the buffer), and one
// shuffle taking the even elements of both.
// CHECK-IR-LABEL: func.func @strided(
// CHECK-IR: %[[P0:.*]] = vector.load %{{.*}} : memref<917xf32>, vector<16xf32>
// CHECK-IR: %[[M:.*]] = arith.constant dense<[true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false]> : vector<16xi1>
// CHECK-IR: %[[P1:.*]] = vector.maskedload %{{.*}}, %[[M]], %{{.*}} : memref<917xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK-IR: vector.shuffle %[[P0]], %[[P1]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// Stride 3 and 4: three and four parts, two and three shuffles.
// CHECK-IR: vector.shuffle {{.*}} [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 11, 12, 13, 14, 15]
// CHECK-IR-NEXT: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 23, 26, 29]
// CHECK-IR: vector.store
// CHECK-IR: vector.shuffle {{.*}} [0, 4, 8, 12, 16, 20, 24, 28, 8, 9, 10, 11, 12, 13, 14, 15]
// CHECK-IR-NEXT: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 16, 20, 24, 28, 12, 13, 14, 15]
// CHECK-IR-NEXT: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 20, 24, 28]
// CHECK-IR: vector.store
// Stride 5 stays a gather.
// CHECK-IR: vector.gather
// The flip: one load 15 elements back, reversed.
// CHECK-IR: %[[R:.*]] = vector.load
// CHECK-IR-NEXT: vector.shuffle %[[R]], %[[R]] [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
// The padded stride-2 read: the lane mask moved onto the two parts.
// CHECK-IR: vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 16, 2, 16, 3, 16, 4, 16, 5, 16, 6, 16, 7, 16] : vector<16xi1>, vector<16xi1>
// CHECK-IR: vector.maskedload
// CHECK-IR: vector.shuffle %{{.*}}, %{{.*}} [8, 16, 9, 16, 10, 16, 11, 16, 12, 16, 13, 16, 14, 16, 15, 16] : vector<16xi1>, vector<16xi1>
// CHECK-IR: vector.maskedload
// f64 and i64 alike.
// CHECK-IR: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<16xf64>, vector<16xf64>
// CHECK-IR: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<16xi64>, vector<16xi64>
func.func @strided(%x: tensor<7x131xf32>, %d: tensor<5x67xf64>, %i: tensor<6x99xi64>) -> (tensor<7x65xf32>, tensor<7x44xf32>, tensor<7x33xf32>, tensor<7x27xf32>, tensor<7x131xf32>, tensor<7x67xf32>, tensor<5x34xf64>, tensor<5x23xf64>, tensor<6x50xi64>) {
  %s2 = tp.slice %x {dim = 1 : i64, start = 2 : i64, step = 2 : i64} : tensor<7x131xf32> -> tensor<7x65xf32>
  %r0 = tp.neg %s2 : tensor<7x65xf32> -> tensor<7x65xf32>
  %s3 = tp.slice %x {dim = 1 : i64, start = 0 : i64, step = 3 : i64} : tensor<7x131xf32> -> tensor<7x44xf32>
  %r1 = tp.neg %s3 : tensor<7x44xf32> -> tensor<7x44xf32>
  %s4 = tp.slice %x {dim = 1 : i64, start = 2 : i64, step = 4 : i64} : tensor<7x131xf32> -> tensor<7x33xf32>
  %r2 = tp.neg %s4 : tensor<7x33xf32> -> tensor<7x33xf32>
  %s5 = tp.slice %x {dim = 1 : i64, start = 0 : i64, step = 5 : i64} : tensor<7x131xf32> -> tensor<7x27xf32>
  %r3 = tp.neg %s5 : tensor<7x27xf32> -> tensor<7x27xf32>
  %rev = tp.arange {end = -1 : i64, start = 130 : i64, step = -1 : i64} : tensor<131xi64>
  %flip = tp.index_select %x, %rev {dim = 1 : i64} : (tensor<7x131xf32>, tensor<131xi64>) -> tensor<7x131xf32>
  %r4 = tp.neg %flip : tensor<7x131xf32> -> tensor<7x131xf32>
  %z = tp.full {value = 0.0 : f64} : tensor<7x1xf32>
  %pad = tp.cat %z, %x, %z {dim = 1 : i64} : (tensor<7x1xf32>, tensor<7x131xf32>, tensor<7x1xf32>) -> tensor<7x133xf32>
  %sp = tp.slice %pad {dim = 1 : i64, start = 0 : i64, step = 2 : i64} : tensor<7x133xf32> -> tensor<7x67xf32>
  %r5 = tp.neg %sp : tensor<7x67xf32> -> tensor<7x67xf32>
  %d2 = tp.slice %d {dim = 1 : i64, start = 0 : i64, step = 2 : i64} : tensor<5x67xf64> -> tensor<5x34xf64>
  %r6 = tp.neg %d2 : tensor<5x34xf64> -> tensor<5x34xf64>
  %d3 = tp.slice %d {dim = 1 : i64, start = 0 : i64, step = 3 : i64} : tensor<5x67xf64> -> tensor<5x23xf64>
  %r7 = tp.neg %d3 : tensor<5x23xf64> -> tensor<5x23xf64>
  %i2 = tp.slice %i {dim = 1 : i64, start = 0 : i64, step = 2 : i64} : tensor<6x99xi64> -> tensor<6x50xi64>
  %r8 = tp.neg %i2 : tensor<6x50xi64> -> tensor<6x50xi64>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : tensor<7x65xf32>, tensor<7x44xf32>, tensor<7x33xf32>, tensor<7x27xf32>, tensor<7x131xf32>, tensor<7x67xf32>, tensor<5x34xf64>, tensor<5x23xf64>, tensor<6x50xi64>
}
