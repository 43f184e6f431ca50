// RUN: stax-opt --stax-gpu-device-buffers --split-input-file --verify-diagnostics %s | FileCheck %s

// The arena, the views into it and the copies of a target=cuda host
// function move to device memory; launches stay as they are.

// CHECK-LABEL: func.func @arena(
// CHECK-SAME: %[[X:.*]]: memref<64xf32>, %[[Y:.*]]: memref<64xf32>
// CHECK: %[[A:.*]] = gpu.alloc () : memref<256xi8>
// CHECK: %[[V:.*]] = memref.view %[[A]]
// CHECK: gpu.launch_func @m::@k {{.*}} args(%[[X]] : memref<64xf32>, %[[V]] : memref<64xf32>)
// CHECK: gpu.memcpy %[[Y]], %[[V]] : memref<64xf32>, memref<64xf32>
// CHECK: gpu.dealloc %[[A]] : memref<256xi8>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.dealloc
module attributes {gpu.container_module} {
  func.func @arena(%x: memref<64xf32>, %y: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
    %v = memref.view %a[%c0][] : memref<256xi8> to memref<64xf32>
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %v : memref<64xf32>)
    memref.copy %v, %y : memref<64xf32> to memref<64xf32>
    memref.dealloc %a : memref<256xi8>
    return
  }
  gpu.module @m {
    gpu.func @k(%a: memref<64xf32>, %b: memref<64xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A constant is copied into a device buffer, freed at every return.

// CHECK-LABEL: func.func @constant(
// CHECK: %[[G:.*]] = memref.get_global @c : memref<4xf32>
// CHECK: %[[D:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: gpu.memcpy %[[D]], %[[G]] : memref<4xf32>, memref<4xf32>
// CHECK: gpu.launch_func @m::@k {{.*}} args(%[[D]] : memref<4xf32>)
// CHECK: gpu.dealloc %[[D]] : memref<4xf32>
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  memref.global "private" constant @c : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  func.func @constant() {
    %c1 = arith.constant 1 : index
    %g = memref.get_global @c : memref<4xf32>
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%g : memref<4xf32>)
    return
  }
  gpu.module @m {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A host op that dereferences a buffer would read device memory on the host.
module attributes {gpu.container_module} {
  func.func @load(%x: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.load' in a target=cuda host function would access device memory on the host; only kernels may read or write buffers}}
    %v = memref.load %x[%c0] : memref<4xf32>
    return %v : f32
  }
}
