// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | FileCheck %s --check-prefix=CHECK-IR
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-REMARK
// RUN: stax-opt %s --stax-decompose --stax-lower | stax-run - --random-inputs --entry=layer_norm --print=hash > %t.lowered
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | stax-run - --random-inputs --entry=layer_norm --print=hash > %t.fused
// RUN: diff %t.lowered %t.fused
// RUN: stax-opt %s --stax-decompose --stax-lower | stax-run - --random-inputs --entry=layer_norm_backward --print=hash > %t.blowered
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | stax-run - --random-inputs --entry=layer_norm_backward --print=hash > %t.bfused
// RUN: diff %t.blowered %t.bfused

// Layer norm over the last dim: the mean and the variance reductions (and
// the normalization, which reads both at its own row) share one kernel over
// the rows [2, 3]; the mean and rstd are results, so they stay written.

// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [2, 3, 1]): saves 48 bytes
// CHECK-REMARK: remark: fused 'stax.reduction' into the kernel of 'stax.reduction' (outer ranges [2, 3, 1]): saves 216 bytes
// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [2, 3, 1]): saves 48 bytes
// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [2, 3]): saves 240 bytes

// CHECK-IR-LABEL: func.func @layer_norm
// CHECK-IR-NEXT: %[[K:.*]]:3 = stax.kernel [2, 3] : tensor<2x3x1xf32>, tensor<2x3x1xf32>, tensor<2x3x8xf32> {
// CHECK-IR-NEXT:   %[[SUM:.*]] = stax.reduction sum [8]
// CHECK-IR:        %[[MEAN:.*]] = stax.pointwise
// CHECK-IR:        %[[VAR:.*]] = stax.reduction sum [8]
// CHECK-IR:        %[[RSTD:.*]] = stax.pointwise
// CHECK-IR:        %[[Y:.*]] = stax.pointwise layout <[24, 8, 1]>
// CHECK-IR:        stax.yield %[[MEAN]], %[[RSTD]], %[[Y]]
// CHECK-IR-NEXT: }
// CHECK-IR-NEXT: return %[[K]]#2, %[[K]]#0, %[[K]]#1
func.func @layer_norm(%x: tensor<2x3x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>) {
  %0:3 = tp.native_layer_norm %x weight(%w) bias(%b) {normalized_shape = array<i64: 8>, eps = 1.0e-5 : f64}
      : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>
}

// The backward's two row sums (siblings over the same inputs) and the input
// gradient that reads them at its row form one kernel over the rows; the
// weight and bias gradients, column sums over the same inputs, share a
// second kernel over the columns. Row and column kernels cannot fuse.

// CHECK-IR-LABEL: func.func @layer_norm_backward
// CHECK-IR-NEXT: %[[ROWS:.*]] = stax.kernel [2] : tensor<2x8xf32> {
// CHECK-IR-NEXT:   stax.reduction sum [8] layout <[1, 1]> : tensor<2x1xf32>
// CHECK-IR:        stax.reduction sum [8] layout <[1, 1]> : tensor<2x1xf32>
// CHECK-IR:        %[[DX:.*]] = stax.pointwise layout <[8, 1]> : tensor<2x8xf32>
// CHECK-IR:        stax.yield %[[DX]] : tensor<2x8xf32>
// CHECK-IR:      %[[COLS:.*]]:2 = stax.kernel [8] : tensor<8xf32>, tensor<8xf32> {
// CHECK-IR-NEXT:   stax.reduction sum [2] layout <[1]> : tensor<8xf32>
// CHECK-IR:        stax.reduction sum [2] layout <[1]> : tensor<8xf32>
// CHECK-IR:      return %[[ROWS]], %[[COLS]]#0, %[[COLS]]#1

// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [2]): saves 192 bytes
// CHECK-REMARK: remark: fused 'stax.reduction' and its kernel into the kernel of 'stax.reduction' (outer ranges [2]): saves 112 bytes
// CHECK-REMARK: remark: fused 'stax.reduction' into the kernel of 'stax.reduction' (outer ranges [8]): saves 64 bytes
func.func @layer_norm_backward(%g: tensor<2x8xf32>, %x: tensor<2x8xf32>, %m: tensor<2x1xf32>,
                               %rs: tensor<2x1xf32>, %w: tensor<8xf32>)
    -> (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0:3 = tp.native_layer_norm_backward %g, %x, %m, %rs weight(%w) {normalized_shape = array<i64: 8>}
      : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<8xf32>)
      -> (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>
}
