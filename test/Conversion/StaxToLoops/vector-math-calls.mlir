// RUN: stax-opt --stax-vector-math-calls=library=avx512 -split-input-file -verify-diagnostics %s | FileCheck %s
// RUN: stax-opt --stax-vector-math-calls=library=avx2 -split-input-file %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-AVX2
// RUN: stax-opt --stax-vector-math-calls=library=none -split-input-file %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-NONE
// RUN: not stax-opt --stax-vector-math-calls=library=sse %s 2>&1 | FileCheck %s --check-prefix=CHECK-BAD

// CHECK-BAD: Cannot find option named 'sse'

// f64 log1p of 16 lanes: two calls of the AVX-512 variant on the halves,
// put back together in order; one declaration for both.
// CHECK-LABEL: func.func private @_ZGVeN8v_log1p(vector<8xf64>) -> vector<8xf64>
// CHECK-NOT: func.func private @_ZGVeN8v_log1p
// CHECK-LABEL: func.func @log1p16(
// CHECK-SAME: %[[X:.*]]: vector<16xf64>
// CHECK: %[[LO:.*]] = vector.extract_strided_slice %[[X]] {offsets = [0], sizes = [8], strides = [1]}
// CHECK: %[[TLO:.*]] = call @_ZGVeN8v_log1p(%[[LO]])
// CHECK: %[[R0:.*]] = vector.insert_strided_slice %[[TLO]], %{{.*}} {offsets = [0], strides = [1]}
// CHECK: %[[HI:.*]] = vector.extract_strided_slice %[[X]] {offsets = [8], sizes = [8], strides = [1]}
// CHECK: %[[THI:.*]] = call @_ZGVeN8v_log1p(%[[HI]])
// CHECK: %[[R1:.*]] = vector.insert_strided_slice %[[THI]], %[[R0]] {offsets = [8], strides = [1]}
// CHECK: return %[[R1]]
// AVX2: log1p's variant is 2.38 ulp, so it stays.
// CHECK-AVX2-LABEL: func.func @log1p16(
// CHECK-AVX2: math.log1p %{{.*}} : vector<16xf64>
// CHECK-NONE-LABEL: func.func @log1p16(
// CHECK-NONE: math.log1p %{{.*}} : vector<16xf64>
func.func @log1p16(%x: vector<16xf64>) -> vector<16xf64> {
  %0 = math.log1p %x : vector<16xf64>
  return %0 : vector<16xf64>
}

// One call where the vector is the library's width; AVX2 takes log in
// four-lane slices.
// CHECK-LABEL: func.func @log8(
// CHECK: %[[Y:.*]] = call @_ZGVeN8v_log(%{{.*}}) : (vector<8xf64>) -> vector<8xf64>
// CHECK-NEXT: return %[[Y]]
// CHECK-AVX2-LABEL: func.func @log8(
// CHECK-AVX2-COUNT-2: call @_ZGVdN4v_log(%{{.*}}) : (vector<4xf64>) -> vector<4xf64>
// CHECK-AVX2-NOT: math.log
// CHECK-AVX2: return
func.func @log8(%x: vector<8xf64>) -> vector<8xf64> {
  %0 = math.log %x : vector<8xf64>
  return %0 : vector<8xf64>
}

// pow: two vector operands, `vv` in the variant's name; each slice of
// both operands goes to one call.
// CHECK-LABEL: func.func @pow16(
// CHECK-SAME: %[[X:[^:]*]]: vector<16xf64>, %[[Y:[^:]*]]: vector<16xf64>
// CHECK: %[[X0:.*]] = vector.extract_strided_slice %[[X]] {offsets = [0]
// CHECK: %[[Y0:.*]] = vector.extract_strided_slice %[[Y]] {offsets = [0]
// CHECK: call @_ZGVeN8vv_pow(%[[X0]], %[[Y0]]) : (vector<8xf64>, vector<8xf64>) -> vector<8xf64>
// CHECK: %[[X1:.*]] = vector.extract_strided_slice %[[X]] {offsets = [8]
// CHECK: %[[Y1:.*]] = vector.extract_strided_slice %[[Y]] {offsets = [8]
// CHECK: call @_ZGVeN8vv_pow(%[[X1]], %[[Y1]])
// CHECK-AVX2-LABEL: func.func @pow16(
// CHECK-AVX2-COUNT-4: call @_ZGVdN4vv_pow(%{{.*}}, %{{.*}}) : (vector<4xf64>, vector<4xf64>) -> vector<4xf64>
// CHECK-NONE-LABEL: func.func @pow16(
// CHECK-NONE-NEXT: math.powf
func.func @pow16(%x: vector<16xf64>, %y: vector<16xf64>) -> vector<16xf64> {
  %0 = math.powf %x, %y : vector<16xf64>
  return %0 : vector<16xf64>
}

// Every function within 2 ulp with AVX-512.
// CHECK-LABEL: func.func @functions(
// CHECK: call @_ZGVeN8v_log1p(
// CHECK: call @_ZGVeN8v_log2(
// CHECK: call @_ZGVeN8v_log10(
// CHECK: call @_ZGVeN8v_exp2(
// CHECK: call @_ZGVeN8v_sinh(
// CHECK: call @_ZGVeN8v_cosh(
// CHECK: call @_ZGVeN8v_exp2(
// CHECK: call @_ZGVeN8v_asinh(
// CHECK: call @_ZGVeN8v_acosh(
// CHECK: call @_ZGVeN8v_atanh(
// CHECK-NOT: math.
// CHECK: return
func.func @functions(%x: vector<8xf64>) -> vector<8xf64> {
  %0 = math.log1p %x : vector<8xf64>
  %1 = math.log2 %0 : vector<8xf64>
  %2 = math.log10 %1 : vector<8xf64>
  %3 = math.exp2 %2 : vector<8xf64>
  %4 = math.sinh %3 : vector<8xf64>
  %5 = math.cosh %4 : vector<8xf64>
  %6 = math.exp2 %5 : vector<8xf64>
  %7 = math.asinh %6 : vector<8xf64>
  %8 = math.acosh %7 : vector<8xf64>
  %9 = math.atanh %8 : vector<8xf64>
  return %9 : vector<8xf64>
}

// f64 exp on a vector of any length: the float64 kernel (Cody-Waite
// reduction, the Taylor tail, 1 + p, 2^k from exponent bits), libm's exp
// for the lanes beyond +-708 in a branch, NaN lanes kept; with every
// library but none.
// CHECK-LABEL: func.func @exp6(
// CHECK-SAME: %[[X:.*]]: vector<6xf64>
// CHECK: %[[K:.*]] = math.roundeven
// CHECK: math.fma
// CHECK: math.fma
// CHECK: arith.fptosi %[[K]] : vector<6xf64> to vector<6xi64>
// CHECK: arith.shli
// CHECK: %[[FAST:.*]] = arith.mulf
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : vector<6xf64>
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : vector<6xf64>
// CHECK: %[[OUT:.*]] = arith.ori %[[BELOW]], %[[ABOVE]]
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[OUT]]
// CHECK: %[[Y:.*]] = scf.if %[[ANY]] -> (vector<6xf64>) {
// CHECK:   %[[LIBM:.*]] = math.exp %[[X]] : vector<6xf64>
// CHECK:   %[[SEL:.*]] = arith.select %[[OUT]], %[[LIBM]], %[[FAST]]
// CHECK:   scf.yield %[[SEL]]
// CHECK: } else {
// CHECK:   scf.yield %[[FAST]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %[[Y]]
// CHECK: return %[[R]]
// CHECK-AVX2-LABEL: func.func @exp6(
// CHECK-AVX2: math.roundeven
// CHECK-NONE-LABEL: func.func @exp6(
// CHECK-NONE-NEXT: math.exp %{{.*}} : vector<6xf64>
// CHECK-NONE-NEXT: return
func.func @exp6(%x: vector<6xf64>) -> vector<6xf64> {
  %0 = math.exp %x : vector<6xf64>
  return %0 : vector<6xf64>
}

// f64 sin and cos: reduction by three parts of pi/2 kept as TwoSums, the
// quadrant's bits choosing +-sin r or +-cos r; libm's function beyond
// 2^20 in a branch; NaN kept, and sin's signed zeros.
// CHECK-LABEL: func.func @sincos(
// CHECK-SAME: %[[X:.*]]: vector<8xf64>
// CHECK: math.roundeven
// CHECK: arith.andi
// CHECK: arith.cmpi ne
// CHECK: scf.if
// CHECK: math.sin %[[X]] : vector<8xf64>
// CHECK: arith.cmpf oeq, %[[X]]
// CHECK: arith.ori
// CHECK: math.roundeven
// CHECK: scf.if
// CHECK: math.cos %[[X]] : vector<8xf64>
// CHECK: return
// CHECK-NONE-LABEL: func.func @sincos(
// CHECK-NONE-NEXT: math.sin
// CHECK-NONE-NEXT: math.cos
func.func @sincos(%x: vector<8xf64>) -> (vector<8xf64>, vector<8xf64>) {
  %0 = math.sin %x : vector<8xf64>
  %1 = math.cos %x : vector<8xf64>
  return %0, %1 : vector<8xf64>, vector<8xf64>
}

// f64 expm1: the exp kernel's parts, 2^k hi - 1 as a TwoSum; libm's
// expm1 beyond 708 (its lower end is -inf: the kernel clamps to -40,
// where the result is -1); NaN lanes and zeros (expm1(-0) = -0) kept.
// CHECK-LABEL: func.func @expm1(
// CHECK-SAME: %[[X:.*]]: vector<8xf64>
// CHECK: arith.maxnumf %[[X]]
// CHECK: math.roundeven
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : vector<8xf64>
// CHECK: scf.if
// CHECK: math.expm1 %[[X]] : vector<8xf64>
// CHECK: arith.cmpf uno, %[[X]], %[[X]]
// CHECK: arith.cmpf oeq, %[[X]]
// CHECK: arith.ori
// CHECK: return
// CHECK-NONE-LABEL: func.func @expm1(
// CHECK-NONE-NEXT: math.expm1
func.func @expm1(%x: vector<8xf64>) -> vector<8xf64> {
  %0 = math.expm1 %x : vector<8xf64>
  return %0 : vector<8xf64>
}

// f64 tanh: E / (E + 2) with E the expm1 parts of 2|x| (TwoSum), divided
// as double-doubles; valid for every input (no libm branch); NaN and
// zeros kept, on every library but none.
// CHECK-LABEL: func.func @tanh(
// CHECK-SAME: %[[X:.*]]: vector<8xf64>
// CHECK-NOT: math.tanh
// CHECK-NOT: call
// CHECK-NOT: scf.if
// CHECK: math.roundeven
// CHECK: arith.divf
// CHECK: arith.divf
// CHECK: math.copysign
// CHECK: arith.cmpf uno, %[[X]], %[[X]]
// CHECK: return
// CHECK-AVX2-LABEL: func.func @tanh(
// CHECK-AVX2-NOT: math.tanh
// CHECK-AVX2: return
// CHECK-NONE-LABEL: func.func @tanh(
// CHECK-NONE-NEXT: math.tanh
func.func @tanh(%x: vector<8xf64>) -> vector<8xf64> {
  %0 = math.tanh %x : vector<8xf64>
  return %0 : vector<8xf64>
}

// f64 erf: valid for every input, so no libm branch: the Taylor series,
// the middle polynomial and 1 - e^(-x^2) erfcx(|x|) selected by |x|; NaN
// lanes and zeros kept.
// CHECK-LABEL: func.func @erf(
// CHECK-SAME: %[[X:.*]]: vector<8xf64>
// CHECK-NOT: scf.if
// CHECK-NOT: math.erf
// CHECK: math.roundeven
// CHECK: math.copysign
// CHECK: %[[Y:.*]] = arith.select
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[ZERO:.*]] = arith.cmpf oeq, %[[X]]
// CHECK: %[[KEEP:.*]] = arith.ori %[[NAN]], %[[ZERO]]
// CHECK: %[[R:.*]] = arith.select %[[KEEP]], %[[X]], %[[Y]]
// CHECK: return %[[R]]
// CHECK-NONE-LABEL: func.func @erf(
// CHECK-NONE-NEXT: math.erf
func.func @erf(%x: vector<8xf64>) -> vector<8xf64> {
  %0 = math.erf %x : vector<8xf64>
  return %0 : vector<8xf64>
}

// f64 erfc: valid for every input, so no libm branch: 1 - erf's Taylor
// series, e^(-x^2) erfcx(x) with erfcx from three polynomials (one
// reciprocal for those in 1/x), 2 - erfc(-x) for negative x, selected by
// x; NaN lanes kept (erfc(0) = 1: zeros are computed).
// CHECK-LABEL: func.func @erfc(
// CHECK-SAME: %[[X:.*]]: vector<8xf64>
// CHECK-NOT: scf.if
// CHECK-NOT: math.erfc
// CHECK: arith.divf
// CHECK: math.roundeven
// CHECK: arith.select
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK-NEXT: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %{{.*}}
// CHECK-NEXT: return %[[R]]
// CHECK-NONE-LABEL: func.func @erfc(
// CHECK-NONE-NEXT: math.erfc
func.func @erfc(%x: vector<8xf64>) -> vector<8xf64> {
  %0 = math.erfc %x : vector<8xf64>
  return %0 : vector<8xf64>
}

// f64 tan: the sin and cos reduction, one quotient corrected by its
// residual, negated for odd quadrants; libm beyond 2^20; NaN and zeros
// kept. atan, asin, acos and atan2: no libm branch (valid everywhere; asin
// and acos take a square root for |x| >= 1/2, NaN beyond 1); atan2 makes
// its own NaN.
// CHECK-LABEL: func.func @circular(
// CHECK-SAME: %[[X:[^:]*]]: vector<8xf64>
// CHECK: math.roundeven
// CHECK: arith.divf
// CHECK: arith.divf
// CHECK: scf.if
// CHECK: math.tan %[[X]] : vector<8xf64>
// CHECK-NOT: math.atan
// CHECK: arith.divf
// CHECK: math.copysign
// CHECK-NOT: scf.if
// CHECK-NOT: math.asin
// CHECK-NOT: math.acos
// CHECK: math.sqrt
// CHECK: math.sqrt
// CHECK-NOT: math.atan2
// CHECK: arith.cmpf uno, %[[X]], %[[X]]
// CHECK-NOT: scf.if
// CHECK: return
// CHECK-NONE-LABEL: func.func @circular(
// CHECK-NONE-NEXT: math.tan
// CHECK-NONE-NEXT: math.atan
// CHECK-NONE-NEXT: math.asin
// CHECK-NONE-NEXT: math.acos
// CHECK-NONE-NEXT: math.atan2
func.func @circular(%x: vector<8xf64>, %y: vector<8xf64>) -> (vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>) {
  %0 = math.tan %x : vector<8xf64>
  %1 = math.atan %x : vector<8xf64>
  %2 = math.asin %x : vector<8xf64>
  %3 = math.acos %x : vector<8xf64>
  %4 = math.atan2 %y, %x : vector<8xf64>
  return %0, %1, %2, %3, %4 : vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>
}

// Left as they are: functions with neither a variant within 2 ulp nor a
// kernel here (cbrt), f32 (--stax-approximate-math's kernels) and 2-D
// vectors.
// CHECK-LABEL: func.func @unchanged(
// CHECK-NOT: call
// CHECK: math.atan2 %{{.*}} : vector<2x8xf64>
// CHECK: math.cbrt %{{.*}} : vector<8xf64>
// CHECK: math.log %{{.*}} : vector<16xf32>
// CHECK: math.log %{{.*}} : vector<2x8xf64>
func.func @unchanged(%x: vector<8xf64>, %f: vector<16xf32>, %m: vector<2x8xf64>)
    -> (vector<2x8xf64>, vector<8xf64>, vector<16xf32>, vector<2x8xf64>) {
  %1 = math.atan2 %m, %m : vector<2x8xf64>
  %2 = math.cbrt %x : vector<8xf64>
  %4 = math.log %f : vector<16xf32>
  %7 = math.log %m : vector<2x8xf64>
  return %1, %2, %4, %7 : vector<2x8xf64>, vector<8xf64>, vector<16xf32>, vector<2x8xf64>
}

// A scalar, and a vector whose length is no multiple of the lanes, call
// the same variant as whole vectors, padded with 1.0: a loop's scalar
// tail recomputing a value its vector body computed gets the same bits.
// CHECK-LABEL: func.func @padded(
// CHECK-SAME: %[[S:[a-z0-9]+]]: f64, %[[ODD:[a-z0-9]+]]: vector<6xf64>
// CHECK: %[[B:.*]] = vector.broadcast %[[S]] : f64 to vector<8xf64>
// CHECK: %[[L:.*]] = call @_ZGVeN8v_log(%[[B]])
// CHECK: %[[R:.*]] = vector.extract %[[L]][0] : f64 from vector<8xf64>
// CHECK: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : vector<8xf64>
// CHECK: %[[P:.*]] = vector.insert_strided_slice %{{.*}}, %[[ONES]] {offsets = [0], strides = [1]} : vector<6xf64> into vector<8xf64>
// CHECK: %[[C:.*]] = call @_ZGVeN8v_log(%[[P]])
// CHECK: %[[T:.*]] = vector.extract_strided_slice %[[C]] {offsets = [0], sizes = [6], strides = [1]} : vector<8xf64> to vector<6xf64>
// CHECK: %[[V:.*]] = vector.insert_strided_slice %[[T]], %{{.*}} {offsets = [0], strides = [1]} : vector<6xf64> into vector<6xf64>
// CHECK: call @_ZGVeN8vv_pow(%{{.*}}, %{{.*}}) : (vector<8xf64>, vector<8xf64>) -> vector<8xf64>
// CHECK: return %[[R]], %[[V]]
// CHECK-NONE-LABEL: func.func @padded(
// CHECK-NONE: math.log %{{.*}} : f64
// CHECK-NONE: math.log %{{.*}} : vector<6xf64>
func.func @padded(%s: f64, %odd: vector<6xf64>) -> (f64, vector<6xf64>, vector<6xf64>) {
  %0 = math.log %s : f64
  %1 = math.log %odd : vector<6xf64>
  %2 = math.powf %odd, %odd : vector<6xf64>
  return %0, %1, %2 : f64, vector<6xf64>, vector<6xf64>
}

// A scalar's kernel is the vectors': inline arithmetic, libm's function
// only in the branch for arguments beyond the kernel's range.
// CHECK-LABEL: func.func @scalar_exp(
// CHECK-NOT: call
// CHECK: math.fma %{{.*}} : f64
// CHECK: scf.if
// CHECK: math.exp %{{.*}} : f64
// CHECK-NONE-LABEL: func.func @scalar_exp(
// CHECK-NONE-NEXT: math.exp %{{.*}} : f64
func.func @scalar_exp(%s: f64) -> f64 {
  %0 = math.exp %s : f64
  return %0 : f64
}

// -----

// A module that defines the library's name otherwise cannot call it.
// expected-error @+1 {{--stax-vector-math-calls: @_ZGVeN8v_log is libmvec's '(vector<8xf64>) -> vector<8xf64>', but the module defines it otherwise}}
func.func private @_ZGVeN8v_log(vector<8xf32>) -> vector<8xf32>

func.func @clash(%x: vector<8xf64>) -> vector<8xf64> {
  %0 = math.log %x : vector<8xf64>
  return %0 : vector<8xf64>
}
