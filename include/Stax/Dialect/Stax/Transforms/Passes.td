//===- Passes.td - scheduling passes on stax ------------------*- tablegen -*-===//
//
// Passes over lowered `stax` functions (Sections 6.5 and 6.8): kernel
// fusion, loop normalization, range analysis and split reductions.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_STAX_TRANSFORMS_PASSES_TD
#define STAX_DIALECT_STAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StaxFuse : Pass<"stax-fuse", "::mlir::func::FuncOp"> {
  let summary = "Group materialized nodes into kernels (stax.kernel)";
  let description = [{
    Kernel fusion (Section 6.5). Nodes that share leading (outer) loops
    (more than one iteration of them: loops of extent 1 share nothing) and
    whose dependences stay within one outer index are grouped into one
    `stax.kernel`: for every outer index the kernel runs its nodes in order,
    so a value one node computes is read by the next while it is still in
    registers or cache, instead of after a pass over memory. The plan
    (`FusionAnalysis` in `lib/Analysis/`) only fuses where it saves memory
    traffic, never across a dependence that needs a global barrier (a node
    reading another at a different outer index, an external call such as
    `tp.mm` in between) and never changes a value: a kernel computes exactly
    what its nodes compute one after the other. With `remarks` (the
    default) every decision is reported, fused or not, with the reason.

    Example: the row maximum and the subtraction that reads it share the
    row loop `[4]`.

    ```mlir
    func.func @f(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %0 = stax.reduction max [8] layout <[1, 1]> : tensor<4x1xf32> {
      ^bb0(%i0: index, %i1: index, %r0: index):
        %2 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %r0)
        %3 = stax.load %arg0[%2] : tensor<4x8xf32>
        stax.yield %3 : f32
      }
      %1 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
      ^bb0(%i0: index, %i1: index):
        %2 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
        %3 = stax.load %arg0[%2] : tensor<4x8xf32>
        %4 = stax.load %0[%i0] : tensor<4x1xf32>
        %5 = arith.subf %3, %4 : f32
        stax.yield %5 : f32
      }
      return %1 : tensor<4x8xf32>
    }
    ```

    becomes, after `--stax-fuse`:

    ```mlir
    func.func @f(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %0 = stax.kernel [4] : tensor<4x8xf32> {
        %1 = stax.reduction max [8] layout <[1, 1]> : tensor<4x1xf32> {
        ^bb0(%i0: index, %i1: index, %r0: index):
          %3 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %r0)
          %4 = stax.load %arg0[%3] : tensor<4x8xf32>
          stax.yield %4 : f32
        }
        %2 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
        ^bb0(%i0: index, %i1: index):
          %3 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
          %4 = stax.load %arg0[%3] : tensor<4x8xf32>
          %5 = stax.load %1[%i0] : tensor<4x1xf32>
          %6 = arith.subf %4, %5 : f32
          stax.yield %6 : f32
        }
        stax.yield %2 : tensor<4x8xf32>
      }
      return %0 : tensor<4x8xf32>
    }
    ```

    The remark says `fused 'stax.pointwise' into the kernel of
    'stax.reduction' (outer ranges [4])` with the bytes it saves.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for every fusion decision (default: true)">,
  ];
  let dependentDialects = ["::mlir::stax::StaxDialect"];
}

def StaxNormalizeLoops : Pass<"stax-normalize-loops", "::mlir::func::FuncOp"> {
  let summary = "Drop size-1 loops, split loops taken apart by floordiv/mod, order loops by stride, merge contiguous loops";
  let description = [{
    Loop normalization (Section 6.8, Proposition 6.3) on every node: loops
    of size 1 are dropped, the output loops are ordered by the strides of
    the accesses, and adjacent loops j, j+1 are merged into one when every
    access (every load in the body and the node's own store) has stride
    `a_j = s_{j+1} * a_{j+1}` (`s` the extent of loop j+1). No address
    changes, so the pass is bitwise exact: the node keeps its result type
    and records its new loops in `ranges` (`reduction_ranges` for the
    reduction loops), and the layout's strides follow the loops. Reduction
    loops are never reordered (that would change the order in which values
    are combined); dropping or merging them keeps the lexicographic order.
    Nodes inside a `stax.kernel` keep their outer loops, which the kernel's
    `outer_ranges` describe; a reduction's own loops are private to it and
    merge there too (a batch norm's `[N, H, W]` per channel of a
    channel-major product becomes one loop of `N * H * W`: with 7 x 7 maps
    the innermost loop was 7 and scalar). Fewer, longer loops give code generation a
    long contiguous innermost loop to vectorize.

    Before ordering and merging, `floordiv` and `mod` by constants that the
    loop extents decide are folded (`(32 * a + b) floordiv 32 = a` for
    `b < 32`), and a loop whose index the accesses take apart with
    `floordiv`/`mod` by divisors of its extent (a reshape merging dims that
    are not contiguous: im2col's operand, `x.t().reshape(-1)`) is split at
    those divisors, in the same order, when every access is then linear in
    the new loops.

    Example: a 4x8 row-major scaling is one loop of 32.

    ```mlir
    func.func @f(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %0 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
      ^bb0(%i0: index, %i1: index):
        %1 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
        %2 = stax.load %arg0[%1] : tensor<4x8xf32>
        %cst = arith.constant 2.000000e+00 : f32
        %3 = arith.mulf %2, %cst : f32
        stax.yield %3 : f32
      }
      return %0 : tensor<4x8xf32>
    }
    ```

    becomes, after `--stax-normalize-loops`:

    ```mlir
    func.func @f(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %0 = stax.pointwise ranges [32] layout <[1]> : tensor<4x8xf32> {
      ^bb0(%i0: index):
        %1 = affine.apply affine_map<(d0) -> (d0)>(%i0)
        %2 = stax.load %arg0[%1] : tensor<4x8xf32>
        %cst = arith.constant 2.000000e+00 : f32
        %3 = arith.mulf %2, %cst : f32
        stax.yield %3 : f32
      }
      return %0 : tensor<4x8xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::stax::StaxDialect",
                           "::mlir::affine::AffineDialect"];
}

def StaxRangeAnalysis : Pass<"stax-range-analysis", "::mlir::func::FuncOp"> {
  let summary = "Interval analysis of indices: drop proven checks, pick i32 indexing";
  let description = [{
    Range analysis of index arithmetic (Section 6.8, Definition 6.4). Loop
    indices range over `[0, s-1]`; the interval of every integer and index
    value of a node body follows from upstream's integer range analysis
    with the interval rules of `IndexRanges` (`lib/Analysis/`) for
    `affine.apply` and `stax.indirect_index`. With the intervals:

    - a `stax.indirect_index` drops `wrap_negative` when its value is never
      negative and `check_bounds` when it is always within `[0, size)`
      after the wrap; an index computed from loop indices alone becomes a
      direct (affine) read;
    - every node (and kernel) whose addresses all fit in 32 bits gets
      `stax.index_bitwidth = 32`, so code generation may compute them in
      `i32`; otherwise it gets 64.

    Example: an index masked to `[0, 127]` into a dimension of 128 needs
    neither the wrap nor the check.

    ```mlir
    func.func @f(%arg0: tensor<128xf32>, %arg1: tensor<4xi64>) -> tensor<4xf32> {
      %0 = stax.pointwise layout <[1]> : tensor<4xf32> {
      ^bb0(%i0: index):
        %1 = stax.load %arg1[%i0] : tensor<4xi64>
        %c127_i64 = arith.constant 127 : i64
        %2 = arith.andi %1, %c127_i64 : i64
        %3 = stax.indirect_index %2, 128 {check_bounds, wrap_negative} : i64
        %4 = stax.load %arg0[%3] : tensor<128xf32>
        stax.yield %4 : f32
      }
      return %0 : tensor<4xf32>
    }
    ```

    becomes, after `--stax-range-analysis`:

    ```mlir
    func.func @f(%arg0: tensor<128xf32>, %arg1: tensor<4xi64>) -> tensor<4xf32> {
      %0 = stax.pointwise layout <[1]> : tensor<4xf32> attributes {stax.index_bitwidth = 32 : i64} {
      ^bb0(%i0: index):
        %1 = stax.load %arg1[%i0] : tensor<4xi64>
        %c127_i64 = arith.constant 127 : i64
        %2 = arith.andi %1, %c127_i64 : i64
        %3 = stax.indirect_index %2, 128 : i64
        %4 = stax.load %arg0[%3] : tensor<128xf32>
        stax.yield %4 : f32
      }
      return %0 : tensor<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::stax::StaxDialect", "::mlir::arith::ArithDialect"];
}

def StaxSplitReductions : Pass<"stax-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split long reductions into two levels for GPUs (Algorithm 6.1)";
  let description = [{
    Split reductions (Section 6.5, Algorithm 6.1). A reduction with few
    outputs and a long reduction range leaves most of the machine idle: it
    is rewritten into a first reduction that computes `k` partial results
    per output over consecutive segments of the range, and a second one
    that combines the partials (`welford` becomes `welford` then
    `welford_combine`). The split factor `k` (`SplitFactor` in
    `lib/Analysis/`) comes from the device parameters for
    `target=cuda` (enough warps to fill `sm-count` multiprocessors of
    `threads-per-sm` threads); for `target=cpu` reductions with at most 3
    outputs split into 32 segments that the threads reduce in parallel,
    and a reduction over contiguous rows of fewer outputs than a 64-byte
    line (`x[N, C].sum(0)` for C < 16 f32) splits into
    R = line / gcd(line, C) interleaved rows (segment j sums rows j,
    j + R, ...), so that the partials `[R, C]` are whole lines that the
    vector code reads with full vectors. Reductions of at most
    `no-split-threshold` elements never split. When `k` does not divide the outermost reduction loop, the
    fewest leading reduction loops whose product has a divisor within
    `k / 2` of `k` are merged into one, split that many ways, and the inner
    loops stay (so accesses contiguous only along them, a broadcast
    operand or a gathered row, keep their vector code); without such a
    product all reduction loops are merged into one and the
    `n_r mod k` elements left after `k` equal segments are combined by the
    second level after the partials (a prime length splits too; Welford,
    whose second level combines triples, takes the largest divisor of the
    outer loop not above `k` instead). A column reduction on the GPU (reads
    contiguous along the last output index, strided along the reduction:
    `x[R, C].sum(0)`) has its own rule instead of Algorithm 6.1's row rule:
    it splits along the reduced rows into enough (output, segment) threads
    to fill the device, at least 32 rows a segment, with the segment index
    as the partials' outer dimension so that threads of consecutive
    columns still read consecutive addresses. Splitting reassociates the combination (class 2 numerics: not
    bitwise equal to the unsplit reduction for floating sums).

    Example: a sum over 65536 elements.

    ```mlir
    func.func @f(%arg0: tensor<65536xf32>) -> tensor<f32> {
      %0 = stax.reduction sum [65536] layout <[]> : tensor<f32> {
      ^bb0(%r0: index):
        %1 = stax.load %arg0[%r0] : tensor<65536xf32>
        stax.yield %1 : f32
      }
      return %0 : tensor<f32>
    }
    ```

    becomes, after `--stax-split-reductions=target=cpu`, 32 partial sums
    of 2048 elements and their sum (`target=cuda`, the default, makes 8 of
    8192):

    ```mlir
    func.func @f(%arg0: tensor<65536xf32>) -> tensor<f32> {
      %0 = stax.reduction sum [2048] layout <[1]> : tensor<32xf32> {
      ^bb0(%i0: index, %r0: index):
        %2 = affine.apply affine_map<(d0, d1) -> (d0 * 2048 + d1)>(%i0, %r0)
        %3 = stax.load %arg0[%2] : tensor<65536xf32>
        stax.yield %3 : f32
      }
      %1 = stax.reduction sum [32] layout <[]> : tensor<f32> {
      ^bb0(%r0: index):
        %2 = affine.apply affine_map<(d0) -> (d0)>(%r0)
        %3 = stax.load %0[%2] : tensor<32xf32>
        stax.yield %3 : f32
      }
      return %1 : tensor<f32>
    }
    ```
  }];
  let options = [
    Option<"target", "target", "::mlir::stax::Target",
           /*default=*/"::mlir::stax::Target::CUDA",
           "cpu (splits long reductions with at most 3 outputs into up to "
           "32 segments for the threads, and narrow column reductions into "
           "interleaved rows) or cuda (Algorithm 6.1) (default: cuda)",
           "::mlir::stax::targetOptionValues()">,
    Option<"smCount", "sm-count", "int64_t", /*default=*/"132",
           "Streaming multiprocessors S (H100/H200: 132) (default: 132)">,
    Option<"warpSize", "warp-size", "int64_t", /*default=*/"32",
           "Warp width w (default: 32)">,
    Option<"threadsPerSM", "threads-per-sm", "int64_t", /*default=*/"2048",
           "Resident threads per SM T (default: 2048)">,
    Option<"noSplitThreshold", "no-split-threshold", "int64_t",
           /*default=*/"8192",
           "Reductions of at most this many elements never split (default: 8192)">,
  ];
  let dependentDialects = ["::mlir::stax::StaxDialect",
                           "::mlir::affine::AffineDialect"];
}

#endif // STAX_DIALECT_STAX_TRANSFORMS_PASSES_TD
