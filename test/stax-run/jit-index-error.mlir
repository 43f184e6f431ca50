// A bad data-dependent index in compiled code calls the runtime, which
// records the first error; the caller then fails with the op's location
// (the module's stax.error_sites) instead of reading out of bounds. The
// interpreter reports the same index.
// RUN: not stax-run %s --entry=index --random-inputs --jit 2>&1 | FileCheck %s --check-prefix=CHECK-INDEX
// RUN: not stax-run %s --entry=index --random-inputs --jit --pipeline-options="vector-width=1 parallel=false approximate-math=false" 2>&1 | FileCheck %s --check-prefix=CHECK-INDEX
// RUN: not stax-run %s --entry=index --random-inputs 2>&1 | FileCheck %s --check-prefix=CHECK-INTERP-INDEX
// RUN: not stax-run %s --entry=negative --random-inputs --jit 2>&1 | FileCheck %s --check-prefix=CHECK-NEGATIVE
// RUN: not stax-run %s --entry=embedding --random-inputs --jit 2>&1 | FileCheck %s --check-prefix=CHECK-EMBEDDING
// RUN: not stax-run %s --entry=scatter --random-inputs --jit 2>&1 | FileCheck %s --check-prefix=CHECK-SCATTER
// Many bad indices drawn in [0, 200) for a dimension of 100, read on 4
// threads: one error, whichever comes first.
// RUN: not stax-run %s --entry=many --random-inputs --int-high=200 --jit --num-threads=4 2>&1 | FileCheck %s --check-prefix=CHECK-MANY
// The same indices in range: no error, and the interpreter's values.
// RUN: stax-run %s --entry=many --random-inputs --int-high=100 --jit --print=hash | sed 1d > %t.many.jit
// RUN: stax-run %s --entry=many --random-inputs --int-high=100 --print=hash | sed 1d > %t.many.interp
// RUN: diff %t.many.interp %t.many.jit
// RUN: FileCheck %s --check-prefix=CHECK-MANY-OK --input-file=%t.many.jit
// CHECK-MANY-OK: result #0: tensor<65536xf32> fnv1a64=0x{{[0-9a-f]+}}

// CHECK-INDEX-NOT: result
// CHECK-INDEX: stax-run: run-time error: index 9 is out of bounds for a dimension of size 8 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+5]]:8)
// CHECK-INDEX-NOT: result
// CHECK-INTERP-INDEX: jit-index-error.mlir:[[@LINE+3]]:8: error: 'tp.index' op index 9 is out of bounds for dim 0 of size 8
func.func @index(%x: tensor<8xf32>) -> tensor<4xf32> {
  %idx = tp.constant dense<[1, -2, 9, 3]> : tensor<4xi64>
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<8xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// 32 indices: two vectors of 16 lanes, checked a vector at a time. The
// first bad lane (position 21) is reported, with the value read there.
// RUN: not stax-run %s --entry=lanes --random-inputs --jit 2>&1 | FileCheck %s --check-prefix=CHECK-LANES
// RUN: not stax-run %s --entry=lanes --random-inputs --jit --pipeline-options="vector-width=1" 2>&1 | FileCheck %s --check-prefix=CHECK-LANES
// CHECK-LANES: stax-run: run-time error: index -12 is out of bounds for a dimension of size 8 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+3]]:8)
func.func @lanes(%x: tensor<8xf32>) -> tensor<32xf32> {
  %idx = tp.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -4, -5, -6, -7, -8, 0, 1, 2, 3, 4, -12, 6, 7, 9, 1, 2, 3, 4, 5, 6, 7]> : tensor<32xi64>
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<8xf32>, tensor<32xi64>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// The value reported is the one read, before the negative wrap.
// CHECK-NEGATIVE: stax-run: run-time error: index -9 is out of bounds for a dimension of size 8 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+3]]:8)
func.func @negative(%x: tensor<8xf32>) -> tensor<4xf32> {
  %idx = tp.constant dense<[1, -2, -9, 3]> : tensor<4xi64>
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<8xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Embedding indices do not wrap.
// CHECK-EMBEDDING: stax-run: run-time error: index 100 is out of bounds for a dimension of size 10 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+3]]:8)
func.func @embedding(%w: tensor<10x4xf32>) -> tensor<2x4xf32> {
  %i = tp.constant dense<[3, 100]> : tensor<2xi64>
  %0 = tp.embedding %w, %i : (tensor<10x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// A scatter's index.
// CHECK-SCATTER: stax-run: run-time error: index 4 is out of bounds for a dimension of size 4 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+4]]:8)
// CHECK-SCATTER-NOT: result
func.func @scatter(%z: tensor<4x3xf32>, %s: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %i = tp.constant dense<[[0, 1, 2], [3, 4, 0]]> : tensor<2x3xi64>
  %r = tp.scatter_add %z, %i, %s {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %n = tp.neg %r : tensor<4x3xf32> -> tensor<4x3xf32>
  return %n : tensor<4x3xf32>
}

// CHECK-MANY: stax-run: run-time error: index 1{{[0-9][0-9]}} is out of bounds for a dimension of size 100 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+4]]:8)
// CHECK-MANY-NOT: run-time error
// CHECK-MANY-NOT: result
func.func @many(%x: tensor<100xf32>, %idx: tensor<65536xi64>) -> tensor<65536xf32> {
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<100xf32>, tensor<65536xi64>) -> tensor<65536xf32>
  return %0 : tensor<65536xf32>
}

// Every index into a dimension of size 0 is out of bounds. The clamped
// index (0) is out of the empty buffer too, which may be a null pointer:
// the load reads nothing, and the error is reported as for any other size.
// RUN: not stax-run %s --entry=empty_index --random-inputs --jit 2>&1 | FileCheck %s --check-prefix=CHECK-EMPTY-INDEX
// RUN: not stax-run %s --entry=empty_index --random-inputs --jit --pipeline-options="vector-width=1" 2>&1 | FileCheck %s --check-prefix=CHECK-EMPTY-INDEX
// RUN: not stax-run %s --entry=empty_embedding --random-inputs --jit 2>&1 | FileCheck %s --check-prefix=CHECK-EMPTY-EMBEDDING
// RUN: not stax-run %s --entry=empty_gather --random-inputs --jit 2>&1 | FileCheck %s --check-prefix=CHECK-EMPTY-GATHER
// CHECK-EMPTY-INDEX: stax-run: run-time error: index {{-?[0-9]+}} is out of bounds for a dimension of size 0 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+2]]:8)
func.func @empty_index(%x: tensor<0xf32>, %i: tensor<40xi64>) -> tensor<40xf32> {
  %0 = tp.index %x[%i] {dims = array<i64: 0>} : (tensor<0xf32>, tensor<40xi64>) -> tensor<40xf32>
  return %0 : tensor<40xf32>
}
// CHECK-EMPTY-EMBEDDING: stax-run: run-time error: index {{-?[0-9]+}} is out of bounds for a dimension of size 0 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+2]]:8)
func.func @empty_embedding(%w: tensor<0x4xf32>, %i: tensor<2xi64>) -> tensor<2x4xf32> {
  %0 = tp.embedding %w, %i : (tensor<0x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// CHECK-EMPTY-GATHER: stax-run: run-time error: index {{-?[0-9]+}} is out of bounds for a dimension of size 0 in stax.indirect_index at loc("{{.*}}jit-index-error.mlir":[[@LINE+2]]:8)
func.func @empty_gather(%x: tensor<3x0xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %0 = tp.gather %x, %i {dim = 1 : i64} : (tensor<3x0xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
