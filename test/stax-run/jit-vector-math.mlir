// f64 log and log1p of 16-lane vectors call glibc's libmvec
// (--stax-vector-math-calls), tanh, exp, expm1 and erf are its f64
// kernels (1000 is beyond exp's and expm1's range: libm for that lane):
// within 2 ulp of the exact value, so the
// ordinary values are checked to 14 significant digits, and the special
// inputs (signed zeros, infinities, NaN, out of domain, a denormal) give
// libm's results exactly.
// RUN: stax-opt --stax-pipeline="vector-math=avx512" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-IR
// RUN: stax-opt --stax-pipeline="vector-math=avx512" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-KERNEL
// RUN: stax-opt --stax-pipeline="vector-math=avx512 approximate-math=false" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-LIBM
// RUN: stax-run %s --print=exact | FileCheck %s
// RUN: stax-run %s --print=exact --jit | FileCheck %s
// RUN: stax-run %s --print=exact --jit --pipeline-options="vector-math=none" | FileCheck %s

// tanh and erf are kernels valid everywhere: neither libmvec nor libm.
// CHECK-KERNEL-NOT: {{_ZGVeN8v_tanh|@tanh\(|llvm.intr.tanh|@erf\(}}
// CHECK-IR-DAG: llvm.call @_ZGVeN8v_log(
// CHECK-IR-DAG: llvm.call @_ZGVeN8v_log1p(
// approximate-math=false keeps libm everywhere.
// CHECK-LIBM-NOT: _ZGV

// CHECK-LABEL: result #0
// CHECK-NEXT: [0] 0
// CHECK-NEXT: [1] -0
// CHECK-NEXT: [2] 1
// CHECK-NEXT: [3] -1
// CHECK-NEXT: [4] {{-?}}nan
// CHECK-NEXT: [5] 0.76159415595576{{[0-9]*}}
// CHECK-NEXT: [6] -0.46211715726000{{[0-9]*}}
// CHECK-NEXT: [7] {{1e-10|9.9999999999999[0-9]*e-11|1.0000000000000[0-9]*e-10}}
// CHECK-NEXT: [8] 0.99999999587769{{[0-9]*}}
// CHECK-NEXT: [9] 1
// CHECK-NEXT: [10] 4.9406564584124654e-324
// CHECK-NEXT: [11] 0.099667994624955{{[0-9]*}}
// CHECK-NEXT: [12] -0.76159415595576{{[0-9]*}}
// CHECK-NEXT: [13] 0.0099996666799994{{[0-9]*}}
// CHECK-NEXT: [14] 0.29131261245159{{[0-9]*}}
// CHECK-NEXT: [15] -1
// CHECK-LABEL: result #1
// CHECK-NEXT: [0] -inf
// CHECK-NEXT: [1] -inf
// CHECK-NEXT: [2] inf
// CHECK-NEXT: [3] {{-?}}nan
// CHECK-NEXT: [4] {{-?}}nan
// CHECK-NEXT: [5] 0
// CHECK-NEXT: [6] {{-?}}nan
// CHECK-NEXT: [7] -23.025850929940{{[0-9]*}}
// CHECK-NEXT: [8] 2.3025850929940{{[0-9]*}}
// CHECK-NEXT: [9] 6.9077552789821{{[0-9]*}}
// CHECK-NEXT: [10] -744.44007192138{{[0-9]*}}
// CHECK-NEXT: [11] -2.3025850929940{{[0-9]*}}
// CHECK-NEXT: [12] {{-?}}nan
// CHECK-NEXT: [13] -4.6051701859880{{[0-9]*}}
// CHECK-NEXT: [14] -1.2039728043259{{[0-9]*}}
// CHECK-NEXT: [15] {{-?}}nan
// CHECK-LABEL: result #2
// CHECK-NEXT: [0] 0
// CHECK-NEXT: [1] -0
// CHECK-NEXT: [2] inf
// CHECK-NEXT: [3] {{-?}}nan
// CHECK-NEXT: [4] {{-?}}nan
// CHECK-NEXT: [5] 0.69314718055994{{[0-9]*}}
// CHECK-NEXT: [6] -0.69314718055994{{[0-9]*}}
// CHECK-NEXT: [7] 9.9999999995000{{[0-9]*}}e-11
// CHECK-NEXT: [8] 2.3978952727983{{[0-9]*}}
// CHECK-NEXT: [9] 6.9087547793152{{[0-9]*}}
// CHECK-NEXT: [10] 4.9406564584124654e-324
// CHECK-NEXT: [11] 0.095310179804324{{[0-9]*}}
// CHECK-NEXT: [12] -inf
// CHECK-NEXT: [13] 0.0099503308531680{{[0-9]*}}
// CHECK-NEXT: [14] 0.26236426446749{{[0-9]*}}
// CHECK-NEXT: [15] {{-?}}nan
// CHECK-LABEL: result #3
// CHECK-NEXT: [0] 1
// CHECK-NEXT: [1] 1
// CHECK-NEXT: [2] inf
// CHECK-NEXT: [3] 0
// CHECK-NEXT: [4] {{-?}}nan
// CHECK-NEXT: [5] 2.7182818284590{{[0-9]*}}
// CHECK-NEXT: [6] 0.60653065971263{{[0-9]*}}
// CHECK-NEXT: [7] 1.0000000001{{0*[0-9]?}}
// CHECK-NEXT: [8] 22026.465794806{{[0-9]*}}
// CHECK-NEXT: [9] inf
// CHECK-NEXT: [10] 1
// CHECK-NEXT: [11] 1.1051709180756{{[0-9]*}}
// CHECK-NEXT: [12] 0.36787944117144{{[0-9]*}}
// CHECK-NEXT: [13] 1.0100501670841{{[0-9]*}}
// CHECK-NEXT: [14] 1.3498588075760{{[0-9]*}}
// CHECK-NEXT: [15] 2.0611536224385{{[0-9]*}}e-09
// CHECK-LABEL: result #4
// CHECK-NEXT: [0] 0
// CHECK-NEXT: [1] -0
// CHECK-NEXT: [2] inf
// CHECK-NEXT: [3] -1
// CHECK-NEXT: [4] {{-?}}nan
// CHECK-NEXT: [5] 1.7182818284590{{[0-9]*}}
// CHECK-NEXT: [6] -0.39346934028736{{[0-9]*}}
// CHECK-NEXT: [7] 1.00000000005{{0*[0-9]?}}e-10
// CHECK-NEXT: [8] 22025.465794806{{[0-9]*}}
// CHECK-NEXT: [9] inf
// CHECK-NEXT: [10] 4.9406564584124654e-324
// CHECK-NEXT: [11] 0.10517091807564{{[0-9]*}}
// CHECK-NEXT: [12] -0.63212055882855{{[0-9]*}}
// CHECK-NEXT: [13] 0.010050167084168{{[0-9]*}}
// CHECK-NEXT: [14] 0.34985880757600{{[0-9]*}}
// CHECK-NEXT: [15] -0.99999999793884{{[0-9]*}}
// CHECK-LABEL: result #5
// CHECK-NEXT: [0] 0
// CHECK-NEXT: [1] -0
// CHECK-NEXT: [2] 1
// CHECK-NEXT: [3] -1
// CHECK-NEXT: [4] {{-?}}nan
// CHECK-NEXT: [5] 0.84270079294971{{[0-9]*}}
// CHECK-NEXT: [6] -0.52049987781304{{[0-9]*}}
// CHECK-NEXT: [7] 1.1283791670955{{[0-9]*}}e-10
// CHECK-NEXT: [8] 1
// CHECK-NEXT: [9] 1
// CHECK-NEXT: [10] 4.9406564584124654e-324
// CHECK-NEXT: [11] 0.11246291601828{{[0-9]*}}
// CHECK-NEXT: [12] -0.84270079294971{{[0-9]*}}
// CHECK-NEXT: [13] 0.011283415555849{{[0-9]*}}
// CHECK-NEXT: [14] 0.32862675945912{{[0-9]*}}
// CHECK-NEXT: [15] -1
func.func @main() -> (tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>) {
  %x = tp.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0, -0.5, 1.0e-10, 10.0, 1000.0, 4.9406564584124654e-324, 0.1, -1.0, 0.01, 0.3, -20.0]> : tensor<16xf64>
  %t = tp.tanh %x : tensor<16xf64> -> tensor<16xf64>
  %l = tp.log %x : tensor<16xf64> -> tensor<16xf64>
  %p = tp.log1p %x : tensor<16xf64> -> tensor<16xf64>
  %e = tp.exp %x : tensor<16xf64> -> tensor<16xf64>
  %m = tp.expm1 %x : tensor<16xf64> -> tensor<16xf64>
  %f = tp.erf %x : tensor<16xf64> -> tensor<16xf64>
  return %t, %l, %p, %e, %m, %f : tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>
}
