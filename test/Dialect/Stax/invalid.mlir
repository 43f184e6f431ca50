// RUN: stax-opt %s -split-input-file -verify-diagnostics

func.func @layout_rank(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stax.pointwise' op layout has 1 strides but the buffer has rank 2}}
  %p = stax.pointwise layout <[1]> : tensor<4x3xf32> {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %p : tensor<4x3xf32>
}

// -----

func.func @negative_stride() -> tensor<4xf32> {
  // expected-error @+1 {{'stax.pointwise' op layout strides and offset must be non-negative}}
  %p = stax.pointwise layout <[-1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %p : tensor<4xf32>
}

// -----

func.func @index_count() -> tensor<4xf32> {
  // expected-error @+1 {{'stax.pointwise' op body must take 1 index arguments, got 2}}
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %p : tensor<4xf32>
}

// -----

func.func @yield_type() -> tensor<4xf32> {
  // expected-error @+1 {{'stax.pointwise' op body must yield ('f32') but yields ('f64')}}
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f64
    stax.yield %c : f64
  }
  return %p : tensor<4xf32>
}

// -----

func.func @argmax_type(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stax.reduction' op 'argmax' produces i64 positions, not 'f32'}}
  %r = stax.reduction argmax [3] layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index, %k: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %r : tensor<4xf32>
}

// -----

func.func @welford_results() -> tensor<4xf32> {
  // expected-error @+1 {{'stax.reduction' op 'welford' has 3 result(s), got 1}}
  %r = stax.reduction welford [3] layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index, %k: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %r : tensor<4xf32>
}

// -----

func.func @combine_type() -> tensor<4xi32> {
  // expected-error @+1 {{'stax.reduction' op combines 'f32' values but stores 'i32'}}
  %r = stax.reduction sum [3] layout <[1]> : tensor<4xi32> {
  ^bb0(%i: index, %k: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %r : tensor<4xi32>
}

// -----

func.func @kind() -> tensor<4xf32> {
  // expected-error @+1 {{unknown reduction kind 'mean'}}
  %r = stax.reduction mean [3] layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index, %k: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %r : tensor<4xf32>
}

// -----

func.func @scatter_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stax.scatter' op body must yield ('index', 'f32') but yields ('f32')}}
  %s = stax.scatter overwrite %x [2] layout <[1]> : tensor<4xf32> {
  ^bb0(%k: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %s : tensor<4xf32>
}

// -----

func.func @indirect_size(%v: i64) -> index {
  // expected-error @+1 {{'stax.indirect_index' op size must be non-negative, got -3}}
  %i = stax.indirect_index %v, -3 : i64
  return %i : index
}

// -----

func.func @yield_parent(%v: f32) {
  // expected-error @+1 {{'stax.yield' op expects parent op to be one of 'stax.pointwise, stax.reduction, stax.scatter, stax.kernel'}}
  stax.yield %v : f32
}

// -----

func.func @ranges_count() -> tensor<4x3xf32> {
  // expected-error @+1 {{'stax.pointwise' op ranges cover 10 elements but the result has 12}}
  %p = stax.pointwise ranges [10] layout <[1]> : tensor<4x3xf32> {
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %p : tensor<4x3xf32>
}

// -----

func.func @combine_yields() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'stax.reduction' op body must yield 3 value(s)}}
  %r:3 = stax.reduction welford_combine [2] layout <[1]> : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> {
  ^bb0(%i: index, %k: index):
    %c = arith.constant 0.0 : f32
    stax.yield %c : f32
  }
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @kernel_content(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stax.kernel' op may only contain stax nodes, found 'arith.constant'}}
  %k = stax.kernel [4] : tensor<4xf32> {
    %c = arith.constant 0.0 : f32
    stax.yield %x : tensor<4xf32>
  }
  return %k : tensor<4xf32>
}

// -----

func.func @bad_bitwidth(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'stax.index_bitwidth' must be 32 or 64 (i64)}}
  %r = "stax.pointwise"() <{layout = #stax.layout<[1]>}> ({
  ^bb0(%i: index):
    %v = stax.load %x[%i] : tensor<4xf32>
    stax.yield %v : f32
  }) {stax.index_bitwidth = 16 : i64} : () -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{attribute 'stax.index_bitwidth' is only valid on a stax node or kernel}}
func.func @bitwidth_on_func(%x: tensor<4xf32>) -> tensor<4xf32> attributes {stax.index_bitwidth = 32 : i64} {
  return %x : tensor<4xf32>
}

// -----

// An overlapping layout would store two elements at one address (the 4x4
// result came back with unwritten zeros).
func.func @overlapping_layout(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stax.pointwise' op layout #stax.layout<[1, 1]> stores two elements of the 2-d range [4, 4] at one address; a node's layout must be injective}}
  %r = stax.pointwise layout <[1, 1]> : tensor<4x4xf32> {
  ^bb0(%i: index, %j: index):
    %v = stax.load %x[%i] : tensor<4x4xf32>
    stax.yield %v : f32
  }
  return %r : tensor<4x4xf32>
}

// -----

// A broadcast-like zero stride overlaps too.
func.func @zero_stride_layout(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{stores two elements of the 2-d range [4, 4] at one address}}
  %r = stax.pointwise layout <[4, 0]> : tensor<4x4xf32> {
  ^bb0(%i: index, %j: index):
    %v = stax.load %x[%i] : tensor<4x4xf32>
    stax.yield %v : f32
  }
  return %r : tensor<4x4xf32>
}

// -----

// Bodies compute on signless values: a ui8 element is an i16.
func.func @unsigned_yield(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{'stax.pointwise' op body must yield ('i16') but yields ('i8')}}
  %p = stax.pointwise layout <[1]> : tensor<4xui8> {
  ^bb0(%i: index):
    %c = arith.constant 1 : i8
    stax.yield %c : i8
  }
  return %p : tensor<4xui8>
}

// -----

func.func @unsigned_load(%x: tensor<4xui8>) -> tensor<4xi8> {
  %p = stax.pointwise layout <[1]> : tensor<4xi8> {
  ^bb0(%i: index):
    // expected-error @+1 {{'stax.load' op failed to verify that the value has the scalar type of the buffer's elements}}
    %v = "stax.load"(%x, %i) : (tensor<4xui8>, index) -> i8
    stax.yield %v : i8
  }
  return %p : tensor<4xi8>
}

// -----

// A body that does not end with stax.yield (found by the fuzzer: the
// verifier used to cast the last op to stax.yield, which asserts).
func.func @pointwise_without_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stax.pointwise' op body must end with 'stax.yield'}}
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %v64 = arith.index_cast %i : index to i64
    %j = stax.indirect_index %v64, 4 {check_bounds} : i64
  }
  return %p : tensor<4xf32>
}

// -----

func.func @reduction_without_yield(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'stax.reduction' op body must end with 'stax.yield'}}
  %r = stax.reduction sum [4] layout <[]> : tensor<f32> {
  ^bb0(%r0: index):
    %v = stax.load %x[%r0] : tensor<4xf32>
  }
  return %r : tensor<f32>
}

// -----

// The kernel's parser adds the implicit (empty) terminator.
func.func @kernel_without_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stax.kernel' op yields values whose types differ from its results}}
  %k = stax.kernel [4] : tensor<4xf32> {
    %p = stax.pointwise layout <[1]> : tensor<4xf32> {
    ^bb0(%i: index):
      %v = stax.load %x[%i] : tensor<4xf32>
      stax.yield %v : f32
    }
  }
  return %x : tensor<4xf32>
}

// -----

// Code generation runs every node of a kernel inside the kernel's loops, so
// they must be each node's leading loops.
func.func @kernel_outer_ranges_not_leading(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stax.kernel' op outer ranges [5] are not the leading loops of every node}}
  %k = stax.kernel [5] : tensor<4x8xf32> {
    // expected-note @+1 {{this node's loops are [4, 8]}}
    %p = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
    ^bb0(%i: index, %j: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i, %j)
      %v = stax.load %x[%a] : tensor<4x8xf32>
      stax.yield %v : f32
    }
    stax.yield %p : tensor<4x8xf32>
  }
  return %k : tensor<4x8xf32>
}

// -----

func.func @kernel_more_outer_loops_than_node(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stax.kernel' op outer ranges [4, 1] are not the leading loops of every node}}
  %k = stax.kernel [4, 1] : tensor<4xf32> {
    // expected-note @+1 {{this node's loops are [4]}}
    %p = stax.pointwise layout <[1]> : tensor<4xf32> {
    ^bb0(%i: index):
      %v = stax.load %x[%i] : tensor<4xf32>
      stax.yield %v : f32
    }
    stax.yield %p : tensor<4xf32>
  }
  return %k : tensor<4xf32>
}

// -----

func.func @kernel_negative_outer_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stax.kernel' op outer ranges must be non-negative}}
  %k = stax.kernel [-4] : tensor<4xf32> {
    %p = stax.pointwise layout <[1]> : tensor<4xf32> {
    ^bb0(%i: index):
      %v = stax.load %x[%i] : tensor<4xf32>
      stax.yield %v : f32
    }
    stax.yield %p : tensor<4xf32>
  }
  return %k : tensor<4xf32>
}
