// RUN: not stax-run %s --entry=two_args 2>&1 | FileCheck %s --check-prefix=CHECK-MISSING0
// RUN: stax-run %s --entry=ones --output-dir=%t
// RUN: not stax-run %s --entry=two_args --input=%t/result0.npy 2>&1 | FileCheck %s --check-prefix=CHECK-MISSING1
// RUN: stax-run %s --entry=two_args --input=%t/result0.npy --input=%t/result0.npy | FileCheck %s --check-prefix=CHECK-GIVEN
// RUN: stax-run %s --entry=two_args --input=%t/result0.npy --random-inputs --seed 5 | FileCheck %s --check-prefix=CHECK-MIXED
// RUN: stax-run %s --entry=two_args --random-inputs --seed 5 --print=hash > %t.a
// RUN: stax-run %s --entry=two_args --random-inputs --seed 5 --print=hash > %t.b
// RUN: diff %t.a %t.b
// RUN: not stax-run %s --entry=dynamic_arg --random-inputs 2>&1 | FileCheck %s --check-prefix=CHECK-DYNARG
// RUN: not stax-run %s --entry=dynamic_result --random-inputs 2>&1 | FileCheck %s --check-prefix=CHECK-DYNRES
// RUN: not stax-run %s --entry=ints --random-inputs --int-low=3 --int-high=3 2>&1 | FileCheck %s --check-prefix=CHECK-INTS
// RUN: stax-run %s --entry=ints --random-inputs --int-low=3 --int-high=4 | FileCheck %s --check-prefix=CHECK-INTS-OK
// RUN: stax-run --help | FileCheck %s --check-prefix=CHECK-HELP
// The compiled code reads its buffers unchecked: --jit checks the inputs'
// types first, as the interpreter does (it read 4x4 floats from a 2x3 file).
// RUN: not stax-run %s --entry=square --input=%t/result0.npy --jit 2>&1 | FileCheck %s --check-prefix=CHECK-JIT-TYPE
// RUN: not stax-run %s --entry=square --input=%t/result0.npy 2>&1 | FileCheck %s --check-prefix=CHECK-JIT-TYPE
// RUN: not stax-run %s --entry=ones --pipeline-options=vector-width=4 2>&1 | FileCheck %s --check-prefix=CHECK-NO-JIT
// RUN: not stax-run %s --entry=ones --jit --pipeline-options=vector-width=-4 2>&1 | FileCheck %s --check-prefix=CHECK-BAD-OPTION

// CHECK-JIT-TYPE: error: argument #0 has type 'tensor<2x3xf32>' but the function expects 'tensor<4x4xf32>'
// CHECK-NO-JIT: stax-run: --pipeline-options apply to --jit
// CHECK-BAD-OPTION: stax-run: invalid --pipeline-options vector-width=-4: must be at least 0
func.func @square(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = tp.exp %x : tensor<4x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// stax-run never invents an argument unless told to: every argument needs an
// --input, or --random-inputs (seeded by --seed) fills those without one.

// CHECK-MISSING0: stax-run: argument #0 (tensor<2x3xf32>) has no --input; pass one, or --random-inputs
// CHECK-MISSING1: stax-run: argument #1 (tensor<2x3xf32>) has no --input; pass one, or --random-inputs
// CHECK-GIVEN: result #0: tensor<2x3xf32> min=2 max=2 mean=2
// CHECK-MIXED: result #0: tensor<2x3xf32>
// CHECK-MIXED-NOT: min=2 max=2
func.func @two_args(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @ones() -> tensor<2x3xf32> {
  %0 = tp.full {value = 1.0 : f64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A `?` dimension is an error naming the argument or result, not a size 0.
// CHECK-DYNARG: stax-run: argument #0 (tensor<?x4xf32>) has a dynamic dimension ('?'): the interpreter runs static shapes only
func.func @dynamic_arg(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// CHECK-DYNRES: stax-run: result #0 (tensor<?xf32>) has a dynamic dimension ('?'): the interpreter runs static shapes only
func.func private @make_dynamic(tensor<4xf32>) -> tensor<?xf32>
func.func @dynamic_result(%x: tensor<4xf32>) -> tensor<?xf32> {
  %0 = func.call @make_dynamic(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// An empty integer range would silently make every value --int-low.
// CHECK-INTS: stax-run: --int-high (3) must be above --int-low (3)
// CHECK-INTS-OK: result #0: tensor<3xi32> min=3 max=3 mean=3
func.func @ints(%x: tensor<3xi32>) -> tensor<3xi32> {
  return %x : tensor<3xi32>
}

// CHECK-HELP: --max-bytes=<long>
// CHECK-HELP: --random-inputs
// CHECK-HELP: --seed=<ulong>
