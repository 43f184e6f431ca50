"""Derivative test cases for the linalg family (LinalgRules.cpp).

CASES = [(name, mlir_text, arg_specs)], as in derivative_cases_elementwise.
"""

from stax.gradcheck import case_module as _module
from stax.gradcheck import tensor_type as _t


def product(op, a, b, out, attrs=""):
    ta, tb, tr = _t(a), _t(b), _t(out)
    attr = " {%s}" % attrs if attrs else ""
    text = _module([("a", ta, True), ("b", tb, True)],
                   ["%%0 = tp.%s %%a, %%b%s : (%s, %s) -> %s"
                    % (op, attr, ta, tb, tr)],
                   [("%0", tr)])
    return text, [("float", list(a)), ("float", list(b))]


def add_product(op, s, a, b, out, attrs):
    ts, ta, tb, tr = _t(s), _t(a), _t(b), _t(out)
    text = _module([("s", ts, True), ("a", ta, True), ("b", tb, True)],
                   ["%%0 = tp.%s %%s, %%a, %%b {%s} : (%s, %s, %s) -> %s"
                    % (op, attrs, ts, ta, tb, tr)],
                   [("%0", tr)])
    return text, [("float", list(s)), ("float", list(a)), ("float", list(b))]


def _cases():
    c = []

    def add(name, pair):
        c.append((name, pair[0], pair[1]))

    add("mm", product("mm", (3, 4), (4, 5), (3, 5)))
    add("bmm", product("bmm", (2, 3, 4), (2, 4, 5), (2, 3, 5)))
    add("dot", product("dot", (4,), (4,), ()))
    add("matmul_2d", product("matmul", (3, 4), (4, 5), (3, 5)))
    add("matmul_vec_vec", product("matmul", (4,), (4,), ()))
    add("matmul_vec_mat", product("matmul", (4,), (4, 5), (5,)))
    add("matmul_batch_vec", product("matmul", (2, 3, 4), (4,), (2, 3)))
    add("matmul_vec_batch", product("matmul", (4,), (2, 4, 5), (2, 5)))
    add("matmul_batch_mat", product("matmul", (2, 3, 4), (4, 5), (2, 3, 5)))
    add("matmul_broadcast", product("matmul", (2, 1, 3, 4), (5, 4, 2),
                                    (2, 5, 3, 2)))
    add("addmm", add_product("addmm", (5,), (3, 4), (4, 5), (3, 5),
                             "beta = 0.5 : f64, alpha = 2.0 : f64"))
    add("addmm_default", add_product("addmm", (3, 5), (3, 4), (4, 5), (3, 5), ""))
    add("baddbmm", add_product("baddbmm", (3, 1), (2, 3, 4), (2, 4, 5),
                               (2, 3, 5), "beta = -1.5 : f64, alpha = 0.5 : f64"))
    return c


CASES = _cases()
