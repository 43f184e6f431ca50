// RUN: stax-opt %s --stax-joint-graph --stax-checkpoint="schedule=uniform report=%t.uniform.json" | FileCheck %s --check-prefix=CHECK-UNIFORM
// RUN: FileCheck %s --check-prefix=CHECK-UREPORT < %t.uniform.json
// RUN: stax-opt %s --stax-joint-graph --stax-checkpoint="schedule=revolve slots=2 report=%t.revolve.json" | FileCheck %s --check-prefix=CHECK-REVOLVE
// RUN: FileCheck %s --check-prefix=CHECK-RREPORT < %t.revolve.json

// A 4-layer chain: z_0 = x @ W1, then tanh, mm, tanh, ... and the loss.
// Every mm and tanh lies on every path to the loss, so the chain has
// 8 steps (z_0 = %h1 ... z_8 = the sum); W_k and x are primal inputs,
// free to read in every segment.

// Uniform, c = ceil(sqrt 8) = 3 segments [0,2) [2,5) [5,8): the forward
// returns the loss and the states held at the first backward step (the
// segment starts z_0, z_2, z_5, and z_7 of the last segment; z_6 is held
// but nothing reads it, so it is not passed).
// CHECK-UNIFORM-LABEL: func.func @forward_forward
// CHECK-UNIFORM: %[[Z0:.*]] = tp.mm %arg0, %arg1
// CHECK-UNIFORM-NEXT: %[[Z1:.*]] = tp.tanh %[[Z0]]
// CHECK-UNIFORM-NEXT: %[[Z2:.*]] = tp.mm %[[Z1]], %arg2
// CHECK-UNIFORM-NEXT: %[[Z3:.*]] = tp.tanh %[[Z2]]
// CHECK-UNIFORM-NEXT: %[[Z4:.*]] = tp.mm %[[Z3]], %arg3
// CHECK-UNIFORM-NEXT: %[[Z5:.*]] = tp.tanh %[[Z4]]
// CHECK-UNIFORM-NEXT: %[[Z6:.*]] = tp.mm %[[Z5]], %arg4
// CHECK-UNIFORM-NEXT: %[[Z7:.*]] = tp.tanh %[[Z6]]
// CHECK-UNIFORM-NEXT: %[[L:.*]] = tp.sum %[[Z7]]
// CHECK-UNIFORM-NEXT: return %[[L]], %[[Z0]], %[[Z2]], %[[Z5]], %[[Z7]]
// The backward reads x and W2..W4 (x for W1's gradient), the four states
// and the tangent. Segment [2,5) is recomputed from z_2: tanh(z_2) = z_3
// feeds W3's gradient, and segment [0,2) from z_0.
// CHECK-UNIFORM-LABEL: func.func @forward_backward
// CHECK-UNIFORM-SAME: (%[[X:[^:]*]]: tensor<4x8xf32>, %{{[^:]*}}: tensor<8x8xf32>, %{{[^:]*}}: tensor<8x8xf32>, %{{[^:]*}}: tensor<8x8xf32>, %[[B0:[^:]*]]: tensor<4x8xf32>, %[[B2:[^:]*]]: tensor<4x8xf32>, %[[B5:[^:]*]]: tensor<4x8xf32>, %[[B7:[^:]*]]: tensor<4x8xf32>, %[[T:[^:]*]]: tensor<f32> {tp.tangent})
// CHECK-UNIFORM: tp.expand %[[T]]
// CHECK-UNIFORM: tp.tanh_backward %{{.*}}, %[[B7]]
// CHECK-UNIFORM: tp.tanh_backward %{{.*}}, %[[B5]]
// CHECK-UNIFORM: %[[Z3:.*]] = tp.tanh %[[B2]] {tp.phase = #tp.phase<fw>}
// CHECK-UNIFORM: tp.tanh_backward %{{.*}}, %[[Z3]]
// CHECK-UNIFORM: %[[Z1:.*]] = tp.tanh %[[B0]] {tp.phase = #tp.phase<fw>}
// CHECK-UNIFORM: tp.tanh_backward %{{.*}}, %[[Z1]]
// CHECK-UNIFORM: tp.t %[[X]]
// CHECK-UNIFORM: return
// CHECK-UNIFORM-NOT: func.func @forward(

// CHECK-UREPORT: "actions": [
// CHECK-UREPORT-NEXT: "advance 0->2",
// CHECK-UREPORT-NEXT: "store 1",
// CHECK-UREPORT-NEXT: "advance 2->5",
// CHECK-UREPORT: "backward 8",
// CHECK-UREPORT: "backward 1",
// CHECK-UREPORT: "chain": [
// CHECK-UREPORT-NEXT: "mm_0",
// CHECK-UREPORT-NEXT: "tanh_1",
// CHECK-UREPORT: "sum_8"
// CHECK-UREPORT: "chain_length": 8,
// CHECK-UREPORT: "peak_saved_bytes": 640,
// CHECK-UREPORT: "recomputed_ops": 2,
// CHECK-UREPORT: "repetition": 2,
// CHECK-UREPORT: "saved_bytes": 512,
// CHECK-UREPORT: "schedule": "uniform",

// Revolve with 2 slots (repetition 3, C(2+3, 2) = 10 >= 8): the forward
// keeps z_0 (slot 0), z_4 (slot 1) and the current state z_7.
// CHECK-REVOLVE-LABEL: func.func @forward_forward
// CHECK-REVOLVE: %[[Z0:.*]] = tp.mm %arg0, %arg1
// CHECK-REVOLVE-NEXT: %[[Z1:.*]] = tp.tanh %[[Z0]]
// CHECK-REVOLVE-NEXT: %[[Z2:.*]] = tp.mm %[[Z1]], %arg2
// CHECK-REVOLVE-NEXT: %[[Z3:.*]] = tp.tanh %[[Z2]]
// CHECK-REVOLVE-NEXT: %[[Z4:.*]] = tp.mm %[[Z3]], %arg3
// CHECK-REVOLVE-NEXT: %[[Z5:.*]] = tp.tanh %[[Z4]]
// CHECK-REVOLVE-NEXT: %[[Z6:.*]] = tp.mm %[[Z5]], %arg4
// CHECK-REVOLVE-NEXT: %[[Z7:.*]] = tp.tanh %[[Z6]]
// CHECK-REVOLVE-NEXT: %[[L:.*]] = tp.sum %[[Z7]]
// CHECK-REVOLVE-NEXT: return %[[L]], %[[Z0]], %[[Z4]], %[[Z7]]
// CHECK-REVOLVE-LABEL: func.func @forward_backward
// CHECK-REVOLVE-SAME: %[[B0:[^:]*]]: tensor<4x8xf32>, %[[B4:[^:]*]]: tensor<4x8xf32>, %[[B7:[^:]*]]: tensor<4x8xf32>, %{{[^:]*}}: tensor<f32> {tp.tangent}
// CHECK-REVOLVE: tp.tanh_backward %{{.*}}, %[[B7]]
// CHECK-REVOLVE: %[[Z5:.*]] = tp.tanh %[[B4]] {tp.phase = #tp.phase<fw>}
// CHECK-REVOLVE: tp.tanh_backward %{{.*}}, %[[Z5]]
// Steps 1..4 from z_0: advance 0->1, advance 1->3 (z_3 = tanh(z_1 @ W2)).
// CHECK-REVOLVE: %[[Z1:.*]] = tp.tanh %[[B0]] {tp.phase = #tp.phase<fw>}
// CHECK-REVOLVE: %[[Z2:.*]] = tp.mm %[[Z1]], %{{.*}} {tp.phase = #tp.phase<fw>}
// CHECK-REVOLVE: %[[Z3:.*]] = tp.tanh %[[Z2]] {tp.phase = #tp.phase<fw>}
// CHECK-REVOLVE: tp.tanh_backward %{{.*}}, %[[Z3]]
// CHECK-REVOLVE: tp.tanh_backward %{{.*}}, %[[Z1]]
// CHECK-REVOLVE: return

// CHECK-RREPORT: "actions": [
// CHECK-RREPORT-NEXT: "advance 0->4",
// CHECK-RREPORT-NEXT: "store 1",
// CHECK-RREPORT-NEXT: "advance 4->7",
// CHECK-RREPORT-NEXT: "backward 8",
// CHECK-RREPORT-NEXT: "load 1",
// CHECK-RREPORT-NEXT: "advance 4->6",
// CHECK-RREPORT: "checkpoints": [
// CHECK-RREPORT: "name": "mm_0",
// CHECK-RREPORT: "state": 0
// CHECK-RREPORT: "name": "mm_4",
// CHECK-RREPORT: "state": 4
// CHECK-RREPORT: "name": "tanh_7",
// CHECK-RREPORT: "state": 7
// CHECK-RREPORT: "peak_saved_bytes": 384,
// CHECK-RREPORT: "repetition": 3,
// CHECK-RREPORT: "saved_bytes": 384,
// CHECK-RREPORT: "schedule": "revolve",
// CHECK-RREPORT: "slots_used": 2

func.func @forward(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32> {tp.requires_grad},
                   %w2: tensor<8x8xf32> {tp.requires_grad},
                   %w3: tensor<8x8xf32> {tp.requires_grad},
                   %w4: tensor<8x8xf32> {tp.requires_grad}) -> tensor<f32> {
  %h1 = tp.mm %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a1 = tp.tanh %h1 : tensor<4x8xf32> -> tensor<4x8xf32>
  %h2 = tp.mm %a1, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a2 = tp.tanh %h2 : tensor<4x8xf32> -> tensor<4x8xf32>
  %h3 = tp.mm %a2, %w3 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a3 = tp.tanh %h3 : tensor<4x8xf32> -> tensor<4x8xf32>
  %h4 = tp.mm %a3, %w4 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a4 = tp.tanh %h4 : tensor<4x8xf32> -> tensor<4x8xf32>
  %s = tp.sum %a4 {dims = array<i64>} : tensor<4x8xf32> -> tensor<f32>
  return %s : tensor<f32>
}
