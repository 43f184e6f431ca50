"""--stax-lower on random PyTorch programs: chains of views (transpose,
permute, reshape of non-contiguous values, strided slices, select, expand,
unsqueeze), pointwise ops with broadcasting, reductions and concatenation,
traced with make_fx. Lowering composes these index maps (Proposition 6.2),
so the interpreted `stax` must equal the interpreted `tp` bit for bit.
The programs are generated from fixed seeds: a failure is reproducible by
its test id."""

import random
import warnings

import numpy as np
import pytest
import torch

import stax

from test_lowering_corpus import assert_same_results

warnings.filterwarnings("ignore")


def _step(rng, x):
    """One random op on x (a tensor of rank >= 1)."""
    r = x.dim()
    choice = rng.randrange(12)
    if choice == 0 and r >= 2:
        a, b = rng.sample(range(r), 2)
        return x.transpose(a, b)
    if choice == 1 and r >= 2:
        perm = list(range(r))
        rng.shuffle(perm)
        return x.permute(*perm)
    if choice == 2:
        return x.reshape(-1) if r > 1 else x.reshape(x.numel() // 2, 2) \
            if x.numel() % 2 == 0 else x.reshape(1, -1)
    if choice == 3 and x.shape[-1] >= 2:
        return x[..., 1::2]
    if choice == 4 and r >= 2:
        return x.select(rng.randrange(r), -1)
    if choice == 5:
        return x.unsqueeze(rng.randrange(r + 1))
    if choice == 6:
        shape = list(x.shape)
        return x.unsqueeze(0).expand(3, *shape)
    if choice == 7:
        return torch.tanh(x) * 0.5 + x.exp().clamp(max=4.0)
    if choice == 8 and r >= 1:
        return x.sum(dim=rng.randrange(r), keepdim=bool(rng.randrange(2)))
    if choice == 9 and r >= 1:
        return torch.amax(x, dim=-1) if r > 1 else x - x.max()
    if choice == 10:
        return torch.cat([x, x[..., :1] * 0.5], dim=-1)
    if choice == 11 and r >= 2:
        return x + x.mean(dim=0, keepdim=True)
    return torch.relu(x) - 0.25


def _program(seed):
    rng = random.Random(seed)
    shape = [rng.choice([2, 3, 4, 6]) for _ in range(rng.randrange(1, 4))]
    steps = [rng.randrange(1 << 30) for _ in range(rng.randrange(3, 8))]

    def fn(x, y):
        z = x
        for s in steps:
            if z.dim() == 0 or z.numel() > 4096:
                break
            z = _step(random.Random(s), z)
        return z * 2.0 + y.sum()

    x = torch.randn(*shape, generator=torch.Generator().manual_seed(seed))
    y = torch.randn(shape[-1], generator=torch.Generator().manual_seed(seed + 1))
    return fn, x, y


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_random_program_lowers_bitwise(seed, target):
    fn, x, y = _program(seed)
    # The generator only emits ops the importer supports: an importer error
    # is a failure, never a skip.
    text = stax.import_torch(fn, x, y)
    lowered = stax.run_pipeline(
        text, "builtin.module(stax-decompose,func.func(stax-lower{target=%s}))" % target)
    assert_same_results(text, lowered)
    full = stax.run_pipeline(
        text, "builtin.module(stax-lowering-pipeline{target=%s})" % target)
    assert_same_results(text, full)
