"""In-place ops and --stax-functionalize, end to end: PyTorch functions that
mutate tensors are imported (in-place aten overloads become in-place `tp`
ops), functionalized and interpreted. Results match eager PyTorch bit for
bit (the functions are pointwise and correctly rounded), and the final
contents of every mutated argument come back as a copy-back result
(`tp.copy_back = <argument index>`)."""

import re
import warnings

import numpy as np
import pytest
import torch

import stax
from stax.importer import import_torch

warnings.filterwarnings("ignore")

PIPELINE = "builtin.module(stax-functionalize)"


def _randn(*shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g)


def add_one(x):
    x.add_(1)
    return x * 2


def clone_mul_relu(x):
    y = x.clone()
    y.mul_(2)
    y.relu_()
    return y


def index_put(v, idx):
    z = torch.zeros(4, 3)
    z[idx] = v
    return z


def copy_out(out, a):
    out.copy_(a)
    return a + 1


def chain_on_arg(x, y):
    x.sub_(y, alpha=2)
    x.div_(3)
    x.clamp_(min=-1.0, max=1.0)
    return x.neg()


def masked_fill(x):
    y = x.clone()
    y.masked_fill_(y > 0.5, 0.25)
    return y, x


def accumulate(base, idx, v):
    z = base.clone()
    z.index_put_((idx,), v, accumulate=True)
    return z


def fill_zero(x):
    y = x.clone()
    y.zero_()
    y.add_(x, alpha=3)
    w = y * 1.5
    y.fill_(2.0)
    return w, y


def promote(x, d):
    x.add_(d)             # f32 += f64: computed in f64, stored as f32
    x.mul_(0.1)
    return x


def integers(i, j):
    i.mul_(3)
    i.add_(j)
    i.div_(2, rounding_mode="floor")
    return i


def two_args(a, b, c):
    a.add_(c)
    c.mul_(b)
    c.sub_(a)
    return b * 2


def return_mutated(x, y):
    return x.mul_(y)


CASES = {
    "add_one": (add_one, lambda: (_randn(4, 3),)),
    "clone_mul_relu": (clone_mul_relu, lambda: (_randn(4, 3),)),
    "index_put": (index_put, lambda: (_randn(2, 3), torch.tensor([3, 1]))),
    "copy_out": (copy_out, lambda: (torch.zeros(2, 3), _randn(3))),
    "chain_on_arg": (chain_on_arg, lambda: (_randn(5), _randn(5, seed=1))),
    "masked_fill": (masked_fill, lambda: (_randn(4, 3),)),
    "accumulate": (accumulate, lambda: (_randn(5, 2), torch.tensor([4, 0, 2]),
                                        _randn(3, 2, seed=1))),
    "fill_zero": (fill_zero, lambda: (_randn(6),)),
    "promote": (promote, lambda: (_randn(6), _randn(6, seed=1).double())),
    "integers": (integers, lambda: (torch.arange(-5, 5), torch.arange(10) * 7)),
    "two_args": (two_args, lambda: (_randn(3), _randn(3, seed=1), _randn(3, seed=2))),
    "return_mutated": (return_mutated, lambda: (_randn(4), _randn(4, seed=1))),
}


def _copy_back(text):
    """The argument index of each copy-back result, in result order."""
    sig = re.search(r"func\.func @forward\((.*)\) -> (.*) \{", text)
    assert sig, text
    return [int(i) for i in re.findall(r"tp\.copy_back = (\d+)", sig.group(2))]


def _mutated_args(text):
    sig = re.search(r"func\.func @forward\((.*?)\) ->", text).group(1)
    return [i for i, a in enumerate(sig.split("%arg")[1:]) if "tp.mutated" in a]


def _bits(t):
    a = t.detach().numpy() if isinstance(t, torch.Tensor) else np.asarray(t)
    return a.dtype, a.shape, a.tobytes()


@pytest.mark.parametrize("name", sorted(CASES))
def test_functionalized_matches_eager(name):
    fn, make = CASES[name]
    inputs = make()
    text = import_torch(fn, *inputs, functionalize=False)
    assert [_bits(a) for a in inputs] == [_bits(a) for a in make()], \
        "importing must not mutate the example inputs"
    assert re.search(r"tp\.\w+_[ .]", text), text        # in-place ops imported

    # The interpreter refuses in-place ops.
    with pytest.raises(stax.StaxError, match="run --stax-functionalize first"):
        stax.interpret(text, "forward", *make())

    out_text = stax.run_pipeline(text, PIPELINE)
    assert not re.search(r"= tp\.\w+_[ .]", out_text), out_text
    results = stax.interpret(out_text, "forward", *make())

    eager_inputs = make()
    ref = fn(*eager_inputs)
    ref = list(ref) if isinstance(ref, tuple) else [ref]
    copy_back = _copy_back(out_text)
    assert len(results) == len(ref) + len(copy_back)
    for i, (ours, theirs) in enumerate(zip(results, ref)):
        assert _bits(ours) == _bits(theirs), "result #%d: %s vs %s" % (i, ours, theirs)
    # Exactly the arguments eager mutated are copied back, with their final
    # contents.
    changed = [i for i, (a, b) in enumerate(zip(make(), eager_inputs))
               if _bits(a) != _bits(b)]
    assert sorted(copy_back) == changed == _mutated_args(out_text)
    for ours, arg in zip(results[len(ref):], copy_back):
        assert _bits(ours) == _bits(eager_inputs[arg])
    # The default import (PyTorch's functionalization, then this pass for
    # the writes to arguments) computes the same results and copy-backs.
    default = stax.interpret(import_torch(fn, *make()), "forward", *make())
    assert [_bits(r) for r in default] == [_bits(r) for r in results]


def test_mutation_through_view_is_reported():
    def fn(x):
        x.view(-1).add_(1)
        return x
    text = import_torch(fn, _randn(4, 3), functionalize=False)
    with pytest.raises(stax.StaxError,
                       match=r"'tp.add_.Scalar' op mutates the result of 'tp.view': "
                             r"mutation through a view is not supported yet"):
        stax.run_pipeline(text, PIPELINE)


def test_unsupported_inplace_overload_is_rejected():
    with pytest.raises(stax.StaxError,
                       match=r"in-place operator aten\.exp_\.default at node %exp_"):
        import_torch(lambda a: a.clone().exp_(), _randn(3), functionalize=False)
