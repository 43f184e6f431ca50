// RUN: stax-run %s --entry=kat --print-values | FileCheck %s --check-prefix=KAT
// RUN: stax-run %s --entry=main --print-values | FileCheck %s
// RUN: stax-run %s --entry=main --print-values --f64 | FileCheck %s --check-prefix=F64
// RUN: stax-run %s --entry=recompute --print-values | FileCheck %s --check-prefix=RECOMPUTE
// Compiled code draws the same numbers: the ops lower to Philox bodies
// (lib/Conversion/TpToStax/RandomRules.cpp), vectorized and threaded; the
// uniforms, draws and dropout are integer arithmetic and exact conversions
// (bitwise equal), the normals call the same f64 functions here.
// RUN: stax-run %s --entry=kat --print-values --jit | FileCheck %s --check-prefix=KAT
// RUN: stax-run %s --entry=recompute --print-values --jit | FileCheck %s --check-prefix=RECOMPUTE
// RUN: stax-run %s --entry=compiled --print-values --jit | FileCheck %s --check-prefix=COMPILED
// RUN: stax-run %s --entry=compiled --print-values --jit --pipeline-options="vector-width=1 approximate-math=false" | FileCheck %s --check-prefix=COMPILED
// Larger shapes (vector bodies with tails, several threads, 2-D indices)
// against the interpreter, every bit:
// RUN: stax-run %s --entry=draws --random-inputs --int-low=-1000000 --int-high=1000000 --print=hash | sed 1d > %t.draws.interp
// RUN: stax-run %s --entry=draws --random-inputs --int-low=-1000000 --int-high=1000000 --print=hash --jit | sed 1d > %t.draws.jit
// RUN: diff %t.draws.interp %t.draws.jit
// RUN: stax-run %s --entry=draws --random-inputs --int-low=-1000000 --int-high=1000000 --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.draws.threads
// RUN: diff %t.draws.interp %t.draws.threads
// RUN: stax-run %s --entry=normals --random-inputs --int-low=-1000000 --int-high=1000000 --print=hash | sed 1d > %t.normals.interp
// RUN: stax-run %s --entry=normals --random-inputs --int-low=-1000000 --int-high=1000000 --print=hash --jit --pipeline-options="approximate-math=false" | sed 1d > %t.normals.jit
// RUN: diff %t.normals.interp %t.normals.jit

// Golden values of the counter-based random ops on fixed states. The values
// were computed independently with the numpy implementation of
// python/tests/test_random.py.

// State [0, 0], counter 0: block 0 is Philox4x32-10 of key (0, 0) and
// counter (0, 0, 0, 0), Random123's first known answer
// (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8); f32 takes the top 24
// bits of each word (0x6627e8 * 2^-24 = 0.399046421...), f64 the top 53 bits
// of the double words 0xe169c58d6627e8d5 and 0x9b00dbd8bc57ac4c.
func.func @kat() -> (tensor<4xf32>, tensor<2xf64>) {
  %s = tp.constant dense<[0, 0]> : tensor<2xi64>
  %0 = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<4xf32>
  %1 = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<2xf64>
  return %0, %1 : tensor<4xf32>, tensor<2xf64>
}
// KAT: result #0: tensor<4xf32>
// KAT-NEXT: [0.399046421, 0.880520165, 0.735712767, 0.605481803]
// KAT: result #1: tensor<2xf64>
// KAT-NEXT: [0.880520198, 0.605481854]

// State [42, 0]; counters in program order (blocks: 8 f32 -> 2, 4 f64 -> 2,
// 5 f16 -> 2, 6 f32 normals -> 2, 3 f64 normals -> 2, 8 draws -> 2).
func.func @main() -> (tensor<8xf32>, tensor<4xf64>, tensor<5xf16>, tensor<6xf32>,
                      tensor<3xf64>, tensor<8xf32>, tensor<8xf32>, tensor<8xi1>) {
  %s = tp.constant dense<[42, 0]> : tensor<2xi64>
  %x = tp.arange {start = 1 : i64, end = 9 : i64} : tensor<8xf32>
  %0 = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<8xf32>
  %1 = tp.rand %s {counter = 2 : i64} : tensor<2xi64> -> tensor<4xf64>
  %2 = tp.rand %s {counter = 4 : i64} : tensor<2xi64> -> tensor<5xf16>
  %3 = tp.randn %s {counter = 6 : i64} : tensor<2xi64> -> tensor<6xf32>
  %4 = tp.randn %s {counter = 8 : i64} : tensor<2xi64> -> tensor<3xf64>
  %5 = tp.bernoulli %x, %s {counter = 10 : i64, p = 0.5 : f64} : (tensor<8xf32>, tensor<2xi64>) -> tensor<8xf32>
  %6:2 = tp.dropout_seeded %x, %s {counter = 12 : i64, p = 0.5 : f64} : (tensor<8xf32>, tensor<2xi64>) -> (tensor<8xf32>, tensor<8xi1>)
  return %0, %1, %2, %3, %4, %5, %6#0, %6#1
      : tensor<8xf32>, tensor<4xf64>, tensor<5xf16>, tensor<6xf32>,
        tensor<3xf64>, tensor<8xf32>, tensor<8xf32>, tensor<8xi1>
}
// CHECK: result #0: tensor<8xf32>
// CHECK-NEXT: [0.612959862, 0.468586504, 0.0732316971, 0.340861499, 0.987718642, 0.327063322, 0.513906121, 0.454315543]
// CHECK: result #1: tensor<4xf64>
// CHECK-NEXT: [0.658315527, 0.773584685, 0.670639853, 0.37912607]
// CHECK: result #2: tensor<5xf16>
// CHECK-NEXT: [0.326171875, 0.838867188, 0.322265625, 0.235351562, 0.314453125]
// CHECK: result #3: tensor<6xf32>
// CHECK-NEXT: [-0.0743988678, -1.72438216, 0.499125838, 1.1055373, -1.20028937, 0.782136142]
// CHECK: result #4: tensor<3xf64>
// CHECK-NEXT: [-2.00357229, 0.0115662875, -1.36026891]
// CHECK: result #5: tensor<8xf32>
// CHECK-NEXT: [0, 0, 1, 0, 1, 1, 1, 1]
// CHECK: result #6: tensor<8xf32>
// CHECK-NEXT: [2, 4, 6, 8, 10, 12, 0, 16]
// CHECK: result #7: tensor<8xi1>
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 0, 1]

// Promotion to f64 does not change the draws.
// F64: result #0: tensor<8xf64>
// F64-NEXT: [0.612959862, 0.468586504, 0.0732316971, 0.340861499, 0.987718642, 0.327063322, 0.513906121, 0.454315543]
// F64: result #2: tensor<5xf64>
// F64-NEXT: [0.326171875, 0.838867188, 0.322265625, 0.235351562, 0.314453125]
// F64: result #3: tensor<6xf64>
// F64-NEXT: [-0.0743988678, -1.72438216, 0.499125838, 1.1055373, -1.20028937, 0.782136142]
// F64: result #6: tensor<8xf64>
// F64-NEXT: [2, 4, 6, 8, 10, 12, 0, 16]

// A recomputed op (same state and counter) draws the same numbers; the
// state's offset shifts the whole stream: offset 2 with counter 0 is offset 0
// with counter 2.
func.func @recompute() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s = tp.constant dense<[42, 0]> : tensor<2xi64>
  %t = tp.constant dense<[42, 2]> : tensor<2xi64>
  %0 = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<4xf32>
  %1 = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<4xf32>
  %2 = tp.rand %t {counter = 0 : i64} : tensor<2xi64> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// RECOMPUTE: result #0: tensor<4xf32>
// RECOMPUTE-NEXT: [0.612959862, 0.468586504, 0.0732316971, 0.340861499]
// RECOMPUTE: result #1: tensor<4xf32>
// RECOMPUTE-NEXT: [0.612959862, 0.468586504, 0.0732316971, 0.340861499]
// RECOMPUTE: result #2: tensor<4xf32>
// RECOMPUTE-NEXT: [0.825866818, 0.65831548, 0.602743924, 0.773584664]

// @main without the f16 draw (compiled code has no f16).
func.func @compiled() -> (tensor<8xf32>, tensor<4xf64>, tensor<6xf32>,
                          tensor<3xf64>, tensor<8xf32>, tensor<8xf32>, tensor<8xi1>) {
  %s = tp.constant dense<[42, 0]> : tensor<2xi64>
  %x = tp.arange {start = 1 : i64, end = 9 : i64} : tensor<8xf32>
  %0 = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<8xf32>
  %1 = tp.rand %s {counter = 2 : i64} : tensor<2xi64> -> tensor<4xf64>
  %3 = tp.randn %s {counter = 6 : i64} : tensor<2xi64> -> tensor<6xf32>
  %4 = tp.randn %s {counter = 8 : i64} : tensor<2xi64> -> tensor<3xf64>
  %5 = tp.bernoulli %x, %s {counter = 10 : i64, p = 0.5 : f64} : (tensor<8xf32>, tensor<2xi64>) -> tensor<8xf32>
  %6:2 = tp.dropout_seeded %x, %s {counter = 12 : i64, p = 0.5 : f64} : (tensor<8xf32>, tensor<2xi64>) -> (tensor<8xf32>, tensor<8xi1>)
  return %0, %1, %3, %4, %5, %6#0, %6#1
      : tensor<8xf32>, tensor<4xf64>, tensor<6xf32>,
        tensor<3xf64>, tensor<8xf32>, tensor<8xf32>, tensor<8xi1>
}
// COMPILED: result #0: tensor<8xf32>
// COMPILED-NEXT: [0.612959862, 0.468586504, 0.0732316971, 0.340861499, 0.987718642, 0.327063322, 0.513906121, 0.454315543]
// COMPILED: result #1: tensor<4xf64>
// COMPILED-NEXT: [0.658315527, 0.773584685, 0.670639853, 0.37912607]
// COMPILED: result #2: tensor<6xf32>
// COMPILED-NEXT: [-0.0743988678, -1.72438216, 0.499125838, 1.1055373, -1.20028937, 0.782136142]
// COMPILED: result #3: tensor<3xf64>
// COMPILED-NEXT: [-2.00357229, 0.0115662875, -1.36026891]
// COMPILED: result #4: tensor<8xf32>
// COMPILED-NEXT: [0, 0, 1, 0, 1, 1, 1, 1]
// COMPILED: result #5: tensor<8xf32>
// COMPILED-NEXT: [2, 4, 6, 8, 10, 12, 0, 16]
// COMPILED: result #6: tensor<8xi1>
// COMPILED-NEXT: [1, 1, 1, 1, 1, 1, 0, 1]

// Random states (negative seeds and offsets included), probabilities from
// a tensor (outside [0, 1] too: never or always), row-major 2-D positions.
func.func @draws(%x: tensor<5x67xf32>, %s: tensor<2xi64>)
    -> (tensor<7x33xf32>, tensor<301xf64>, tensor<5x67xf32>, tensor<5x67xf32>, tensor<5x67xi1>) {
  %0 = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<7x33xf32>
  %1 = tp.rand %s {counter = 100 : i64} : tensor<2xi64> -> tensor<301xf64>
  %2 = tp.bernoulli %x, %s {counter = 300 : i64} : (tensor<5x67xf32>, tensor<2xi64>) -> tensor<5x67xf32>
  %3:2 = tp.dropout_seeded %x, %s {counter = 400 : i64, p = 0.25 : f64} : (tensor<5x67xf32>, tensor<2xi64>) -> (tensor<5x67xf32>, tensor<5x67xi1>)
  return %0, %1, %2, %3#0, %3#1 : tensor<7x33xf32>, tensor<301xf64>, tensor<5x67xf32>, tensor<5x67xf32>, tensor<5x67xi1>
}

func.func @normals(%s: tensor<2xi64>) -> (tensor<9x35xf32>, tensor<301xf64>) {
  %0 = tp.randn %s {counter = 0 : i64} : tensor<2xi64> -> tensor<9x35xf32>
  %1 = tp.randn %s {counter = 100 : i64} : tensor<2xi64> -> tensor<301xf64>
  return %0, %1 : tensor<9x35xf32>, tensor<301xf64>
}
