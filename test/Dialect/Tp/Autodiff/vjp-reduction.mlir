// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=amax --f64 --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=AMAX
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=var --f64 --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=VAR
// RUN: rm -rf %t.nan && mkdir -p %t.nan && stax-run %s --entry=inputs_nan --output-dir=%t.nan
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=max_all --input=%t.nan/result0.npy --input=%t.nan/result1.npy --print-values | FileCheck %s --check-prefix=MAX-ALL
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=amax_all --input=%t.nan/result0.npy --input=%t.nan/result1.npy --print-values | FileCheck %s --check-prefix=AMAX-ALL

// The VJPs of ReductionRules.cpp (--stax-joint-graph): the adjoint %T of the
// reduced result gets its reduced dims back (a view to size 1 unless keepdim
// or the dims are leading, then an expand or a broadcasting mul) times the
// partial derivative of the reduction. The phase attribute is not matched.

// Inputs for the value checks (no requires_grad: left alone).
func.func @inputs() -> (tensor<2x4xf32>, tensor<2xf32>) {
  %x = tp.constant dense<[[1.0, 3.0, 3.0, 0.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<2x4xf32>
  %t = tp.constant dense<[2.0, 3.0]> : tensor<2xf32>
  return %x, %t : tensor<2x4xf32>, tensor<2xf32>
}

// sum over a trailing dim: view the adjoint to 3x1, expand it to 3x4.
// CHECK-LABEL: func.func @sum
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.sum %[[X]] {
// CHECK-NEXT: %[[TK:.*]] = tp.view %[[T]] {size = array<i64: 3, 1>{{.*}}}
// CHECK-NEXT: %[[G:.*]] = tp.expand %[[TK]] {size = array<i64: 3, 4>{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @sum(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.sum %x {dims = array<i64: 1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// A full sum (leading dims): the 0-d adjoint is expanded directly.
// CHECK-LABEL: func.func @sum_all
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<f32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.sum %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.expand %[[T]] {size = array<i64: 3, 4>{{.*}}} : tensor<f32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @sum_all(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<f32> {
  %y = tp.sum %x {dims = array<i64>} : tensor<3x4xf32> -> tensor<f32>
  return %y : tensor<f32>
}

// mean with keepdim: expand, then divide by the reduced count (3).
// CHECK-LABEL: func.func @mean
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<1x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.mean %[[X]] {
// CHECK-NEXT: %[[E:.*]] = tp.expand %[[T]] {size = array<i64: 3, 4>{{.*}}}
// CHECK-NEXT: %[[G:.*]] = tp.div.Scalar %[[E]] {other = 3.000000e+00 : f64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @mean(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<1x4xf32> {
  %y = tp.mean %x {dims = array<i64: 0>, keepdim = true} : tensor<3x4xf32> -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// A full mean divides by the element count (12).
// CHECK-LABEL: func.func @mean_all
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<f32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.mean %[[X]] {
// CHECK-NEXT: %[[TK:.*]] = tp.view %[[T]] {size = array<i64: 1, 1>{{.*}}}
// CHECK-NEXT: %[[E:.*]] = tp.expand %[[TK]] {size = array<i64: 3, 4>{{.*}}}
// CHECK-NEXT: %[[G:.*]] = tp.div.Scalar %[[E]] {other = 1.200000e+01 : f64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @mean_all(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<f32> {
  %y = tp.mean %x {dims = array<i64>} : tensor<3x4xf32> -> tensor<f32>
  return %y : tensor<f32>
}

// amax: the adjoint is shared evenly by the elements equal to the maximum
// (the forward result, viewed with the reduced dim kept).
// CHECK-LABEL: func.func @amax
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.amax %[[X]] {
// CHECK-NEXT: %[[TK:.*]] = tp.view %[[T]] {size = array<i64: 2, 1>{{.*}}}
// CHECK-NEXT: %[[YK:.*]] = tp.view %[[Y]] {size = array<i64: 2, 1>{{.*}}}
// CHECK-NEXT: %[[EQ:.*]] = tp.eq %[[X]], %[[YK]] {
// CHECK-NEXT: %[[M:.*]] = tp._to_copy %[[EQ]] {dtype = f32{{.*}}}
// CHECK-NEXT: %[[N:.*]] = tp.sum %[[M]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[P:.*]] = tp.div %[[M]], %[[N]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[TK]], %[[P]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
// Row 0 has a tie at 3: each copy gets t/2 = 1.
// AMAX: result #1: tensor<2x4xf64>
// AMAX-NEXT: [0, 1, 1, 0, 0, 0, 0, 3]
func.func @amax(%x: tensor<2x4xf32> {tp.requires_grad}) -> tensor<2xf32> {
  %y = tp.amax %x {dims = array<i64: 1>} : tensor<2x4xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// A NaN maximum: max() without a dim (nan_selects_nans) shares the adjoint
// among the NaN elements, as eager's evenly_distribute_backward; amax's
// partials are all NaN (no element equals NaN: 0 / 0), as eager's.
func.func @inputs_nan() -> (tensor<4xf32>, tensor<f32>) {
  %x = tp.constant dense<[1.0, 0x7FC00000, 5.0, 0x7FC00000]> : tensor<4xf32>
  %t = tp.constant dense<2.0> : tensor<f32>
  return %x, %t : tensor<4xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @max_all
// CHECK: %[[EQ:.*]] = tp.eq
// CHECK: %[[NX:.*]] = tp.isnan
// CHECK: %[[NY:.*]] = tp.isnan
// CHECK: %[[BOTH:.*]] = tp.logical_and %[[NX]], %[[NY]]
// CHECK: tp.logical_or %[[EQ]], %[[BOTH]]
// MAX-ALL: result #1: tensor<4xf32>
// MAX-ALL-NEXT: [0, 1, 0, 1]
func.func @max_all(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<f32> {
  %y = tp.amax %x {dims = array<i64>, nan_selects_nans} : tensor<4xf32> -> tensor<f32>
  return %y : tensor<f32>
}

// AMAX-ALL: result #1: tensor<4xf32>
// AMAX-ALL-NEXT: [{{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan]
func.func @amax_all(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<f32> {
  %y = tp.amax %x {dims = array<i64>} : tensor<4xf32> -> tensor<f32>
  return %y : tensor<f32>
}

// var (correction 1): x̄ = t * (2 / (N - 1)) * (x - mean(x)), N = 4.
// CHECK-LABEL: func.func @var
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.var %[[X]] {
// CHECK-NEXT: %[[TK:.*]] = tp.view %[[T]] {size = array<i64: 2, 1>{{.*}}}
// CHECK-NEXT: %[[MEAN:.*]] = tp.mean %[[X]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[XC:.*]] = tp.sub %[[X]], %[[MEAN]] {
// CHECK-NEXT: %[[P:.*]] = tp.mul.Scalar %[[XC]] {other = 0.66666666666666663 : f64{{.*}}}
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[TK]], %[[P]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
// Row 0: mean 1.75, 2/3 * 2 * (x - 1.75); row 1: mean 2.5, 2/3 * 3 * (x - 2.5).
// VAR: result #1: tensor<2x4xf64>
// VAR-NEXT: [-1, 1.66666667, 1.66666667, -2.33333333, -3, -1, 1, 3]
func.func @var(%x: tensor<2x4xf32> {tp.requires_grad}) -> tensor<2xf32> {
  %y = tp.var %x {dims = array<i64: 1>} : tensor<2x4xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// logsumexp: the partial is softmax, exp(x - logsumexp(x)).
// CHECK-LABEL: func.func @logsumexp
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.logsumexp %[[X]] {
// CHECK-NEXT: %[[TK:.*]] = tp.view %[[T]] {size = array<i64: 3, 1>{{.*}}}
// CHECK-NEXT: %[[YK:.*]] = tp.view %[[Y]] {size = array<i64: 3, 1>{{.*}}}
// CHECK-NEXT: %[[XC:.*]] = tp.sub %[[X]], %[[YK]] {
// CHECK-NEXT: %[[P:.*]] = tp.exp %[[XC]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[TK]], %[[P]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @logsumexp(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.logsumexp %x {dims = array<i64: -1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// prod: result / x where x != 0 (x with zeros replaced by 1); at a single
// zero, the product of the nonzeros; 0 where a row has several zeros.
// CHECK-LABEL: func.func @prod
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.prod %[[X]] {
// CHECK-NEXT: %[[TK:.*]] = tp.view %[[T]] {size = array<i64: 3, 1>{{.*}}}
// CHECK-NEXT: %[[Z:.*]] = tp.eq.Scalar %[[X]] {other = 0.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[XS:.*]] = tp.masked_fill.Scalar %[[X]], %[[Z]] {{.*}}value = 1.000000e+00 : f64
// CHECK-NEXT: %[[PNZ:.*]] = tp.prod %[[XS]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[ZF:.*]] = tp._to_copy %[[Z]] {dtype = f32{{.*}}}
// CHECK-NEXT: %[[NZ:.*]] = tp.sum %[[ZF]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[NOT1:.*]] = tp.ne.Scalar %[[NZ]] {other = 1.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[ATZ:.*]] = tp.masked_fill.Scalar %[[PNZ]], %[[NOT1]] {{.*}}value = 0.000000e+00 : f64
// CHECK-NEXT: %[[YK:.*]] = tp.view %[[Y]] {size = array<i64: 3, 1>{{.*}}}
// CHECK-NEXT: %[[ELSE:.*]] = tp.div %[[YK]], %[[XS]] {
// CHECK-NEXT: %[[P:.*]] = tp.where %[[Z]], %[[ATZ]], %[[ELSE]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[TK]], %[[P]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @prod(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.prod %x {dims = array<i64: 1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// max.dim: the values' adjoint goes where the position along dim is the
// returned index, zero elsewhere (what scattering it into zeros gives, as
// one pointwise select); the indices get no tangent (one tangent argument
// only).
// CHECK-LABEL: func.func @max_dim
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-SAME: -> (tensor<3xf32>, tensor<3xi64>, tensor<3x4xf32>)
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.max.dim %[[X]] {
// CHECK-NEXT: %[[TK:.*]] = tp.view %[[T]] {size = array<i64: 3, 1>{{.*}}}
// CHECK-NEXT: %[[IK:.*]] = tp.view %[[I]] {size = array<i64: 3, 1>{{.*}}}
// CHECK-NEXT: %[[POS:.*]] = tp.arange {end = 4 : i64, start = 0 : i64{{.*}}} : tensor<4xi64>
// CHECK-NEXT: %[[POSK:.*]] = tp.view %[[POS]] {size = array<i64: 1, 4>{{.*}}}
// CHECK-NEXT: %[[OTHER:.*]] = tp.ne %[[POSK]], %[[IK]] {{.*}} -> tensor<3x4xi1>
// CHECK-NEXT: %[[TE:.*]] = tp.expand %[[TK]] {size = array<i64: 3, 4>{{.*}}}
// CHECK-NEXT: %[[G:.*]] = tp.masked_fill.Scalar %[[TE]], %[[OTHER]] {{{.*}}value = 0.000000e+00 : f64}
// CHECK-NEXT: return %[[V]], %[[I]], %[[G]] :
func.func @max_dim(%x: tensor<3x4xf32> {tp.requires_grad}) -> (tensor<3xf32>, tensor<3xi64>) {
  %y:2 = tp.max.dim %x {dim = 1 : i64} : tensor<3x4xf32> -> tensor<3xf32>, tensor<3xi64>
  return %y#0, %y#1 : tensor<3xf32>, tensor<3xi64>
}

// sort: the values are a permutation of the input along dim, so their
// adjoint is scattered into zeros at the returned indices (dim normalized);
// the indices get no tangent argument. A 0-d input is its own sort.
// CHECK-LABEL: func.func @sort
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-SAME: -> (tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xf32>)
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.sort %[[X]] {descending = true, dim = -1 : i64
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64} : tensor<3x4xf32>
// CHECK-NEXT: %[[G:.*]] = tp.scatter %[[Z]], %[[I]], %[[T]] {dim = 1 : i64{{.*}}}
// CHECK-NEXT: return %[[V]], %[[I]], %[[G]] :
func.func @sort(%x: tensor<3x4xf32> {tp.requires_grad}) -> (tensor<3x4xf32>, tensor<3x4xi64>) {
  %y:2 = tp.sort %x {dim = -1 : i64, descending = true} : tensor<3x4xf32> -> tensor<3x4xf32>, tensor<3x4xi64>
  return %y#0, %y#1 : tensor<3x4xf32>, tensor<3x4xi64>
}

// CHECK-LABEL: func.func @sort_0d
// CHECK-SAME: (%[[X:.*]]: tensor<f32> {tp.requires_grad}, %[[T:.*]]: tensor<f32> {tp.tangent})
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.sort %[[X]]
// CHECK-NEXT: return %[[V]], %[[I]], %[[T]] :
func.func @sort_0d(%x: tensor<f32> {tp.requires_grad}) -> (tensor<f32>, tensor<i64>) {
  %y:2 = tp.sort %x {dim = 0 : i64} : tensor<f32> -> tensor<f32>, tensor<i64>
  return %y#0, %y#1 : tensor<f32>, tensor<i64>
}

// topk: like sort, the adjoint of the k values is scattered into zeros at
// their indices along the normalized dim.
// CHECK-LABEL: func.func @topk
// CHECK-SAME: (%[[X:.*]]: tensor<3x8xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x2xf32> {tp.tangent})
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.topk %[[X]] {dim = -1 : i64, k = 2 : i64, largest = false
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64} : tensor<3x8xf32>
// CHECK-NEXT: %[[G:.*]] = tp.scatter %[[Z]], %[[I]], %[[T]] {dim = 1 : i64{{.*}}} : (tensor<3x8xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x8xf32>
// CHECK-NEXT: return %[[V]], %[[I]], %[[G]] :
func.func @topk(%x: tensor<3x8xf32> {tp.requires_grad}) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  %y:2 = tp.topk %x {k = 2 : i64, dim = -1 : i64, largest = false} : tensor<3x8xf32> -> tensor<3x2xf32>, tensor<3x2xi64>
  return %y#0, %y#1 : tensor<3x2xf32>, tensor<3x2xi64>
}
