// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1 grain=10 call-grain=0" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-PAR
// RUN: stax-opt --stax-to-loops="target=cuda" %s -verify-diagnostics -o /dev/null

// tp.ctc_loss and tp.ctc_loss_backward stay tp through the lowering
// (external kernels) and become calls of the runtime's
// stax_rt_ctc_loss(_backward)_<type>: the sizes (T, N, C, S), blank
// (zero_infinity), the samples [first, first + count), the error site, and
// the aligned pointers of the operands and results as i64.
// CHECK-LABEL: func.func @loss(
// CHECK: call @stax_rt_ctc_loss_f32(%c7_i64, %c3_i64, %c5_i64, %c4_i64, %c2_i64, %c0_i64{{[_0-9]*}}, %c3_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK: call @stax_rt_ctc_loss_backward_f32(%c7_i64{{[_0-9]*}}, %c3_i64{{[_0-9]*}}, %c5_i64{{[_0-9]*}}, %c4_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c3_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK-DAG: func.func private @stax_rt_ctc_loss_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @stax_rt_ctc_loss_backward_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

// With enough work (T N (2S + 1) = 189 >= grain), one call per sample in
// an scf.parallel: first = the sample, count = 1.
// CHECK-PAR-LABEL: func.func @loss(
// CHECK-PAR: scf.parallel (%[[I:.*]]) =
// CHECK-PAR: %[[FIRST:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-PAR: call @stax_rt_ctc_loss_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]], %c1_i64{{[_0-9]*}},
func.func @loss(%lp: tensor<7x3x5xf32>, %tg: tensor<3x4xi64>, %il: tensor<3xi64>, %tl: tensor<3xi64>, %g: tensor<3xf32>) -> (tensor<3xf32>, tensor<7x3x5xf32>) {
  // expected-error @+1 {{'tp.ctc_loss' has no CUDA code generation (run it on the cpu target, or outside Stax)}}
  %n, %a = tp.ctc_loss %lp, %tg, %il, %tl {blank = 2 : i64} : (tensor<7x3x5xf32>, tensor<3x4xi64>, tensor<3xi64>, tensor<3xi64>) -> (tensor<3xf32>, tensor<3x7x9xf32>)
  %r = tp.ctc_loss_backward %g, %lp, %tg, %il, %tl, %n, %a {blank = 2 : i64, zero_infinity = true} : (tensor<3xf32>, tensor<7x3x5xf32>, tensor<3x4xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xf32>, tensor<3x7x9xf32>) -> tensor<7x3x5xf32>
  return %n, %r : tensor<3xf32>, tensor<7x3x5xf32>
}
