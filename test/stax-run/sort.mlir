// RUN: stax-run %s --entry=floats --print=exact | FileCheck %s --check-prefix=CHECK-FLOATS
// RUN: stax-run %s --entry=floats --print=exact --f64 | FileCheck %s --check-prefix=CHECK-FLOATS
// RUN: stax-run %s --entry=columns --print=exact | FileCheck %s --check-prefix=CHECK-COLUMNS
// RUN: stax-run %s --entry=ints --print=exact | FileCheck %s --check-prefix=CHECK-INTS
// RUN: stax-run %s --entry=scalar --print=exact --f64 | FileCheck %s --check-prefix=CHECK-SCALAR

// tp.sort in the reference interpreter, plain and in float64: a stable
// sort (ties keep their order both ways), NaN larger than every number,
// -0.0 equal to 0.0. The expected values are torch.sort(x, stable=True)'s
// in PyTorch 1.13.

// x = [3, nan, 1, -0.0, 1, 0.0, nan, -inf]
// CHECK-FLOATS:      @floats
// CHECK-FLOATS-NEXT: result #0: tensor<8xf{{32|64}}>
// CHECK-FLOATS-NEXT:   [0] -inf{{$}}
// CHECK-FLOATS-NEXT:   [1] -0{{$}}
// CHECK-FLOATS-NEXT:   [2] 0{{$}}
// CHECK-FLOATS-NEXT:   [3] 1{{$}}
// CHECK-FLOATS-NEXT:   [4] 1{{$}}
// CHECK-FLOATS-NEXT:   [5] 3{{$}}
// CHECK-FLOATS-NEXT:   [6] nan{{$}}
// CHECK-FLOATS-NEXT:   [7] nan{{$}}
// CHECK-FLOATS-NEXT: result #1: tensor<8xi64>
// CHECK-FLOATS-NEXT:   [0] 7{{$}}
// CHECK-FLOATS-NEXT:   [1] 3{{$}}
// CHECK-FLOATS-NEXT:   [2] 5{{$}}
// CHECK-FLOATS-NEXT:   [3] 2{{$}}
// CHECK-FLOATS-NEXT:   [4] 4{{$}}
// CHECK-FLOATS-NEXT:   [5] 0{{$}}
// CHECK-FLOATS-NEXT:   [6] 1{{$}}
// CHECK-FLOATS-NEXT:   [7] 6{{$}}
// CHECK-FLOATS-NEXT: result #2: tensor<8xf{{32|64}}>
// CHECK-FLOATS-NEXT:   [0] nan{{$}}
// CHECK-FLOATS-NEXT:   [1] nan{{$}}
// CHECK-FLOATS-NEXT:   [2] 3{{$}}
// CHECK-FLOATS-NEXT:   [3] 1{{$}}
// CHECK-FLOATS-NEXT:   [4] 1{{$}}
// CHECK-FLOATS-NEXT:   [5] -0{{$}}
// CHECK-FLOATS-NEXT:   [6] 0{{$}}
// CHECK-FLOATS-NEXT:   [7] -inf{{$}}
// CHECK-FLOATS-NEXT: result #3: tensor<8xi64>
// CHECK-FLOATS-NEXT:   [0] 1{{$}}
// CHECK-FLOATS-NEXT:   [1] 6{{$}}
// CHECK-FLOATS-NEXT:   [2] 0{{$}}
// CHECK-FLOATS-NEXT:   [3] 2{{$}}
// CHECK-FLOATS-NEXT:   [4] 4{{$}}
// CHECK-FLOATS-NEXT:   [5] 3{{$}}
// CHECK-FLOATS-NEXT:   [6] 5{{$}}
// CHECK-FLOATS-NEXT:   [7] 7{{$}}
func.func @floats() -> (tensor<8xf32>, tensor<8xi64>, tensor<8xf32>, tensor<8xi64>) {
  %x = tp.constant dense<[3.0, 0x7FC00000, 1.0, -0.0, 1.0, 0.0, 0x7FC00000, 0xFF800000]> : tensor<8xf32>
  %a:2 = tp.sort %x {dim = 0 : i64} : tensor<8xf32> -> tensor<8xf32>, tensor<8xi64>
  %d:2 = tp.sort %x {dim = -1 : i64, descending = true} : tensor<8xf32> -> tensor<8xf32>, tensor<8xi64>
  return %a#0, %a#1, %d#0, %d#1 : tensor<8xf32>, tensor<8xi64>, tensor<8xf32>, tensor<8xi64>
}

// Along the first dim of [[2,1], [1, 1], [2, 0]], descending.
// CHECK-COLUMNS:      @columns
// CHECK-COLUMNS-NEXT: result #0: tensor<3x2xf64>
// CHECK-COLUMNS-NEXT:   [0,0] 2{{$}}
// CHECK-COLUMNS-NEXT:   [0,1] 1{{$}}
// CHECK-COLUMNS-NEXT:   [1,0] 2{{$}}
// CHECK-COLUMNS-NEXT:   [1,1] 1{{$}}
// CHECK-COLUMNS-NEXT:   [2,0] 1{{$}}
// CHECK-COLUMNS-NEXT:   [2,1] 0{{$}}
// CHECK-COLUMNS-NEXT: result #1: tensor<3x2xi64>
// CHECK-COLUMNS-NEXT:   [0,0] 0{{$}}
// CHECK-COLUMNS-NEXT:   [0,1] 0{{$}}
// CHECK-COLUMNS-NEXT:   [1,0] 2{{$}}
// CHECK-COLUMNS-NEXT:   [1,1] 1{{$}}
// CHECK-COLUMNS-NEXT:   [2,0] 1{{$}}
// CHECK-COLUMNS-NEXT:   [2,1] 2{{$}}
func.func @columns() -> (tensor<3x2xf64>, tensor<3x2xi64>) {
  %x = tp.constant dense<[[2.0, 1.0], [1.0, 1.0], [2.0, 0.0]]> : tensor<3x2xf64>
  %s:2 = tp.sort %x {dim = 0 : i64, descending = true} : tensor<3x2xf64> -> tensor<3x2xf64>, tensor<3x2xi64>
  return %s#0, %s#1 : tensor<3x2xf64>, tensor<3x2xi64>
}

// Integers (i32, compared as integers) and bools (false < true).
// CHECK-INTS:      @ints
// CHECK-INTS-NEXT: result #0: tensor<5xi32>
// CHECK-INTS-NEXT:   [0] -7{{$}}
// CHECK-INTS-NEXT:   [1] 2{{$}}
// CHECK-INTS-NEXT:   [2] 2{{$}}
// CHECK-INTS-NEXT:   [3] 2{{$}}
// CHECK-INTS-NEXT:   [4] 2147483647{{$}}
// CHECK-INTS-NEXT: result #1: tensor<5xi64>
// CHECK-INTS-NEXT:   [0] 3{{$}}
// CHECK-INTS-NEXT:   [1] 0{{$}}
// CHECK-INTS-NEXT:   [2] 2{{$}}
// CHECK-INTS-NEXT:   [3] 4{{$}}
// CHECK-INTS-NEXT:   [4] 1{{$}}
// CHECK-INTS-NEXT: result #2: tensor<4xi1>
// CHECK-INTS-NEXT:   [0] 1{{$}}
// CHECK-INTS-NEXT:   [1] 1{{$}}
// CHECK-INTS-NEXT:   [2] 0{{$}}
// CHECK-INTS-NEXT:   [3] 0{{$}}
// CHECK-INTS-NEXT: result #3: tensor<4xi64>
// CHECK-INTS-NEXT:   [0] 1{{$}}
// CHECK-INTS-NEXT:   [1] 2{{$}}
// CHECK-INTS-NEXT:   [2] 0{{$}}
// CHECK-INTS-NEXT:   [3] 3{{$}}
func.func @ints() -> (tensor<5xi32>, tensor<5xi64>, tensor<4xi1>, tensor<4xi64>) {
  %x = tp.constant dense<[2, 2147483647, 2, -7, 2]> : tensor<5xi32>
  %s:2 = tp.sort %x {dim = 0 : i64} : tensor<5xi32> -> tensor<5xi32>, tensor<5xi64>
  %b = tp.constant dense<[false, true, true, false]> : tensor<4xi1>
  %t:2 = tp.sort %b {dim = 0 : i64, descending = true} : tensor<4xi1> -> tensor<4xi1>, tensor<4xi64>
  return %s#0, %s#1, %t#0, %t#1 : tensor<5xi32>, tensor<5xi64>, tensor<4xi1>, tensor<4xi64>
}

// A 0-d tensor is its own sort, at index 0.
// CHECK-SCALAR:      @scalar
// CHECK-SCALAR-NEXT: result #0: tensor<f64>
// CHECK-SCALAR-NEXT:   [] 2.5{{$}}
// CHECK-SCALAR-NEXT: result #1: tensor<i64>
// CHECK-SCALAR-NEXT:   [] 0{{$}}
func.func @scalar() -> (tensor<f32>, tensor<i64>) {
  %x = tp.constant dense<2.5> : tensor<f32>
  %s:2 = tp.sort %x {dim = -1 : i64, descending = true} : tensor<f32> -> tensor<f32>, tensor<i64>
  return %s#0, %s#1 : tensor<f32>, tensor<i64>
}
