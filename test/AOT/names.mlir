// Entry points are C symbols. A name that is no C identifier, or a C/C++
// keyword, cannot be declared in the header; a name that compiled code
// itself calls or links against (libm's exp, malloc, the runtime's
// prefixes) would be called in place of that function, so the pipeline
// refuses it. float16 and bfloat16 buffers are declared as their bits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not stax-translate --stax-to-c-header %s -split-input-file 2>&1 | FileCheck %s --check-prefix=CHECK-HEADER
// RUN: not stax-opt --stax-pipeline %S/Inputs/reserved-name.mlir 2>&1 | FileCheck %s --check-prefix=CHECK-PIPELINE
// A failure writes no partial header; a module without a function body
// (an empty one, or one --stax-pipeline lowered already) declares nothing.
// RUN: not stax-translate --stax-to-c-header %S/Inputs/reserved-name.mlir 2>/dev/null | FileCheck %s --allow-empty --check-prefix=CHECK-NO-PARTIAL
// RUN: echo 'module {}' | not stax-translate --stax-to-c-header 2>&1 | FileCheck %s --check-prefix=CHECK-EMPTY
// RUN: not stax-translate --stax-to-c-header %S/Inputs/reserved-name.mlir 2>&1 | FileCheck %s --check-prefix=CHECK-ONE-LINE
// CHECK-NO-PARTIAL-NOT: pragma
// CHECK-ONE-LINE: error: function name 'exp' cannot be a C entry point
// CHECK-ONE-LINE-NOT: see current operation
// CHECK-EMPTY: error: no func.func with a body to declare: --stax-to-c-header reads the tp or stax module --stax-pipeline lowers, not its output
// RUN: stax-translate --stax-to-c-header %S/Inputs/half-buffers.mlir -o %t/h.h
// RUN: FileCheck %s --check-prefix=CHECK-HALF < %t/h.h
// RUN: echo '#include "h.h"' > %t/m.c
// RUN: %clang -std=c99 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only -I%t %t/m.c
// RUN: %clang -x c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I%t %t/m.c

// CHECK-HEADER: error: function name 'my-func.v2' cannot be a C entry point: not a C identifier
func.func @"my-func.v2"(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// CHECK-HEADER: error: function name 'int' cannot be a C entry point: a C or C++ keyword
func.func @int(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// CHECK-HEADER: error: function name 'class' cannot be a C entry point: a C or C++ keyword
func.func @class(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// CHECK-HEADER: error: function name 'expf' cannot be a C entry point: a symbol compiled code calls or links against
func.func @expf(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// CHECK-HEADER: error: function name 'stax_rt_index_error' cannot be a C entry point: a symbol compiled code calls or links against
func.func @stax_rt_index_error(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// CHECK-HEADER: error: function name 'main' cannot be a C entry point: the program's own entry point
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// CHECK-PIPELINE: reserved-name.mlir:{{[0-9]+}}:1: error: function name 'exp' is a symbol compiled code calls or links against (C math library, runtime); rename it
// CHECK-HALF: void halves(const uint16_t *in0 /* 4, float16 bits */, const uint16_t *in1 /* 2x2, bfloat16 bits */, uint16_t *out0 /* 4, float16 bits */);
