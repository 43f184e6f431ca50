// RUN: not stax-run %s --entry=expand_over_limit --random-inputs 2>&1 | FileCheck %s --check-prefix=CHECK-LIMIT
// RUN: not stax-run %s --entry=expand_overflow --random-inputs 2>&1 | FileCheck %s --check-prefix=CHECK-OVERFLOW
// RUN: not stax-run %s --entry=big_argument --random-inputs 2>&1 | FileCheck %s --check-prefix=CHECK-BIGARG
// RUN: not stax-run %s --entry=big_argument --input=%s 2>&1 | FileCheck %s --check-prefix=CHECK-BIGARG
// RUN: not stax-run %s --entry=small --random-inputs --max-bytes=64 2>&1 | FileCheck %s --check-prefix=CHECK-SMALL
// RUN: stax-run %s --entry=small --random-inputs --max-bytes=128 | FileCheck %s --check-prefix=CHECK-FITS
// RUN: not stax-run %s --entry=kernel_node --max-bytes=64 2>&1 | FileCheck %s --check-prefix=CHECK-NODE
// RUN: stax-run %s --entry=kernel_node --max-bytes=128 | FileCheck %s --check-prefix=CHECK-NODE-FITS
// RUN: not stax-run %s --entry=small --random-inputs --max-bytes=0 2>&1 | FileCheck %s --check-prefix=CHECK-ZERO

// Tensors the interpreter cannot allocate are one-line errors that name the op
// (or the argument) and the size, before anything is allocated: never an
// `LLVM ERROR: out of memory` or a std::length_error abort. The interpreter
// stores 8 bytes per element; no tensor may need more than --max-bytes
// (default 16 GiB), and no byte count may overflow int64.

// 2^40 elements: 2^43 bytes, over the default limit of 16 GiB.
// CHECK-LIMIT: allocation.mlir:[[@LINE+2]]:8: error: 'tp.expand' op result #0 of type 'tensor<1048576x1048576xf32>' needs 2^43 bytes (2^40 elements at 8 bytes each), over the interpreter's per-tensor limit of 2^34 bytes (16 GiB, stax-run --max-bytes)
func.func @expand_over_limit(%x: tensor<1x1xf32>) -> tensor<1048576x1048576xf32> {
  %0 = tp.expand %x {size = array<i64: 1048576, 1048576>} : tensor<1x1xf32> -> tensor<1048576x1048576xf32>
  return %0 : tensor<1048576x1048576xf32>
}

// 2^31 x 2^31 bytes are a valid i8 type (2^62 bytes), but 2^65 bytes of
// interpreter storage: the byte count overflows int64.
// CHECK-OVERFLOW: allocation.mlir:[[@LINE+2]]:8: error: 'tp.expand' op result #0 of type 'tensor<2147483648x2147483648xi8>' needs 2^65 bytes (2^62 elements at 8 bytes each), more than an int64 byte count holds
func.func @expand_overflow(%x: tensor<1x1xi8>) -> tensor<2147483648x2147483648xi8> {
  %0 = tp.expand %x {size = array<i64: 2147483648, 2147483648>} : tensor<1x1xi8> -> tensor<2147483648x2147483648xi8>
  return %0 : tensor<2147483648x2147483648xi8>
}

// A 2^40-element argument is refused before it is generated or read.
// CHECK-BIGARG: stax-run: argument #0 (tensor<1099511627776xf32>) needs 2^43 bytes (2^40 elements at 8 bytes each), over the interpreter's per-tensor limit of 2^34 bytes (16 GiB, stax-run --max-bytes)
// CHECK-BIGARG-NOT: LLVM ERROR
func.func @big_argument(%x: tensor<1099511627776xf32>) -> tensor<1099511627776xf32> {
  return %x : tensor<1099511627776xf32>
}

// --max-bytes is the limit: 4x4 elements need 128 bytes.
// CHECK-SMALL: allocation.mlir:[[@LINE+4]]:8: error: 'tp.expand' op result #0 of type 'tensor<4x4xf32>' needs 128 bytes (16 elements at 8 bytes each), over the interpreter's per-tensor limit of 64 bytes (stax-run --max-bytes)
// CHECK-FITS: result #0: tensor<4x4xf32>
// CHECK-ZERO: stax-run: --max-bytes must be at least 1
func.func @small(%x: tensor<4xf32>) -> tensor<4x4xf32> {
  %0 = tp.expand %x {size = array<i64: 4, 4>} : tensor<4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// The nodes of a stax.kernel are checked too: the kernel's result needs 32
// bytes, the pointwise node inside it 128.
// CHECK-NODE: allocation.mlir:[[@LINE+5]]:10: error: 'stax.pointwise' op result #0 of type 'tensor<4x4xf32>' needs 128 bytes (16 elements at 8 bytes each), over the interpreter's per-tensor limit of 64 bytes (stax-run --max-bytes)
// CHECK-NODE-FITS: result #0: tensor<4xf32>
// CHECK-NODE-FITS-NEXT: [6, 22, 38, 54]
func.func @kernel_node() -> tensor<4xf32> {
  %k = stax.kernel [4] : tensor<4xf32> {
    %p = stax.pointwise layout <[4, 1]> : tensor<4x4xf32> {
    ^bb0(%i: index, %j: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %j)
      %v = arith.index_cast %a : index to i64
      %f = arith.sitofp %v : i64 to f32
      stax.yield %f : f32
    }
    %s = stax.reduction sum [4] layout <[1]> : tensor<4xf32> {
    ^bb0(%i: index, %r: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %r)
      %v = stax.load %p[%a] : tensor<4x4xf32>
      stax.yield %v : f32
    }
    stax.yield %s : tensor<4xf32>
  }
  return %k : tensor<4xf32>
}
