// A pointwise node with a long body (tanh, then the logistic's exp: about
// 60 vector instructions an evaluation) evaluates 8 vectors of 16 lanes
// side by side (vector<128xf32>, NodeLoops.cpp: interleavedLanesOf): one
// vector's chain is too long for the out-of-order window to overlap
// iterations. The lanes are independent, so the results equal the scalar
// code's bit for bit (the f32 kernels are the same ops on scalars), the
// masked tail (1000 = 7 x 128 + 104) and the logistic's rare path (|x| >
// 16 here: one operand is scaled by 40, NaN and infinities included) too.
// Two functions side by side (tanh(a) * sigmoid(b)) count as much as a
// chain; one function alone (tanh, or sigmoid(a) * b) stays at 16 lanes,
// as does a loop shorter than two wide vectors, f64 (libm calls), and a
// long body without functions (Philox's integer rounds: throughput bound).
// RUN: stax-run %s --entry=chain --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.scalar
// RUN: stax-run %s --entry=chain --random-inputs --print=hash --jit | sed 1d > %t.vector
// RUN: diff %t.scalar %t.vector
// RUN: stax-run %s --entry=chain --random-inputs --print=hash --jit --pipeline-options="grain=1" --num-threads=3 | sed 1d > %t.threads
// RUN: diff %t.scalar %t.threads
// RUN: stax-run %s --entry=side_by_side --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.side.scalar
// RUN: stax-run %s --entry=side_by_side --random-inputs --print=hash --jit | sed 1d > %t.side.vector
// RUN: diff %t.side.scalar %t.side.vector
// RUN: stax-run %s --entry=kernel_strips --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.kernel.scalar
// RUN: stax-run %s --entry=kernel_strips --random-inputs --print=hash --jit | sed 1d > %t.kernel.vector
// RUN: diff %t.kernel.scalar %t.kernel.vector
// RUN: stax-run %s --entry=kernel_strips --random-inputs --print=hash --jit --pipeline-options="grain=1" --num-threads=3 | sed 1d > %t.kernel.threads
// RUN: diff %t.kernel.scalar %t.kernel.threads
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s
// interleave=1 evaluates one vector at a time; the results are the same.
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false interleave=1" %s | FileCheck %s --check-prefix=CHECK-ONE
// RUN: stax-run %s --entry=chain --random-inputs --print=hash --jit --pipeline-options="interleave=1" | sed 1d > %t.one
// RUN: diff %t.scalar %t.one
// RUN: not stax-opt --stax-lowering-pipeline --stax-to-loops="interleave=0" %s 2>&1 | FileCheck %s --check-prefix=CHECK-BAD
// CHECK-BAD: interleave=0: must be at least 1
// CHECK-ONE-LABEL: func.func @chain(
// CHECK-ONE-NOT: vector<128x
// CHECK-ONE: math.tanh {{.*}} : vector<16xf32>
// CHECK-ONE-NOT: vector<128x

// CHECK-LABEL: func.func @chain(
// CHECK: vector.load {{.*}} : memref<1000xf32>, vector<128xf32>
// CHECK: math.tanh {{.*}} : vector<128xf32>
// CHECK: math.exp {{.*}} : vector<128xf32>
// CHECK: vector.store {{.*}} : memref<1000xf32>, vector<128xf32>
// CHECK-LABEL: func.func @one_function(
// CHECK-NOT: vector<128xf32>
// CHECK: math.tanh {{.*}} : vector<16xf32>
// CHECK-LABEL: func.func @side_by_side(
// CHECK: math.tanh {{.*}} : vector<128xf32>
// CHECK-LABEL: func.func @short_body(
// CHECK-NOT: vector<128xf32>
// CHECK: math.exp {{.*}} : vector<16xf32>
// CHECK-LABEL: func.func @short_loop(
// CHECK-NOT: vector<128xf32>
// CHECK: math.tanh {{.*}} : vector<16xf32>
// CHECK-LABEL: func.func @f64_chain(
// CHECK-NOT: vector<128xf64>
// CHECK-LABEL: func.func @integer_body(
// CHECK-NOT: vector<128x
// CHECK: return
// A fused kernel whose nodes are pointwise and long together (GELU's
// tanh-form gradient: tanh's node, and the node reading it twice) runs in
// strips of 128 lanes, tanh's values in per-strip scratch.
// CHECK-LABEL: func.func @kernel_strips(
// CHECK: math.tanh {{.*}} : vector<128xf32>
// CHECK: arith.mulf {{.*}} : vector<128xf32>

func.func @chain(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
  %scale = tp.constant dense<40.0> : tensor<f32>
  %nan = tp.constant dense<0x7FC00000> : tensor<f32>
  %inf = tp.constant dense<0x7F800000> : tensor<f32>
  %high = tp.constant dense<0.95> : tensor<f32>
  %low = tp.constant dense<-0.95> : tensor<f32>
  %s = tp.mul %b, %scale : tensor<1000xf32>, tensor<f32> -> tensor<1000xf32>
  %isHigh = tp.gt %b, %high : tensor<1000xf32>, tensor<f32> -> tensor<1000xi1>
  %isLow = tp.lt %b, %low : tensor<1000xf32>, tensor<f32> -> tensor<1000xi1>
  %s0 = tp.where %isHigh, %nan, %s : (tensor<1000xi1>, tensor<f32>, tensor<1000xf32>) -> tensor<1000xf32>
  %s1 = tp.where %isLow, %inf, %s0 : (tensor<1000xi1>, tensor<f32>, tensor<1000xf32>) -> tensor<1000xf32>
  %t = tp.tanh %a : tensor<1000xf32> -> tensor<1000xf32>
  %m = tp.mul %t, %s1 : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  %y = tp.add %m, %a : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  %r = tp.sigmoid %y : tensor<1000xf32> -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}

func.func @one_function(%a: tensor<1000xf32>) -> tensor<1000xf32> {
  %t = tp.tanh %a : tensor<1000xf32> -> tensor<1000xf32>
  return %t : tensor<1000xf32>
}

func.func @side_by_side(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
  %t = tp.tanh %a : tensor<1000xf32> -> tensor<1000xf32>
  %s = tp.sigmoid %b : tensor<1000xf32> -> tensor<1000xf32>
  %m = tp.mul %t, %s : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  return %m : tensor<1000xf32>
}

func.func @short_body(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
  %s = tp.sigmoid %a : tensor<1000xf32> -> tensor<1000xf32>
  %m = tp.mul %s, %b : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  return %m : tensor<1000xf32>
}

func.func @short_loop(%a: tensor<200xf32>) -> tensor<200xf32> {
  %t = tp.tanh %a : tensor<200xf32> -> tensor<200xf32>
  %e = tp.exp %t : tensor<200xf32> -> tensor<200xf32>
  return %e : tensor<200xf32>
}

func.func @f64_chain(%a: tensor<1000xf64>) -> tensor<1000xf64> {
  %t = tp.tanh %a : tensor<1000xf64> -> tensor<1000xf64>
  %e = tp.exp %t : tensor<1000xf64> -> tensor<1000xf64>
  return %e : tensor<1000xf64>
}

func.func @integer_body(%a: tensor<1000xf32>, %s: tensor<2xi64>) -> tensor<1000xf32> {
  %u = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<1000xf32>
  %m = tp.mul %u, %a : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  return %m : tensor<1000xf32>
}

func.func @kernel_strips(%g: tensor<4x1000xf32>, %x: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %c = tp.constant dense<0.797884583> : tensor<f32>
  %k = tp.constant dense<0.0447149985> : tensor<f32>
  %one = tp.constant dense<1.0> : tensor<f32>
  %half = tp.constant dense<0.5> : tensor<f32>
  %x2 = tp.mul %x, %x : tensor<4x1000xf32>, tensor<4x1000xf32> -> tensor<4x1000xf32>
  %x3 = tp.mul %x2, %x : tensor<4x1000xf32>, tensor<4x1000xf32> -> tensor<4x1000xf32>
  %kx3 = tp.mul %x3, %k : tensor<4x1000xf32>, tensor<f32> -> tensor<4x1000xf32>
  %in0 = tp.add %x, %kx3 : tensor<4x1000xf32>, tensor<4x1000xf32> -> tensor<4x1000xf32>
  %in = tp.mul %in0, %c : tensor<4x1000xf32>, tensor<f32> -> tensor<4x1000xf32>
  %t = tp.tanh %in : tensor<4x1000xf32> -> tensor<4x1000xf32>
  %t1 = tp.add %t, %one : tensor<4x1000xf32>, tensor<f32> -> tensor<4x1000xf32>
  %left = tp.mul %t1, %half : tensor<4x1000xf32>, tensor<f32> -> tensor<4x1000xf32>
  %tt = tp.mul %t, %t : tensor<4x1000xf32>, tensor<4x1000xf32> -> tensor<4x1000xf32>
  %sech = tp.sub %one, %tt : tensor<f32>, tensor<4x1000xf32> -> tensor<4x1000xf32>
  %xs = tp.mul %x, %sech : tensor<4x1000xf32>, tensor<4x1000xf32> -> tensor<4x1000xf32>
  %right = tp.mul %xs, %c : tensor<4x1000xf32>, tensor<f32> -> tensor<4x1000xf32>
  %d = tp.add %left, %right : tensor<4x1000xf32>, tensor<4x1000xf32> -> tensor<4x1000xf32>
  %r = tp.mul %g, %d : tensor<4x1000xf32>, tensor<4x1000xf32> -> tensor<4x1000xf32>
  return %r : tensor<4x1000xf32>
}
