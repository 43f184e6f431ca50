//===- Passes.td - conversion passes of Stax -----------------*- tablegen -*-===//
#ifndef STAX_CONVERSION_PASSES_TD
#define STAX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def StaxLower : Pass<"stax-lower", "::mlir::func::FuncOp"> {
  let summary = "Lower tp functions to stax nodes (fusion by composition)";
  let description = [{
    The graph interpreter of the spec's Section 6.1. Each `tp` op of a
    function, in order, calls its lowering rule, which returns a *loader*
    (a function from indices to a scalar, Definition 6.1) rather than a
    buffer: pointwise ops compose their loaders (Property 6.1), views
    transform indices (Proposition 6.2), reductions build `stax.reduction`
    nodes. A value becomes a buffer (a `stax.pointwise` node) only when it is
    *materialized*: function results, operands of ops that stay `tp`
    (external calls such as `tp.mm` and `tp.sort`, and fallbacks), and
    values with several users that the thresholds of Section 6.6 send to
    memory for the chosen `target` (the `Materialization` model in
    `lib/Analysis/`). An intermediate buffer's layout
    follows the strides with which its body reads (Section 6.4); results
    are row-major.

    Run `--stax-decompose` first so that composite ops lower through their
    bitwise-equal decompositions (`--stax-lowering-pipeline` does); a
    composite op that is still there is an op without a rule. Ops without a
    rule stay as they are, with a remark naming them; `strict` makes that an
    error. The input must be functional `tp`: an in-place op is an error
    (run `--stax-functionalize` first). Each
    materialized value's remark says why it went to memory when
    `remarks=true`. Function names and signatures do not change.

    Example 1.1, `(relu(x + y) * 2).sum(-1)`:

    ```mlir
    func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2xf32> {
      %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
      %1 = tp.relu %0 : tensor<2x3xf32> -> tensor<2x3xf32>
      %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
      %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
      return %3 : tensor<2xf32>
    }
    ```

    becomes, after `--stax-lower`, one reduction node whose body computes
    the pointwise chain at each index (nothing but the result goes to
    memory):

    ```mlir
    func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2xf32> {
      %0 = stax.reduction sum [3] layout <[1]> : tensor<2xf32> {
      ^bb0(%i0: index, %r0: index):
        %1 = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i0, %r0)
        %2 = stax.load %arg0[%1] : tensor<2x3xf32>
        %3 = stax.load %arg1[%1] : tensor<2x3xf32>
        %4 = arith.addf %2, %3 : f32
        %cst = arith.constant 0.000000e+00 : f32
        %5 = arith.cmpf olt, %4, %cst : f32
        %6 = arith.select %5, %cst, %4 : f32
        %cst_0 = arith.constant 2.000000e+00 : f32
        %7 = arith.mulf %6, %cst_0 : f32
        stax.yield %7 : f32
      }
      return %0 : tensor<2xf32>
    }
    ```
  }];
  let options = [
    Option<"target", "target", "::mlir::stax::Target",
           /*default=*/"::mlir::stax::Target::CPU",
           "Materialization thresholds to use: cpu or cuda (default: cpu)",
           "::mlir::stax::targetOptionValues()">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail on ops without a lowering rule instead of keeping them (default: false)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every materialization decision (default: false)">,
    Option<"welford", "welford", "bool", /*default=*/"false",
           "Lower tp.var with a one-pass Welford reduction (reorders the "
           "arithmetic: class 2, within Welford's error bound, not bitwise); "
           "keep tp.var whole in --stax-decompose for it to apply (default: false)">,
  ];
  let dependentDialects = ["::mlir::stax::StaxDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::affine::AffineDialect"];
}

def StaxToLoops : Pass<"stax-to-loops", "::mlir::ModuleOp"> {
  let summary = "Convert scheduled stax functions to loops over memrefs";
  let description = [{
    Code generation's first step (Section 6.1's "compiled code"): every
    function of lowered `stax` becomes a function of flat, contiguous
    memrefs in destination-passing style. Arguments become
    `memref<numel x T>` (row-major storage), and each result becomes one
    more argument, marked `stax.output`, that the caller allocates; the
    function returns nothing. Inside, each node becomes a loop nest that
    evaluates its body per index (`scf.parallel` for the outer loops when
    `parallel` is set and the node does at least `grain` units of work,
    body evaluations with a transcendental function counting one more,
    `scf.for` otherwise), reductions carry their state in loop-carried
    values (sum/prod/max/min, argmax as (value, position), Welford as
    (mean, M2, count)) and combine in lexicographic order, so the scalar
    code is bitwise equal to the interpreter (Section 6.9, class 1).
    A `stax.kernel` becomes one loop nest over its outer ranges holding its
    nodes in order. With `vector-width` > 1, the innermost loop of a
    pointwise node that stores contiguously runs `vector-width` lanes at a
    time (loads with unit stride become vector loads, invariant ones
    broadcasts, others gathers) with a scalar tail; a sum/max/min/prod
    reduction whose innermost reduction loop reads contiguously keeps a
    vector accumulator and combines its lanes once at the end (class 2).
    A result of at least `nontemporal-bytes` (larger than the caches: its
    lines would be evicted before anything reads them) is written with
    non-temporal vector stores, which skip reading each line before
    writing it; a scalar prologue aligns them to 64 bytes and a fence
    after each thread's part orders them before any later read.

    Intermediates live in one arena allocated per call: buffers whose
    lifetimes do not overlap share bytes (first-fit in op order). Results
    are written straight into the caller's buffers. `tp.mm` and `tp.bmm`
    call the runtime's `stax_rt_matmul_*` (BLAS for f32/f64), `tp.sort`
    its `stax_rt_sort_*` (a stable sort per slice; no cuda code). A bad
    data-dependent index (`stax.indirect_index` with `check_bounds`, a
    scatter address) calls `stax_rt_index_error` with the site number
    (the module's `stax.error_sites` lists each site's location) and goes
    on with a clamped index, so memory stays safe and the caller reports
    the error. With `check-nan`, every floating-point value a node stores
    (scalar or vector, a reduction's result, a matmul's output) is tested
    first: a NaN calls `stax_rt_nan_error` with the node's site and the
    element's index in the result's storage (a vector reports its first NaN
    lane), and the store goes on; without it no check is emitted. With
    `profile` (target=cpu), each node, kernel and runtime call is timed:
    `stax_rt_clock_ns` before it, `stax_rt_profile_record(name, length,
    start, bytes)` after, where the name ("@<function>: <op> at
    <location>") is a
    constant global and `bytes` the sizes of the distinct tensors it reads
    and writes (its ideal traffic). Any other op is an error naming it.

    Example: a row sum.

    ```mlir
    func.func @f(%arg0: tensor<2x3xf32>) -> tensor<2xf32> {
      %0 = stax.reduction sum [3] layout <[1]> : tensor<2xf32> {
      ^bb0(%i0: index, %r0: index):
        %1 = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i0, %r0)
        %2 = stax.load %arg0[%1] : tensor<2x3xf32>
        stax.yield %2 : f32
      }
      return %0 : tensor<2xf32>
    }
    ```

    becomes, after `--stax-to-loops="vector-width=1 parallel=false"`, a
    loop nest that writes the caller's output buffer:

    ```mlir
    func.func @f(%arg0: memref<6xf32>, %arg1: memref<2xf32> {stax.output}) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      scf.for %arg2 = %c0 to %c2 step %c1 {
        %cst = arith.constant 0.000000e+00 : f32
        %c0_0 = arith.constant 0 : index
        %c3 = arith.constant 3 : index
        %c1_1 = arith.constant 1 : index
        %0 = scf.for %arg3 = %c0_0 to %c3 step %c1_1 iter_args(%arg4 = %cst) -> (f32) {
          %2 = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%arg2, %arg3)
          %3 = memref.load %arg0[%2] : memref<6xf32>
          %4 = arith.addf %arg4, %3 : f32
          scf.yield %4 : f32
        }
        %1 = affine.apply affine_map<(d0) -> (d0)>(%arg2)
        memref.store %0, %arg1[%1] : memref<2xf32>
      }
      return
    }
    ```
  }];
  let options = [
    Option<"parallel", "parallel", "bool", /*default=*/"true",
           "Run the outer loops of large nodes in parallel (scf.parallel) (default: true)">,
    Option<"grain", "grain", "int64_t", /*default=*/"32768",
           "Fewest units of work for a node to run in parallel: body "
           "evaluations, a transcendental function (exp, tanh, erf...) "
           "counting one more (default: 32768)">,
    Option<"callGrain", "call-grain", "int64_t", /*default=*/"262144",
           "target=cpu: a function whose ops do fewer units of work (as "
           "for `grain`) in all runs every loop serially, because waking OpenMP's sleeping "
           "workers once per call costs more than its parallel loops "
           "would save; 0 decides by `grain` alone (default: 262144)">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"0",
           "Lanes of the vectorized innermost loops; 0 picks the host's "
           "(16 f32 lanes with AVX-512), 1 disables vectorization (default: 0)">,
    Option<"interleave", "interleave", "int64_t", /*default=*/"8",
           "target=cpu: vectors of a long pointwise body (or fused kernel "
           "of such nodes) evaluated side by side in one iteration, so "
           "that their dependency chains overlap; 1 evaluates one "
           "(default: 8)">,
    Option<"nontemporalBytes", "nontemporal-bytes", "int64_t",
           /*default=*/"33554432",
           "target=cpu: a vectorized pointwise node whose result takes at "
           "least this many bytes stores it with non-temporal stores, "
           "aligned to 64 bytes by a scalar prologue; 0 never (default: "
           "33554432, 32 MiB)">,
    Option<"target", "target", "::mlir::stax::Target",
           /*default=*/"::mlir::stax::Target::CPU",
           "cpu, or cuda: every node runs one thread per output element "
           "(scf.parallel over blocks of threads-per-block threads, for "
           "--convert-parallel-loops-to-gpu), matmul as loops, failed "
           "checks assert (default: cpu)", "::mlir::stax::targetOptionValues()">,
    Option<"threadsPerBlock", "threads-per-block", "int64_t",
           /*default=*/"256", "GPU threads per block (target=cuda) (default: 256)">,
    Option<"checkNan", "check-nan", "bool", /*default=*/"false",
           "Check every floating-point value a node stores: a NaN calls "
           "stax_rt_nan_error with the node's error site and the element's "
           "position (target=cuda: a failed assertion) (default: false)">,
    Option<"profile", "profile", "bool", /*default=*/"false",
           "target=cpu: time every node, kernel and runtime call "
           "(stax_rt_clock_ns before, stax_rt_profile_record with its name "
           "and ideal bytes after) (default: false)">,
  ];
  // The stax dialect for its layouts: a module of external calls only
  // (tp.mm, tp.sort) has not loaded it.
  let dependentDialects = ["::mlir::stax::StaxDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def StaxOutlineLoops : Pass<"stax-outline-loops", "::mlir::ModuleOp"> {
  let summary = "Move each top-level loop nest of a function into a function of its own";
  let description = [{
    `--stax-to-loops` writes a function's kernels one after another into
    its body. LLVM's optimizer and code generator take time that grows
    faster than linearly in the size of a function (a 100-step LSTM's
    forward is one 43,000-line function: 1.3 s of instruction selection and
    register allocation at 100 steps, 31 s at 200), while a module of many
    small functions costs the sum of their sizes. This pass moves every op
    with regions and no results directly in a function's body (a kernel's
    `scf.for`/`scf.parallel` nest, its scalar tail, an `scf.if`) into a
    private function `@<function>_loop<N>` that it calls in its place.

    Values the loop uses from its function become the callee's arguments,
    except constants, which are copied in so that loop bounds stay static.
    A loop is left in place when a value it uses cannot be a bare pointer
    argument (a memref with a strided layout or a dynamic size). The callee
    has internal linkage and LLVM's `noinline` (its only call would
    otherwise be inlined straight back). The code is the same: every
    result is bitwise what it was.

    Example:

    ```mlir
    func.func @f(%x: memref<64xf32>, %y: memref<64xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      scf.for %i = %c0 to %c64 step %c1 {
        %v = memref.load %x[%i] : memref<64xf32>
        memref.store %v, %y[%i] : memref<64xf32>
      }
      return
    }
    ```

    becomes `call @f_loop0(%x, %y) : (memref<64xf32>, memref<64xf32>) ->
    ()` and a `func.func private @f_loop0` holding the constants and the
    loop.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def StaxMergeGpuModules : Pass<"stax-merge-gpu-modules", "::mlir::ModuleOp"> {
  let summary = "Move every outlined kernel into one gpu.module";
  let description = [{
    `--gpu-kernel-outlining` puts each kernel in its own `gpu.module`; a
    function of many kernels then becomes many PTX modules. This pass moves
    every `gpu.func` into the first `gpu.module` (kernel names are unique)
    and retargets the `gpu.launch_func` ops, so that a function's kernels
    are one PTX module, loaded once. Other symbols that outlining copied
    into every kernel's module (libdevice declarations, the shared-memory
    `memref.global`s of block reductions) are kept once, and the host
    module's shared-memory globals, which only kernels use, are erased.

    Example:

    ```mlir
    module attributes {gpu.container_module} {
      func.func @f(%n: index) {
        gpu.launch_func @f_kernel::@f_kernel blocks in (%n, %n, %n) threads in (%n, %n, %n)
        gpu.launch_func @f_kernel_0::@f_kernel_0 blocks in (%n, %n, %n) threads in (%n, %n, %n)
        return
      }
      gpu.module @f_kernel {
        gpu.func @f_kernel() kernel {
          gpu.return
        }
      }
      gpu.module @f_kernel_0 {
        gpu.func @f_kernel_0() kernel {
          gpu.return
        }
      }
    }
    ```

    becomes, after `--stax-merge-gpu-modules`:

    ```mlir
    module attributes {gpu.container_module} {
      func.func @f(%arg0: index) {
        gpu.launch_func  @f_kernel::@f_kernel blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)
        gpu.launch_func  @f_kernel::@f_kernel_0 blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)
        return
      }
      gpu.module @f_kernel {
        gpu.func @f_kernel() kernel {
          gpu.return
        }
        gpu.func @f_kernel_0() kernel {
          gpu.return
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def StaxGpuDeviceBuffers : Pass<"stax-gpu-device-buffers", "::mlir::ModuleOp"> {
  let summary = "Put the buffers of target=cuda host functions in device memory";
  let description = [{
    After kernel outlining, a host function of `--stax-to-loops{target=cuda}`
    only launches kernels on buffers: its arguments (device pointers), an
    arena from `memref.alloc` and views into it, and copies of results.
    This pass makes the arena device memory (`gpu.alloc`, `gpu.dealloc`)
    and the copies device copies (`gpu.memcpy`); a constant
    (`memref.get_global`) is copied into a device buffer on each call. Then
    `--gpu-async-region` and `--gpu-to-llvm` turn the function into calls
    of the CUDA launcher. Any other host op that reads or writes a buffer
    (a load, a call, an alloca) would dereference device memory on the
    host: the pass rejects it with an error naming the op.

    Example:

    ```mlir
    module attributes {gpu.container_module} {
      func.func @f(%x: memref<64xf32>, %y: memref<64xf32>) {
        %c1 = arith.constant 1 : index
        %c64 = arith.constant 64 : index
        %a = memref.alloc() : memref<64xf32>
        gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %a : memref<64xf32>)
        memref.copy %a, %y : memref<64xf32> to memref<64xf32>
        memref.dealloc %a : memref<64xf32>
        return
      }
      gpu.module @m {
        gpu.func @k(%x: memref<64xf32>, %a: memref<64xf32>) kernel {
          gpu.return
        }
      }
    }
    ```

    becomes, after `--stax-gpu-device-buffers`:

    ```mlir
    module attributes {gpu.container_module} {
      func.func @f(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
        %c1 = arith.constant 1 : index
        %c64 = arith.constant 64 : index
        %memref = gpu.alloc  () : memref<64xf32>
        gpu.launch_func  @m::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)  args(%arg0 : memref<64xf32>, %memref : memref<64xf32>)
        gpu.memcpy  %arg1, %memref : memref<64xf32>, memref<64xf32>
        gpu.dealloc  %memref : memref<64xf32>
        return
      }
      gpu.module @m {
        gpu.func @k(%arg0: memref<64xf32>, %arg1: memref<64xf32>) kernel {
          gpu.return
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def StaxApproximateMath : Pass<"stax-approximate-math"> {
  let summary = "Vectorizable f32 math functions within 1 ulp";
  let description = [{
    Rewrites f32 (scalar or vector) `math.exp`, `exp2`, `expm1`, `log`,
    `log2`, `log10`, `log1p`, `tanh`, `erf`, `erfc` and the circular and
    hyperbolic functions (below) into straight-line
    `arith`/`math` code without calls, so that vectorized loops call no
    libm per element; NaN inputs are returned as they are, denormal
    results and overflow are kept. The logistic form that `sigmoid` and
    `silu` decompose into, `n / (exp(y) + 1)`, is rewritten as one
    function (rounding exp(y) and the sum separately would add 2 ulp).
    The f64 `math.powf` that f32 `pow` decomposes into (a base widened
    from f32 or narrower, a result only narrowed back) becomes
    `e^(y ln|x|)` in f64 with C's special cases (signed zeros, odd integer
    powers of negative bases, NaN for non-integer ones, 1 for `y = 0`,
    `x = 1` and `|x| = 1` with infinite y): 0.5 ulp + 1e-3 ulp after the
    rounding, with every kernel set but `upstream`. `sin`, `cos`, `tan`,
    `asin`, `acos`, `atan`, `atan2`, `sinh` and `cosh` get f64 kernels too
    (with every kernel set but `upstream`); `sin`, `cos` and `tan` reduce
    by pi/2 in f64 up to |x| = 2^26, and a vector with a lane beyond takes
    a branch that computes those lanes with libm's f64 function.

    `kernels=f32` (the default) computes exp, expm1, log, log1p, tanh, erf
    and the logistic form in f32 arithmetic, within 1 ulp of the exact value (the
    accuracy of PyTorch's vectorized CPU kernels): Cody-Waite reduction and
    `e^x = 2^k (1 + r s(r))` finished by one fma, `ln(1 + f)` with the
    large terms added last, the logistic's denominator as an unevaluated
    sum of two floats and its quotient corrected by the exact residual.
    `exp2`, `log2`, `log10` and `erfc` use the f64 kernels. `kernels=f64`
    widens every function's input to f64, evaluates
    a float64 kernel accurate to about 1e-11 relative and rounds once: 0.5
    ulp + 1e-3 ulp, at about half the throughput. `kernels=upstream` uses
    upstream's `populateMathPolynomialApproximationPatterns` for exp,
    expm1, log1p, tanh, erf and erfc (f32, 2 to 5 ulp; its sin/cos/atan/log
    are much worse and not used). The measured errors against float64 are
    in docs/Numerics.md (`bench/ulp_error.py`). Other types and other
    functions are left as they are (LLVM intrinsics or libm calls).

    Example:

    ```mlir
    func.func @f(%x: f32) -> f32 {
      %0 = math.exp %x : f32
      return %0 : f32
    }
    ```

    becomes, after `--stax-approximate-math`, about twenty f32 `arith` and
    `math` ops without a call: a clamp, a range reduction to
    `[-ln 2 / 2, ln 2 / 2]`, a degree-4 polynomial, two scalings by powers
    of two built with `arith.bitcast`, and a select that keeps a NaN input;
    `math.sin` would stay as it is.
  }];
  let options = [
    Option<"kernels", "kernels", "::mlir::stax::MathKernels",
           /*default=*/"::mlir::stax::MathKernels::F32",
           "f32 (f32 arithmetic within 1 ulp for exp, expm1, log, log1p, "
           "tanh, erf and "
           "sigmoid/silu; the other functions as f64), f64 (every function "
           "within 0.5 ulp, about half the throughput) or upstream "
           "(upstream's f32 polynomials for exp, expm1, log1p, tanh, erf "
           "and erfc, 2 to 5 ulp) (default: f32)", [{::llvm::cl::values(
             clEnumValN(::mlir::stax::MathKernels::F32, "f32",
                        "f32 kernels within 1 ulp"),
             clEnumValN(::mlir::stax::MathKernels::F64, "f64",
                        "float64 kernels within 0.5 ulp"),
             clEnumValN(::mlir::stax::MathKernels::Upstream, "upstream",
                        "upstream's f32 polynomials, 2 to 5 ulp"))}]>,
  ];
  let dependentDialects = ["::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def StaxExactMathCalls : Pass<"stax-exact-math-calls", "ModuleOp"> {
  let summary = "libm calls for the math ops upstream's LLVM lowering expands inexactly";
  let description = [{
    `--convert-math-to-llvm` expands `math.expm1` to `exp(x) - 1`, which
    loses every digit of a small `x` (`expm1(1e-10)` comes out with a
    relative error near 1e-7 in f64) and disagrees with the interpreter's
    `std::expm1`. This pass turns every `math.expm1` (f32 or f64, scalar
    or vector: vectors are unrolled into one call per lane) into a call of
    libm's `expm1`/`expm1f` with upstream's `populateMathToLibmConversion
    Patterns`, leaving every other op to the LLVM lowering. Run it right
    before `--convert-math-to-llvm`; `--stax-approximate-math` replaces
    f32 `expm1` before, so it only meets f64 (and f32 when approximate
    math is off). (`math.log1p` has an option of its own there,
    `approximate-log1p=false`, which the pipeline sets.)

    ```mlir
    func.func @f(%x: f64) -> f64 {
      %0 = math.expm1 %x : f64
      return %0 : f64
    }
    ```

    becomes a `func.call @expm1(%x) : (f64) -> f64` of a declared
    `func.func private @expm1`.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::vector::VectorDialect"];
}

def StaxRoundToBF16 : Pass<"stax-round-to-bf16", "ModuleOp"> {
  let summary = "f32 to bf16 rounding on the bits, denormals kept";
  let description = [{
    LLVM lowers `arith.truncf` to bf16 with AVX512-BF16's `vcvtneps2bf16`
    where the host has it, and that instruction treats denormal inputs as
    zero: every result below 2^-126 would be a signed zero where PyTorch
    (`c10::BFloat16`) and the interpreter give a bf16 denormal. This pass
    rewrites each `arith.truncf` to bf16 (scalar or vector, rounding to
    nearest even) as c10's rounding of the f32 bits `u`: `(u + 0x7fff +
    bit 16 of u) >> 16`, the carry out of the mantissa raising the
    exponent (exact for denormals, ties and overflow to infinity), NaN
    becoming 0x7fc0. An f64 input is rounded to f32 first, as c10 converts
    a double. Other rounding modes are left as they are. LLVM computes
    other bf16 operations in f32 and rounds their results with the same
    instruction: arith's min, max and arithmetic ops and `vector.reduction`
    on bf16 values (a vectorized argmax's horizontal maximum of denormals)
    run in f32 here, on exactly extended operands, with a truncf rounded as
    above; and as LLVM keeps a scalar bf16 that an `scf.for` carries (or an
    `scf.if` yields) as f32 and narrows it with that instruction, such a
    loop carries (and such an if yields) the f32 instead. The CPU pipeline runs it before the LLVM
    conversions.

    ```mlir
    func.func @f(%x: vector<16xf32>) -> vector<16xbf16> {
      %0 = arith.truncf %x : vector<16xf32> to vector<16xbf16>
      return %0 : vector<16xbf16>
    }
    ```

    becomes a bitcast to `vector<16xi32>`, the rounding above in i32, an
    `arith.trunci` to i16 and a bitcast to `vector<16xbf16>`.
  }];
}

def StaxVectorMathCalls : Pass<"stax-vector-math-calls", "ModuleOp"> {
  let summary = "f64 math functions on vectors without libm per lane";
  let description = [{
    Rewrites f64 math functions on 1-D vectors into calls of glibc's
    vector functions (`_ZGVeN8v_log` on `vector<8xf64>` with
    `library=avx512`, `_ZGVdN4v_log` on `vector<4xf64>` with `avx2`), one
    call per slice of that many lanes. Without it each lane calls libm
    (the interpreter's functions, bitwise), 3 to 10 times slower.

    Only the variants whose measured error is within 2 ulp of the exact
    value are called (docs/Numerics.md): with `avx512` `log`, `log1p`,
    `log2`, `log10`, `exp2`, `sinh`, `cosh`, `asinh`, `acosh`, `atanh` and
    `pow`; with `avx2` `log`, `log2`, `log10`, `exp2`, `sinh`, `cosh` and
    `pow` (`_ZGVeN8vv_pow`: one `v` per vector operand). Scalars and the
    last slice of a vector whose length is not a multiple of the lanes are
    padded with 1.0 to a whole call: a loop's scalar tail recomputing a
    value its vector body computed gets the same bits (libm's can differ by
    an ulp, and an equality between the two, a max's gradient mask, would
    fail). NaN, infinite and out-of-domain inputs give libm's results.
    The compiled code needs libmvec.so.1 (glibc 2.35 and later): the JIT
    loads it, an ahead-of-time object links with `-lmvec`.

    `math.exp`, `math.expm1`, `math.tanh`, `math.sin`, `math.cos`,
    `math.tan`, `math.asin`, `math.acos`, `math.atan`, `math.atan2`,
    `math.erf` and `math.erfc` on f64 or a 1-D f64 vector (any length), whose
    libmvec variants are 1.2 to 3.5 ulp (atan2 has none), become float64
    kernels within 1 ulp instead (with every
    `library` but `none`). exp: `x = k ln 2 + r`, `e^r = 1 + r + r^2/2 +
    r^3 Q(r)` with Q the Taylor series to `r^15/16!`, the reduction's,
    `r^2`'s and `1 + r`'s rounding errors carried, one final rounding,
    scaled by `2^k`; lanes beyond +-708 (overflow, results near or in the
    denormal range, infinities) come from libm's `exp`. expm1: the same
    parts, `2^k (1 + r) - 1` summed exactly before the small terms; `-1`
    below -40, libm above 708. tanh: `E / (E + 2)` with `E = expm1(2|x|)`,
    divided as double-doubles, for every input. sin and cos: `x = k pi/2 + r` with pi/2 in
    three parts and the reduction kept as a double-double, Taylor series
    on `|r| <= pi/4`, the quadrant choosing `+-sin r` or `+-cos r`; lanes
    beyond `2^20` come from libm. tan: the same reduction, `sin r / cos r`
    (or `-cos r / sin r`) corrected by the quotient's residual. atan, for
    every input: `|x|` reduced by `c` = 0, 1/2, 1, 3/2 or infinity to
    `|t| <= 7/16` with the reduction kept as a double-double, `atan c + t +
    t^3 P(t^2)`; atan2 the same on the smaller magnitude over the larger
    (the quotient's rounding error kept), `C + m atan q` with C's special
    cases. asin and acos: `asin v = v + v^3 Q(v^2)` for `v = |x|`
    below 1/2 and `v = sqrt((1 - |x|) / 2)` (its rounding error kept)
    above, the result `C + m asin v` with `C` 0, pi/2 or pi and `m`
    +-1 or +-2. erf, for every input: the Taylor series
    below 1/2, `erf(3/4)` plus a polynomial below 1, `1 - e^(-x^2)
    erfcx(|x|)` (two polynomials for erfcx, x^2 as a double-double) up to
    6, and +-1 beyond (scripts/gen-f64-math-coefficients.py). erfc, for
    every input: `1 - erf x` below 1/2 (the Taylor series, summed
    exactly), `e^(-x^2) erfcx(x)` above with erfcx a double-double (a
    polynomial in x below 1, two in `1/x` above) down to 0 at 27.3, and `2
    - erfc(-x)` for negative x. libm runs in
    a branch taken only when a vector holds such a lane; NaN lanes (and
    the signed zeros of the odd functions and expm1) are returned as they
    are (atan2 makes its own NaN).

    `library=auto` (the default) picks the host's widest variant, or none
    where the host has neither AVX-512 nor AVX2 or Stax was built without
    libmvec (the kernels still apply); `none` leaves every op as it
    is.

    ```mlir
    func.func @f(%x: vector<16xf64>) -> vector<16xf64> {
      %0 = math.log %x : vector<16xf64>
      return %0 : vector<16xf64>
    }
    ```

    becomes, with `library=avx512`, two `func.call @_ZGVeN8v_log` on the
    halves of `%x` (`vector.extract_strided_slice`), their results put
    together with `vector.insert_strided_slice`.
  }];
  let options = [
    Option<"library", "library", "::mlir::stax::VectorMathLibrary",
           /*default=*/"::mlir::stax::VectorMathLibrary::Auto",
           "which libmvec variants to call: auto (the host's widest), "
           "none, avx2 or avx512 (default: auto)", [{::llvm::cl::values(
             clEnumValN(::mlir::stax::VectorMathLibrary::Auto, "auto",
                        "the host's widest variant"),
             clEnumValN(::mlir::stax::VectorMathLibrary::None, "none",
                        "libm per lane"),
             clEnumValN(::mlir::stax::VectorMathLibrary::AVX2, "avx2",
                        "_ZGVdN4v_ functions, 4 lanes"),
             clEnumValN(::mlir::stax::VectorMathLibrary::AVX512, "avx512",
                        "_ZGVeN8v_ functions, 8 lanes"))}]>,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // STAX_CONVERSION_PASSES_TD
