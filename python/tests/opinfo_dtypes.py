"""PyTorch's OpInfo samples in the dtypes other than float32, through
`stax.compile`, against eager PyTorch.

opinfo_sweep.py checks every stage in float32 (and float64 references);
models also compute in int64 (indices, counts), bool (masks), uint8
(images), int32, float64 and bfloat16, where type promotion, wrapping and
rounding differ. For every entry that supports a dtype on the CPU (minus
opinfo_sweep's exclusions and the entries below), the first `--samples`
sample inputs are compiled and called:

fallback   the call ran in PyTorch (a stax.compile warning): the operator
           does not import, lower or compile in that dtype;
wrong      a result's dtype or shape differs from eager's, an integer or
           bool result differs anywhere, or a float result is outside
           opinfo_sweep's generic bound (its `_compare`) with the unit
           roundoff of the result's type. These are silent wrong answers.

Run it (prints each fallback and wrong sample, then a table):

    PYTHONPATH=python STAX_LIB_DIR=build/lib /usr/bin/python3 \\
        python/tests/opinfo_dtypes.py [--dtypes int64 bool ...] [--samples 2]
        [--only NAME...]

`python/tests/test_opinfo_dtypes.py` runs a slice of it in the test suite.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import List, Optional, Tuple

import opinfo_sweep as sweep
import torch

import stax

DTYPES = [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8,
          torch.bool, torch.float64, torch.bfloat16, torch.float16]

# Results that eager leaves unspecified or draws at random: compared by
# nothing here (opinfo_sweep compares their shapes in float32).
UNCOMPARED = {
    # random
    "bernoulli", "normal", "normal.number_mean", "uniform", "multinomial",
    "nn.functional.dropout", "nn.functional.dropout2d",
    "nn.functional.dropout3d", "nn.functional.alpha_dropout",
    "nn.functional.feature_alpha_dropout.with_train",
    "nn.functional.feature_alpha_dropout.without_train",
    "nn.functional.fractional_max_pool2d",
    "nn.functional.fractional_max_pool3d", "nn.functional.rrelu",
    "nn.functional._scaled_dot_product_attention", "randint_like",
    "rand_like", "randn_like", "cauchy", "exponential", "geometric",
    "log_normal", "randn", "rand", "randint",
    # uninitialized
    "empty", "empty_like", "new_empty", "new_empty_strided",
    # the index among equal values (integer samples have many) is eager's
    # algorithm's choice: sort, argsort and topk are not stable by default
    # and kthvalue selects in place
    "sort", "argsort", "topk", "kthvalue",
    # poles: both sides return garbage of order 1e13..1e32 at integers <= 0
    "polygamma.polygamma_n_0", "polygamma.polygamma_n_1",
    "polygamma.polygamma_n_2", "polygamma.polygamma_n_3",
    "polygamma.polygamma_n_4", "special.polygamma.special_polygamma_n_0",
}

_ROUNDOFF = {torch.float64: 2.0 ** -53, torch.float32: 2.0 ** -24,
             torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8}


def entries(dtype):
    """The OpInfo entries in scope that support `dtype` on the CPU."""
    from torch.testing._internal.common_methods_invocations import op_db
    out = []
    for op in op_db:
        name = sweep.entry_name(op)
        if (name in sweep.EXCLUDED or name.startswith("fft.")
                or name in UNCOMPARED):
            continue
        if dtype in op.supported_dtypes("cpu"):
            out.append(op)
    return out


def _compare(got: List[torch.Tensor], want: List[torch.Tensor],
             inputs: List[torch.Tensor]) -> Optional[str]:
    if len(got) != len(want):
        return f"{len(got)} results, eager has {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        if g.dtype != w.dtype or g.shape != w.shape:
            return (f"result #{k}: {g.dtype}{tuple(g.shape)}, eager "
                    f"{w.dtype}{tuple(w.shape)}")
        if not w.is_floating_point():
            if not torch.equal(g, w):
                i = tuple((g != w).nonzero()[0].tolist())
                return f"result #{k} differs at {i}: {g[i].item()} vs {w[i].item()}"
            continue
        try:
            sweep._compare("compiled", [sweep._np(g)], [w], inputs,
                           _ROUNDOFF[w.dtype])
        except sweep.Failure as f:
            return f"result #{k}: {f.msg}"
    return None


def check_sample(op, sample) -> Tuple[str, str]:
    """('ok' | 'fallback' | 'wrong' | 'eager', detail) for one sample: the
    sample compiled and called against eager ('eager': eager itself
    rejects the sample)."""
    smp = sweep._make_sample(op, sample)
    xs = [x.detach() for x in smp.tensors]
    try:
        want = sweep._outputs(smp.fn(*[x.clone() for x in xs]))
    except Exception as e:  # noqa: BLE001
        return "eager", sweep._first_line(e)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = sweep._outputs(stax.compile(smp.fn)(*[x.clone() for x in xs]))
    ran = [str(w.message).splitlines()[0] for w in caught
           if "stax.compile" in str(w.message)]
    if ran:
        return "fallback", ran[0][:200]
    # The bound scales with the inputs' magnitude, integers included
    # (log_softmax of int64 rounds terms as large as the inputs).
    bad = _compare(got, want, [x if x.is_floating_point() or x.dtype == torch.bool
                               else x.double() for x in xs])
    return ("wrong", bad) if bad else ("ok", "")


def check_entry(op, dtype, max_samples: int = 2) -> List[Tuple[str, str]]:
    """check_sample of the entry's first `max_samples` samples in `dtype`,
    as (outcome, detail) pairs."""
    # The bound's magnitude grows where eager's kernel rounds larger terms.
    sweep._term_scale = sweep.TERM_SCALE.get(sweep.entry_name(op), 1.0)
    samples = list(op.sample_inputs("cpu", dtype, requires_grad=False))
    return [check_sample(op, s) for s in samples[:max_samples]]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dtypes", nargs="*",
                    default=[str(d).replace("torch.", "") for d in DTYPES])
    ap.add_argument("--samples", type=int, default=2)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args(argv)
    rows = []
    for name in a.dtypes:
        dtype = getattr(torch, name)
        counts = {"ok": 0, "fallback": 0, "wrong": 0, "eager": 0}
        for op in entries(dtype):
            entry = sweep.entry_name(op)
            if a.only and entry not in a.only:
                continue
            for k, (outcome, detail) in enumerate(check_entry(op, dtype, a.samples)):
                counts[outcome] += 1
                if outcome in ("fallback", "wrong"):
                    print(f"{name} {outcome} {entry}[{k}]: {detail}", flush=True)
        rows.append((name, counts))
    print("| dtype | ok | fallback | wrong | eager rejects |")
    print("|---|---|---|---|---|")
    for name, c in rows:
        print(f"| {name} | {c['ok']} | {c['fallback']} | {c['wrong']} | {c['eager']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
