// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1" %s | FileCheck %s
// RUN: stax-opt --stax-pipeline="target=cuda" %s -o /dev/null
// RUN: stax-run --jit --random-inputs %s | FileCheck %s --check-prefix=JIT

// An intermediate with no elements (the gradient of an index_select over an
// empty dimension) is still a view of the arena; when every intermediate is
// empty the arena has no bytes of its own and one alignment unit stands in
// (it used to be missing: the view had no source and the pass failed
// without a diagnostic, the C API crashed).
// CHECK-LABEL: func.func @empty_scatter
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK: memref.view %[[A]][%{{.*}}][] : memref<64xi8> to memref<0xf32>
// JIT: @empty_scatter (compiled)
// JIT: result #0: tensor<5x0x10xf32>
// JIT-NEXT: []
func.func @empty_scatter(%index: tensor<0xi64>, %g: tensor<5x0x10xf32>) -> tensor<5x0x10xf32> {
  %0 = tp.full {value = 0.000000e+00 : f64} : tensor<5x0x10xf32>
  %1 = tp.index_put %0[%index], %g {accumulate = true, dims = array<i64: 1>} : (tensor<5x0x10xf32>, tensor<0xi64>, tensor<5x0x10xf32>) -> tensor<5x0x10xf32>
  return %1 : tensor<5x0x10xf32>
}
