// Welford variance in compiled code: the one-pass reduction (mean, M2,
// count) and, when a long reduction is split (target=cuda), the second
// level combining partial states (welford_combine, Chan et al.). The
// scalar code (vector-width=1) runs the interpreter's order: bitwise equal
// to the interpreter running the same lowered IR. The vector code keeps a
// state per lane and merges the lanes with Chan's combine (class 2): its
// values are checked against float64 below.
//
// RUN: stax-opt %s --stax-lowering-pipeline="target=cuda welford=true decompose=false fuse=false" -o %t.cuda.mlir
// RUN: FileCheck %s --check-prefix=CHECK-CUDA --input-file=%t.cuda.mlir
// RUN: stax-run %t.cuda.mlir --random-inputs --print=hash | sed 1d > %t.cuda.interp
// RUN: FileCheck %s --check-prefix=CHECK-HASH --input-file=%t.cuda.interp
// RUN: stax-run %t.cuda.mlir --random-inputs --print=hash --jit --pipeline-options="fuse=false vector-width=1" | sed 1d > %t.cuda.scalar
// RUN: diff %t.cuda.interp %t.cuda.scalar
//
// RUN: stax-opt %s --stax-lowering-pipeline="welford=true decompose=false" -o %t.cpu.mlir
// RUN: FileCheck %s --check-prefix=CHECK-CPU --input-file=%t.cpu.mlir
// RUN: stax-run %t.cpu.mlir --random-inputs --print=hash | sed 1d > %t.cpu.interp
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="welford=true decompose=false vector-width=1" | sed 1d > %t.cpu.jit
// RUN: diff %t.cpu.interp %t.cpu.jit
// The vector code: a state per lane (vector<16xf32> mean, M2 and count).
// RUN: stax-opt %s --stax-pipeline="welford=true decompose=false parallel=false" --mlir-print-ir-after=stax-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-VEC
//
// Against the two-pass variance of the interpreter (class 2): the values
// agree to the digits checked (float64: 0.332435434, 0.333347023 and
// 0.332059494 for rows 0, 1 and 7; the vector code gives 0.332435369,
// 0.333346874 and 0.332059413, the scalar Welford 0.332435429, 0.333346754
// and 0.332059264).
// RUN: stax-run %s --random-inputs --print-values | FileCheck %s --check-prefix=CHECK-VALUES
// RUN: stax-run %s --random-inputs --print-values --jit --pipeline-options="welford=true decompose=false" | FileCheck %s --check-prefix=CHECK-VALUES
// RUN: stax-run %t.cuda.mlir --random-inputs --print-values --jit --pipeline-options="fuse=false" | FileCheck %s --check-prefix=CHECK-VALUES

// CHECK-CUDA: stax.reduction welford [8192] ranges [64]
// CHECK-CUDA: stax.reduction welford_combine [8]
// CHECK-CPU: stax.reduction welford [65536]
// CHECK-CPU-NOT: welford_combine
// CHECK-VEC-LABEL: func.func @var(
// CHECK-VEC: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-VEC: arith.divf {{.*}} : vector<16xf32>
// CHECK-VEC: scf.for {{.*}} -> (f32, f32, f32)
// CHECK-VEC: vector.extract
// CHECK-HASH: result #0: tensor<8xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-VALUES: result #0: tensor<8xf32>
// CHECK-VALUES-NEXT: [0.33243{{[0-9]*}}, 0.33334{{[0-9]*}}, {{.*}}, 0.33205{{[0-9]*}}]
func.func @var(%x: tensor<8x65536xf32>) -> tensor<8xf32> {
  %0 = tp.var %x {dims = array<i64: 1>, correction = 1.0 : f64} : tensor<8x65536xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
