// RUN: not stax-run %s --entry=two_args 2>&1 | FileCheck %s --check-prefix=MISSING0
// RUN: stax-run %s --entry=ones --output-dir=%t
// RUN: not stax-run %s --entry=two_args --input=%t/result0.npy 2>&1 | FileCheck %s --check-prefix=MISSING1
// RUN: stax-run %s --entry=two_args --input=%t/result0.npy --input=%t/result0.npy | FileCheck %s --check-prefix=GIVEN
// RUN: stax-run %s --entry=two_args --input=%t/result0.npy --random-inputs --seed 5 | FileCheck %s --check-prefix=MIXED
// RUN: stax-run %s --entry=two_args --random-inputs --seed 5 --print=exact > %t.a
// RUN: stax-run %s --entry=two_args --random-inputs --seed 5 --print=exact > %t.b
// RUN: diff %t.a %t.b
// RUN: not stax-run %s --entry=dynamic_arg --random-inputs 2>&1 | FileCheck %s --check-prefix=DYNARG
// RUN: not stax-run %s --entry=dynamic_result --random-inputs 2>&1 | FileCheck %s --check-prefix=DYNRES
// RUN: not stax-run %s --entry=ints --random-inputs --int-low=3 --int-high=3 2>&1 | FileCheck %s --check-prefix=INTS
// RUN: stax-run %s --entry=ints --random-inputs --int-low=3 --int-high=4 | FileCheck %s --check-prefix=INTS-OK
// RUN: stax-run --help | FileCheck %s --check-prefix=HELP

// stax-run never invents an argument unless told to: every argument needs an
// --input, or --random-inputs (seeded by --seed) fills those without one.

// MISSING0: stax-run: argument #0 (tensor<2x3xf32>) has no --input; pass one, or --random-inputs
// MISSING1: stax-run: argument #1 (tensor<2x3xf32>) has no --input; pass one, or --random-inputs
// GIVEN: result #0: tensor<2x3xf32> min=2 max=2 mean=2
// MIXED: result #0: tensor<2x3xf32>
// MIXED-NOT: min=2 max=2
func.func @two_args(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @ones() -> tensor<2x3xf32> {
  %0 = tp.full {value = 1.0 : f64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A `?` dimension is an error naming the argument or result, not a size 0.
// DYNARG: stax-run: argument #0 (tensor<?x4xf32>) has a dynamic dimension ('?'): the interpreter runs static shapes only
func.func @dynamic_arg(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// DYNRES: stax-run: result #0 (tensor<?xf32>) has a dynamic dimension ('?'): the interpreter runs static shapes only
func.func private @make_dynamic(tensor<4xf32>) -> tensor<?xf32>
func.func @dynamic_result(%x: tensor<4xf32>) -> tensor<?xf32> {
  %0 = func.call @make_dynamic(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// An empty integer range would silently make every value --int-low.
// INTS: stax-run: --int-high (3) must be above --int-low (3)
// INTS-OK: result #0: tensor<3xi32> min=3 max=3 mean=3
func.func @ints(%x: tensor<3xi32>) -> tensor<3xi32> {
  return %x : tensor<3xi32>
}

// HELP: --max-bytes=<long>
// HELP: --random-inputs
// HELP: --seed=<ulong>
