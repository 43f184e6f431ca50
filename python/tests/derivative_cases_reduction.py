"""Derivative test cases for the reduction family (ReductionRules.cpp).

CASES = [(name, mlir_text, arg_specs)], as in derivative_cases_elementwise.
Random inputs have no ties, so amax/amin/max.dim/min.dim/sort are
differentiable there. argmax/argmin/any/all have integer or bool results and
no rules.
"""

from stax.gradcheck import case_module as _module
from stax.gradcheck import tensor_type as _t


def reduction(op, attrs, shape, out_shape, spec="float"):
    t, rt = _t(shape), _t(out_shape)
    text = _module([("x", t, True)],
                   ["%%0 = tp.%s %%x {%s} : %s -> %s" % (op, attrs, t, rt)],
                   [("%0", rt)])
    return text, [(spec, list(shape))]


def value_index(op, dim, keepdim, shape, out_shape):
    t, vt, it = _t(shape), _t(out_shape), _t(out_shape, "i64")
    attrs = "dim = %d : i64%s" % (dim, ", keepdim = true" if keepdim else "")
    text = _module([("x", t, True)],
                   ["%%0:2 = tp.%s %%x {%s} : %s -> %s, %s"
                    % (op, attrs, t, vt, it)],
                   [("%0#0", vt), ("%0#1", it)])
    return text, [("float", list(shape))]


def sort(dim, descending, shape):
    t, it = _t(shape), _t(shape, "i64")
    attrs = "dim = %d : i64%s" % (dim, ", descending = true" if descending else "")
    text = _module([("x", t, True)],
                   ["%%0:2 = tp.sort %%x {%s} : %s -> %s, %s" % (attrs, t, t, it)],
                   [("%0#0", t), ("%0#1", it)])
    return text, [("float", list(shape))]


def topk(k, dim, largest, shape, out_shape):
    t, vt, it = _t(shape), _t(out_shape), _t(out_shape, "i64")
    attrs = "k = %d : i64, dim = %d : i64, largest = %s" % (
        k, dim, "true" if largest else "false")
    text = _module([("x", t, True)],
                   ["%%0:2 = tp.topk %%x {%s} : %s -> %s, %s" % (attrs, t, vt, it)],
                   [("%0#0", vt), ("%0#1", it)])
    return text, [("float", list(shape))]


def scan(op, dim, reverse, shape):
    t, it = _t(shape), _t(shape, "i64")
    attrs = "dim = %d : i64%s" % (dim, ", reverse = true" if reverse else "")
    if op in ("cummax", "cummin"):
        text = _module([("x", t, True)],
                       ["%%0:2 = tp.%s %%x {%s} : %s -> %s, %s"
                        % (op, attrs, t, t, it)],
                       [("%0#0", t), ("%0#1", it)])
    else:
        text = _module([("x", t, True)],
                       ["%%0 = tp.%s %%x {%s} : %s -> %s" % (op, attrs, t, t)],
                       [("%0", t)])
    return text, [("float", list(shape))]


def _cases():
    c = []

    def add(name, pair):
        c.append((name, pair[0], pair[1]))

    add("sum", reduction("sum", "dims = array<i64: 1>", (3, 4), (3,)))
    add("sum_all_keepdim", reduction("sum", "dims = array<i64>, keepdim = true",
                                     (3, 4), (1, 1)))
    add("mean", reduction("mean", "dims = array<i64: 0>, keepdim = true",
                          (3, 4), (1, 4)))
    add("mean_all", reduction("mean", "dims = array<i64>", (3, 4), ()))
    add("prod", reduction("prod", "dims = array<i64: 1>", (3, 4), (3,)))
    add("prod_all", reduction("prod", "dims = array<i64>", (2, 3), ()))
    add("amax", reduction("amax", "dims = array<i64: 1>", (3, 4), (3,)))
    add("amin_all", reduction("amin", "dims = array<i64>, keepdim = true",
                              (3, 4), (1, 1)))
    add("logsumexp", reduction("logsumexp", "dims = array<i64: -1>", (3, 4), (3,)))
    add("var", reduction("var", "dims = array<i64: 1>", (3, 4), (3,)))
    add("var_all_biased", reduction(
        "var", "dims = array<i64: 0, 1>, correction = 0.0 : f64, keepdim = true",
        (3, 4), (1, 1)))
    add("max.dim", value_index("max.dim", 1, False, (3, 4), (3,)))
    add("min.dim_keepdim", value_index("min.dim", 0, True, (3, 4), (1, 4)))
    add("sort", sort(-1, False, (3, 4)))
    add("sort_descending_dim0", sort(0, True, (3, 4)))
    add("sort_0d", sort(0, False, ()))
    add("topk", topk(2, -1, True, (3, 5), (3, 2)))
    add("topk_smallest_dim0", topk(3, 0, False, (4, 3), (3, 3)))
    add("topk_0d", topk(1, 0, True, (), ()))
    add("cumsum", scan("cumsum", 1, False, (3, 5)))
    add("cumsum_reverse_dim0", scan("cumsum", 0, True, (4, 3)))
    add("cumsum_0d", scan("cumsum", 0, False, ()))
    # Operands without zeros here (random in [-1, 1]); the rules at zeros
    # are checked by hand in test/Dialect/Tp/Autodiff/vjp-scan.mlir.
    add("cumprod", scan("cumprod", 1, False, (3, 5)))
    add("cumprod_reverse_dim0", scan("cumprod", 0, True, (4, 3)))
    add("cumprod_0d", scan("cumprod", 0, False, ()))
    add("logcumsumexp", scan("logcumsumexp", -1, False, (3, 5)))
    add("logcumsumexp_reverse", scan("logcumsumexp", 0, True, (4, 2, 3)))
    add("logcumsumexp_0d", scan("logcumsumexp", -1, False, ()))
    add("cummax", scan("cummax", 1, False, (3, 6)))
    add("cummin_reverse", scan("cummin", 0, True, (5, 2)))
    add("cummax_0d", scan("cummax", 0, False, ()))
    return c


CASES = _cases()
