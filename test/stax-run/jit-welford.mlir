// Welford variance in compiled code: the one-pass reduction (mean, M2,
// count) and, when a long reduction is split (target=cuda), the second
// level combining partial states (welford_combine, Chan et al.). Both are
// scalar loops in the interpreter's order: the compiled code of the lowered
// IR is bitwise equal to the interpreter running the same lowered IR.
//
// RUN: stax-opt %s --stax-lowering-pipeline="target=cuda welford=true decompose=false fuse=false" -o %t.cuda.mlir
// RUN: FileCheck %s --check-prefix=CHECK-CUDA --input-file=%t.cuda.mlir
// RUN: stax-run %t.cuda.mlir --random-inputs --print=hash | sed 1d > %t.cuda.interp
// RUN: FileCheck %s --check-prefix=CHECK-HASH --input-file=%t.cuda.interp
// RUN: stax-run %t.cuda.mlir --random-inputs --print=hash --jit --pipeline-options="fuse=false vector-width=1" | sed 1d > %t.cuda.scalar
// RUN: diff %t.cuda.interp %t.cuda.scalar
// RUN: stax-run %t.cuda.mlir --random-inputs --print=hash --jit --pipeline-options="fuse=false" | sed 1d > %t.cuda.default
// RUN: diff %t.cuda.interp %t.cuda.default
//
// RUN: stax-opt %s --stax-lowering-pipeline="welford=true decompose=false" -o %t.cpu.mlir
// RUN: FileCheck %s --check-prefix=CHECK-CPU --input-file=%t.cpu.mlir
// RUN: stax-run %t.cpu.mlir --random-inputs --print=hash | sed 1d > %t.cpu.interp
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="welford=true decompose=false" | sed 1d > %t.cpu.jit
// RUN: diff %t.cpu.interp %t.cpu.jit
//
// Against the two-pass variance of the interpreter (class 2): the values
// agree to the digits checked (float64: 0.332435434, 0.333347023 and
// 0.332059494 for rows 0, 1 and 7).
// RUN: stax-run %s --random-inputs --print-values | FileCheck %s --check-prefix=CHECK-VALUES
// RUN: stax-run %s --random-inputs --print-values --jit --pipeline-options="welford=true decompose=false" | FileCheck %s --check-prefix=CHECK-VALUES
// RUN: stax-run %t.cuda.mlir --random-inputs --print-values --jit --pipeline-options="fuse=false" | FileCheck %s --check-prefix=CHECK-VALUES

// CHECK-CUDA: stax.reduction welford [8192] ranges [64]
// CHECK-CUDA: stax.reduction welford_combine [8]
// CHECK-CPU: stax.reduction welford [65536]
// CHECK-CPU-NOT: welford_combine
// CHECK-HASH: result #0: tensor<8xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-VALUES: result #0: tensor<8xf32>
// CHECK-VALUES-NEXT: [0.33243{{[0-9]*}}, 0.33334{{[0-9]*}}, {{.*}}, 0.33205{{[0-9]*}}]
func.func @var(%x: tensor<8x65536xf32>) -> tensor<8xf32> {
  %0 = tp.var %x {dims = array<i64: 1>, correction = 1.0 : f64} : tensor<8x65536xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
