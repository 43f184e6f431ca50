// RUN: stax-opt %s --stax-joint-graph --stax-mincut="report=%t.json dot=%t.dot" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// RUN: stax-opt %s --stax-joint-graph --stax-mincut="algorithm=dinic report=%t.dinic.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.dinic.json

// Section 5.5: the network of Example 5.1 has three forward values (matmul,
// gelu, sum); the cut saves only h = x @ W (capacity 8192 * 1.1 = 9011) and
// the backward recomputes GELU'(h) from h in gelu_backward.

// CHECK-LABEL: func.func @forward_forward
// CHECK-SAME: (%[[X:.*]]: tensor<32x64xf32>, %[[W:.*]]: tensor<64x64xf32> {tp.requires_grad})
// CHECK-SAME: -> (tensor<f32>, tensor<32x64xf32>)
// CHECK: %[[H:.*]] = tp.mm %[[X]], %[[W]]
// CHECK: %[[G:.*]] = tp.gelu %[[H]]
// CHECK: %[[S:.*]] = tp.sum %[[G]]
// CHECK: return %[[S]], %[[H]]

// The backward reads x (a primal: free) and h, and the tangent.
// CHECK-LABEL: func.func @forward_backward
// CHECK-SAME: (%[[BX:.*]]: tensor<32x64xf32>, %[[BH:.*]]: tensor<32x64xf32>, %[[T:.*]]: tensor<f32> {tp.tangent})
// CHECK-SAME: -> tensor<64x64xf32>
// CHECK: %[[E:.*]] = tp.expand %[[T]]
// CHECK: %[[GB:.*]] = tp.gelu_backward %[[E]], %[[BH]]
// CHECK: %[[XT:.*]] = tp.t %[[BX]]
// CHECK: %[[WB:.*]] = tp.mm %[[XT]], %[[GB]]
// CHECK: return %[[WB]]
// CHECK-NOT: func.func @forward(

func.func @forward(%x: tensor<32x64xf32>, %w: tensor<64x64xf32> {tp.requires_grad}) -> tensor<f32> {
  %h = tp.mm %x, %w : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %g = tp.gelu %h : tensor<32x64xf32> -> tensor<32x64xf32>
  %s = tp.sum %g {dims = array<i64>} : tensor<32x64xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// REPORT: "functions": [
// REPORT: "fallback": false,
// REPORT: "forward_values": 3,
// REPORT: "max_flow": 9011,
// REPORT: "saved": [
// REPORT-NEXT: {
// REPORT-NEXT: "bytes": 8192,
// REPORT-NEXT: "dtype": "f32",
// REPORT-NEXT: "kind": "input",
// REPORT: "name": "primals_1",
// REPORT: "bytes": 8192,
// REPORT-NEXT: "dtype": "f32",
// REPORT-NEXT: "kind": "activation",
// REPORT-NEXT: "name": "mm_0",
// REPORT-NEXT: "producer": "tp.mm",
// REPORT-NEXT: "shape": [
// REPORT-NEXT: 32,
// REPORT-NEXT: 64
// REPORT: "saved_bytes": 8192,

// DOT: digraph "forward"
// DOT: [FW] tp.mm\nsaved
// DOT: [BW] tp.gelu_backward
// DOT: [style=dashed, penwidth=2, label="cut"]
