// RUN: stax-run %s --entry=floats --print=exact | FileCheck %s --check-prefix=FLOATS
// RUN: stax-run %s --entry=floats --print=exact --f64 | FileCheck %s --check-prefix=FLOATS
// RUN: stax-run %s --entry=columns --print=exact | FileCheck %s --check-prefix=COLUMNS
// RUN: stax-run %s --entry=ints --print=exact | FileCheck %s --check-prefix=INTS
// RUN: stax-run %s --entry=scalar --print=exact --f64 | FileCheck %s --check-prefix=SCALAR

// tp.sort in the reference interpreter, plain and in float64: a stable
// sort (ties keep their order both ways), NaN larger than every number,
// -0.0 equal to 0.0. The expected values are torch.sort(x, stable=True)'s
// in PyTorch 1.13.

// x = [3, nan, 1, -0.0, 1, 0.0, nan, -inf]
// FLOATS:      @floats
// FLOATS-NEXT: result #0: tensor<8xf{{32|64}}>
// FLOATS-NEXT:   [0] -inf{{$}}
// FLOATS-NEXT:   [1] -0{{$}}
// FLOATS-NEXT:   [2] 0{{$}}
// FLOATS-NEXT:   [3] 1{{$}}
// FLOATS-NEXT:   [4] 1{{$}}
// FLOATS-NEXT:   [5] 3{{$}}
// FLOATS-NEXT:   [6] nan{{$}}
// FLOATS-NEXT:   [7] nan{{$}}
// FLOATS-NEXT: result #1: tensor<8xi64>
// FLOATS-NEXT:   [0] 7{{$}}
// FLOATS-NEXT:   [1] 3{{$}}
// FLOATS-NEXT:   [2] 5{{$}}
// FLOATS-NEXT:   [3] 2{{$}}
// FLOATS-NEXT:   [4] 4{{$}}
// FLOATS-NEXT:   [5] 0{{$}}
// FLOATS-NEXT:   [6] 1{{$}}
// FLOATS-NEXT:   [7] 6{{$}}
// FLOATS-NEXT: result #2: tensor<8xf{{32|64}}>
// FLOATS-NEXT:   [0] nan{{$}}
// FLOATS-NEXT:   [1] nan{{$}}
// FLOATS-NEXT:   [2] 3{{$}}
// FLOATS-NEXT:   [3] 1{{$}}
// FLOATS-NEXT:   [4] 1{{$}}
// FLOATS-NEXT:   [5] -0{{$}}
// FLOATS-NEXT:   [6] 0{{$}}
// FLOATS-NEXT:   [7] -inf{{$}}
// FLOATS-NEXT: result #3: tensor<8xi64>
// FLOATS-NEXT:   [0] 1{{$}}
// FLOATS-NEXT:   [1] 6{{$}}
// FLOATS-NEXT:   [2] 0{{$}}
// FLOATS-NEXT:   [3] 2{{$}}
// FLOATS-NEXT:   [4] 4{{$}}
// FLOATS-NEXT:   [5] 3{{$}}
// FLOATS-NEXT:   [6] 5{{$}}
// FLOATS-NEXT:   [7] 7{{$}}
func.func @floats() -> (tensor<8xf32>, tensor<8xi64>, tensor<8xf32>, tensor<8xi64>) {
  %x = tp.constant dense<[3.0, 0x7FC00000, 1.0, -0.0, 1.0, 0.0, 0x7FC00000, 0xFF800000]> : tensor<8xf32>
  %a:2 = tp.sort %x {dim = 0 : i64} : tensor<8xf32> -> tensor<8xf32>, tensor<8xi64>
  %d:2 = tp.sort %x {dim = -1 : i64, descending = true} : tensor<8xf32> -> tensor<8xf32>, tensor<8xi64>
  return %a#0, %a#1, %d#0, %d#1 : tensor<8xf32>, tensor<8xi64>, tensor<8xf32>, tensor<8xi64>
}

// Along the first dim of [[2,1], [1, 1], [2, 0]], descending.
// COLUMNS:      @columns
// COLUMNS-NEXT: result #0: tensor<3x2xf64>
// COLUMNS-NEXT:   [0,0] 2{{$}}
// COLUMNS-NEXT:   [0,1] 1{{$}}
// COLUMNS-NEXT:   [1,0] 2{{$}}
// COLUMNS-NEXT:   [1,1] 1{{$}}
// COLUMNS-NEXT:   [2,0] 1{{$}}
// COLUMNS-NEXT:   [2,1] 0{{$}}
// COLUMNS-NEXT: result #1: tensor<3x2xi64>
// COLUMNS-NEXT:   [0,0] 0{{$}}
// COLUMNS-NEXT:   [0,1] 0{{$}}
// COLUMNS-NEXT:   [1,0] 2{{$}}
// COLUMNS-NEXT:   [1,1] 1{{$}}
// COLUMNS-NEXT:   [2,0] 1{{$}}
// COLUMNS-NEXT:   [2,1] 2{{$}}
func.func @columns() -> (tensor<3x2xf64>, tensor<3x2xi64>) {
  %x = tp.constant dense<[[2.0, 1.0], [1.0, 1.0], [2.0, 0.0]]> : tensor<3x2xf64>
  %s:2 = tp.sort %x {dim = 0 : i64, descending = true} : tensor<3x2xf64> -> tensor<3x2xf64>, tensor<3x2xi64>
  return %s#0, %s#1 : tensor<3x2xf64>, tensor<3x2xi64>
}

// Integers (i32, compared as integers) and bools (false < true).
// INTS:      @ints
// INTS-NEXT: result #0: tensor<5xi32>
// INTS-NEXT:   [0] -7{{$}}
// INTS-NEXT:   [1] 2{{$}}
// INTS-NEXT:   [2] 2{{$}}
// INTS-NEXT:   [3] 2{{$}}
// INTS-NEXT:   [4] 2147483647{{$}}
// INTS-NEXT: result #1: tensor<5xi64>
// INTS-NEXT:   [0] 3{{$}}
// INTS-NEXT:   [1] 0{{$}}
// INTS-NEXT:   [2] 2{{$}}
// INTS-NEXT:   [3] 4{{$}}
// INTS-NEXT:   [4] 1{{$}}
// INTS-NEXT: result #2: tensor<4xi1>
// INTS-NEXT:   [0] 1{{$}}
// INTS-NEXT:   [1] 1{{$}}
// INTS-NEXT:   [2] 0{{$}}
// INTS-NEXT:   [3] 0{{$}}
// INTS-NEXT: result #3: tensor<4xi64>
// INTS-NEXT:   [0] 1{{$}}
// INTS-NEXT:   [1] 2{{$}}
// INTS-NEXT:   [2] 0{{$}}
// INTS-NEXT:   [3] 3{{$}}
func.func @ints() -> (tensor<5xi32>, tensor<5xi64>, tensor<4xi1>, tensor<4xi64>) {
  %x = tp.constant dense<[2, 2147483647, 2, -7, 2]> : tensor<5xi32>
  %s:2 = tp.sort %x {dim = 0 : i64} : tensor<5xi32> -> tensor<5xi32>, tensor<5xi64>
  %b = tp.constant dense<[false, true, true, false]> : tensor<4xi1>
  %t:2 = tp.sort %b {dim = 0 : i64, descending = true} : tensor<4xi1> -> tensor<4xi1>, tensor<4xi64>
  return %s#0, %s#1, %t#0, %t#1 : tensor<5xi32>, tensor<5xi64>, tensor<4xi1>, tensor<4xi64>
}

// A 0-d tensor is its own sort, at index 0.
// SCALAR:      @scalar
// SCALAR-NEXT: result #0: tensor<f64>
// SCALAR-NEXT:   [] 2.5{{$}}
// SCALAR-NEXT: result #1: tensor<i64>
// SCALAR-NEXT:   [] 0{{$}}
func.func @scalar() -> (tensor<f32>, tensor<i64>) {
  %x = tp.constant dense<2.5> : tensor<f32>
  %s:2 = tp.sort %x {dim = -1 : i64, descending = true} : tensor<f32> -> tensor<f32>, tensor<i64>
  return %s#0, %s#1 : tensor<f32>, tensor<i64>
}
