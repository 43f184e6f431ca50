"""Transposed reads on shapes large enough for the tiled code
(TransposeTiles.h): permutations, slices and batch dimensions of f32, i32
and f64 tensors, with full and partial 16 x 16 tiles and several blocks of
tiles. Full tiles of 32-bit operands are staged through an in-register
transpose; the code moves values and computes each element's additions
and products in eager's order, so the results are bitwise eager's, with
and without threads."""

import random

import pytest
import torch

import stax


def _program(seed):
    rng = random.Random(seed)
    dtype = rng.choice([torch.float32, torch.float32, torch.int32,
                        torch.float64])
    rank = rng.choice([2, 2, 3])
    shape = [rng.randrange(16, 300) for _ in range(rank)]
    if rank == 3:
        shape[0] = rng.randrange(1, 4)
    perm = list(range(rank))
    while perm == list(range(rank)) or perm[-1] == rank - 1:
        rng.shuffle(perm)
    out_shape = [shape[p] for p in perm]
    lo = rng.randrange(0, 3)
    sliced = rng.random() < 0.5

    def fn(x, y, z):
        if sliced:
            x = x[..., lo:]
            x = torch.nn.functional.pad(x, (0, lo))
        t = x.permute(*perm)
        return (t * y + z) * t + y

    def make(s, gen):
        if dtype.is_floating_point:
            return torch.randn(*s, generator=gen, dtype=dtype)
        return torch.randint(-1000, 1000, s, generator=gen, dtype=dtype)

    gen = torch.Generator().manual_seed(seed)
    return fn, (make(shape, gen), make(out_shape, gen), make(out_shape, gen))


@pytest.mark.parametrize("seed", range(24))
def test_transposed_tiles_bitwise(seed):
    fn, args = _program(seed)
    want = fn(*args)
    with torch.no_grad():
        for options in ["", "grain=1", "parallel=false vector-width=8"]:
            got = stax.compile(fn, options=options)(*args)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert torch.equal(got, want), options


@pytest.mark.parametrize("options", ["", "parallel=false"])
def test_large_transposes_reuse_one_stack_tile_per_thread(options):
    """Every full tile staged through a 1 KiB stack tile allocated inside
    the tile loops, which nothing freed before the loop nest ended (the
    canonicalizer moved it out of its memref.alloca_scope): 288 x 8192
    (9 MiB of tiles) overflowed the stack."""
    x = torch.randn(288, 8192)
    fn = lambda x: x.t() + 1  # noqa: E731
    with torch.no_grad():
        got = stax.compile(fn, options=options)(x)
    assert torch.equal(got, fn(x))
