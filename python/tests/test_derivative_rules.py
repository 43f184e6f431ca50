"""Every derivative rule, checked numerically in float64.

The cases live in derivative_cases_<family>.py (one module per rule family,
next to this file): each is a module with one op of interest. For each case:
the VJP against central differences, the JVP against the VJP by the
dot-product test, and the VJP of the joint graph again (second order), so
that every rule's own ops are differentiable too.
"""

import importlib

import pytest

import stax
from stax.gradcheck import check_jvp, check_vjp, second_order_case

FAMILIES = ["elementwise", "reduction", "linalg", "shape", "nn", "indexing",
            "random"]


def _modules():
    for family in FAMILIES:
        try:
            yield family, importlib.import_module("derivative_cases_" + family)
        except ModuleNotFoundError:
            continue


def _cases():
    for family, mod in _modules():
        for name, text, specs in mod.CASES:
            yield pytest.param(text, specs, id="%s-%s" % (family, name))


CASES = list(_cases())
# Ops whose rules use an op that has no rules of its own: differentiating
# twice must then fail with a diagnostic naming the op, never silently.
NOT_TWICE = set()
for _, _mod in _modules():
    NOT_TWICE |= set(getattr(_mod, "NOT_TWICE_DIFFERENTIABLE", ()))


@pytest.mark.parametrize("text,specs", CASES)
def test_vjp_matches_finite_differences(text, specs):
    check_vjp(text, specs)


@pytest.mark.parametrize("text,specs", CASES)
def test_jvp_matches_vjp(text, specs):
    check_jvp(text, specs)


@pytest.mark.parametrize("text,specs", CASES)
def test_second_order(text, specs):
    ops = {op for op in NOT_TWICE if op + " " in text or '"%s"' % op in text}
    if ops:
        with pytest.raises(stax.StaxError, match="not differentiable"):
            second_order_case(text, specs)[0] and check_vjp(*second_order_case(text, specs))
        return
    check_vjp(*second_order_case(text, specs))


def test_every_differentiable_op_has_a_case():
    texts = [p.values[0] for p in CASES]
    missing = [op for op in stax.list_operations("tp")
               if stax.is_differentiable(op)
               and not any(op + " " in t or '"%s"' % op in t for t in texts)]
    assert not missing, "rules without a numeric test: %s" % ", ".join(missing)


def test_rules_cover_the_float_ops():
    """Ops with floating results and no rule: a documented, short list."""
    without = [op for op in stax.list_operations("tp") if not stax.is_differentiable(op)]
    # Integer/bool-valued ops, creation ops (no inputs), in-place ops (run
    # --stax-functionalize first) and the ops named here have no rules.
    for op in without:
        assert (op.endswith("_") or "_." in op or op in _NO_RULES_EXPECTED), \
            "%s has no derivative rules" % op


_NO_RULES_EXPECTED = {
    # bool / integer results
    "tp.eq", "tp.ne", "tp.lt", "tp.le", "tp.gt", "tp.ge", "tp.eq.Scalar",
    "tp.ne.Scalar", "tp.lt.Scalar", "tp.le.Scalar", "tp.gt.Scalar", "tp.ge.Scalar",
    "tp.logical_and", "tp.logical_or", "tp.logical_xor", "tp.logical_not",
    "tp.bitwise_and", "tp.bitwise_or", "tp.bitwise_xor", "tp.bitwise_not",
    "tp.isnan", "tp.signbit", "tp.argmax", "tp.argmin", "tp.any", "tp.all",
    # not differentiable in PyTorch either (its gradient is an error)
    "tp.nextafter", "tp.ctc_loss_backward",
    # no operands to differentiate
    "tp.constant", "tp.full", "tp.arange", "tp.rand", "tp.randn",
}
