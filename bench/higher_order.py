"""Second derivatives through compiled modules against eager, in one run
(2 threads).

    PYTHONPATH=python /usr/bin/python3 bench/higher_order.py

Workloads that differentiate a gradient (create_graph=True):
- a WGAN-GP critic step: loss = D(fake) - D(real) + 10 (|grad_x D(mix)| - 1)^2,
  then the parameters' gradients (the penalty's is a second derivative),
  with the critic compiled and, second, the whole loss compiled (the inner
  torch.autograd.grad traced into it);
- a Hessian-vector product of a TransformerEncoderLayer's loss with
  respect to its parameters (reverse over reverse).
For each it prints eager's and the compiled module's median step time,
their ratio, the first step's time (tracing and compiling the forward,
the backward and the two joint graphs of the double backward) and, for
both, the largest error of a result relative to its largest magnitude,
against eager in float64 (the float32 rounding of these second
derivatives is large: eager's own error is the yardstick). It asserts
nothing.
"""

import time
import warnings

import stax  # first: idle OpenMP workers of both runtimes sleep (stax/__init__.py)
import torch
import torch.nn as nn


def critic():
    return nn.Sequential(nn.Linear(64, 512), nn.LeakyReLU(0.2),
                         nn.Linear(512, 512), nn.LeakyReLU(0.2),
                         nn.Linear(512, 1))


def gp_step(d, params, real, fake, alpha):
    mix = (alpha * real + (1 - alpha) * fake).requires_grad_()
    (g,) = torch.autograd.grad(d(mix).sum(), mix, create_graph=True)
    loss = d(fake).mean() - d(real).mean() + 10 * ((g.norm(dim=1) - 1) ** 2).mean()
    grads = torch.autograd.grad(loss, params)
    return [loss.detach()] + list(grads)


class PenalizedLoss(nn.Module):
    """The WGAN-GP critic loss as one module: compiled whole, the inner
    torch.autograd.grad is traced into the function."""

    def __init__(self, critic):
        super().__init__()
        self.critic = critic

    def forward(self, real, fake, alpha):
        mix = (alpha * real + (1 - alpha) * fake).requires_grad_()
        (g,) = torch.autograd.grad(self.critic(mix).sum(), mix, create_graph=True)
        penalty = ((g.norm(dim=1) - 1) ** 2).mean()
        return self.critic(fake).mean() - self.critic(real).mean() + 10 * penalty


def whole_loss_step(loss, params, real, fake, alpha):
    value = loss(real, fake, alpha)
    return [value.detach()] + list(torch.autograd.grad(value, params))


def hvp_step(layer, params, x, vs):
    loss = layer(x).pow(2).mean()
    grads = torch.autograd.grad(loss, params, create_graph=True)
    dot = sum((g * v).sum() for g, v in zip(grads, vs))
    return list(torch.autograd.grad(dot, params))


def workloads():
    """(name, module constructor, bind): bind(module, dtype) gives the step
    function and its arguments in that dtype."""
    torch.manual_seed(0)
    real, fake = torch.randn(256, 64) + 1, torch.randn(256, 64)
    alpha = torch.rand(256, 1)
    yield ("WGAN-GP critic 64-512-512-1, batch 256", critic,
           lambda m, dt: (gp_step, (m, list(m.parameters()), real.to(dt),
                                    fake.to(dt), alpha.to(dt))))
    yield ("WGAN-GP loss compiled whole (autograd.grad inside)",
           lambda: PenalizedLoss(critic()),
           lambda m, dt: (whole_loss_step, (m, list(m.parameters()), real.to(dt),
                                            fake.to(dt), alpha.to(dt))))
    x = torch.randn(8, 64, 128)

    def layer():
        return nn.TransformerEncoderLayer(128, 4, 512, dropout=0.0,
                                          batch_first=True)
    vs = [torch.randn(p.shape) for p in layer().parameters()]
    yield ("HVP of TransformerEncoderLayer d=128, 8x64 tokens", layer,
           lambda m, dt: (hvp_step, (m, list(m.parameters()), x.to(dt),
                                     [v.to(dt) for v in vs])))


def median_ms(fn, args, reps=11):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return sorted(times)[len(times) // 2] * 1e3


def rel_err(got, ref):
    return max(float((a.double() - b).abs().max() / max(1e-300, float(b.abs().max())))
               for a, b in zip(got, ref))


def float64_reference(make, state, bind):
    m = make().double()
    m.load_state_dict(state)
    fn, args = bind(m, torch.float64)
    return fn(*args)


def main():
    torch.set_num_threads(2)
    warnings.simplefilter("error")  # a fallback to PyTorch would be an error
    print(f"{'workload':52s} {'eager ms':>9s} {'stax ms':>9s} {'speed-up':>9s}"
          f" {'first s':>8s} {'eager err':>10s} {'stax err':>10s}")
    for name, make, bind in workloads():
        eager = make()
        mine = make()
        mine.load_state_dict(eager.state_dict())
        compiled = stax.compile(mine)
        fn, args = bind(compiled, torch.float32)
        t = time.perf_counter()
        got = fn(*args)
        first = time.perf_counter() - t
        efn, eargs = bind(eager, torch.float32)
        want = efn(*eargs)
        ref = float64_reference(make, eager.state_dict(), bind)
        e_ms, s_ms = median_ms(efn, eargs), median_ms(fn, args)
        print(f"{name:52s} {e_ms:9.2f} {s_ms:9.2f} {e_ms / s_ms:8.2f}x"
              f" {first:8.2f} {rel_err(want, ref):10.2e} {rel_err(got, ref):10.2e}")


if __name__ == "__main__":
    main()
