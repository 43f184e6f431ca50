// RUN: stax-opt --stax-approximate-math %s | FileCheck %s
// RUN: stax-opt --stax-approximate-math="kernels=f64" %s | FileCheck %s --check-prefix=CHECK-F64
// RUN: stax-opt --stax-approximate-math="kernels=upstream" %s | FileCheck %s --check-prefix=CHECK-UP
// RUN: not stax-opt --stax-approximate-math="kernels=f16" %s 2>&1 | FileCheck %s --check-prefix=CHECK-BAD

// CHECK-BAD: Cannot find option named 'f16'

// The default f32 kernel: clamp, k = x log2 e rounded by adding 1.5 *
// 2^23 in the fma (k's integer from the sum's bits, no conversion),
// two-part Cody-Waite reduction, a polynomial finished by an fma, and 2^k
// applied as two powers of two built from exponent bits (a denormal result
// is rounded once); a NaN input is returned as it is. No f64 anywhere.
// CHECK-LABEL: func.func @exp_f32(
// CHECK-SAME: %[[X:.*]]: f32)
// CHECK-NOT: f64
// CHECK-NOT: math.exp
// CHECK-DAG: %[[SHIFT:.*]] = arith.constant 0x4B400000 : f32
// CHECK-DAG: %[[SHIFTBITS:.*]] = arith.constant 1262485504 : i32
// CHECK: %[[C:.*]] = arith.maxnumf
// CHECK: %[[SHIFTED:.*]] = math.fma %[[C]], %{{.*}}, %[[SHIFT]] : f32
// CHECK: arith.subf %[[SHIFTED]], %[[SHIFT]] : f32
// CHECK-NOT: math.roundeven
// CHECK-COUNT-2: math.fma
// CHECK: %[[BITS:.*]] = arith.bitcast %[[SHIFTED]] : f32 to i32
// CHECK-NOT: arith.fptosi
// CHECK: arith.subi %[[BITS]], %[[SHIFTBITS]] : i32
// CHECK: arith.shrsi
// CHECK: arith.shli
// CHECK: arith.shli
// CHECK: %[[Y:.*]] = arith.mulf
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %[[Y]] : f32
// CHECK: return %[[R]]
// kernels=f64: evaluated in f64 and rounded once.
// CHECK-F64-LABEL: func.func @exp_f32(
// CHECK-F64-SAME: %[[X:.*]]: f32)
// CHECK-F64-NOT: math.exp
// CHECK-F64: %[[W:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-F64: arith.minnumf %[[W]]
// CHECK-F64: math.roundeven
// CHECK-F64-COUNT-2: math.fma
// CHECK-F64: arith.fptosi
// CHECK-F64: arith.shli
// CHECK-F64: %[[Y:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK-F64: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-F64: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %[[Y]] : f32
// CHECK-F64: return %[[R]]
// upstream's f32 polynomial: no f64 either.
// CHECK-UP-LABEL: func.func @exp_f32(
// CHECK-UP-NOT: f64
// CHECK-UP-NOT: math.exp
// CHECK-UP: return
func.func @exp_f32(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// f32 log of a vector: denormal inputs scaled by 2^23, the exponent and
// mantissa split with bitcasts on vector<16xi32>, no division; the
// specials (0, negative, inf) selected after.
// CHECK-LABEL: func.func @log_vector(
// CHECK-NOT: math.log
// CHECK-NOT: arith.divf
// CHECK: arith.bitcast %{{.*}} : vector<16xf32> to vector<16xi32>
// CHECK-COUNT-3: arith.select
// CHECK: return
// kernels=f64 widens lane by lane: log of vector<16xf32> computes on
// vector<16xf64>.
// CHECK-F64-LABEL: func.func @log_vector(
// CHECK-F64-NOT: math.log
// CHECK-F64: arith.extf %{{.*}} : vector<16xf32> to vector<16xf64>
// CHECK-F64: arith.bitcast %{{.*}} : vector<16xf64> to vector<16xi64>
// CHECK-F64: arith.divf %{{.*}} : vector<16xf64>
// CHECK-F64: arith.truncf %{{.*}} : vector<16xf64> to vector<16xf32>
// CHECK-F64: return
// upstream's log is wrong on denormals: left alone.
// CHECK-UP-LABEL: func.func @log_vector(
// CHECK-UP: math.log %{{.*}} : vector<16xf32>
func.func @log_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.log %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// tanh, erf, expm1 and log1p have f32 kernels: no f64 and no math
// function is left (only fma, absf and copysign).
// CHECK-LABEL: func.func @f32_kernels(
// CHECK-NOT: f64
// CHECK-NOT: math.{{tanh|erf|expm1|log1p|exp|log}}
// CHECK: return
func.func @f32_kernels(%x: f32) -> (f32, f32, f32, f32) {
  %0 = math.tanh %x : f32
  %1 = math.erf %x : f32
  %2 = math.expm1 %x : f32
  %3 = math.log1p %x : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}

// erfc has no f32 kernel: with the default it keeps the f64 one.
// CHECK-LABEL: func.func @erfc_f64(
// CHECK-NOT: math.erfc
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: return
func.func @erfc_f64(%x: f32) -> f32 {
  %0 = math.erfc %x : f32
  return %0 : f32
}

// sigmoid's and silu's decomposition n / (exp(y) + 1) is one function:
// with the default, the quotient by the rounded denominator is corrected
// by its exact residual (fma(-q, dHi, n)) and the denominator's error;
// no f32 exp is left.
// The common case (|k| <= 23, n finite: 2^k + 1 exact, nothing near
// overflow) is an scf.if branch with the same result bit for bit.
// CHECK-LABEL: func.func @logistic(
// CHECK-SAME: %[[N:.*]]: f32, %[[Y:.*]]: f32)
// CHECK-NOT: f64
// CHECK: %[[COMMON:.*]] = arith.andi
// CHECK: scf.if %[[COMMON]] -> (f32) {
// CHECK: %[[T:.*]] = arith.divf %{{.*}}, %[[DHI:.*]] : f32
// CHECK: %[[Q:.*]] = arith.mulf %[[N]], %[[T]] : f32
// CHECK: %[[NQ:.*]] = arith.negf %[[Q]] : f32
// CHECK: %[[RES:.*]] = math.fma %[[NQ]], %[[DHI]], %[[N]] : f32
// CHECK: math.fma %{{.*}}, %[[T]], %[[Q]] : f32
// CHECK-NOT: math.exp
// CHECK: return
// kernels=f64: one f64 evaluation, a single rounding at the end.
// CHECK-F64-LABEL: func.func @logistic(
// CHECK-F64-SAME: %[[N:.*]]: f32, %[[Y:.*]]: f32)
// CHECK-F64-DAG: %[[N64:.*]] = arith.extf %[[N]] : f32 to f64
// CHECK-F64-DAG: %[[Y64:.*]] = arith.extf %[[Y]] : f32 to f64
// CHECK-F64: %[[Q:.*]] = arith.divf %[[N64]], %{{.*}} : f64
// CHECK-F64: %[[S:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : f64
// CHECK-F64: %[[R:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK-F64-NOT: math.exp
// CHECK-F64: return %[[R]]
func.func @logistic(%n: f32, %y: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %e = math.exp %y : f32
  %d = arith.addf %e, %one : f32
  %q = arith.divf %n, %d : f32
  return %q : f32
}

// A vector takes the common branch when every lane does.
// CHECK-LABEL: func.func @logistic_vector(
// CHECK: %[[LANES:.*]] = arith.andi %{{.*}}, %{{.*}} : vector<16xi1>
// CHECK: %[[ALL:.*]] = vector.reduction <and>, %[[LANES]] : vector<16xi1> into i1
// CHECK: scf.if %[[ALL]] -> (vector<16xf32>) {
// CHECK: } else {
// CHECK: arith.shrsi
// CHECK: return
func.func @logistic_vector(%n: vector<16xf32>, %y: vector<16xf32>) -> vector<16xf32> {
  %one = arith.constant dense<1.0> : vector<16xf32>
  %e = math.exp %y : vector<16xf32>
  %d = arith.addf %e, %one : vector<16xf32>
  %q = arith.divf %n, %d : vector<16xf32>
  return %q : vector<16xf32>
}

// Not rewritten: f64 functions (libm is correctly rounded enough there),
// functions without a kernel (asinh), and a sum with something other than 1
// (its exp is rewritten alone).
// CHECK-LABEL: func.func @untouched(
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.asinh %{{.*}} : f32
// CHECK: %[[S:.*]] = arith.addf %{{.*}} : f32
// CHECK: arith.divf %{{.*}}, %[[S]] : f32
// CHECK-F64-LABEL: func.func @untouched(
// CHECK-F64: math.exp %{{.*}} : f64
// CHECK-F64: math.asinh %{{.*}} : f32
func.func @untouched(%d: f64, %x: f32) -> (f64, f32, f32) {
  %0 = math.exp %d : f64
  %1 = math.asinh %x : f32
  %two = arith.constant 2.0 : f32
  %e = math.exp %x : f32
  %s = arith.addf %e, %two : f32
  %q = arith.divf %x, %s : f32
  return %0, %1, %q : f64, f32, f32
}

// f32 pow decomposes into an f64 math.powf of the widened operands,
// narrowed back: e^(y ln|x|) in f64 (logParts, the f64 exp), the sign of
// odd integer powers, NaN for a finite negative base with a non-integer
// exponent, and 1 for y = 0, x = 1 and |x| = 1 with y = +-inf. With every
// kernel set but upstream's.
// CHECK-LABEL: func.func @pow_widened(
// CHECK-NOT: math.powf
// CHECK: math.absf %{{.*}} : vector<16xf64>
// CHECK: math.roundeven %{{.*}} : vector<16xf64>
// CHECK: arith.select %{{.*}} : vector<16xi1>, vector<16xf64>
// CHECK: arith.truncf %{{.*}} : vector<16xf64> to vector<16xf32>
// CHECK-F64-LABEL: func.func @pow_widened(
// CHECK-F64-NOT: math.powf
// CHECK-F64: arith.truncf
// CHECK-UP-LABEL: func.func @pow_widened(
// CHECK-UP: math.powf
func.func @pow_widened(%x: vector<16xf32>, %y: vector<16xf32>) -> vector<16xf32> {
  %a = arith.extf %x : vector<16xf32> to vector<16xf64>
  %b = arith.extf %y : vector<16xf32> to vector<16xf64>
  %p = math.powf %a, %b : vector<16xf64>
  %r = arith.truncf %p : vector<16xf64> to vector<16xf32>
  return %r : vector<16xf32>
}

// Kept: an f64 pow whose base is not widened from f32, or whose result is
// used in f64 (the kernel's 3e-11 would show there).
// CHECK-LABEL: func.func @pow_kept(
// CHECK: math.powf %{{.*}} : f64
// CHECK: math.powf %{{.*}} : f64
func.func @pow_kept(%d: f64, %x: f32) -> (f64, f64) {
  %a = arith.extf %x : f32 to f64
  %0 = math.powf %d, %a : f64
  %1 = math.powf %a, %a : f64
  return %0, %1 : f64, f64
}

// f64 log, sin and cos marked afn (approximate functions allowed: what
// tp.randn's lowering marks where the normal is rounded to f32) become the
// f64 kernels directly, with the exact function in a branch for a vector
// with a lane outside f32's range (log: below 2^-149 or above FLT_MAX;
// sin, cos: above 2^26); without afn they stay libm's.
// CHECK-LABEL: func.func @afn_f64(
// CHECK-NOT: math.log %{{.*}} fastmath<afn>
// CHECK: vector.reduction <or>
// CHECK: scf.if
// CHECK: math.log %{{.*}} : vector<16xf64>
// CHECK: scf.if
// CHECK: math.sin %{{.*}} : vector<16xf64>
// CHECK: scf.if
// CHECK: math.cos %{{.*}} : vector<16xf64>
// CHECK-NOT: fastmath<afn>
// CHECK: return
// CHECK-LABEL: func.func @exact_f64(
// CHECK-NEXT: math.log %{{.*}} : vector<16xf64>
// CHECK-NEXT: math.sin %{{.*}} : vector<16xf64>
// CHECK-NEXT: math.cos %{{.*}} : vector<16xf64>
func.func @afn_f64(%x: vector<16xf64>) -> (vector<16xf64>, vector<16xf64>, vector<16xf64>) {
  %0 = math.log %x fastmath<afn> : vector<16xf64>
  %1 = math.sin %x fastmath<afn> : vector<16xf64>
  %2 = math.cos %x fastmath<afn> : vector<16xf64>
  return %0, %1, %2 : vector<16xf64>, vector<16xf64>, vector<16xf64>
}
func.func @exact_f64(%x: vector<16xf64>) -> (vector<16xf64>, vector<16xf64>, vector<16xf64>) {
  %0 = math.log %x : vector<16xf64>
  %1 = math.sin %x : vector<16xf64>
  %2 = math.cos %x : vector<16xf64>
  return %0, %1, %2 : vector<16xf64>, vector<16xf64>, vector<16xf64>
}
