"""Derivative test cases for the elementwise family (ElementwiseRules.cpp).

CASES = [(name, mlir_text, arg_specs)]: each module has one `func.func @f`
whose float arguments are all marked `tp.requires_grad`, built around one op
of interest. arg_specs: ("float", shape) uniform in [-1, 1], ("positive",
shape) > 0, ("index", shape, low, high), ("bool", shape).

`tp.detach` is a stop-gradient in eager (its rule is a zero derivative, which
central differences of the identity would contradict), so its case detaches
a fixed, non-differentiated input: it checks that the op passes through
autodiff, not its zero derivative.
"""


from stax.gradcheck import case_module as _module
from stax.gradcheck import tensor_type as _t


def unary(op, attrs="", shape=(3, 4), spec="float", out_elt="f64"):
    t, rt = _t(shape), _t(shape, out_elt)
    attr = " {%s}" % attrs if attrs else ""
    text = _module([("x", t, True)],
                   ["%%0 = tp.%s %%x%s : %s -> %s" % (op, attr, t, rt)],
                   [("%0", rt)])
    return text, [(spec, list(shape))]


def binary(op, attrs="", shapes=((3, 4), (3, 4)), specs=("float", "float")):
    ta, tb = _t(shapes[0]), _t(shapes[1])
    out = _t(_broadcast(shapes[0], shapes[1]))
    attr = " {%s}" % attrs if attrs else ""
    text = _module([("a", ta, True), ("b", tb, True)],
                   ["%%0 = tp.%s %%a, %%b%s : %s, %s -> %s"
                    % (op, attr, ta, tb, out)],
                   [("%0", out)])
    return text, [(specs[0], list(shapes[0])), (specs[1], list(shapes[1]))]


def _broadcast(a, b):
    a, b = list(a), list(b)
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + a
    b = [1] * (n - len(b)) + b
    return tuple(x if y == 1 else y for x, y in zip(a, b))


def _cases():
    c = []

    def add(name, pair):
        c.append((name, pair[0], pair[1]))

    # Identities and conversions.
    for op in ["clone", "alias", "lift_fresh_copy", "neg"]:
        add(op, unary(op))
    add("_to_copy", unary("_to_copy", "dtype = f32", out_elt="f32"))
    t = _t((3, 4))
    c.append(("detach", _module(
        [("x", t, True), ("c", t, False)],
        ["%%0 = tp.detach %%c : %s -> %s" % (t, t),
         "%%1 = tp.mul %%x, %%0 : %s, %s -> %s" % (t, t, t)],
        [("%1", t)]), [("float", [3, 4]), ("fixed", [3, 4])]))
    # Zero derivatives (random inputs are away from the jumps).
    for op in ["sign", "sgn", "floor", "ceil", "round", "trunc"]:
        add(op, unary(op))
    add("abs", unary("abs"))
    add("relu", unary("relu"))
    # Smooth functions.
    for op in ["exp", "exp2", "expm1", "sin", "cos", "tan", "asin", "acos",
               "atan", "sinh", "cosh", "tanh", "sigmoid", "erf", "erfc",
               "silu", "mish"]:
        add(op, unary(op))
    for op in ["log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal"]:
        add(op, unary(op, spec="positive"))
    add("gelu", unary("gelu"))
    add("gelu_tanh", unary("gelu", 'approximate = #tp.approximate<tanh>'))
    add("leaky_relu", unary("leaky_relu", "negative_slope = 0.2 : f64"))
    add("elu", unary("elu", "alpha = 1.3 : f64, scale = 1.1 : f64, "
                             "input_scale = 0.9 : f64"))
    add("softplus", unary("softplus", "beta = 2.0 : f64, threshold = 1.0 : f64"))
    add("hardtanh", unary("hardtanh", "min_val = -0.5 : f64, max_val = 0.5 : f64"))
    add("clamp", unary("clamp", "min = -0.5 : f64, max = 3.0e-01 : f64"))
    add("clamp_min", unary("clamp", "min = 0 : i64"))
    add("tril", unary("tril", "diagonal = 1 : i64"))
    add("triu", unary("triu", "diagonal = -1 : i64"))

    # Special functions (SpecialRules.cpp), on their smooth domains.
    for op in ["lgamma", "digamma"]:
        add(op, unary(op, spec="positive"))
    for n in (1, 2):
        add("polygamma_%d" % n, unary("polygamma", "n = %d : i64" % n,
                                      spec="positive"))
    add("special_erfcx", unary("special_erfcx"))
    t = _t((3, 4))
    # erfinv on [-0.5, 0.5] (it blows up at +-1), ndtri on sigmoid(x) in (0, 1).
    for op, pre in [("erfinv", "tp.mul.Scalar %%x {other = 0.5 : f64} : %s -> %s"),
                    ("special_ndtri", "tp.sigmoid %%x : %s -> %s")]:
        c.append((op, _module([("x", t, True)],
                              ["%0 = " + pre % (t, t),
                               "%%1 = tp.%s %%0 : %s -> %s" % (op, t, t)],
                              [("%1", t)]), [("float", [3, 4])]))
    # frexp's mantissa (x / 2^e): random inputs are away from powers of 2.
    ti = _t((3, 4), "i32")
    c.append(("frexp", _module([("x", t, True)],
                               ["%%0:2 = tp.frexp %%x : %s -> %s, %s" % (t, t, ti)],
                               [("%0#0", t)]), [("float", [3, 4])]))

    # Binary ops, with broadcasting.
    add("add_alpha", binary("add", "alpha = 2.5 : f64", ((3, 4), (4,))))
    add("sub_alpha", binary("sub", "alpha = 3 : i64", ((3, 1), (3, 4))))
    add("mul", binary("mul", shapes=((3, 1), (4,))))
    add("mul_0d", binary("mul", shapes=((3, 4), ())))
    add("div", binary("div", shapes=((3, 4), (4,)), specs=("float", "positive")))
    add("div_floor", binary("div", 'rounding_mode = #tp.rounding_mode<floor>',
                            specs=("float", "positive")))
    add("maximum", binary("maximum", shapes=((3, 4), (4,))))
    add("minimum", binary("minimum", shapes=((3, 1), (3, 4))))
    add("pow", binary("pow", specs=("positive", "float")))
    add("atan2", binary("atan2", shapes=((3, 4), (4,))))
    # remainder/fmod: the divisor is shifted to [1, 2] so that the quotient
    # stays away from its jumps.
    for op in ["remainder", "fmod"]:
        ta, tb = _t((3, 4)), _t((4,))
        text = _module([("a", ta, True), ("b", tb, True)],
                       ["%%0 = tp.add.Scalar %%b {other = 1.0 : f64} : %s -> %s"
                        % (tb, tb),
                        "%%1 = tp.%s %%a, %%0 : %s, %s -> %s" % (op, ta, tb, ta)],
                       [("%1", ta)])
        c.append((op, text, [("float", [3, 4]), ("positive", [4])]))

    # Tensor-scalar ops.
    add("add.Scalar", unary("add.Scalar", "other = 2.0 : f64, alpha = 3 : i64"))
    add("sub.Scalar", unary("sub.Scalar", "other = 2 : i64"))
    add("rsub.Scalar", unary("rsub.Scalar", "other = 1.0 : f64, alpha = 2.0 : f64"))
    add("mul.Scalar", unary("mul.Scalar", "other = -1.5 : f64"))
    add("div.Scalar", unary("div.Scalar", "other = 4.0 : f64"))
    add("div.Scalar_trunc", unary("div.Scalar", 'other = 0.3 : f64, rounding_mode = #tp.rounding_mode<trunc>'))
    add("pow.Tensor_Scalar_3", unary("pow.Tensor_Scalar", "other = 3 : i64"))
    add("pow.Tensor_Scalar_2", unary("pow.Tensor_Scalar", "other = 2 : i64"))
    add("pow.Tensor_Scalar_frac", unary("pow.Tensor_Scalar", "other = 2.5 : f64",
                                        spec="positive"))
    add("remainder.Scalar", unary("remainder.Scalar", "other = 1.5 : f64"))
    add("fmod.Scalar", unary("fmod.Scalar", "other = 1.5 : f64"))

    # Selection.
    tc, ts, to, tr = _t((3, 1), "i1"), _t((3, 4)), _t((4,)), _t((3, 4))
    c.append(("where", _module(
        [("c", tc, False), ("a", ts, True), ("b", to, True)],
        ["%%0 = tp.where %%c, %%a, %%b : (%s, %s, %s) -> %s" % (tc, ts, to, tr)],
        [("%0", tr)]), [("bool", [3, 1]), ("float", [3, 4]), ("float", [4])]))
    tm = _t((4,), "i1")
    c.append(("masked_fill.Scalar", _module(
        [("a", ts, True), ("m", tm, False)],
        ["%%0 = tp.masked_fill.Scalar %%a, %%m {value = 2.0 : f64} : (%s, %s) -> %s"
         % (ts, tm, ts)],
        [("%0", ts)]), [("float", [3, 4]), ("bool", [4])]))
    return c


CASES = _cases()
