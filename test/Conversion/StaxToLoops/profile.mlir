// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="profile=true vector-width=1 parallel=false" %s 2>/dev/null | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1 parallel=false" %s 2>/dev/null | FileCheck %s --check-prefix=OFF
// RUN: stax-opt --stax-lowering-pipeline="target=cuda" --stax-to-loops="target=cuda profile=true" %s 2>/dev/null | FileCheck %s --check-prefix=OFF

// With profile=true each top-level op is bracketed: the clock before it,
// a record after it with its name ("@<function>: <op> at <location>", a
// constant global) and the bytes of the distinct tensors it reads and writes:
// the matmul 4x8 + 8x3 + 4x3 floats = 272 bytes, the ReLU 2 x 12 floats.
// Without it (or on target=cuda, where kernels are timed by the launcher)
// nothing is emitted.
// CHECK-DAG: memref.global "private" constant @f_profile_name{{[0-9]+}} : memref<{{[0-9]+}}xi8> = dense<[64, 102, 58, 32, 116, 112, 46, 109, 109, 32, 97, 116, 32
// CHECK-DAG: memref.global "private" constant @f_profile_name{{[0-9]+}} : memref<{{[0-9]+}}xi8> = dense<[64, 102, 58, 32, 115, 116, 97, 120, 46, 112, 111, 105, 110, 116, 119, 105, 115, 101, 32, 97, 116, 32
// CHECK-LABEL: func.func @f(
// CHECK: %[[T0:.*]] = call @stax_rt_clock_ns() : () -> i64
// CHECK: call @stax_rt_matmul_f32(
// CHECK: %[[N0:.*]] = memref.get_global @f_profile_name
// CHECK: %[[B0:.*]] = arith.constant 272 : i64
// CHECK: call @stax_rt_profile_record(%{{.*}}, %{{.*}}, %[[T0]], %[[B0]]) : (i64, i64, i64, i64) -> ()
// CHECK: %[[T1:.*]] = call @stax_rt_clock_ns() : () -> i64
// CHECK: scf.for
// CHECK: %[[B1:.*]] = arith.constant 96 : i64
// CHECK: call @stax_rt_profile_record(%{{.*}}, %{{.*}}, %[[T1]], %[[B1]])
// CHECK: return
// OFF-NOT: stax_rt_clock_ns
// OFF-NOT: stax_rt_profile_record
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %0 = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %1 = tp.relu %0 : tensor<4x3xf32> -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}
