// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s

// A product reading the transpose of a kernel's result: BLAS reads the
// kernel's buffer with a transpose flag (the transpose node is not
// emitted), so that buffer lives until that product. Its lifetime used to
// end at the kernel result's last direct reader (the first product), and
// the second product's result took the same arena bytes as its operand
// (a double backward through a TransformerEncoderLayer computed garbage).

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[A:[^:]*]]: memref<256xf32>, %[[X:[^:]*]]: memref<256xf32>
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2048xi8>
// CHECK: %[[E:.*]] = memref.view %[[ARENA]][%c0][] : memref<2048xi8> to memref<256xf32>
// CHECK: %[[M2:.*]] = memref.view %[[ARENA]][%c1024][] : memref<2048xi8> to memref<256xf32>
// The kernel stores exp(a) into E.
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[E]]
// m1 = x @ e: A = x, B = E, no transposes.
// CHECK: %[[PE1:.*]] = memref.extract_aligned_pointer_as_index %[[E]]
// CHECK: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// m2 = x @ e^T: B = E with the transpose flag, the result in M2 (not E).
// CHECK: %[[PE2:.*]] = memref.extract_aligned_pointer_as_index %[[E]]
// CHECK: %[[BE2:.*]] = arith.index_cast %[[PE2]]
// CHECK: %[[PM2:.*]] = memref.extract_aligned_pointer_as_index %[[M2]]
// CHECK: %[[BM2:.*]] = arith.index_cast %[[PM2]]
// CHECK: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TB:.*]], %{{.*}}, %[[BE2]], %[[BM2]])
func.func @f(%a: tensor<16x16xf32>, %x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %e = tp.exp %a : tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tp.sin %a : tensor<16x16xf32> -> tensor<16x16xf32>
  %m1 = tp.mm %x, %e : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %t = tp.t %e : tensor<16x16xf32> -> tensor<16x16xf32>
  %m2 = tp.mm %x, %t : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = tp.mm %m2, %s : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r, %m1, %s : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}
