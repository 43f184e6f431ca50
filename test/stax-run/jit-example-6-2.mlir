// Example 6.2, (x * x).sum(-1) with x 64x16384.
//
// The scalar compiled code sums each row in the interpreter's order (class
// 1): bitwise equal, on threads or not.
// RUN: stax-run %s --random-inputs --print=hash | sed 1d > %t.interp
// RUN: FileCheck %s --check-prefix=CHECK-HASH --input-file=%t.interp
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.scalar-threads
// RUN: diff %t.interp %t.scalar-threads
//
// The default configuration keeps one partial sum per vector lane (the
// host's width) in each row, a reordered sum (class 2): it runs and gives
// the same values to the digits checked.
// A row sums 16384 squares of U[-1, 1) values: about 16384 / 3 = 5461,
// with a standard deviation near 38.
// RUN: stax-run %s --random-inputs --jit | FileCheck %s --check-prefix=CHECK-VEC
// RUN: stax-run %s --random-inputs --jit --num-threads=2 | FileCheck %s --check-prefix=CHECK-VEC
// RUN: stax-run %s --random-inputs | FileCheck %s --check-prefix=CHECK-VEC
// RUN: stax-run %s --random-inputs --jit --print-values | FileCheck %s --check-prefix=CHECK-VALUES
// RUN: stax-run %s --random-inputs --print-values | FileCheck %s --check-prefix=CHECK-VALUES

// CHECK-HASH: result #0: tensor<64xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-HASH-NOT: result
// CHECK-VEC: @f
// float64 reference: min 5373.78365, max 5542.85094, mean 5453.75653; rows
// 0, 1, 62 and 63: 5467.53088, 5436.8824, 5470.49116, 5475.77198. The
// sequential f32 sum is off by up to about 0.03 here, so 4 or 5 digits.
// CHECK-VEC-NEXT: result #0: tensor<64xf32> min=5373.{{[0-9]+}} max=5542.{{[0-9]+}} mean=5453.7{{[0-9]*}}
// CHECK-VALUES: result #0: tensor<64xf32>
// CHECK-VALUES-NEXT: [5467.5{{[0-9]*}}, 5436.8{{[0-9]*}}, {{.*}}, 5470.{{[0-9]+}}, 5475.7{{[0-9]*}}]
func.func @f(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %0 = tp.mul %x, %x : tensor<64x16384xf32>, tensor<64x16384xf32> -> tensor<64x16384xf32>
  %1 = tp.sum %0 {dims = array<i64: -1>} : tensor<64x16384xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
