// Kernel-local values (here softmax's exponentials, a row each, and the
// row maxima and sums, an element each) live in per-thread scratch for
// one row (KernelScratch.h) instead of a whole-tensor buffer. The
// interpreter rounds a float64 exp; the compiled f64 kernel (math-kernels=f64) is within
// 0.5 + 2e-4 ulp of the exact value, so on these inputs it rounds the same
// (libm's expf does not: 2 elements differ by an ulp), and vector-width=1
// sums in the interpreter's order: bitwise equal, sequential and on 4
// threads (grain=1: each thread's scratch in the parallel loop's body).
// 37 x 53: no size is a multiple of anything.
// RUN: stax-run %s --entry=softmax --random-inputs --print=hash | sed 1d > %t.interp
// RUN: FileCheck %s --input-file=%t.interp
// RUN: stax-run %s --entry=softmax --random-inputs --print=hash --jit --pipeline-options="vector-width=1 math-kernels=f64" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-run %s --entry=softmax --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1 call-grain=0 math-kernels=f64" --num-threads=4 | sed 1d > %t.threads
// RUN: diff %t.interp %t.threads
// The scratch replaces the arena: the module allocates none.
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1 grain=1 call-grain=0" %s | FileCheck %s --check-prefix=CHECK-IR

// CHECK: result #0: tensor<37x53xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-IR-LABEL: func.func @softmax(
// CHECK-IR-NOT: memref.alloc(
// CHECK-IR: scf.parallel (%[[ROW:.*]]) =
// CHECK-IR: %[[ROWBUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<53xf32>
// CHECK-IR: %[[VIEW:.*]] = memref.reinterpret_cast %[[ROWBUF]] to offset: [%{{.*}}], sizes: [1961], strides: [1] : memref<53xf32> to memref<1961xf32, strided<[1], offset: ?>>
// CHECK-IR: memref.store %{{.*}}, %[[VIEW]]
// CHECK-IR: memref.load %[[VIEW]]
func.func @softmax(%x: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %m = tp.amax %x {dims = array<i64: 1>, keepdim = true} : tensor<37x53xf32> -> tensor<37x1xf32>
  %y = tp.sub %x, %m : tensor<37x53xf32>, tensor<37x1xf32> -> tensor<37x53xf32>
  %e = tp.exp %y : tensor<37x53xf32> -> tensor<37x53xf32>
  %s = tp.sum %e {dims = array<i64: 1>, keepdim = true} : tensor<37x53xf32> -> tensor<37x1xf32>
  %o = tp.div %e, %s : tensor<37x53xf32>, tensor<37x1xf32> -> tensor<37x53xf32>
  return %o : tensor<37x53xf32>
}
