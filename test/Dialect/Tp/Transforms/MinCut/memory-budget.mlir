// RUN: stax-opt %s --stax-joint-graph --stax-mincut="report=%t.full.json" -o /dev/null && FileCheck %s --check-prefix=CHECK-FULL < %t.full.json
// RUN: stax-opt %s --stax-joint-graph --stax-mincut="report=%t.half.json memory-budget=0.5" -o /dev/null && FileCheck %s --check-prefix=CHECK-HALF < %t.half.json
// RUN: stax-opt %s --stax-joint-graph --stax-mincut="report=%t.half2.json memory-budget=5e-1" -o /dev/null && FileCheck %s --check-prefix=CHECK-HALF < %t.half2.json
// RUN: stax-opt %s --stax-joint-graph --stax-mincut="report=%t.zero.json memory-budget=0" | FileCheck %s --check-prefix=CHECK-ZERO-IR
// RUN: FileCheck %s --check-prefix=CHECK-ZERO < %t.zero.json
// A byte count beyond int64 leaves the min cut as it is (it came out negative).
// RUN: stax-opt %s --stax-joint-graph --stax-mincut="report=%t.huge.json memory-budget=99999999999999999999999" -o /dev/null && FileCheck %s --check-prefix=CHECK-FULL < %t.huge.json
// RUN: stax-opt %s --stax-joint-graph --stax-mincut="report=%t.max.json memory-budget=9223372036854775807" -o /dev/null && FileCheck %s --check-prefix=CHECK-FULL < %t.max.json

// A memory budget recomputes more: the min-cut saves h = x @ W1 and exp(tanh h)
// (8192 bytes); half of that drops exp (recomputed with tanh from h); zero
// keeps only the primal inputs and recomputes the matmul too.

func.func @mlp(%x: tensor<16x32xf32>, %w1: tensor<32x64xf32> {tp.requires_grad}, %w2: tensor<64x8xf32> {tp.requires_grad}) -> tensor<f32> {
  %h = tp.mm %x, %w1 : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %a = tp.tanh %h : tensor<16x64xf32> -> tensor<16x64xf32>
  %e = tp.exp %a : tensor<16x64xf32> -> tensor<16x64xf32>
  %o = tp.mm %e, %w2 : (tensor<16x64xf32>, tensor<64x8xf32>) -> tensor<16x8xf32>
  %s = tp.sum %o {dims = array<i64>} : tensor<16x8xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-FULL: "saved_bytes": 8192
// CHECK-HALF: "recomputed": [
// CHECK-HALF-NEXT: "tp.tanh",
// CHECK-HALF-NEXT: "tp.exp"
// CHECK-HALF: "saved_bytes": 4096
// CHECK-ZERO: "saved_bytes": 0
// CHECK-ZERO-IR-LABEL: func.func @mlp_backward
// CHECK-ZERO-IR-SAME: (%{{.*}}: tensor<16x32xf32>, %{{.*}}: tensor<32x64xf32>, %{{.*}}: tensor<64x8xf32>, %{{.*}}: tensor<f32> {tp.tangent})
// CHECK-ZERO-IR: tp.mm
// CHECK-ZERO-IR: tp.tanh
// CHECK-ZERO-IR: tp.exp
