"""PyTorch's ModuleInfo database as the oracle for compiled nn.Modules.

Every entry of `torch.testing._internal.common_modules.module_db` (Debian's
torch 1.13: 38 modules, each with its own constructor arguments and inputs,
unbatched inputs, masks and keyword arguments included) is compiled with
`stax.compile(module)` in training and in eval mode and called in float32
on each sample (`--dtype float64`: in float64). Against the same module
in eager float64:

- every result and every floating-point buffer after the call (a batch
  norm's running statistics);
- the gradients of every parameter and every input that requires grad,
  through the compiled backward, for random cotangents of the
  differentiable results.

A call that runs in PyTorch (a `stax.compile:` warning: a graph split, or
the whole call in eager) fails: the sweep measures what Stax compiles.
Lazy modules are materialized by one eager call first.

Tolerance: the generic bound of opinfo_sweep.py (`_compare`), with N the
elements of the inputs and the parameters: two float evaluations of the
same function round at most gamma = 4 (N + 8) times per result, each time
at the magnitude of the terms (u = 2^-24 in float32, 2^-53 in float64).
Integer results must be equal.

Run the whole sweep (prints one line per sample, and every failure):

    PYTHONPATH=python:python/tests STAX_LIB_DIR=build/lib /usr/bin/python3 \\
        python/tests/module_sweep.py [--only nn.LSTM nn.GRU]
"""

import argparse
import copy
import sys
import warnings
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent / "stubs"))  # expecttest

import stax  # noqa: E402  (before torch: OpenMP workers)
import torch  # noqa: E402
from torch.testing._internal.common_modules import module_db  # noqa: E402

import opinfo_sweep as opinfo  # noqa: E402

U32, U64 = 2.0 ** -24, 2.0 ** -53


def cases(only=(), dtype=torch.float32):
    """(name, ModuleInfo, ModuleInput, training) of every sample, in
    database order, with inputs of `dtype`."""
    for info in module_db:
        if only and info.name not in only:
            continue
        for training in (True, False):
            samples = info.module_inputs_func(
                info, device="cpu", dtype=dtype, requires_grad=True,
                training=training)
            for k, sample in enumerate(samples):
                mode = "train" if training else "eval"
                yield f"{info.name}[{k}].{mode}", info, sample, training


def _tensors(x) -> List[torch.Tensor]:
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for e in x for t in _tensors(e)]
    if isinstance(x, dict):
        return [t for e in x.values() for t in _tensors(e)]
    return []


def _copy(x, dtype=None):
    """`x` with every tensor a fresh leaf (floating ones in `dtype`)."""
    if isinstance(x, torch.Tensor):
        c = x.detach().clone()
        if dtype is not None and c.is_floating_point():
            c = c.to(dtype)
        return c.requires_grad_(x.requires_grad)
    if isinstance(x, (tuple, list)):
        return type(x)(_copy(e, dtype) for e in x)
    if isinstance(x, dict):
        return {k: _copy(v, dtype) for k, v in x.items()}
    return x


def _module(info, sample, training, dtype):
    torch.manual_seed(0)
    ctor = sample.constructor_input
    m = info.module_cls(*ctor.args, **ctor.kwargs).to(dtype).train(training)
    if "Lazy" in info.name:  # materializes the parameters
        m(*_copy(sample.forward_input.args), **_copy(sample.forward_input.kwargs))
    return m


def _compare(what, ours, ref, scale_of, u):
    try:
        opinfo._compare(what, [opinfo._np(t) for t in ours], ref, scale_of, u)
    except opinfo.Failure as e:
        raise AssertionError(str(e)) from None


def check_case(info, sample, training, dtype=torch.float32) -> None:
    """Raises AssertionError naming the first difference (for a float64
    sample, against eager float64 at float64's roundoff)."""
    u = U32 if dtype == torch.float32 else U64
    ref_module = _module(info, sample, training, dtype)
    module = copy.deepcopy(ref_module)
    ref_module = ref_module.double()
    args, kwargs = sample.forward_input.args, sample.forward_input.kwargs
    a32, k32 = _copy(args), _copy(kwargs)
    a64, k64 = _copy(args, torch.float64), _copy(kwargs, torch.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = stax.compile(module)
        outs = _tensors(compiled(*a32, **k32))
    eager = [str(w.message) for w in caught
             if str(w.message).startswith("stax.compile:")]
    assert not eager, eager[0]
    refs = _tensors(ref_module(*a64, **k64))
    leaves = [p for p in module.parameters() if p.requires_grad]
    ref_leaves = [p for p in ref_module.parameters() if p.requires_grad]
    inputs = [t for t in _tensors((a32, k32)) if t.requires_grad]
    ref_inputs = [t for t in _tensors((a64, k64)) if t.requires_grad]
    scale_of = _tensors((a64, k64)) + ref_leaves
    _compare("forward", outs, refs, scale_of, u)
    _compare("buffers", list(module.buffers()),
             [b for b in ref_module.buffers()], scale_of, u)
    diff = [k for k, r in enumerate(refs) if r.requires_grad]
    if not diff:
        return
    gen = torch.Generator().manual_seed(3)
    cts = [torch.randn(refs[k].shape, generator=gen, dtype=torch.float64)
           for k in diff]
    ours = torch.autograd.grad([outs[k] for k in diff], leaves + inputs,
                               [c.to(dtype) for c in cts], allow_unused=True)
    theirs = torch.autograd.grad([refs[k] for k in diff],
                                 ref_leaves + ref_inputs, cts,
                                 allow_unused=True)
    zero = [torch.zeros_like(t) for t in ref_leaves + ref_inputs]
    _compare("gradient",
             [o if o is not None else z for o, z in zip(ours, zero)],
             [t if t is not None else z for t, z in zip(theirs, zero)],
             scale_of + cts, u)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=(),
                        help="module names (e.g. nn.LSTM)")
    parser.add_argument("--dtype", choices=("float32", "float64"),
                        default="float32")
    args = parser.parse_args(argv)
    dtype = getattr(torch, args.dtype)
    failed = total = 0
    for name, info, sample, training in cases(args.only, dtype):
        total += 1
        try:
            check_case(info, sample, training, dtype)
            print(f"ok    {name} {sample.desc}", flush=True)
        except Exception as e:  # report every failure, then go on
            failed += 1
            print(f"FAIL  {name} {sample.desc}: {opinfo._first_line(e)}",
                  flush=True)
    print(f"{total - failed}/{total} samples pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
