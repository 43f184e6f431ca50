"""stax.compile's keyword options: invalid values raise at compile() (not
as a raw OSError, or a silent wrong setting, at the first call); what
debug_dir receives and how its files are numbered; a call eager refuses
with a TypeError raises it without a fallback warning."""

import functools
import re
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import stax
from stax._capi import run_pipeline


@pytest.fixture(autouse=True)
def _no_fallbacks():
    """A stax.compile warning the test does not expect fails it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*stax.compile.*")
        yield


def _log(x):
    return x.log()


# -- check_nan ----------------------------------------------------------

@pytest.mark.parametrize("value, shown", [
    ("false", "'false' (str)"), ("no", "'no' (str)"), (0, "0 (int)"),
    (None, "None (NoneType)")])
def test_check_nan_must_be_a_bool(value, shown):
    """A string was truthy: check_nan="false" turned checking on."""
    with pytest.raises(TypeError, match=re.escape(
            f"stax.compile: check_nan must be True or False, got {shown}")):
        stax.compile(_log, check_nan=value)


def test_check_nan_false_and_numpy_bools_are_accepted():
    x = -torch.ones(3)
    for off in (False, np.bool_(False)):
        assert torch.isnan(stax.compile(_log, check_nan=off)(x)).all()
    with pytest.raises(stax.StaxError, match="NaN"):
        stax.compile(_log, check_nan=np.bool_(True))(x)


# -- debug_dir and cache_dir values ---------------------------------------

@pytest.mark.parametrize("option", ["debug_dir", "cache_dir"])
@pytest.mark.parametrize("value, error, message", [
    (5, TypeError, "{option} must be a directory path (str or os.PathLike), "
                   "got int"),
    (b"dir", TypeError, "{option} must be a directory path (str or "
                        "os.PathLike), got bytes"),
    ("", ValueError, "{option}='' names no directory (pass None for none)"),
])
def test_directory_options_that_name_no_directory_raise(option, value, error,
                                                         message):
    with pytest.raises(error, match=re.escape(
            "stax.compile: " + message.format(option=option))):
        stax.compile(_log, **{option: value})


@pytest.mark.parametrize("option", ["debug_dir", "cache_dir"])
def test_directory_options_naming_a_file_raise(option, tmp_path):
    """debug_dir raised FileExistsError at the first call; cache_dir was
    silently no cache."""
    path = tmp_path / "file"
    path.write_text("a file")
    with pytest.raises(ValueError, match=re.escape(
            f"stax.compile: {option}={str(path)!r} is a file, not a directory")):
        stax.compile(_log, **{option: str(path)})


def test_a_debug_dir_that_cannot_be_made_raises_at_compile(tmp_path):
    (tmp_path / "file").write_text("a file")
    under = tmp_path / "file" / "debug"
    with pytest.raises(ValueError, match=re.escape(
            f"stax.compile: debug_dir={str(under)!r}: cannot write files "
            f"there (Not a directory)")):
        stax.compile(_log, debug_dir=under)


def test_a_cache_dir_that_cannot_be_made_warns_once_and_computes(tmp_path):
    """An unusable cache only loses the cache (test_disk_cache): one
    warning at compile(), none at the calls."""
    (tmp_path / "file").write_text("a file")
    under = tmp_path / "file" / "cache"
    with pytest.warns(UserWarning, match=re.escape(
            f"stax.compile: cache_dir={str(under)!r}: cannot write there "
            f"(Not a directory); compiled code is not kept on disk")) as record:
        f = stax.compile(_log, cache_dir=under)
    assert len(record) == 1
    x = torch.rand(5) + 0.5
    torch.testing.assert_close(f(x), x.log())


def test_path_objects_are_accepted(tmp_path):
    f = stax.compile(_log, debug_dir=tmp_path / "dbg")
    x = torch.rand(3) + 0.5
    torch.testing.assert_close(f(x), x.log())
    assert (tmp_path / "dbg" / "00-tp.mlir").exists()


# -- arguments eager refuses ------------------------------------------------

def _sin(x):
    return x.sin()


@pytest.mark.parametrize("args, kwargs, message", [
    ((torch.ones(2), torch.ones(2)), {}, "takes 1 positional argument but 2 were given"),
    ((), {}, "missing 1 required positional argument: 'x'"),
    ((torch.ones(2),), {"y": 3}, "got an unexpected keyword argument 'y'"),
])
def test_arguments_eager_refuses_raise_its_type_error_without_a_warning(
        args, kwargs, message):
    """A 'runs _sin in PyTorch' warning (a failed trace) came first."""
    f = stax.compile(_sin)
    with pytest.raises(TypeError, match=re.escape(message)):
        f(*args, **kwargs)
    x = torch.randn(2)
    torch.testing.assert_close(f(x), x.sin())
    assert f._count == 1


def test_a_module_called_with_too_many_arguments_raises_without_a_warning():
    m = stax.compile(torch.nn.Linear(2, 2))
    with pytest.raises(TypeError, match=re.escape(
            "forward() takes 2 positional arguments but 3 were given")):
        m(torch.ones(2), torch.ones(2))


def test_signatures_a_wrapper_or_pre_hook_changes_still_compile():
    """The wrapper's own signature is read (functools.wraps names the
    wrapped function's), and a module with forward pre-hooks, which may
    change its arguments, is not checked."""
    def scaled(fn):
        @functools.wraps(fn)
        def wrapper(x, scale):
            return fn(x) * scale
        return wrapper
    f = stax.compile(scaled(_sin))
    x = torch.randn(3)
    torch.testing.assert_close(f(x, 2.0), x.sin() * 2.0)
    assert f._count == 1

    class Pair(torch.nn.Module):
        def forward(self, a, b):
            return a * b
    pair = Pair()
    pair.register_forward_pre_hook(lambda m, args: (args[0], args[0] + 1))
    compiled = stax.compile(pair)
    assert torch.equal(compiled(x), x * (x + 1)) and compiled._count == 1


# -- what debug_dir receives ----------------------------------------------

def _shapes(path):
    return set(re.findall(r"tensor<\d+xf32>", path.read_text()))


def test_debug_dir_numbers_each_plan_s_files_its_backward_s_too(tmp_path):
    """The backward, compiled at the first backward(), took the number of
    the plan built last: plan 0's went to 01-*, and with two plans both
    backwards went to 02-*."""
    f = stax.compile(lambda x: (x * 2).sin().sum(), debug_dir=str(tmp_path))
    ys = [f(torch.randn(n, requires_grad=True)) for n in (3, 5)]
    for y in ys:
        y.backward()
    stages = ["tp.mlir", "joint.mlir", "mincut.dot", "split.mlir",
              "forward_forward.stax.mlir", "forward_forward.ll",
              "forward_backward.stax.mlir", "forward_backward.ll"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{k:02d}-{s}" for k in (0, 1) for s in stages)
    for k, n in ((0, 3), (1, 5)):
        for s in stages:
            if s.endswith("mlir"):
                assert _shapes(tmp_path / f"{k:02d}-{s}") == {f"tensor<{n}xf32>"}


W = torch.randn(10, 4, requires_grad=True)


def _split(x):
    idx = (x.sin() * 5).long().abs() % 10      # a partition
    e = F.embedding(idx, W, sparse=True)        # runs in PyTorch
    return (e.sum(0) * x).exp().cos()           # another partition


def test_debug_dir_numbers_the_partitions_of_a_split_function_apart(tmp_path):
    """Each partition counted from 00 and overwrote the other's files."""
    f = stax.compile(_split, debug_dir=str(tmp_path))
    with pytest.warns(UserWarning, match="no Stax import"):
        f(torch.randn(4, requires_grad=True)).sum().backward()
    modules = sorted(tmp_path.glob("*-tp.mlir"))
    assert [p.name for p in modules] == ["00-tp.mlir", "01-tp.mlir"]
    texts = [p.read_text() for p in modules]
    assert "tp.sin" in texts[0] and "tp.exp" not in texts[0]
    assert "tp.exp" in texts[1] and "tp.sin" not in texts[1]


def test_compiled_functions_sharing_a_debug_dir_do_not_overwrite(tmp_path):
    x = torch.randn(3)
    stax.compile(lambda x: x.sin(), debug_dir=str(tmp_path))(x)
    stax.compile(lambda x: x.cos(), debug_dir=str(tmp_path))(x)
    assert "tp.sin" in (tmp_path / "00-tp.mlir").read_text()
    assert "tp.cos" in (tmp_path / "01-tp.mlir").read_text()


def test_debug_dir_stax_ir_is_lowered_with_the_lowering_options(tmp_path):
    """The NN-*.stax.mlir files ran stax-lowering-pipeline without the
    options: split-reductions=false still showed the split reduction."""
    def f(x):
        return (x.exp() * 2).sin().sum()
    x = torch.randn(1 << 20)
    plain, unsplit = tmp_path / "plain", tmp_path / "unsplit"
    stax.compile(f, debug_dir=str(plain))(x)
    stax.compile(f, debug_dir=str(unsplit),
                 options="split-reductions=false vector-width=4")(x)
    tp = (plain / "00-tp.mlir").read_text()
    assert (unsplit / "00-forward.stax.mlir").read_text() == run_pipeline(
        tp, "builtin.module(stax-lowering-pipeline{split-reductions=false})")
    assert (plain / "00-forward.stax.mlir").read_text() == run_pipeline(
        tp, "builtin.module(stax-lowering-pipeline)")
    assert (unsplit / "00-forward.stax.mlir").read_text().count("stax.reduction") \
        < (plain / "00-forward.stax.mlir").read_text().count("stax.reduction")



def test_debug_dir_names_each_higher_derivative_apart(tmp_path):
    """Every vjp was NN-vjpK.mlir and compiled as NN-forward.*: the
    variants of one order overwrote each other's files."""
    f = stax.compile(lambda x, w: (x * w).sin().sum(), debug_dir=str(tmp_path))
    x, w = torch.randn(3, requires_grad=True), torch.randn(3, requires_grad=True)
    gx, gw = torch.autograd.grad(f(x, w), (x, w), create_graph=True)
    (gx.sum() + gw.sum()).backward()
    gx, = torch.autograd.grad(f(x, w), (x,), create_graph=True)
    gx.sum().backward()
    vjps = sorted(p.name for p in tmp_path.glob("*vjp*"))
    assert vjps == ["00-vjp1-wrt0.mlir", "00-vjp1-wrt0_1.mlir"] + [
        f"00-vjp2-{chain}.{ext}" for chain in ("wrt0-wrt0_1", "wrt0_1-wrt0_1")
        for ext in ("ll", "mlir", "stax.mlir")]
