"""Large results of compiled calls live in the runtime's heap
(stax.host_memory): right tensors, blocks reused only once every tensor over
them is gone."""

import gc

import pytest
import torch

import stax
from stax import host_memory

MIB = 1 << 20


@pytest.fixture(autouse=True)
def empty_heap():
    gc.collect()
    host_memory.trim()
    yield
    gc.collect()
    host_memory.trim()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16,
                                   torch.bfloat16, torch.int64, torch.int32,
                                   torch.int8, torch.uint8, torch.bool])
def test_empty_is_a_contiguous_tensor_of_the_shape_and_dtype(dtype):
    t = host_memory.empty((3, 512, 700), dtype)
    assert t.shape == (3, 512, 700) and t.dtype == dtype
    assert t.is_contiguous() and t.device.type == "cpu"
    assert t.data_ptr() % 64 == 0
    t.fill_(1)
    assert bool((t == 1).all())


def test_a_freed_block_is_reused_and_a_live_one_never():
    t = host_memory.empty((MIB,), torch.float32)
    first = t.data_ptr()
    del t
    assert host_memory.cached_bytes() >= 4 * MIB
    u = host_memory.empty((MIB,), torch.float32)
    assert u.data_ptr() == first
    # A view keeps the block: the next allocation takes another one.
    view = u[1:]
    u.fill_(7)
    del u
    w = host_memory.empty((MIB,), torch.float32)
    assert w.data_ptr() != first
    w.fill_(-1)
    assert bool((view == 7).all())


def test_trim_returns_the_kept_blocks():
    del_me = host_memory.empty((2 * MIB,), torch.float32)
    del del_me
    assert host_memory.cached_bytes() >= 8 * MIB
    host_memory.trim()
    assert host_memory.cached_bytes() == 0


def test_storage_cannot_grow():
    t = host_memory.empty((MIB,), torch.float32)
    t.resize_(10)  # shrinking keeps the storage
    with pytest.raises(RuntimeError, match="not resizable"):
        t.resize_(2 * MIB)


def test_large_results_of_a_compiled_call_come_from_the_heap():
    f = stax.compile(lambda a, b: (a + b, a * b, (a - b).sum()))
    a, b = torch.randn(512, 1024), torch.randn(512, 1024)
    with torch.no_grad():
        s1, p1, r1 = f(a, b)
        kept = s1.clone()
        ptr = p1.data_ptr()
        del p1
        gc.collect()
        s2, p2, r2 = f(a, b)
    # p1's block went back and came out again; s1 is alive, so never it.
    assert ptr in (s2.data_ptr(), p2.data_ptr())
    assert s1.data_ptr() not in (s2.data_ptr(), p2.data_ptr())
    assert torch.equal(s1, kept) and torch.equal(s2, a + b)
    assert torch.equal(p2, a * b)
    assert r1.data_ptr() != r2.data_ptr() and torch.equal(r1, r2)


def test_gradients_in_heap_blocks_accumulate_and_outlive_the_call():
    # param.grad holds the first call's gradient block; later calls add into
    # it while their own blocks come and go.
    model = torch.nn.Linear(1024, 512)
    f = stax.compile(model)
    x = torch.randn(16, 1024)
    once = [g.clone() for g in torch.autograd.grad(
        f(x).square().sum(), list(model.parameters()))]
    assert once[0].numel() * 4 >= MIB
    for _ in range(3):
        f(x).square().sum().backward()
        gc.collect()
    for p, g in zip(model.parameters(), once):
        assert torch.equal(p.grad, g + g + g)
