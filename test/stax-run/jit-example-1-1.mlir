// RUN: stax-run %s --jit | FileCheck %s
// RUN: stax-run %s --jit --pipeline-options="vector-width=1 parallel=false approximate-math=false" | FileCheck %s
// RUN: stax-run %s --jit --print=exact | FileCheck %s --check-prefix=CHECK-EXACT
//
// Differential: on random inputs the scalar compiled code (class 1: no
// transcendental function, no matmul) is bitwise equal to the interpreter,
// sequential or on threads.
// RUN: stax-run %s --entry=f --random-inputs --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=f --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.jit
// RUN: stax-run %s --entry=f --random-inputs --print=hash --jit --pipeline-options="vector-width=1 parallel=false" | sed 1d > %t.jit-seq
// RUN: stax-run %s --entry=f --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=3 | sed 1d > %t.jit-threads
// RUN: FileCheck %s --check-prefix=CHECK-HASH --input-file=%t.jit
// RUN: diff %t.interp %t.jit
// RUN: diff %t.interp %t.jit-seq
// RUN: diff %t.interp %t.jit-threads
// Another seed, to be sure the inputs matter.
// RUN: stax-run %s --entry=f --random-inputs --seed=7 --print=hash | sed 1d > %t.interp7
// RUN: stax-run %s --entry=f --random-inputs --seed=7 --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.jit7
// RUN: diff %t.interp7 %t.jit7
// RUN: not diff %t.interp %t.interp7

// Example 1.1 on literal inputs: (relu(x + y) * 2).sum(-1).
// Row 0: relu([1.5, -4, 0.25] + [1, 1, 1]) * 2 = [5, 0, 2.5] -> 7.5
// Row 1: relu([-1, 2, 3] + [0.5, 0.5, -10]) * 2 = [0, 5, 0]  -> 5
// CHECK: @main (compiled)
// CHECK-NEXT: result #0: tensor<2xf32> min=5 max=7.5 mean=6.25
// CHECK-NEXT: [7.5, 5]
// CHECK-EXACT: @main (compiled)
// CHECK-EXACT-NEXT: result #0: tensor<2xf32>
// CHECK-EXACT-NEXT: [0] 7.5{{$}}
// CHECK-EXACT-NEXT: [1] 5{{$}}
func.func @main() -> tensor<2xf32> {
  %x = tp.constant dense<[[1.5, -4.0, 0.25], [-1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %y = tp.constant dense<[[1.0, 1.0, 1.0], [0.5, 0.5, -10.0]]> : tensor<2x3xf32>
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tp.relu %0 : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

// The same on random 300 x 1000 inputs (odd row length: a vector tail;
// 300000 evaluations: parallel rows by default).
// CHECK-HASH: result #0: tensor<300xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-HASH-NOT: result
func.func @f(%x: tensor<300x1000xf32>, %y: tensor<300x1000xf32>) -> tensor<300xf32> {
  %0 = tp.add %x, %y : tensor<300x1000xf32>, tensor<300x1000xf32> -> tensor<300x1000xf32>
  %1 = tp.relu %0 : tensor<300x1000xf32> -> tensor<300x1000xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<300x1000xf32> -> tensor<300x1000xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<300x1000xf32> -> tensor<300xf32>
  return %3 : tensor<300xf32>
}
