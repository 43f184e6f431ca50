// Example 6.1, x.t() + y with x 512x256, y 256x512: pure data movement and
// one addition per element (class 1), so every configuration of the
// compiled code, scalar or vectorized (the transposed read is a gather),
// sequential or on threads, is bitwise equal to the interpreter.
// RUN: stax-run %s --random-inputs --print=hash | sed 1d > %t.interp
// RUN: FileCheck %s --input-file=%t.interp
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="vector-width=1 parallel=false" | sed 1d > %t.scalar-seq
// RUN: diff %t.interp %t.scalar-seq
// RUN: stax-run %s --random-inputs --print=hash --jit | sed 1d > %t.default
// RUN: diff %t.interp %t.default
// RUN: stax-run %s --random-inputs --print=hash --jit --num-threads=1 | sed 1d > %t.default-1
// RUN: diff %t.interp %t.default-1
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="vector-width=4 grain=1000" --num-threads=5 | sed 1d > %t.w4
// RUN: diff %t.interp %t.w4
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="vector-width=16 parallel=false" | sed 1d > %t.w16
// RUN: diff %t.interp %t.w16
// The first line says which ran.
// RUN: stax-run %s --random-inputs --print=hash --jit | FileCheck %s --check-prefix=CHECK-HEADER
// CHECK-HEADER: {{^}}@f (compiled){{$}}

// CHECK: result #0: tensor<256x512xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-NOT: result
func.func @f(%x: tensor<512x256xf32>, %y: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %0 = tp.t %x : tensor<512x256xf32> -> tensor<256x512xf32>
  %1 = tp.add %0, %y : tensor<256x512xf32>, tensor<256x512xf32> -> tensor<256x512xf32>
  return %1 : tensor<256x512xf32>
}
