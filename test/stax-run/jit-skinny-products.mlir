// f32 products with few rows (m <= 16) and k or n at most 256 run as
// vector code (SkinnyContraction.h: one accumulator per row and vector of
// columns, fused multiply-adds along k), not as BLAS calls. The operands
// are rounded to integers in [-8, 8], so every product and partial sum is
// exact in f32 and the compiled results must equal the interpreter's
// bitwise in any summation order: batched with a partial last block
// (100 = 3 x 32 + 4 columns), a transposed A (5 rows, blocks of 3 vectors,
// 300 = 6 x 48 + 12), a long k with few columns, and 17 rows (BLAS). Also
// on 4 threads with every product parallel, and with vector-width=1 (all
// of them BLAS calls).
// RUN: stax-run %s --entry=products --random-inputs --print=hash | sed 1d > %t.interp
// RUN: FileCheck %s --input-file=%t.interp
// RUN: stax-run %s --entry=products --random-inputs --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=products --random-inputs --print=hash --jit --pipeline-options="grain=1 call-grain=0" --num-threads=4 | sed 1d > %t.threads
// RUN: diff %t.interp %t.threads
// RUN: stax-run %s --entry=products --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.blas
// RUN: diff %t.interp %t.blas
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s --check-prefix=CHECK-IR

// CHECK-COUNT-4: result #{{[0-9]}}: tensor<{{.*}}> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-NOT: result

// The batched product: 8 rows, two vectors per block, a masked load of
// each vector of B's row and one fused multiply-add per row and vector.
// CHECK-IR-LABEL: func.func @products(
// CHECK-IR: vector.create_mask
// CHECK-IR: vector.create_mask
// CHECK-IR: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-IR: vector.maskedload
// CHECK-IR: vector.maskedload
// CHECK-IR: memref.load
// CHECK-IR: vector.broadcast
// CHECK-IR: math.fma
// CHECK-IR-COUNT-16: vector.maskedstore
// Only the 17-row product calls BLAS.
// CHECK-IR: call @stax_rt_matmul_f32
// CHECK-IR-NOT: call @stax_rt_matmul_f32
func.func @products(%a: tensor<3x8x72xf32>, %b: tensor<3x72x100xf32>, %at: tensor<72x5xf32>, %c: tensor<72x300xf32>, %p: tensor<4x1000xf32>, %q: tensor<1000x80xf32>, %r: tensor<17x40xf32>, %s: tensor<40x64xf32>) -> (tensor<3x8x100xf32>, tensor<5x300xf32>, tensor<4x80xf32>, tensor<17x64xf32>) {
  %eight = tp.constant dense<8.0> : tensor<f32>
  %a8 = tp.mul %a, %eight : tensor<3x8x72xf32>, tensor<f32> -> tensor<3x8x72xf32>
  %ai = tp.round %a8 : tensor<3x8x72xf32> -> tensor<3x8x72xf32>
  %b8 = tp.mul %b, %eight : tensor<3x72x100xf32>, tensor<f32> -> tensor<3x72x100xf32>
  %bi = tp.round %b8 : tensor<3x72x100xf32> -> tensor<3x72x100xf32>
  %r0 = tp.bmm %ai, %bi : (tensor<3x8x72xf32>, tensor<3x72x100xf32>) -> tensor<3x8x100xf32>
  %at8 = tp.mul %at, %eight : tensor<72x5xf32>, tensor<f32> -> tensor<72x5xf32>
  %ati = tp.round %at8 : tensor<72x5xf32> -> tensor<72x5xf32>
  %att = tp.t %ati : tensor<72x5xf32> -> tensor<5x72xf32>
  %c8 = tp.mul %c, %eight : tensor<72x300xf32>, tensor<f32> -> tensor<72x300xf32>
  %ci = tp.round %c8 : tensor<72x300xf32> -> tensor<72x300xf32>
  %r1 = tp.mm %att, %ci : (tensor<5x72xf32>, tensor<72x300xf32>) -> tensor<5x300xf32>
  %p8 = tp.mul %p, %eight : tensor<4x1000xf32>, tensor<f32> -> tensor<4x1000xf32>
  %pi = tp.round %p8 : tensor<4x1000xf32> -> tensor<4x1000xf32>
  %q8 = tp.mul %q, %eight : tensor<1000x80xf32>, tensor<f32> -> tensor<1000x80xf32>
  %qi = tp.round %q8 : tensor<1000x80xf32> -> tensor<1000x80xf32>
  %r2 = tp.mm %pi, %qi : (tensor<4x1000xf32>, tensor<1000x80xf32>) -> tensor<4x80xf32>
  %rr8 = tp.mul %r, %eight : tensor<17x40xf32>, tensor<f32> -> tensor<17x40xf32>
  %rri = tp.round %rr8 : tensor<17x40xf32> -> tensor<17x40xf32>
  %s8 = tp.mul %s, %eight : tensor<40x64xf32>, tensor<f32> -> tensor<40x64xf32>
  %si = tp.round %s8 : tensor<40x64xf32> -> tensor<40x64xf32>
  %r3 = tp.mm %rri, %si : (tensor<17x40xf32>, tensor<40x64xf32>) -> tensor<17x64xf32>
  return %r0, %r1, %r2, %r3 : tensor<3x8x100xf32>, tensor<5x300xf32>, tensor<4x80xf32>, tensor<17x64xf32>
}
