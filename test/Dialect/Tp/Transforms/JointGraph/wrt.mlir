// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: stax-opt %s --stax-joint-graph="function=wrt wrt=1" | FileCheck %s --check-prefix=WRT
// RUN: not stax-opt %s --stax-joint-graph="function=nope" 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: not stax-opt %s --stax-joint-graph="wrt=7" 2>&1 | FileCheck %s --check-prefix=RANGE

// The wrt option overrides the tp.requires_grad marks; a broadcast operand's
// adjoint is summed back to its shape.
// Without marks or wrt the function is left alone.
// CHECK-LABEL: func.func @wrt
// CHECK-SAME: -> tensor<5x3xf32>
// CHECK-NOT: tp.phase
// WRT-LABEL: func.func @wrt
// WRT-SAME: (%{{.*}}: tensor<5x3xf32>, %{{.*}}: tensor<3xf32>, %{{.*}}: tensor<5x3xf32> {tp.tangent}) -> (tensor<5x3xf32>, tensor<3xf32>)
// WRT: tp.sum %{{.*}} {dims = array<i64: 0>, keepdim = true, tp.phase = #tp.phase<bw>} : tensor<5x3xf32> -> tensor<1x3xf32>
// WRT: tp.view %{{.*}} {size = array<i64: 3>, tp.phase = #tp.phase<bw>} : tensor<1x3xf32> -> tensor<3xf32>
// WRT: return %{{.*}}, %{{.*}} : tensor<5x3xf32>, tensor<3xf32>
func.func @wrt(%x: tensor<5x3xf32>, %b: tensor<3xf32>) -> tensor<5x3xf32> {
  %y = tp.add %x, %b : tensor<5x3xf32>, tensor<3xf32> -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}
// NOPE: error: no function named @nope
// RANGE: error: wrt names argument #7 but @wrt has 2
