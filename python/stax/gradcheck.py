"""Numeric checks of derivative rules, in float64 through the interpreter.

A *case* is a module with one `func.func @f` whose differentiated arguments
carry `{tp.requires_grad}`, plus one spec per argument:

    ("float", shape)             random in [-1, 1], differentiated
    ("positive", shape)          random in [0.5, 1.5], differentiated
    ("fixed", shape)             random in [-1, 1], not differentiated
    ("index", shape, low, high)  int64 in [low, high)
    ("bool", shape)

`check_vjp` compares the joint graph's gradients with central differences
along a random direction: <u, (f(x + h v) - f(x - h v)) / 2h> = <J^T u, v>.
`check_jvp` is the dot-product test <u, J v> = <J^T u, v> between
--stax-jvp and --stax-joint-graph. `second_order_case` turns a case into the
case of its joint graph (tangents fixed), so the same checks differentiate
every VJP again.

Tolerances: central differences have truncation error O(h^2 |f'''|) and
rounding error O(eps |f| / h); with h = 1e-6 in float64 both are below
1e-9 relative to the scale of the terms, so `rtol` defaults to 1e-6.
"""

from typing import List, Sequence, Tuple

import numpy as np

import stax

H = 1e-6


def _differentiated(spec) -> bool:
    return spec[0] in ("float", "positive")



def tensor_type(shape, elt: str = "f64") -> str:
    """`tensor<2x3xf64>` for shape (2, 3); `tensor<f64>` for ()."""
    dims = "x".join(str(d) for d in shape)
    return "tensor<%s%s>" % (dims + "x" if dims else "", elt)


def case_module(args, body, results) -> str:
    """The module text of a case. args: [(name, type, differentiated)],
    body: op lines, results: [(value, type)]."""
    sig = ", ".join("%%%s: %s%s" % (n, t, " {tp.requires_grad}" if d else "")
                    for n, t, d in args)
    rtypes = ", ".join(t for _, t in results)
    if len(results) > 1:
        rtypes = "(" + rtypes + ")"
    lines = ["module {", "  func.func @f(%s) -> %s {" % (sig, rtypes)]
    lines += ["    " + l for l in body]
    lines.append("    return %s : %s" % (", ".join(v for v, _ in results),
                                         ", ".join(t for _, t in results)))
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def random_args(specs: Sequence[tuple], seed: int = 0) -> List[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for spec in specs:
        kind, shape = spec[0], tuple(spec[1])
        if kind in ("float", "fixed"):
            out.append(rng.uniform(-1.0, 1.0, shape))
        elif kind == "positive":
            out.append(rng.uniform(0.5, 1.5, shape))
        elif kind == "index":
            out.append(rng.integers(spec[2], spec[3], shape, dtype=np.int64))
        elif kind == "bool":
            out.append(rng.integers(0, 2, shape).astype(np.bool_))
        else:
            raise ValueError("unknown arg spec %r" % (spec,))
    return out


def _f(text: str, args, entry: str = "f"):
    return stax.interpret(text, entry, *args, f64=True)


def _float_outputs(outs) -> List[int]:
    return [i for i, o in enumerate(outs) if np.issubdtype(o.dtype, np.floating)]


def _dot(a, b) -> float:
    return float(np.sum(np.asarray(a, np.float64) * np.asarray(b, np.float64)))


def _scale(*terms) -> float:
    return max([1.0] + [float(np.sum(np.abs(t))) for t in terms])


def joint(text: str) -> str:
    return stax.run_pipeline(text, "builtin.module(stax-joint-graph)")


def jvp(text: str) -> str:
    return stax.run_pipeline(text, "builtin.module(stax-jvp)")


def vjp_and_point(text: str, specs, seed: int = 0):
    """Returns (args, cotangents u, outputs, gradients) at a random point."""
    args = random_args(specs, seed)
    outs = _f(text, args)
    floats = _float_outputs(outs)
    rng = np.random.default_rng(seed + 1)
    u = [rng.uniform(-1, 1, outs[i].shape) for i in floats]
    res = _f(joint(text), args + u)
    return args, u, outs, res[len(outs):]


def check_vjp(text: str, specs, seed: int = 0, rtol: float = 1e-6) -> None:
    args, u, outs, grads = vjp_and_point(text, specs, seed)
    diff = [i for i, s in enumerate(specs) if _differentiated(s)]
    assert len(grads) == len(diff), "expected %d gradients, got %d" % (len(diff), len(grads))
    floats = _float_outputs(outs)
    rng = np.random.default_rng(seed + 2)
    for k, i in enumerate(diff):
        v = rng.uniform(-1, 1, args[i].shape)
        plus, minus = list(args), list(args)
        plus[i] = args[i] + H * v
        minus[i] = args[i] - H * v
        fp, fm = _f(text, plus), _f(text, minus)
        fd = sum(_dot(uj, (fp[j] - fm[j]) / (2 * H)) for uj, j in zip(u, floats))
        an = _dot(grads[k], v)
        scale = _scale(*(uj * outs[j] for uj, j in zip(u, floats)), grads[k] * v)
        assert abs(fd - an) <= rtol * scale, (
            "VJP of argument #%d: <J^T u, v> = %.12g but finite differences "
            "give %.12g (scale %.3g)" % (i, an, fd, scale))


def check_jvp(text: str, specs, seed: int = 0, rtol: float = 1e-9) -> None:
    args, u, outs, grads = vjp_and_point(text, specs, seed)
    diff = [i for i, s in enumerate(specs) if _differentiated(s)]
    float_args = [i for i, a in enumerate(args) if np.issubdtype(a.dtype, np.floating)]
    rng = np.random.default_rng(seed + 3)
    # Tangents for every floating argument; zero for those not differentiated.
    v = {i: (rng.uniform(-1, 1, args[i].shape) if i in diff else np.zeros_like(args[i]))
         for i in float_args}
    res = _f(jvp(text), args + [v[i] for i in float_args])
    floats = _float_outputs(outs)
    tangents = res[len(outs):]
    assert len(tangents) == len(floats)
    left = sum(_dot(uj, t) for uj, t in zip(u, tangents))
    right = sum(_dot(g, v[i]) for g, i in zip(grads, diff))
    scale = _scale(*(uj * t for uj, t in zip(u, tangents)),
                   *(g * v[i] for g, i in zip(grads, diff)))
    assert abs(left - right) <= rtol * scale, (
        "dot-product test: <u, J v> = %.15g but <J^T u, v> = %.15g" % (left, right))


def second_order_case(text: str, specs, seed: int = 0) -> Tuple[str, list]:
    """The joint graph of a case, as a case: its primal arguments stay
    differentiated, its tangent arguments become fixed inputs."""
    outs = _f(text, random_args(specs, seed))
    tangent_specs = [("fixed", outs[i].shape) for i in _float_outputs(outs)]
    return joint(text), list(specs) + tangent_specs
