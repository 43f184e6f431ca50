// RUN: stax-opt %s --stax-normalize-loops | FileCheck %s
// RUN: stax-opt %s --stax-normalize-loops | stax-run - --entry=all --print=hash > %t.norm
// RUN: stax-run %s --entry=all --print=hash > %t.orig
// RUN: diff %t.orig %t.norm

// Inside a stax.kernel the outer loops are the kernel's and stay, but a
// reduction's own loops merge when they are contiguous (a batch norm's
// [N, H, W] per channel of a channel-major buffer): one loop of N * H * W
// that vectorizes, instead of a nest whose innermost loop is W. The
// combine order is unchanged, so the results are bitwise equal (the diff).

// CHECK-LABEL: func.func @channel_stats
// CHECK: stax.kernel [1, 4, 1, 1]
// CHECK: stax.reduction sum [18] layout <[4, 1, 1, 1]> : tensor<1x4x1x1xf32>
// CHECK-NEXT: ^bb0(%{{.*}}: index, %[[C:.*]]: index, %{{.*}}: index, %{{.*}}: index, %[[R:[^:]*]]: index):
// CHECK-NEXT: affine.apply #{{.*}}(%[[C]], %[[R]])
// The pointwise node keeps the kernel's loops.
// CHECK: stax.pointwise layout <[4, 1, 1, 1]> : tensor<1x4x1x1xf32>
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// Transposed reads do not merge.
// CHECK: stax.reduction sum [2, 9] layout <[4, 1, 1, 1]> : tensor<1x4x1x1xf32>
func.func @channel_stats(%x: tensor<4x18xf32>) -> (tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>) {
  %0:2 = stax.kernel [1, 4, 1, 1] : tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32> {
    %s = stax.reduction sum [2, 3, 3] layout <[4, 1, 1, 1]> : tensor<1x4x1x1xf32> {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %r0: index, %r1: index, %r2: index):
      %a = affine.apply affine_map<(d0, d1, d2, d3) -> (d0 * 18 + d1 * 9 + d2 * 3 + d3)>(%i1, %r0, %r1, %r2)
      %v = stax.load %x[%a] : tensor<4x18xf32>
      stax.yield %v : f32
    }
    %m = stax.pointwise layout <[4, 1, 1, 1]> : tensor<1x4x1x1xf32> {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      %v = stax.load %s[%i1] : tensor<1x4x1x1xf32>
      %n = arith.constant 1.800000e+01 : f32
      %d = arith.divf %v, %n : f32
      stax.yield %d : f32
    }
    %t = stax.reduction sum [2, 9] layout <[4, 1, 1, 1]> : tensor<1x4x1x1xf32> {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %r0: index, %r1: index):
      %a = affine.apply affine_map<(d0, d1, d2) -> (d0 * 18 + d1 + d2 * 2)>(%i1, %r0, %r1)
      %v = stax.load %x[%a] : tensor<4x18xf32>
      %mean = stax.load %m[%i1] : tensor<1x4x1x1xf32>
      %c = arith.subf %v, %mean : f32
      %q = arith.mulf %c, %c : f32
      stax.yield %q : f32
    }
    stax.yield %m, %t : tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>
  }
  return %0#0, %0#1 : tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>
}

func.func @all() -> (tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>) {
  %x = tp.constant dense<[[0.1, 0.7, 1.3, -2.0, 5.5, 0.25, 3.0, -1.5, 2.25, 0.3, 0.9, -0.4, 1.1, 4.0, -3.5, 0.6, 0.05, 2.5],
                          [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0],
                          [-1.0, 0.5, -0.25, 0.125, 3.5, -7.0, 1000.0, 0.001, 2.0, -2.0, 0.0, 1.0, 1.5, 2.5, -3.0, 0.75, 0.2, 0.4],
                          [1.0e+06, 1.0, -1.0e+06, 3.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4]]> : tensor<4x18xf32>
  %0:2 = func.call @channel_stats(%x) : (tensor<4x18xf32>) -> (tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>)
  return %0#0, %0#1 : tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>
}
