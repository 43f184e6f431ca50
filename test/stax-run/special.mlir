// RUN: stax-run %s --entry=values --print=exact | FileCheck %s
// RUN: stax-opt %s --stax-lower | stax-run - --entry=values --print=exact | FileCheck %s
// RUN: stax-run %s --entry=values --print=exact --jit | FileCheck %s
// RUN: stax-run %s --entry=exact --print=exact | FileCheck %s --check-prefix=EXACT
// RUN: stax-opt %s --stax-lower | stax-run - --entry=exact --print=exact | FileCheck %s --check-prefix=EXACT
// RUN: stax-run %s --entry=exact --print=exact --jit | FileCheck %s --check-prefix=EXACT

// The special functions (Stax/Support/SpecialFunctions.h) in the reference
// interpreter, lowered to stax nodes and compiled (runtime calls): the same
// values. The expected values are PyTorch 1.13's in float64 (poles, domain
// ends, NaN and infinities included), and to their common digits where the
// two differ by a few ulp.

func.func @values() -> (tensor<9xf64>, tensor<9xf64>, tensor<6xf64>, tensor<6xf64>, tensor<9xf64>, tensor<8xf64>, tensor<10xf64>) {
  // x0 = [0, -0, -2, 0.5, 3.25, -2.5, 1.0000000000000001e+300, -inf, inf]
  %x0 = tp.constant dense<"0x0000000000000000000000000000008000000000000000C0000000000000E03F0000000000000A4000000000000004C09C7500883CE4377E000000000000F0FF000000000000F07F"> : tensor<9xf64>
  %y0 = tp.lgamma %x0 : tensor<9xf64> -> tensor<9xf64>
  // x1 = [0, -0, -2, 1, 0.5, -2.5, 9.75, 1e+20, inf]
  %x1 = tp.constant dense<"0x0000000000000000000000000000008000000000000000C0000000000000F03F000000000000E03F00000000000004C00000000000802340408CB5781DAF1544000000000000F07F"> : tensor<9xf64>
  %y1 = tp.digamma %x1 : tensor<9xf64> -> tensor<9xf64>
  // x2 = [-2, 0.25, 1, -1.5, 7, 30.5]
  %x2 = tp.constant dense<"0x00000000000000C0000000000000D03F000000000000F03F000000000000F8BF0000000000001C400000000000803E40"> : tensor<6xf64>
  %y2 = tp.polygamma %x2 {n = 1 : i64} : tensor<6xf64> -> tensor<6xf64>
  // x3 = [-2, 0.25, 1, -1.5, 7, 30.5]
  %x3 = tp.constant dense<"0x00000000000000C0000000000000D03F000000000000F03F000000000000F8BF0000000000001C400000000000803E40"> : tensor<6xf64>
  %y3 = tp.polygamma %x3 {n = 3 : i64} : tensor<6xf64> -> tensor<6xf64>
  // x4 = [-1, 1, 0, -0, 0.5, -0.69999999999999996, 0.99990000000000001, 1.5, nan]
  %x4 = tp.constant dense<"0x000000000000F0BF000000000000F03F00000000000000000000000000000080000000000000E03F666666666666E6BF1EA7E8482EFFEF3F000000000000F83F000000000000F87F"> : tensor<9xf64>
  %y4 = tp.erfinv %x4 : tensor<9xf64> -> tensor<9xf64>
  // x5 = [0, 1, 0.5, 0.025000000000000001, 0.97499999999999998, 9.9999999999999995e-21, -0.5, 2]
  %x5 = tp.constant dense<"0x0000000000000000000000000000F03F000000000000E03F9A9999999999993F333333333333EF3F2342920CA19CC73B000000000000E0BF0000000000000040"> : tensor<8xf64>
  %y5 = tp.special_ndtri %x5 : tensor<8xf64> -> tensor<8xf64>
  // x6 = [0, 1, -1, 2.5, -7, 30, -30, 10000000000, inf, -inf]
  %x6 = tp.constant dense<"0x0000000000000000000000000000F03F000000000000F0BF00000000000004400000000000001CC00000000000003E400000000000003EC0000000205FA00242000000000000F07F000000000000F0FF"> : tensor<10xf64>
  %y6 = tp.special_erfcx %x6 : tensor<10xf64> -> tensor<10xf64>
  return %y0, %y1, %y2, %y3, %y4, %y5, %y6 : tensor<9xf64>, tensor<9xf64>, tensor<6xf64>, tensor<6xf64>, tensor<9xf64>, tensor<8xf64>, tensor<10xf64>
}

// CHECK: result #0: tensor<9xf64>
// CHECK-NEXT:   [0] inf{{$}}
// CHECK-NEXT:   [1] inf{{$}}
// CHECK-NEXT:   [2] inf{{$}}
// CHECK-NEXT:   [3] 0.57236494292470008{{$}}
// CHECK-NEXT:   [4] 0.93580193110872534{{$}}
// A few ulp from PyTorch's -0.056243716497674047 (ours: -0.056243716497674068).
// CHECK-NEXT:   [5] -0.0562437164976740{{[0-9][0-9]}}{{$}}
// CHECK-NEXT:   [6] 6.8977552789821374e+302{{$}}
// CHECK-NEXT:   [7] inf{{$}}
// CHECK-NEXT:   [8] inf{{$}}
// CHECK: result #1: tensor<9xf64>
// CHECK-NEXT:   [0] -inf{{$}}
// CHECK-NEXT:   [1] inf{{$}}
// CHECK-NEXT:   [2] nan{{$}}
// CHECK-NEXT:   [3] -0.57721566490153275{{$}}
// CHECK-NEXT:   [4] -1.9635100260214229{{$}}
// CHECK-NEXT:   [5] 1.1031566406452433{{$}}
// CHECK-NEXT:   [6] 2.2251095350445755{{$}}
// CHECK-NEXT:   [7] 46.051701859880914{{$}}
// CHECK-NEXT:   [8] inf{{$}}
// CHECK: result #2: tensor<6xf64>
// CHECK-NEXT:   [0] 1.6451975368302367e+32{{$}}
// CHECK-NEXT:   [1] 17.197329153414561{{$}}
// CHECK-NEXT:   [2] 1.6449340676383375{{$}}
// CHECK-NEXT:   [3] 9.3792466448495393{{$}}
// CHECK-NEXT:   [4] 0.15354517796243941{{$}}
// CHECK-NEXT:   [5] 0.0333302481128019{{$}}
// CHECK: result #3: tensor<6xf64>
// CHECK-NEXT:   [0] inf{{$}}
// CHECK-NEXT:   [1] 1538.7821440091891{{$}}
// CHECK-NEXT:   [2] 6.4939394022668289{{$}}
// CHECK-NEXT:   [3] 194.59427621918758{{$}}
// CHECK-NEXT:   [4] 0.0071981985631254441{{$}}
// CHECK-NEXT:   [5] 7.4032961754388476e-05{{$}}
// CHECK: result #4: tensor<9xf64>
// CHECK-NEXT:   [0] -inf{{$}}
// CHECK-NEXT:   [1] inf{{$}}
// CHECK-NEXT:   [2] 0{{$}}
// CHECK-NEXT:   [3] -0{{$}}
// CHECK-NEXT:   [4] 0.47693627620446988{{$}}
// CHECK-NEXT:   [5] -0.73286907795921685{{$}}
// A few ulp from PyTorch's 2.7510639057120829 (ours: 2.7510639057120825).
// CHECK-NEXT:   [6] 2.751063905712082{{[0-9]}}{{$}}
// CHECK-NEXT:   [7] nan{{$}}
// CHECK-NEXT:   [8] nan{{$}}
// CHECK: result #5: tensor<8xf64>
// CHECK-NEXT:   [0] -inf{{$}}
// CHECK-NEXT:   [1] inf{{$}}
// CHECK-NEXT:   [2] 0{{$}}
// CHECK-NEXT:   [3] -1.9599639845400545{{$}}
// CHECK-NEXT:   [4] 1.959963984540054{{$}}
// CHECK-NEXT:   [5] -9.2623400897984087{{$}}
// CHECK-NEXT:   [6] nan{{$}}
// CHECK-NEXT:   [7] nan{{$}}
// CHECK: result #6: tensor<10xf64>
// CHECK-NEXT:   [0] 1{{$}}
// CHECK-NEXT:   [1] 0.427583576155807{{$}}
// CHECK-NEXT:   [2] 5.0089800807622833{{$}}
// CHECK-NEXT:   [3] 0.21080636406114359{{$}}
// CHECK-NEXT:   [4] 3.8146931449901996e+21{{$}}
// A few ulp from PyTorch's 0.018795888861416754 (ours: 0.018795888861416751).
// CHECK-NEXT:   [5] 0.01879588886141675{{[0-9]}}{{$}}
// CHECK-NEXT:   [6] inf{{$}}
// CHECK-NEXT:   [7] 5.6418958354775629e-11{{$}}
// CHECK-NEXT:   [8] 0{{$}}
// CHECK-NEXT:   [9] inf{{$}}

// nextafter and frexp in f32; PyTorch 1.13's values (3.4028235e38 is the
// largest f32).
func.func @exact() -> (tensor<6xf32>, tensor<8xf32>, tensor<8xi32>) {
  %a = tp.constant dense<[1.0, 0.0, 3.0, 0x7FC00000, -1.0, 3.40282347E+38]> : tensor<6xf32>
  %b = tp.constant dense<[2.0, -1.0, 3.0, 1.0, -2.0, 0x7F800000]> : tensor<6xf32>
  %n = tp.nextafter %a, %b : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  %x = tp.constant dense<[8.0, -0.75, 0.0, -0.0, 0x7F800000, 0x7FC00000, 1.0e-40, 3.0]> : tensor<8xf32>
  %m, %e = tp.frexp %x : tensor<8xf32> -> tensor<8xf32>, tensor<8xi32>
  return %n, %m, %e : tensor<6xf32>, tensor<8xf32>, tensor<8xi32>
}
// EXACT: result #0: tensor<6xf32>
// EXACT-NEXT:   [0] 1.00000012{{$}}
// EXACT-NEXT:   [1] -1.40129846e-45{{$}}
// EXACT-NEXT:   [2] 3{{$}}
// EXACT-NEXT:   [3] nan{{$}}
// EXACT-NEXT:   [4] -1.00000012{{$}}
// EXACT-NEXT:   [5] inf{{$}}
// EXACT: result #1: tensor<8xf32>
// EXACT-NEXT:   [0] 0.5{{$}}
// EXACT-NEXT:   [1] -0.75{{$}}
// EXACT-NEXT:   [2] 0{{$}}
// EXACT-NEXT:   [3] -0{{$}}
// EXACT-NEXT:   [4] inf{{$}}
// EXACT-NEXT:   [5] nan{{$}}
// EXACT-NEXT:   [6] 0.544448853{{$}}
// EXACT-NEXT:   [7] 0.75{{$}}
// EXACT: result #2: tensor<8xi32>
// EXACT-NEXT:   [0] 4{{$}}
// EXACT-NEXT:   [1] 0{{$}}
// EXACT-NEXT:   [2] 0{{$}}
// EXACT-NEXT:   [3] 0{{$}}
// EXACT-NEXT:   [4] 0{{$}}
// EXACT-NEXT:   [5] 0{{$}}
// EXACT-NEXT:   [6] -132{{$}}
// EXACT-NEXT:   [7] 2{{$}}
