// RUN: stax-opt %s --stax-outline-loops -split-input-file | FileCheck %s

// Each loop nest at the top of a function becomes a private, internal,
// noinline function called in its place; constants are copied in (the
// bounds stay static), other values become arguments in order of use.

// CHECK-LABEL: func.func @two_loops
// CHECK-SAME: (%[[X:[^:]*]]: memref<64xf32>, %[[Y:[^:]*]]: memref<64xf32>, %[[S:[^:]*]]: f32)
// CHECK-NOT: scf.for
// CHECK: call @two_loops_loop0(%[[X]], %[[Y]]) : (memref<64xf32>, memref<64xf32>) -> ()
// CHECK-NEXT: call @two_loops_loop1(%[[S]], %[[Y]]) : (f32, memref<64xf32>) -> ()
// CHECK-NEXT: return
// CHECK: func.func private @two_loops_loop0(%[[A:[^:]*]]: memref<64xf32>, %[[B:[^:]*]]: memref<64xf32>)
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[C64]] step %[[C1]]
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: func.func private @two_loops_loop1(%{{.*}}: f32, %{{.*}}: memref<64xf32>)
func.func @two_loops(%x: memref<64xf32>, %y: memref<64xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    memref.store %v, %y[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %s, %y[%i] : memref<64xf32>
  }
  return
}

// -----

// A computed bound is an argument; a loop with results and a loop that
// uses a strided view (no bare pointer for it) stay where they are, and
// names already taken are not reused.

// CHECK-LABEL: func.func @kept
// CHECK: %[[N:.*]] = arith.index_cast
// CHECK: call @kept_loop0_0(%[[N]], %{{.*}}) : (index, memref<64xf32>) -> ()
// CHECK: scf.for {{.*}} iter_args
// CHECK: memref.subview
// CHECK-NEXT: scf.for
// CHECK: return
// CHECK: func.func private @kept_loop0_0
func.func @kept(%x: memref<64xf32>, %n: i64) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %ub = arith.index_cast %n : i64 to index
  scf.for %i = %c0 to %ub step %c1 {
    memref.store %z, %x[%i] : memref<64xf32>
  }
  %sum = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %z) -> f32 {
    %v = memref.load %x[%i] : memref<64xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  %view = memref.subview %x[1] [32] [2] : memref<64xf32> to memref<32xf32, strided<[2], offset: 1>>
  scf.for %i = %c0 to %ub step %c1 {
    memref.store %z, %view[%i] : memref<32xf32, strided<[2], offset: 1>>
  }
  return %sum : f32
}
func.func private @kept_loop0() {
  return
}

// -----

// Declarations and functions without loops are left alone.

// CHECK-LABEL: func.func @no_loops
// CHECK-NEXT: return
// CHECK-NOT: func.func private @no_loops_loop
// CHECK: func.func private @declared
func.func @no_loops() {
  return
}
func.func private @declared(memref<4xf32>)
