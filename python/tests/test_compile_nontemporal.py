"""Non-temporal stores (nontemporal-bytes): a scalar prologue aligns the
vector stores to 64 bytes wherever a result starts (arena offsets, rows of
odd length, views), the values are bitwise the ordinary stores', with and
without threads."""

import pytest
import torch

import stax


def _fn(x, y):
    a = x * y + 1.0          # rows of odd length
    b = torch.exp(a[:, 3:])  # a view at an odd offset
    c = (a.t() + 2.0)[1:]    # transposed: tiles keep ordinary stores
    return a, b * 2.0, c, (a - y).sum(0)


@pytest.mark.parametrize("rows,cols", [(3, 37), (64, 1001), (17, 4099)])
@pytest.mark.parametrize("threads", ["parallel=false", "grain=1"])
def test_nontemporal_stores_are_bitwise_the_ordinary_ones(rows, cols, threads):
    g = torch.Generator().manual_seed(rows * cols)
    x = torch.randn(rows, cols, generator=g)
    y = torch.randn(rows, cols, generator=g)
    with torch.no_grad():
        want = stax.compile(_fn, options=f"{threads} nontemporal-bytes=0")(x, y)
        got = stax.compile(_fn, options=f"{threads} nontemporal-bytes=1")(x, y)
    for w, o in zip(want, got):
        assert torch.equal(w, o)


def test_nontemporal_code_is_generated():
    # The test above compares nothing unless these stores exist.
    text = stax.import_torch(lambda x: x * 2.0, torch.randn(64, 1001))
    ir = stax.run_pipeline(
        text, "builtin.module(stax-pipeline{nontemporal-bytes=1 parallel=false})")
    stores = [l for l in ir.splitlines() if "llvm.store" in l and "nontemporal" in l]
    assert stores and all("alignment = 64" in l for l in stores)
    assert "llvm.fence seq_cst" in ir
    ir = stax.run_pipeline(
        text, "builtin.module(stax-pipeline{nontemporal-bytes=0 parallel=false})")
    assert "nontemporal" not in ir and "llvm.fence" not in ir
