"""--stax-lower is a first-class transformation (Section 6.9): it only
inlines pointwise computations into their readers and materializes values,
so every lowered function must interpret *bitwise* like its tp original.

For every corpus model: the forward function (import_torch) and the
forward/backward pair that --stax-joint-graph + --stax-mincut produce are
lowered for cpu and for cuda (different materialization thresholds) and
interpreted on the same seeded random inputs; the results must be identical
bit for bit (np.array_equal, dtypes equal). The lowered module must also be
mostly stax: ops of the corpus all have rules except the external matmuls.
"""

import re
import warnings

import numpy as np
import pytest

import stax
from stax import corpus

warnings.filterwarnings("ignore")

_NP = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
       "i64": np.int64, "i32": np.int32, "i1": np.bool_}


def _functions(module_text):
    """(name, [(shape, elt)]) of each func.func in the module."""
    out = []
    for m in re.finditer(r"func\.func @(\w+)\(([^)]*)\)", module_text):
        args = []
        for ty in re.findall(r"tensor<([^>]*)>", m.group(2)):
            parts = ty.split("x")
            args.append((tuple(int(d) for d in parts[:-1]), parts[-1]))
        out.append((m.group(1), args))
    return out


def _random_inputs(args, seed):
    """Floats ~ N(0, 1); integers in [0, 2) so that every index is valid
    for any dim of size >= 2; bools 50/50."""
    rng = np.random.default_rng(seed)
    arrays = []
    for shape, elt in args:
        if elt.startswith("f"):
            arrays.append(rng.standard_normal(shape).astype(_NP[elt]))
        elif elt == "i1":
            arrays.append(rng.random(shape) < 0.5)
        else:
            arrays.append(rng.integers(0, 2, size=shape).astype(_NP[elt]))
    return arrays


def assert_same_results(want_text, got_text, functions_of=None, seed_base=0):
    """Interprets every function of `functions_of` (default `want_text`) in
    both modules on the same seeded inputs; asserts equal dtypes and bits."""
    for k, (fn, args) in enumerate(_functions(functions_of or want_text)):
        ins = _random_inputs(args, seed=seed_base + k)
        want = stax.interpret(want_text, fn, *ins)
        got = stax.interpret(got_text, fn, *ins)
        assert len(want) == len(got)
        for i, (w, g) in enumerate(zip(want, got)):
            assert w.dtype == g.dtype, (fn, i)
            assert np.array_equal(w, g, equal_nan=True), (
                "%s result %d differs: max |diff| %g" % (fn, i,
                np.max(np.abs(w.astype(np.float64) - g.astype(np.float64)))))


def _modules(name):
    model = corpus.get(name)
    inputs = model.make_inputs()
    fwd = stax.import_torch(model.fn, *inputs)
    out = [("forward", fwd)]
    if any(getattr(x, "requires_grad", False) for x in inputs):
        out.append(("mincut", stax.run_pipeline(
            fwd, "builtin.module(stax-joint-graph,stax-mincut)")))
    return out


CASES = [(m, kind, target) for m in corpus.names()
         for kind in ("forward", "mincut") for target in ("cpu", "cuda")]


@pytest.mark.parametrize("name,kind,target", CASES,
                         ids=["-".join(c) for c in CASES])
def test_lowered_interprets_bitwise(name, kind, target):
    modules = dict(_modules(name))
    if kind not in modules:
        pytest.skip("no differentiable input")
    tp_text = modules[kind]
    lowered = stax.run_pipeline(
        tp_text, "builtin.module(stax-decompose,func.func(stax-lower{target=%s}))" % target)
    assert "stax.pointwise" in lowered or "stax.reduction" in lowered
    assert_same_results(tp_text, lowered)


def test_corpus_ops_all_lower():
    """Every op of the corpus graphs has a rule, except the matmuls, which
    are external calls, and literal constants."""
    kept = set()
    for name in corpus.names():
        for _, text in _modules(name):
            lowered = stax.run_pipeline(text, "builtin.module(stax-decompose,func.func(stax-lower))")
            kept |= set(re.findall(r"= (tp\.[\w.]+)", lowered))
    assert kept <= {"tp.mm", "tp.bmm", "tp.constant"}, kept
