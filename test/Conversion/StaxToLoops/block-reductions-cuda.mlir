// RUN: stax-opt --stax-lowering-pipeline="target=cuda" %s | stax-opt --stax-to-loops="target=cuda" | FileCheck %s
// RUN: stax-opt --stax-pipeline="target=cuda" %s | stax-translate --stax-to-ptx | FileCheck %s --check-prefix=PTX

// target=cuda: a reduction over contiguous elements, and a kernel whose
// nodes loop over inner ranges, run a block of threads per outer index
// (BlockThreads.h): thread t takes elements t, t + 256, ... (whole rounds
// of 256 in a loop of constant trip count, then the remainder); partial
// states meet through warp shuffles and one shared-memory slot per warp;
// thread 0 stores. Column sums and short rows keep a thread per output.

// One workgroup (shared-memory) global per state component and type.
// CHECK-DAG: memref.global "private" @__stax_warp_partials_0_f32 : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__stax_warp_partials_1_i64 : memref<32xi64, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @row_sum(
// CHECK: scf.parallel (%[[BLK:.*]]) = (%{{.*}}) to (%c16) step
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256) step
// CHECK: %[[PART:.*]] = scf.for %[[K:.*]] = %c0{{.*}} to %c16{{.*}} step %c1{{.*}} iter_args
// CHECK: affine.apply #{{.*}}(%[[K]], %[[T]])
// CHECK: gpu.shuffle  xor %[[PART]], %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor {{.*}}, %c1_i32, %c32_i32{{.*}} : f32
// CHECK: %[[SLOTS:.*]] = memref.get_global @__stax_warp_partials_0_f32
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[SLOTS]]
// CHECK: gpu.barrier
// The 8 warps' partials, combined in the same order by every thread.
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c8 step
// CHECK: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @row_sum(%x: tensor<16x4096xf32>) -> tensor<16xf32> {
  %0 = tp.sum %x {dims = array<i64: -1>} : tensor<16x4096xf32> -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// Neighbouring outputs read neighbouring elements: a thread per output.
// CHECK-LABEL: func.func @column_sum(
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @column_sum(%x: tensor<4096x512xf32>) -> tensor<512xf32> {
  %0 = tp.sum %x {dims = array<i64: 0>} : tensor<4096x512xf32> -> tensor<512xf32>
  return %0 : tensor<512xf32>
}

// Rows of 32: a thread per output.
// CHECK-LABEL: func.func @short_rows(
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @short_rows(%x: tensor<1024x32xf32>) -> tensor<1024xf32> {
  %0 = tp.sum %x {dims = array<i64: -1>} : tensor<1024x32xf32> -> tensor<1024xf32>
  return %0 : tensor<1024xf32>
}

// argmax: a thread's k-th element is t + 256 k; partials combine by value,
// then by the earlier position (the first NaN, else the first maximum).
// CHECK-LABEL: func.func @argmax(
// CHECK: scf.for
// Rows of 3000: 11 rounds, then threads 0-183 take one more.
// CHECK: %[[ST:.*]]:3 = scf.if
// CHECK: %[[T64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[SCALED:.*]] = arith.muli %[[ST]]#1, %c256_i64
// CHECK: %[[POS:.*]] = arith.addi %[[SCALED]], %[[T64]]
// CHECK: %[[V:.*]], %{{.*}} = gpu.shuffle  xor %[[ST]]#0, %c16_i32
// CHECK: %[[P:.*]], %{{.*}} = gpu.shuffle  xor %[[POS]], %c16_i32{{.*}} : i64
// CHECK: %[[EARLIER:.*]] = arith.cmpi slt, %[[P]], %[[POS]] : i64
// CHECK: arith.cmpf ogt, %[[V]], %[[ST]]#0 : f32
// CHECK: arith.select %{{.*}}, %[[P]], %[[POS]] : i64
// CHECK: memref.get_global @__stax_warp_partials_1_i64
func.func @argmax(%x: tensor<8x3000xf32>) -> tensor<8xi64> {
  %0 = tp.argmax %x {dim = 1 : i64} : tensor<8x3000xf32> -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// A softmax kernel: the row's max, then its sum, then the quotients, each
// shared by the block's threads, a barrier between nodes.
// CHECK-LABEL: func.func @softmax(
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4) step
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256) step
// Rows of 1000: three rounds of 256, then threads 0-231 take one more.
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1
// CHECK: arith.cmpf ogt
// CHECK: %[[TAIL:.*]] = arith.cmpi ult, %[[T]], %c232
// CHECK: scf.if %[[TAIL]] -> (f32) {
// CHECK: } else {
// CHECK: gpu.shuffle
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1
// CHECK: math.exp
// CHECK: gpu.shuffle
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: scf.if
// CHECK: math.exp
// CHECK: arith.divf
func.func @softmax(%x: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<4x1000xf32> -> tensor<4x1000xf32>
  return %0 : tensor<4x1000xf32>
}

// No rows: no block runs (the thread-per-output grid guards its thread).
// CHECK-LABEL: func.func @no_rows(
// CHECK-NOT: gpu.shuffle
// CHECK: arith.cmpi ult, %{{.*}}, %c0
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @no_rows(%x: tensor<0x1000xf32>) -> tensor<0x1000xf32> {
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<0x1000xf32> -> tensor<0x1000xf32>
  return %0 : tensor<0x1000xf32>
}

// Shared memory and shuffles reach the PTX; one copy of each global in the
// merged module.
// PTX: .shared .align 4 .b8 __stax_warp_partials_0_f32[128];
// PTX-NOT: .shared .align 4 .b8 __stax_warp_partials_0_f32
// Row sums of 4096: the 16 rounds unrolled, 16 loads before the shuffles.
// PTX-LABEL: .entry row_sum_kernel(
// PTX-COUNT-16: ld.global.b32
// PTX-NOT: ld.global
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX-LABEL: .entry column_sum_kernel(
