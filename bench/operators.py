"""Single PyTorch operators, compiled (forward only, no_grad) against eager,
in one run (2 threads).

    PYTHONPATH=python /usr/bin/python3 bench/operators.py [name ...]

For each operator on 1024 x 1024 f32 tensors (a 16 x 64 x 32 x 32 batch
for convolution and pooling) it prints the median time of eager and of the
cached compiled call, their ratio, and the largest difference between the
two results (0 where the code is exact; random ops draw from other
streams, so theirs is the largest difference of two random tensors). It finds the operators whose
compiled code is slower than eager; it asserts nothing. Give names to run
a subset.
"""

import sys
import time
import warnings

import stax  # first: idle OpenMP workers of both runtimes sleep (stax/__init__.py)
import torch
import torch.nn.functional as F


def cases():
    torch.manual_seed(0)
    a, c = torch.randn(1024, 1024), torch.randn(1024, 1024)
    b = torch.randn(1024)
    idx = torch.randint(0, 1024, (1024, 1024))
    rows = torch.randint(0, 1024, (4096,))
    x4, w4 = torch.randn(16, 64, 32, 32), torch.randn(64, 64, 3, 3)
    lp = torch.randn(500, 16, 60).log_softmax(2)
    targets = torch.randint(1, 60, (16, 100))
    lengths = (torch.full((16,), 500), torch.randint(50, 101, (16,)))
    images = torch.randn(8, 3, 224, 224)
    volume = torch.randn(2, 8, 32, 32, 32)
    grid = torch.rand(2, 24, 24, 24, 3) * 2 - 1
    return {
        "sum(0)": (lambda a: a.sum(0), (a,)),
        "sum(1)": (lambda a: a.sum(1), (a,)),
        "mean()": (lambda a: a.mean(), (a,)),
        "(a + b).sum()": (lambda a, b: (a + b).sum(), (a, b)),
        "(a * b[:, None]).sum(0)": (lambda a, b: (a * b[:, None]).sum(0), (a, b)),
        "var(1)": (lambda a: a.var(1), (a,)),
        "amax(0)": (lambda a: a.amax(0), (a,)),
        "argmax(1)": (lambda a: a.argmax(1), (a,)),
        "softmax(0)": (lambda a: a.softmax(0), (a,)),
        "softmax(1)": (lambda a: a.softmax(1), (a,)),
        "logsumexp(1)": (lambda a: a.logsumexp(1), (a,)),
        "layer_norm": (lambda a: F.layer_norm(a, (1024,)), (a,)),
        "a.t() + c": (lambda a, c: a.t() + c, (a, c)),
        "cumsum(1)": (lambda a: a.cumsum(1), (a,)),
        "cumsum(0)": (lambda a: a.cumsum(0), (a,)),
        "cumsum 1-D": (lambda a: a.reshape(-1).cumsum(0), (a,)),
        "logcumsumexp(1)": (lambda a: a.logcumsumexp(1), (a,)),
        "cumprod(1)": (lambda a: (a * 0.01 + 1).cumprod(1), (a,)),
        "cummax(0)": (lambda a: a.cummax(0)[0], (a,)),
        "gather(1)": (lambda a, i: a.gather(1, i), (a, idx)),
        "tanh(gather(1))": (lambda a, i: torch.tanh(a.gather(1, i)), (a, idx)),
        "scatter_add(0)": (lambda a, i, c: a.scatter_add(0, i, c), (a, idx, c)),
        "index_select(0)": (lambda a, r: a.index_select(0, r), (a, rows)),
        "where": (lambda a, c: torch.where(a > 0, a, c), (a, c)),
        "cat(1)": (lambda a, c: torch.cat([a, c], 1), (a, c)),
        "pad": (lambda a: F.pad(a, (1, 1, 1, 1)), (a,)),
        "flip(1)": (lambda a: a.flip(1), (a,)),
        "mm": (lambda a, c: a @ c, (a, c)),
        "conv2d 3x3": (lambda x, w: F.conv2d(x, w, padding=1), (x4, w4)),
        "max_pool2d": (lambda x: F.max_pool2d(x, 2), (x4,)),
        "avg_pool2d": (lambda x: F.avg_pool2d(x, 2), (x4,)),
        "batch_norm": (lambda x: F.batch_norm(x, None, None, training=True), (x4,)),
        "gelu": (lambda a: F.gelu(a), (a,)),
        "dropout(0.1)": (lambda a: F.dropout(a, 0.1), (a,)),
        "rand_like": (lambda a: torch.rand_like(a), (a,)),
        "cross_entropy": (lambda a, r: F.cross_entropy(a, r[:1024]), (a, rows)),
        "sort(1)": (lambda a: a.sort(1)[0], (a,)),
        "sort(0)": (lambda a: a.sort(0)[0], (a,)),
        "argsort(1) int64": (lambda i: i.argsort(1), ((a * 1000).long(),)),
        "median(1)": (lambda a: a.median(1)[0], (a,)),
        "topk(5, 1)": (lambda a: a.topk(5, 1)[0], (a,)),
        "mode(1)": (lambda a: (a * 4).round().mode(1)[0], (a,)),
        "cross_entropy ls=0.1": (lambda a, r: F.cross_entropy(a, r[:1024], label_smoothing=0.1),
                                 (a, rows)),
        "ctc_loss T=500": (lambda lp, t, il, tl: F.ctc_loss(lp, t, il, tl),
                           (lp, targets) + lengths),
        "resize antialias 224->112": (lambda x: F.interpolate(
            x, size=(112, 112), mode="bilinear", antialias=True), (images,)),
        "grid_sample 3-D": (lambda v, g: F.grid_sample(v, g, align_corners=False),
                            (volume, grid)),
        "mixup (randperm)": (lambda a: 0.7 * a + 0.3 * a[torch.randperm(1024)], (a,)),
    }


def median_ms(fn, args, reps=15):
    fn(*args)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2] * 1e3


def main():
    warnings.simplefilter("ignore")
    torch.set_num_threads(2)
    table = cases()
    names = sys.argv[1:] or list(table)
    print(f"{'operator':26s} {'eager ms':>9s} {'stax ms':>9s} {'speed-up':>9s} {'max diff':>9s}")
    for name in names:
        fn, args = table[name]
        compiled = stax.compile(fn)
        with torch.no_grad():
            got, want = compiled(*args), fn(*args)
            diff = float((got.double() - want.double()).abs().max())
            eager, ours = median_ms(fn, args), median_ms(compiled, args)
        print(f"{name:26s} {eager:9.3f} {ours:9.3f} {eager / ours:8.2f}x {diff:9.2g}",
              flush=True)


if __name__ == "__main__":
    main()
