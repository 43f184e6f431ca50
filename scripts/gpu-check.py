#!/usr/bin/env python3
"""The GPU half of scripts/gpu-check.sh: every corpus model's forward and
backward through stax.compile(target="cuda") against the CPU compilation
and the float64 reference, then each kernel's bandwidth.

Correctness: each GPU output and gradient must lie within the error bound
that the CPU tests use (stax.numerics.error_bound, docs/Numerics.md: the
float64 value +- the bound its computation admits), as must the CPU
compilation's; the largest GPU-CPU difference is printed in units of that
bound. A model that falls back to PyTorch (a warning of stax.compile: an op
without CUDA code, a compile error) fails too: nothing would be checked.

Bandwidth: each kernel's ideal traffic (the distinct buffers it is launched
on, each read or written once: Executable.kernel_bytes) over its fastest
launch (CUDA events around each launch), against a device-to-device copy
(cuMemcpyDtoDAsync, bytes read plus written). The corpus is small (hidden
sizes 16-64), so its kernels measure launch latency; the probes at the end
(--probe-mib per tensor) measure bandwidth.

Exit status: 0 when everything matched, 1 on any mismatch or fallback (or
without a GPU), 2 for bad arguments.
"""

import argparse
import glob
import os
import sys
import time
import warnings

# Where CUDA's libdevice (the math functions that kernels call: __nv_expf...)
# may be: a CUDA toolkit, Debian's nvidia-cuda-toolkit, or the copies that
# pip's CUDA wheels and Triton carry. The driver cannot load PTX that calls
# them without it.
LIBDEVICE_GLOBS = [
    os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                 "nvvm/libdevice/libdevice.10.bc"),
    "/usr/local/cuda*/nvvm/libdevice/libdevice.10.bc",
    "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
    "/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc",
    "/usr/local/lib/python3*/dist-packages/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc",
    "/usr/local/lib/python3*/dist-packages/triton/backends/nvidia/lib/libdevice.10.bc",
    os.path.expanduser("~/.local/lib/python3*/site-packages/triton/backends/nvidia/lib/libdevice.10.bc"),
]


def find_libdevice():
    for pattern in LIBDEVICE_GLOBS:
        found = sorted(glob.glob(pattern))
        if found:
            return found[-1]
    return None


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="gpu-check",
        description="Corpus models on the GPU against the CPU and float64, "
                    "and each kernel's bandwidth.")
    p.add_argument("--models", default="all",
                   help="comma-separated corpus models (default: all)")
    p.add_argument("--reps", type=int, default=5,
                   help="timed forward+backward runs per model (default: 5)")
    p.add_argument("--probe-mib", type=int, default=128,
                   help="MiB per tensor of the bandwidth probes; 0 skips "
                        "them (default: 128)")
    p.add_argument("--libdevice", default=None,
                   help="CUDA's libdevice.10.bc (default: searched in the "
                        "usual places)")
    p.add_argument("--list", action="store_true",
                   help="print the models that would run, and exit")
    args = p.parse_args(argv)
    if args.reps < 1:
        p.error("--reps must be at least 1")
    if args.probe_mib < 0:
        p.error("--probe-mib must be >= 0")
    from stax import corpus
    names = corpus.names() if args.models == "all" else \
        [m for m in args.models.split(",") if m]
    unknown = [m for m in names if m not in corpus.names()]
    if unknown:
        p.error("unknown corpus model(s): %s (known: %s)"
                % (", ".join(unknown), ", ".join(corpus.names())))
    args.names = names
    if args.libdevice and not os.path.exists(args.libdevice):
        p.error(f"--libdevice {args.libdevice}: no such file")
    return args


def _outputs(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


def _loss(outs):
    return sum(o.sum() for o in outs if o.is_floating_point())


def _clone(inputs):
    return [t.detach().clone().requires_grad_(t.requires_grad)
            for t in inputs]


class Report:
    """Collects failures; prints each as it happens."""

    def __init__(self):
        self.failures = []

    def fail(self, what):
        self.failures.append(what)
        print(f"  FAIL {what}", flush=True)


def _compare(report, label, gpu, cpu, bound):
    """GPU and CPU values against the float64 reference's bound."""
    ref, tol = bound.ref, bound.tol
    g, c = gpu.detach().cpu().double(), cpu.detach().double()
    if g.shape != ref.shape:
        report.fail(f"{label}: shape {tuple(g.shape)}, expected {tuple(ref.shape)}")
        return
    bad_gpu = ~((g - ref).abs() <= tol)  # NaN counts as outside
    bad_cpu = ~((c - ref).abs() <= tol)
    diff, loose = (g - c).abs(), tol > 0
    ratio = float((diff[loose] / tol[loose]).max()) if loose.any() else 0.0
    exact = int((diff[~loose] != 0).sum())  # bound 0: must be equal
    print(f"  {label}: |gpu-cpu| <= {ratio:.3g} bounds"
          + (f", {exact} exact elements differ" if exact else ""), flush=True)
    if bad_gpu.any():
        i = int(bad_gpu.flatten().nonzero()[0])
        report.fail(f"{label}: GPU outside the bound at {int(bad_gpu.sum())} "
                    f"elements, first flat #{i}: gpu {float(g.flatten()[i])!r} "
                    f"ref {float(ref.flatten()[i])!r} tol {float(tol.flatten()[i]):.3g}")
    if bad_cpu.any():
        report.fail(f"{label}: CPU outside the bound at {int(bad_cpu.sum())} elements")


def _call(report, label, compiled, *xs):
    """Calls a compiled function; a fallback to PyTorch is a failure."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outs = _outputs(compiled(*xs))
    for w in caught:
        if "stax.compile" in str(w.message):
            report.fail(f"{label}: ran (partly) in PyTorch: {w.message}")
    return outs


OPTIONS = ""  # --stax-pipeline options of the cuda compilations (libdevice)


def check_model(report, name):
    """Forward and gradients of corpus model `name`, GPU vs CPU vs float64."""
    import torch
    import stax
    from stax import corpus
    from stax.numerics import error_bound
    model = corpus.get(name)
    inputs = model.make_inputs()
    gpu = stax.compile(model.fn, target="cuda", options=OPTIONS)
    cpu = stax.compile(model.fn)
    xg, xc = _clone(inputs), _clone(inputs)
    outs_g = _call(report, f"{name} forward (cuda)", gpu, *xg)
    outs_c = _call(report, f"{name} forward (cpu)", cpu, *xc)
    print(f"  {name}: tensors passed by {gpu.last_transfer}", flush=True)
    for k, (g, c, b) in enumerate(zip(outs_g, outs_c,
                                      error_bound(model.fn, *inputs))):
        _compare(report, f"{name} output #{k}", g, c, b)
    wg = [x for x in xg if x.requires_grad]
    if not wg:
        return gpu, inputs
    grads_g = torch.autograd.grad(_loss(outs_g), wg)
    grads_c = torch.autograd.grad(_loss(outs_c),
                                  [x for x in xc if x.requires_grad])

    def reference(*ts):
        ts = [t.detach().requires_grad_(t.requires_grad) for t in ts]
        return torch.autograd.grad(_loss(_outputs(model.fn(*ts))),
                                   [t for t in ts if t.requires_grad])

    for k, (g, c, b) in enumerate(zip(grads_g, grads_c,
                                      error_bound(reference, *inputs))):
        _compare(report, f"{name} gradient #{k}", g, c, b)
    return gpu, inputs


def kernel_bytes(compiled):
    """{kernel: ideal bytes} of every executable a CompiledFunction built."""
    from stax.compile import _Plan
    out = {}
    for plan in compiled._plans.values():
        if isinstance(plan, _Plan):
            out.update(plan.fw.kernel_bytes())
            if getattr(plan, "bw", None) is not None:
                out.update(plan.bw.kernel_bytes())
    return out


def profile(compiled, inputs, reps, backward=True):
    """{kernel: (launches, total ms, min ms)} over `reps` timed runs."""
    import torch
    from stax._capi import cuda_set_profiling, cuda_take_profile
    cuda_set_profiling(True)
    cuda_take_profile()  # drop earlier times
    try:
        for _ in range(reps):
            xs = _clone(inputs)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                outs = _outputs(compiled(*xs))
            wrt = [x for x in xs if x.requires_grad]
            if backward and wrt:
                torch.autograd.grad(_loss(outs), wrt)
        return cuda_take_profile()
    finally:
        cuda_set_profiling(False)


def print_bandwidth(times, sizes, copy_gbps):
    for k in sorted(times, key=lambda k: -sizes.get(k, 0)):
        launches, _, best = times[k]
        nbytes = sizes.get(k)
        if nbytes is None or best <= 0:
            print(f"    {k:42s} {launches:3d}x {best * 1e3:9.1f} us (size unknown)")
            continue
        gbps = nbytes / (best * 1e-3) / 1e9
        print(f"    {k:42s} {nbytes:>11d} B {best * 1e3:9.1f} us "
              f"{gbps:9.2f} GB/s {100 * gbps / copy_gbps:6.1f}% of copy")


def _probes(mib):
    """Large elementwise, reduction and normalization functions."""
    import torch
    n = (mib << 20) // 4
    cols = 4096
    rows = n // cols
    g = torch.Generator().manual_seed(0)
    vec = lambda: torch.randn(n, generator=g)
    mat = lambda: torch.randn(rows, cols, generator=g)
    return [
        ("add", lambda a, b: a + b, (vec(), vec())),
        ("sigmoid_tanh", lambda a, b: torch.sigmoid(torch.tanh(a) * b + a),
         (vec(), vec())),
        ("row_sum", lambda x: x.sum(-1), (mat(),)),
        ("softmax", lambda x: torch.softmax(x, -1), (mat(),)),
        ("layer_norm", lambda x: torch.nn.functional.layer_norm(x, (cols,)),
         (mat(),)),
    ]


def check_probes(report, mib, reps, copy_gbps):
    import torch
    import stax
    from stax.numerics import error_bound
    print(f"probes ({mib} MiB per tensor, forward only)", flush=True)
    for name, fn, inputs in _probes(mib):
        f = stax.compile(fn, target="cuda", options=OPTIONS)
        with torch.no_grad():
            outs = _call(report, f"probe {name}", f, *inputs)
        for k, (o, b) in enumerate(zip(outs, error_bound(fn, *inputs))):
            bad = ~((o.detach().double() - b.ref).abs() <= b.tol)
            if bad.any():
                report.fail(f"probe {name} output #{k}: outside the bound at "
                            f"{int(bad.sum())} elements")
        with torch.no_grad():
            times = profile(f, inputs, reps, backward=False)
        print(f"  {name}:")
        print_bandwidth(times, kernel_bytes(f), copy_gbps)


def main(argv):
    args = parse_args(argv)
    if args.list:
        print("\n".join(args.names))
        return 0
    import stax
    try:
        device = stax.cuda_device()
    except stax.StaxError as e:
        print(f"gpu-check: no GPU: {e}", file=sys.stderr)
        return 1
    start = time.time()
    from stax._capi import cuda_copy_bandwidth
    copy_gbps = cuda_copy_bandwidth(256 << 20, 20)
    print(f"gpu-check on {device}: device-to-device copy {copy_gbps:.1f} GB/s",
          flush=True)
    global OPTIONS
    libdevice = args.libdevice or find_libdevice()
    if libdevice:
        OPTIONS = f"libdevice={libdevice}"
        print(f"libdevice: {libdevice}")
    else:
        print("gpu-check: warning: no libdevice.10.bc found (--libdevice): "
              "kernels calling math functions (exp, tanh, erf...) will not "
              "load", file=sys.stderr)
    report = Report()
    for name in args.names:
        print(f"{name}", flush=True)
        try:
            gpu, inputs = check_model(report, name)
            print("  kernels (fastest launch of forward + backward):")
            print_bandwidth(profile(gpu, inputs, args.reps), kernel_bytes(gpu),
                            copy_gbps)
        except Exception as e:  # a crash of one model must not hide others
            report.fail(f"{name}: {type(e).__name__}: {e}")
    if args.probe_mib:
        try:
            check_probes(report, args.probe_mib, args.reps, copy_gbps)
        except Exception as e:
            report.fail(f"probes: {type(e).__name__}: {e}")
    elapsed = time.time() - start
    if report.failures:
        print(f"gpu-check: FAILED, {len(report.failures)} problem(s) "
              f"({elapsed:.0f} s):", file=sys.stderr)
        for f in report.failures:
            print(f"  {f}", file=sys.stderr)
        return 1
    print(f"gpu-check: {len(args.names)} models match on the GPU "
          f"({elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
