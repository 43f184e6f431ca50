// RUN: stax-opt --stax-decompose --stax-lower="target=cpu remarks=true" %s 2>&1 | FileCheck %s --check-prefix=CHECK-CPU
// RUN: stax-opt --stax-decompose --stax-lower="target=cuda remarks=true" %s 2>&1 | FileCheck %s --check-prefix=CHECK-CUDA
// RUN: stax-opt --stax-decompose --stax-lower="target=cpu remarks=true" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-REMARK-CPU
// RUN: stax-opt --stax-decompose --stax-lower="target=cuda remarks=true" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-REMARK-CUDA

// Section 6.6: exp(x) read by two users goes to memory on the cpu (an
// expensive op with several users) and is inlined into the one node on cuda.

// CHECK-CPU: remark: materialized: an expensive op (exp/log/tanh) on cpu with 2 users
// CHECK-CPU-LABEL: func.func @two_users
// CHECK-CPU: %[[E:.*]] = stax.pointwise layout <[8, 1]> : tensor<4x8xf32>
// CHECK-CPU: math.exp
// CHECK-CPU: stax.pointwise
// CHECK-CPU-NOT: math.exp
// CHECK-CPU: stax.load %[[E]]

// CHECK-CUDA-NOT: remark: materialized: an expensive op
// CHECK-CUDA-LABEL: func.func @two_users
// CHECK-CUDA-NEXT: stax.pointwise
// CHECK-CUDA: math.exp
// CHECK-CUDA-NOT: stax.pointwise
// CHECK-CUDA: return
func.func @two_users(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tp.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %a = tp.add.Scalar %e {other = 1.0 : f64} : tensor<4x8xf32> -> tensor<4x8xf32>
  %b = tp.mul.Scalar %e {other = 3.0 : f64} : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = tp.mul %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// A cheap value with two users is inlined on both targets.
// CHECK-CPU-LABEL: func.func @cheap
// CHECK-CPU-NEXT: stax.pointwise
// CHECK-CPU-NOT: stax.pointwise
// CHECK-CPU: return
func.func @cheap(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tp.neg %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = tp.mul %e, %e : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// An intermediate buffer only read transposed is stored column-major, so
// that both its writes and the reads of its users are contiguous (6.4).
// CHECK-CPU-LABEL: func.func @flexible
// CHECK-CPU: stax.pointwise layout <[1, 16]> : tensor<16x8xf32>
func.func @flexible(%x: tensor<8x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %t = tp.t %x : tensor<8x16xf32> -> tensor<16x8xf32>
  %e = tp.exp %t : tensor<16x8xf32> -> tensor<16x8xf32>
  %a = tp.add.Scalar %e {other = 1.0 : f64} : tensor<16x8xf32> -> tensor<16x8xf32>
  %b = tp.mul.Scalar %e {other = 3.0 : f64} : tensor<16x8xf32> -> tensor<16x8xf32>
  return %a, %b : tensor<16x8xf32>, tensor<16x8xf32>
}

// A matmul operand whose reads run along its rows is stored as its
// transpose on the cpu (a contiguous copy; BLAS takes a transpose flag) and
// read back through a transpose node; on cuda it stays row-major.
// CHECK-REMARK-CPU: materialize.mlir:[[@LINE+17]]:8: remark: materialized: read from memory by matmuls, stored transposed (its reads run along its rows)
// CHECK-REMARK-CUDA-NOT: stored transposed
// CHECK-CPU-LABEL: func.func @rows_read_operand
// CHECK-CPU: %[[S:.*]] = stax.pointwise layout <[16, 1]> : tensor<8x16xf32>
// CHECK-CPU: arith.negf
// CHECK-CPU: %[[T:.*]] = stax.pointwise layout <[8, 1]> : tensor<16x8xf32>
// CHECK-CPU-NEXT: ^bb0
// CHECK-CPU-NEXT: affine.apply
// CHECK-CPU-NEXT: stax.load %[[S]]
// CHECK-CPU-NEXT: stax.yield
// CHECK-CPU: tp.mm %{{.*}}, %[[T]]
// CHECK-CUDA-LABEL: func.func @rows_read_operand
// CHECK-CUDA: %[[N:.*]] = stax.pointwise layout <[8, 1]> : tensor<16x8xf32>
// CHECK-CUDA: arith.negf
// CHECK-CUDA: tp.mm %{{.*}}, %[[N]]
func.func @rows_read_operand(%x: tensor<8x16xf32>, %y: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %t = tp.t %x : tensor<8x16xf32> -> tensor<16x8xf32>
  %n = tp.neg %t : tensor<16x8xf32> -> tensor<16x8xf32>
  %m = tp.mm %y, %n : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
