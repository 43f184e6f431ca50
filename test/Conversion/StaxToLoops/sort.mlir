// RUN: stax-opt --stax-lowering-pipeline="fuse=false" --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline="fuse=false" --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-DECL
// RUN: stax-opt --stax-lowering-pipeline="fuse=false" --stax-to-loops="vector-width=1 grain=100 call-grain=0" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-PAR

// tp.sort stays tp through the lowering (an external call) and becomes a
// call of the runtime's stax_rt_sort_<type>(outer, len, inner, descending,
// in, values, indices): the sizes before, along and after the (normalized)
// dim and the aligned pointers of the row-major buffers as i64. Bools sort
// as bytes (i8). Each runtime function is declared once per module.

// With at least `grain` elements, the outer slices sort in parallel: one
// call per slice of 6 x 5 elements, its pointers advanced by 120 bytes
// (f32 keys) and 240 (i64 indices).
// CHECK-PAR-LABEL: func.func @direct(
// CHECK-PAR: scf.parallel (%[[O:.*]]) = (%{{.*}}) to (%c4) step
// CHECK-PAR: %[[OI:.*]] = arith.index_cast %[[O]] : index to i64
// CHECK-PAR-DAG: arith.muli %[[OI]], %c120_i64 : i64
// CHECK-PAR-DAG: arith.muli %[[OI]], %c240_i64 : i64
// CHECK-PAR: call @stax_rt_sort_f32(%c1_i64, %c6_i64, %c5_i64, %c1_i64{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-PAR: scf.reduce

// Both results written straight into the caller's buffers.
// CHECK-LABEL: func.func @direct(
// CHECK-SAME: %[[X:[^:]*]]: memref<120xf32>, %[[V:[^:]*]]: memref<120xf32> {stax.output}, %[[I:[^:]*]]: memref<120xi64> {stax.output}) {
// CHECK-DAG: %[[OUTER:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[LEN:.*]] = arith.constant 6 : i64
// CHECK-DAG: %[[INNER:.*]] = arith.constant 5 : i64
// CHECK-DAG: %[[DESC:.*]] = arith.constant 1 : i64
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %[[X]] : memref<120xf32> -> index
// CHECK: %[[AX:.*]] = arith.index_cast %[[PX]] : index to i64
// CHECK: %[[PV:.*]] = memref.extract_aligned_pointer_as_index %[[V]] : memref<120xf32> -> index
// CHECK: %[[AV:.*]] = arith.index_cast %[[PV]] : index to i64
// CHECK: %[[PI:.*]] = memref.extract_aligned_pointer_as_index %[[I]] : memref<120xi64> -> index
// CHECK: %[[AI:.*]] = arith.index_cast %[[PI]] : index to i64
// CHECK: call @stax_rt_sort_f32(%[[OUTER]], %[[LEN]], %[[INNER]], %[[DESC]], %[[AX]], %[[AV]], %[[AI]]) : (i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK-NEXT: return
func.func @direct(%x: tensor<4x6x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x5xi64>) {
  %s:2 = tp.sort %x {dim = -2 : i64, descending = true} : tensor<4x6x5xf32> -> tensor<4x6x5xf32>, tensor<4x6x5xi64>
  return %s#0, %s#1 : tensor<4x6x5xf32>, tensor<4x6x5xi64>
}

// The operand is a node in the arena; the values are read back from the
// arena by the node after the call. A 0-d sort is one slice of one element.
// CHECK-LABEL: func.func @arena(
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64}
// CHECK: %[[IN:.*]] = memref.view %[[ARENA]]
// CHECK: %[[VAL:.*]] = memref.view %[[ARENA]]
// CHECK: memref.store %{{.*}}, %[[IN]]
// CHECK: %[[PIN:.*]] = memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: %[[AIN:.*]] = arith.index_cast %[[PIN]] : index to i64
// CHECK: %[[PVAL:.*]] = memref.extract_aligned_pointer_as_index %[[VAL]]
// CHECK: %[[AVAL:.*]] = arith.index_cast %[[PVAL]] : index to i64
// CHECK: call @stax_rt_sort_f64(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[AIN]], %[[AVAL]], %{{.*}})
// CHECK: memref.load %[[VAL]]
// CHECK: call @stax_rt_sort_f64(
// CHECK: memref.dealloc %[[ARENA]]
func.func @arena(%x: tensor<8xf64>, %y: tensor<f64>) -> (tensor<8xf64>, tensor<8xi64>, tensor<f64>, tensor<i64>) {
  %n = tp.neg %x : tensor<8xf64> -> tensor<8xf64>
  %s:2 = tp.sort %n {dim = 0 : i64} : tensor<8xf64> -> tensor<8xf64>, tensor<8xi64>
  %m = tp.mul.Scalar %s#0 {other = 2.0 : f64} : tensor<8xf64> -> tensor<8xf64>
  %t:2 = tp.sort %y {dim = -1 : i64} : tensor<f64> -> tensor<f64>, tensor<i64>
  return %m, %s#1, %t#0, %t#1 : tensor<8xf64>, tensor<8xi64>, tensor<f64>, tensor<i64>
}

// Integers sort as their own width; bools as bytes.
// CHECK-LABEL: func.func @ints(
// CHECK: call @stax_rt_sort_i32(
// CHECK: call @stax_rt_sort_i64(
// CHECK: call @stax_rt_sort_i8(
// CHECK: call @stax_rt_sort_i8(
// CHECK: call @stax_rt_sort_i16(
// CHECK: call @stax_rt_sort_u8(
func.func @ints(%a: tensor<5xi32>, %b: tensor<5xi64>, %c: tensor<5xi1>, %d: tensor<5xi8>, %e: tensor<5xi16>, %f: tensor<5xui8>)
    -> (tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>) {
  %0:2 = tp.sort %a {dim = 0 : i64} : tensor<5xi32> -> tensor<5xi32>, tensor<5xi64>
  %1:2 = tp.sort %b {dim = 0 : i64} : tensor<5xi64> -> tensor<5xi64>, tensor<5xi64>
  %2:2 = tp.sort %c {dim = 0 : i64} : tensor<5xi1> -> tensor<5xi1>, tensor<5xi64>
  %3:2 = tp.sort %d {dim = 0 : i64} : tensor<5xi8> -> tensor<5xi8>, tensor<5xi64>
  %4:2 = tp.sort %e {dim = 0 : i64} : tensor<5xi16> -> tensor<5xi16>, tensor<5xi64>
  %5:2 = tp.sort %f {dim = 0 : i64} : tensor<5xui8> -> tensor<5xui8>, tensor<5xi64>
  return %0#1, %1#1, %2#1, %3#1, %4#1, %5#1 : tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>
}

// CHECK-DECL: func.func private @stax_rt_sort_f32(i64, i64, i64, i64, i64, i64, i64)
// CHECK-DECL-NOT: func.func private @stax_rt_sort_f32
// CHECK-DECL: func.func private @stax_rt_sort_f64(i64, i64, i64, i64, i64, i64, i64)
// CHECK-DECL-NOT: func.func private @stax_rt_sort_f64
// CHECK-DECL: func.func private @stax_rt_sort_i32(
// CHECK-DECL: func.func private @stax_rt_sort_i64(
// CHECK-DECL: func.func private @stax_rt_sort_i8(
// CHECK-DECL-NOT: func.func private @stax_rt_sort_i8
// CHECK-DECL: func.func private @stax_rt_sort_i16(

// tp.topk calls stax_rt_topk_<type>(outer, len, inner, k, descending, in,
// values, indices): the sizes of the input, k, and `largest` as the
// descending flag. In parallel, the input advances by a slice of 30 x 5
// f32 (600 bytes), the results by k x 5 (60 bytes of f32, 120 of i64).
// CHECK-PAR-LABEL: func.func @topk(
// CHECK-PAR: scf.parallel (%[[O:.*]]) = (%{{.*}}) to (%c4) step
// CHECK-PAR: %[[OI:.*]] = arith.index_cast %[[O]] : index to i64
// CHECK-PAR-DAG: arith.muli %[[OI]], %c600_i64 : i64
// CHECK-PAR-DAG: arith.muli %[[OI]], %c60_i64 : i64
// CHECK-PAR-DAG: arith.muli %[[OI]], %c120_i64 : i64
// CHECK-PAR: call @stax_rt_topk_f32(%c1_i64, %c30_i64, %c5_i64, %c3_i64, %c0_i64, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK-LABEL: func.func @topk(
// CHECK: call @stax_rt_topk_f32(%c4_i64, %c30_i64, %c5_i64, %c3_i64, %c0_i64,
func.func @topk(%x: tensor<4x30x5xf32>) -> (tensor<4x3x5xf32>, tensor<4x3x5xi64>) {
  %s:2 = tp.topk %x {k = 3 : i64, dim = 1 : i64, largest = false} : tensor<4x30x5xf32> -> tensor<4x3x5xf32>, tensor<4x3x5xi64>
  return %s#0, %s#1 : tensor<4x3x5xf32>, tensor<4x3x5xi64>
}
