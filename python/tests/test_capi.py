"""The C API surface through ctypes: errors are StaxError with MLIR
diagnostics (line:col), never crashes."""

import re
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import stax
from stax.importer import import_torch

warnings.filterwarnings("ignore")

LOC = re.compile(r"<input>:\d+:\d+: error")

ADD = """module {
  func.func @forward(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>) -> tensor<4x3xf32> {
    %0 = tp.add %arg0, %arg1 : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
    return %0 : tensor<4x3xf32>
  }
}
"""


def test_run_pipeline_round_trip_and_generic():
    assert stax.run_pipeline(ADD) == ADD
    generic = stax.run_pipeline(ADD, generic=True)
    assert '"tp.add"' in generic
    assert stax.run_pipeline(generic) == ADD


def test_run_pipeline_pass():
    text = ADD.replace("%0 = tp.add %arg0, %arg1",
                       "%1 = tp.clone %arg0 : tensor<4x3xf32> -> tensor<4x3xf32>\n"
                       "    %0 = tp.add %1, %arg1")
    out = stax.run_pipeline(text, "builtin.module(canonicalize)")
    assert "tp.clone" not in out


def test_time_pipeline():
    """Returns (best, median) in ms; no assertion about the values beyond
    their order (timing is not tested)."""
    for verify in (False, True):
        best, median = stax.time_pipeline(ADD, "builtin.module(canonicalize)",
                                          reps=3, verify=verify)
        assert 0 <= best <= median
    with pytest.raises(stax.StaxError, match="invalid pass pipeline"):
        stax.time_pipeline(ADD, "builtin.module(no-such-pass)")
    with pytest.raises(stax.StaxError, match="error"):
        stax.time_pipeline("module { func.func @f( }", "builtin.module()")


@pytest.mark.parametrize("text, where", [
    ("module { func.func @f( }", "1:23"),                         # syntax
    (ADD.replace("tensor<3xf32> -> tensor<4x3xf32>\n",
                 "tensor<3xf32> -> tensor<4x3xf64>\n"), "4:12"),  # type use
    (ADD.replace("tensor<3xf32>", "tensor<4xf32>"), "3:10"),      # verifier
])
def test_malformed_ir_reports_line_col(text, where):
    with pytest.raises(stax.StaxError) as e:
        stax.run_pipeline(text)
    msg = str(e.value)
    assert LOC.search(msg), msg
    assert f"<input>:{where}:" in msg, msg


def test_verifier_error_names_op():
    bad = ADD.replace("tensor<3xf32> -> tensor<4x3xf32>\n",
                      "tensor<3xf32> -> tensor<4x4xf32>\n").replace(
        "return %0 : tensor<4x3xf32>", "return %0 : tensor<4x4xf32>").replace(
        "-> tensor<4x3xf32> {", "-> tensor<4x4xf32> {")
    with pytest.raises(stax.StaxError, match=r"<input>:3:\d+: error: 'tp.add' op"):
        stax.run_pipeline(bad)


def test_error_messages_carry_no_remarks():
    """A pipeline that fails after passes emitted remarks (stax-lower's
    external-call remark here) reports its errors only: a failing compile
    used to list hundreds of remarks before its one error."""
    text = ("func.func @f(%x: tensor<4x4xf32> {tp.requires_grad}) -> tensor<f32> {\n"
            "  %y = tp.mm %x, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>\n"
            "  %s = tp.sum %y {dims = array<i64>} : tensor<4x4xf32> -> tensor<f32>\n"
            "  return %s : tensor<f32>\n}\n")
    with pytest.raises(stax.StaxError) as e:
        stax.run_pipeline(text, "builtin.module(func.func(stax-lower),stax-joint-graph)")
    msg = str(e.value)
    assert msg.startswith("<input>:1:1: error: no floating-point result of @f "
                          "depends differentiably"), msg
    assert "remark" not in msg, msg


def test_unknown_pass_pipeline():
    with pytest.raises(stax.StaxError):
        stax.run_pipeline(ADD, "builtin.module(no-such-pass)")


def test_pipeline_options_are_checked_with_the_culprit_named():
    """The compile path's option check: an unknown name comes with the
    parser's message, a value that does not parse names its key=value
    (LLVM reports those on stderr only), valid options pass."""
    from stax._capi import Executable, check_pipeline_options
    check_pipeline_options("")
    check_pipeline_options("vector-width=4 parallel=false target=cuda")
    with pytest.raises(stax.StaxError, match="no such option widht"):
        check_pipeline_options("widht=4")
    with pytest.raises(stax.StaxError, match="'grain=lots' is not a valid value "
                                        "for option 'grain'"):
        check_pipeline_options("parallel=true grain=lots")
    with pytest.raises(stax.StaxError, match="invalid --stax-pipeline options"):
        Executable("func.func @f() { return }", "parallel=maybe")
    # Values the parser takes but the pipeline cannot use, before building.
    for bad, why in (("vector-width=-1", "vector-width=-1: must be at least 0"),
                     ("sm-count=0", "sm-count=0: must be at least 1"),
                     ("target=cuda chip=sm_xx", "chip=sm_xx: must name an NVIDIA GPU")):
        with pytest.raises(stax.StaxError, match=re.escape(why)):
            check_pipeline_options(bad)


def test_interpret_argument_errors():
    x, y = np.ones((4, 3), np.float32), np.ones(3, np.float32)
    assert np.array_equal(stax.interpret(ADD, "forward", x, y)[0], x + y)
    with pytest.raises(stax.StaxError, match=r"expects 2 arguments, got 1"):
        stax.interpret(ADD, "forward", x)
    with pytest.raises(stax.StaxError, match=r"expects 2 arguments, got 3"):
        stax.interpret(ADD, "forward", x, y, y)
    with pytest.raises(stax.StaxError, match=r"argument #1 has type 'tensor<4xf32>'"):
        stax.interpret(ADD, "forward", x, np.ones(4, np.float32))
    with pytest.raises(stax.StaxError, match=r"argument #0 has type 'tensor<4x3xf64>'"):
        stax.interpret(ADD, "forward", x.astype(np.float64), y)
    with pytest.raises(stax.StaxError, match=r"no function named @nope"):
        stax.interpret(ADD, "nope", x, y)
    with pytest.raises(stax.StaxError, match=r"unsupported dtype"):
        stax.interpret(ADD, "forward", x.astype(np.complex64), y)
    with pytest.raises(stax.StaxError, match=LOC):
        stax.interpret("module {", "forward", x, y)


def test_zero_dim_arguments_keep_their_rank():
    text = import_torch(lambda a, s: a * s, torch.randn(3), torch.tensor(2.0))
    out = stax.interpret(text, "forward", np.ones(3, np.float32),
                         np.array(2.0, np.float32))[0]
    assert np.array_equal(out, np.full(3, 2.0, np.float32))


def test_out_of_range_embedding_index_is_an_error():
    idx, table = torch.tensor([[1, 2], [3, 9]]), torch.randn(10, 4)
    text = import_torch(lambda i, w: F.embedding(i, w), idx, table)
    ok = stax.interpret(text, "forward", idx, table)[0]
    assert np.array_equal(ok, F.embedding(idx, table).numpy())
    bad = np.array([[1, 100], [3, 9]])
    with pytest.raises(stax.StaxError, match=r"'tp\.embedding' op .*100 is out of bounds"):
        stax.interpret(text, "forward", bad, table)
    # The interpreter is still usable afterwards.
    assert np.array_equal(stax.interpret(text, "forward", idx, table)[0], ok)


def test_out_of_range_advanced_index_is_an_error():
    x, idx = torch.randn(8, 16), torch.tensor([0, -8, 7])
    text = import_torch(lambda a, i: a[i], x, idx)
    assert np.array_equal(stax.interpret(text, "forward", x, idx)[0], x[idx].numpy())
    with pytest.raises(stax.StaxError, match=r"'tp\.index' op index 8 is out of bounds"):
        stax.interpret(text, "forward", x, np.array([0, 8, 1]))
    with pytest.raises(stax.StaxError, match=r"'tp\.index' op index -9 is out of bounds"):
        stax.interpret(text, "forward", x, np.array([0, -9, 1]))


def test_has_kernel():
    assert stax.has_kernel("tp.add")
    assert not stax.has_kernel("tp.no_such_op")


def test_the_in_memory_cache_keeps_recent_modules_and_held_ones():
    """staxCompile keeps the 32 most recently used compiled modules and any
    an Executable holds; the rest are released (a process compiling
    thousands of distinct modules grew by 2-4 MiB per module)."""
    import ctypes
    from stax._capi import lib
    count = lib().staxCompiledModuleCount
    count.restype = ctypes.c_size_t
    count.argtypes = []

    def module(i):
        return ("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                f"  %0 = tp.add.Scalar %x {{other = {i}.5 : f64}} : "
                "tensor<4xf32> -> tensor<4xf32>\n"
                "  return %0 : tensor<4xf32>\n}\n")

    held = [stax.Executable(module(10000 + i)) for i in range(3)]
    for i in range(40):
        stax.Executable(module(20000 + i))   # dropped at once
    # 32 recent ones (all from the loop), the 3 held, and whatever other
    # tests of this process still hold (their garbage collected first).
    import gc
    gc.collect()
    with_held = count()
    assert with_held >= 32 + 3
    from stax.compile import _run
    [out] = _run(held[0], "f", [torch.ones(4)])
    assert torch.equal(out, torch.full((4,), 10000.5 + 1))
    del held, out
    gc.collect()
    assert count() == with_held - 3
    # 40 more: still 32 recent, the loop's first 40 released.
    for i in range(40):
        stax.Executable(module(30000 + i))
    assert count() == with_held - 3


@pytest.mark.parametrize("bad, error", [(1.5, TypeError), ("3", TypeError), (True, TypeError),
                                        (-1, ValueError), (1 << 32, ValueError)])
def test_set_num_threads_refuses_what_is_no_thread_count(bad, error):
    """A float, a string or a bool was converted silently (True: one
    thread), and 2^32 wrapped to 0 (all cores) through ctypes."""
    with pytest.raises(error, match="set_num_threads"):
        stax.set_num_threads(bad)
