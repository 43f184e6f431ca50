// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | FileCheck %s --check-prefix=CHECK-IR
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-REMARK
// RUN: stax-opt %s --stax-decompose --stax-lower | stax-run - --random-inputs --entry=transposed --print=hash > %t.lowered
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | stax-run - --random-inputs --entry=transposed --print=hash > %t.fused
// RUN: diff %t.lowered %t.fused
// RUN: stax-opt %s --stax-decompose --stax-lower | stax-run - --random-inputs --entry=through_mm --print=hash > %t.mm.lowered
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | stax-run - --random-inputs --entry=through_mm --print=hash > %t.mm.fused
// RUN: diff %t.mm.lowered %t.mm.fused
// RUN: stax-opt %s --stax-decompose --stax-lower | stax-run - --random-inputs --entry=through_a_kernel_around_an_external --print=hash > %t.k.lowered
// RUN: stax-opt %s --stax-decompose --stax-lower --stax-fuse=remarks=false | stax-run - --random-inputs --entry=through_a_kernel_around_an_external --print=hash > %t.k.fused
// RUN: diff %t.k.lowered %t.k.fused

// Dependences that need a global barrier are never fused.

// The division reads the row sums transposed: element (i, j) needs the sum
// of row j, computed at another outer index.
// CHECK-IR-LABEL: func.func @transposed
// CHECK-IR-NOT: stax.kernel
// CHECK-IR: return
// CHECK-REMARK: remark: not fused with 'stax.reduction': 'stax.pointwise' reads 'stax.reduction' at another outer index
func.func @transposed(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = tp.sum %x {dims = array<i64: 1>, keepdim = true} : tensor<4x4xf32> -> tensor<4x1xf32>
  %t = tp.t %s : tensor<4x1xf32> -> tensor<1x4xf32>
  %y = tp.div %x, %t : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// Softmax over columns: the column max and sum are read at i1, which is not
// an outer (leading) loop of the readers.
// CHECK-IR-LABEL: func.func @columns
// CHECK-IR-NOT: stax.kernel
// CHECK-IR: return
// CHECK-REMARK: remark: not fused with 'stax.reduction': no shared outer loop
// CHECK-REMARK: remark: not fused with 'stax.pointwise': a dependence through 'stax.reduction' needs a global barrier
func.func @columns(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._softmax %x {dim = 0 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// The row max feeds the shifted input of a matmul (an external call) and the
// division of the matmul's result: max and shift fuse, the division cannot
// join them, since the matmul between needs all rows first.
// CHECK-IR-LABEL: func.func @through_mm
// CHECK-IR-NEXT: %[[K:.*]]:2 = stax.kernel [4] : tensor<4x1xf32>, tensor<4x8xf32> {
// CHECK-IR:      %[[MM:.*]] = tp.mm %[[K]]#1
// CHECK-IR-NEXT: stax.pointwise
// CHECK-IR-NOT: stax.kernel
// CHECK-IR: return
// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [4]): saves 144 bytes
// CHECK-REMARK: remark: not fused with 'stax.reduction': a dependence through 'tp.mm' needs a global barrier
func.func @through_mm(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = tp.amax %x {dims = array<i64: 1>, keepdim = true} : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = tp.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %p = tp.mm %d, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = tp.div %p, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// A kernel's members need not be adjacent in the block: once the two row
// sums of %z have fused (siblings), that kernel has a member before %t and
// one after the matmul. Fusing %f with its reader %t would then close the
// cycle %f -> tp.mm -> kernel -> %t: the exp stays alone and %t joins the
// sums' kernel instead. (The path search used to stop at ops after %t's
// last member, did not see tp.mm, and failed with a cyclic dependence.)
// CHECK-IR-LABEL: func.func @through_a_kernel_around_an_external
// CHECK-IR:      stax.pointwise
// CHECK-IR-NEXT: ^bb0
// CHECK-IR:      tp.mm
// CHECK-IR-NEXT: stax.kernel [4] : tensor<4x8xf32>, tensor<4x1x1xf32> {
// CHECK-IR-NOT:  stax.kernel
// CHECK-IR:      return
// CHECK-REMARK: remark: fused 'stax.reduction' into the kernel of 'stax.reduction' (outer ranges [4]): saves 1024 bytes
// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.reduction' (outer ranges [4]): saves 32 bytes
// CHECK-REMARK: remark: not fused with 'stax.pointwise': a dependence through 'tp.mm' needs a global barrier
func.func @through_a_kernel_around_an_external(%x: tensor<4x8xf32>, %z: tensor<4x8x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x1x1xf32>) {
  %f = tp.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %m1 = tp.sum %z {dims = array<i64: 1, 2>, keepdim = false} : tensor<4x8x8xf32> -> tensor<4xf32>
  %m1r = tp.unsqueeze %m1 {dim = 1 : i64} : tensor<4xf32> -> tensor<4x1xf32>
  %t = tp.add %f, %m1r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %p = tp.mm %f, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %pu = tp.unsqueeze %p {dim = 2 : i64} : tensor<4x8xf32> -> tensor<4x8x1xf32>
  %zp = tp.mul %z, %pu : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
  %m2 = tp.sum %zp {dims = array<i64: 1, 2>, keepdim = true} : tensor<4x8x8xf32> -> tensor<4x1x1xf32>
  return %t, %m2 : tensor<4x8xf32>, tensor<4x1x1xf32>
}

// Loops of one iteration are not shared loops: a kernel over only them
// (here the unit batch) would run each node whole before the next, with
// no value kept in cache and no thread for the nodes' own loops. exp and
// its elementwise reader fuse over all three loops; the transposed reader
// stays out.
// CHECK-IR-LABEL: func.func @unit_outer_loop
// CHECK-IR-NEXT: %[[K:.*]]:2 = stax.kernel [1, 512, 1024] : tensor<1x512x1024xf32>, tensor<1x512x1024xf32> {
// CHECK-IR-COUNT-2: stax.pointwise layout <[524288, 1024, 1]>
// CHECK-IR: stax.pointwise layout <[524288, 512, 1]> : tensor<1x1024x512xf32>
// CHECK-IR-NOT: stax.kernel
// CHECK-IR: return
// CHECK-REMARK: remark: fused 'stax.pointwise' into the kernel of 'stax.pointwise' (outer ranges [1, 512, 1024]): saves 2097152 bytes
// CHECK-REMARK: remark: not fused with 'stax.pointwise': no shared outer loop of more than one iteration
func.func @unit_outer_loop(%x: tensor<1x512x1024xf32>) -> (tensor<1x1024x512xf32>, tensor<1x512x1024xf32>) {
  %e = tp.exp %x : tensor<1x512x1024xf32> -> tensor<1x512x1024xf32>
  %t = tp.transpose %e {dim0 = 1 : i64, dim1 = 2 : i64} : tensor<1x512x1024xf32> -> tensor<1x1024x512xf32>
  %a = tp.add.Scalar %t {other = 1.0 : f64} : tensor<1x1024x512xf32> -> tensor<1x1024x512xf32>
  %b = tp.mul.Scalar %e {other = 2.0 : f64} : tensor<1x512x1024xf32> -> tensor<1x512x1024xf32>
  return %a, %b : tensor<1x1024x512xf32>, tensor<1x512x1024xf32>
}
