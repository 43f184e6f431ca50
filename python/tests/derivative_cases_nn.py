"""Derivative cases of the nn family (softmax, layer norm, losses, the
pointwise backward operators, dropout): one op per case, float64, every float
argument differentiated. See stax.gradcheck for the format of CASES."""


def _t(shape):
    return "tensor<%sxf64>" % "x".join(map(str, shape)) if shape else "tensor<f64>"


def _module(args, body, results):
    """A module with one `func.func @f`; `args` are (name, type, grad)."""
    params = ", ".join("%%%s: %s%s" % (n, t, " {tp.requires_grad}" if g else "")
                       for n, t, g in args)
    rtypes = ", ".join(t for _, t in results)
    rvals = ", ".join(v for v, _ in results)
    return ("module {\n  func.func @f(%s) -> (%s) {\n%s\n    return %s : %s\n  }\n}\n"
            % (params, rtypes, "\n".join("    " + l for l in body.strip().splitlines()),
               rvals, rtypes))


def _pointwise_backward(name, op, g_shape, s_shape, out_shape, attrs="", saved="float"):
    """`op %g, %s`: (grad_output, saved) -> grad_input."""
    body = "%%0 = tp.%s %%g, %%s%s : (%s, %s) -> %s" % (
        op, " " + attrs if attrs else "", _t(g_shape), _t(s_shape), _t(out_shape))
    return (name, _module([("g", _t(g_shape), True), ("s", _t(s_shape), True)], body,
                          [("%0", _t(out_shape))]),
            [("float", g_shape), (saved, s_shape)])


def _softmax(name, op, shape, dim):
    body = "%%0 = tp.%s %%x {dim = %d : i64} : %s -> %s" % (op, dim, _t(shape), _t(shape))
    return (name, _module([("x", _t(shape), True)], body, [("%0", _t(shape))]),
            [("float", shape)])


def _softmax_backward(name, op, shape, dim):
    body = "%%0 = tp.%s %%g, %%y {dim = %d : i64} : (%s, %s) -> %s" % (
        op, dim, _t(shape), _t(shape), _t(shape))
    return (name, _module([("g", _t(shape), True), ("y", _t(shape), True)], body,
                          [("%0", _t(shape))]),
            [("float", shape), ("float", shape)])


CASES = [
    _softmax("_softmax", "_softmax", [3, 5], 1),
    _softmax("_softmax.dim0", "_softmax", [3, 5], 0),
    _softmax("_log_softmax", "_log_softmax", [3, 5], -1),
    _softmax_backward("_softmax_backward_data", "_softmax_backward_data", [3, 5], 1),
    _softmax_backward("_log_softmax_backward_data", "_log_softmax_backward_data",
                      [3, 5], 1),
    ("native_layer_norm",
     _module([("x", _t([3, 4]), True), ("w", _t([4]), True), ("b", _t([4]), True)],
             "%0:3 = tp.native_layer_norm %x weight(%w) bias(%b) {normalized_shape = "
             "array<i64: 4>, eps = 1.0e-5 : f64} : (tensor<3x4xf64>, tensor<4xf64>, "
             "tensor<4xf64>) -> (tensor<3x4xf64>, tensor<3x1xf64>, tensor<3x1xf64>)",
             [("%0#0", _t([3, 4])), ("%0#1", _t([3, 1])), ("%0#2", _t([3, 1]))]),
     [("float", [3, 4]), ("float", [4]), ("float", [4])]),
    ("native_layer_norm.no_affine",
     _module([("x", _t([2, 3, 4]), True)],
             "%0:3 = tp.native_layer_norm %x {normalized_shape = array<i64: 3, 4>, "
             "eps = 1.0e-5 : f64} : (tensor<2x3x4xf64>) -> (tensor<2x3x4xf64>, "
             "tensor<2x1x1xf64>, tensor<2x1x1xf64>)",
             [("%0#0", _t([2, 3, 4])), ("%0#1", _t([2, 1, 1])), ("%0#2", _t([2, 1, 1]))]),
     [("float", [2, 3, 4])]),
    ("native_layer_norm_backward",
     _module([("g", _t([3, 4]), True), ("x", _t([3, 4]), True), ("m", _t([3, 1]), True),
              ("r", _t([3, 1]), True), ("w", _t([4]), True), ("b", _t([4]), True)],
             "%0:3 = tp.native_layer_norm_backward %g, %x, %m, %r weight(%w) bias(%b) "
             "{normalized_shape = array<i64: 4>} : (tensor<3x4xf64>, tensor<3x4xf64>, "
             "tensor<3x1xf64>, tensor<3x1xf64>, tensor<4xf64>, tensor<4xf64>) -> "
             "(tensor<3x4xf64>, tensor<4xf64>, tensor<4xf64>)",
             [("%0#0", _t([3, 4])), ("%0#1", _t([4])), ("%0#2", _t([4]))]),
     [("float", [3, 4]), ("float", [3, 4]), ("float", [3, 1]), ("positive", [3, 1]),
      ("float", [4]), ("float", [4])]),
    # Class weights are differentiated too (through total_weight as well).
    ("nll_loss_forward.mean_weight",
     _module([("x", _t([4, 5]), True), ("t", "tensor<4xi64>", False),
              ("w", _t([5]), True)],
             "%0:2 = tp.nll_loss_forward %x, %t weight(%w) : (tensor<4x5xf64>, "
             "tensor<4xi64>, tensor<5xf64>) -> (tensor<f64>, tensor<f64>)",
             [("%0#0", _t([])), ("%0#1", _t([]))]),
     [("float", [4, 5]), ("index", [4], 0, 5), ("positive", [5])]),
    ("nll_loss_forward.none_ignore",
     _module([("x", _t([6, 3]), True), ("t", "tensor<6xi64>", False)],
             "%0:2 = tp.nll_loss_forward %x, %t {reduction = #tp.reduction<none>, ignore_index = 1 : i64}"
             " : (tensor<6x3xf64>, tensor<6xi64>) -> (tensor<6xf64>, tensor<f64>)",
             [("%0#0", _t([6])), ("%0#1", _t([]))]),
     [("float", [6, 3]), ("index", [6], 0, 3)]),
    ("nll_loss_forward.sum_1d",
     _module([("x", _t([5]), True), ("t", "tensor<i64>", False), ("w", _t([5]), True)],
             "%0:2 = tp.nll_loss_forward %x, %t weight(%w) {reduction = #tp.reduction<sum>} : "
             "(tensor<5xf64>, tensor<i64>, tensor<5xf64>) -> (tensor<f64>, tensor<f64>)",
             [("%0#0", _t([]))]),
     [("float", [5]), ("index", [], 0, 5), ("float", [5])]),
    ("nll_loss_backward.mean",
     _module([("g", _t([]), True), ("x", _t([4, 5]), True), ("t", "tensor<4xi64>", False),
              ("w", _t([5]), True), ("tw", _t([]), True)],
             "%0 = tp.nll_loss_backward %g, %x, %t weight(%w), %tw : (tensor<f64>, "
             "tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>, tensor<f64>) -> tensor<4x5xf64>",
             [("%0", _t([4, 5]))]),
     [("float", []), ("float", [4, 5]), ("index", [4], 0, 5), ("float", [5]),
      ("positive", [])]),
    ("nll_loss_backward.none",
     _module([("g", _t([4]), True), ("x", _t([4, 5]), True), ("t", "tensor<4xi64>", False),
              ("tw", _t([]), True)],
             "%0 = tp.nll_loss_backward %g, %x, %t, %tw {reduction = #tp.reduction<none>, "
             "ignore_index = 2 : i64} : (tensor<4xf64>, tensor<4x5xf64>, tensor<4xi64>, "
             "tensor<f64>) -> tensor<4x5xf64>",
             [("%0", _t([4, 5]))]),
     [("float", [4]), ("float", [4, 5]), ("index", [4], 0, 5), ("positive", [])]),
    ("mse_loss.mean",
     _module([("a", _t([3, 4]), True), ("b", _t([3, 4]), True)],
             "%0 = tp.mse_loss %a, %b : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
             [("%0", _t([]))]),
     [("float", [3, 4]), ("float", [3, 4])]),
    ("mse_loss.none_broadcast",
     _module([("a", _t([3, 4]), True), ("b", _t([4]), True)],
             "%0 = tp.mse_loss %a, %b {reduction = #tp.reduction<none>} : (tensor<3x4xf64>, "
             "tensor<4xf64>) -> tensor<3x4xf64>",
             [("%0", _t([3, 4]))]),
     [("float", [3, 4]), ("float", [4])]),
    ("mse_loss_backward",
     _module([("g", _t([]), True), ("a", _t([3, 4]), True), ("b", _t([3, 4]), True)],
             "%0 = tp.mse_loss_backward %g, %a, %b : (tensor<f64>, tensor<3x4xf64>, "
             "tensor<3x4xf64>) -> tensor<3x4xf64>",
             [("%0", _t([3, 4]))]),
     [("float", []), ("float", [3, 4]), ("float", [3, 4])]),
    ("mse_loss_backward.sum_broadcast",
     _module([("g", _t([]), True), ("a", _t([3, 4]), True), ("b", _t([4]), True)],
             "%0 = tp.mse_loss_backward %g, %a, %b {reduction = #tp.reduction<sum>} : (tensor<f64>, "
             "tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>",
             [("%0", _t([3, 4]))]),
     [("float", []), ("float", [3, 4]), ("float", [4])]),
    _pointwise_backward("gelu_backward", "gelu_backward", [3, 4], [3, 4], [3, 4]),
    _pointwise_backward("gelu_backward.tanh_broadcast", "gelu_backward", [3, 1], [3, 4],
                        [3, 4], '{approximate = #tp.approximate<tanh>}'),
    _pointwise_backward("threshold_backward", "threshold_backward", [3, 4], [3, 4], [3, 4],
                        "{threshold = 0.0 : f64}"),
    _pointwise_backward("tanh_backward", "tanh_backward", [3, 4], [3, 4], [3, 4]),
    _pointwise_backward("sigmoid_backward", "sigmoid_backward", [3, 4], [4], [3, 4]),
    _pointwise_backward("silu_backward", "silu_backward", [3, 4], [3, 4], [3, 4]),
    ("native_dropout.p0",
     _module([("x", _t([3, 4]), True)],
             "%0:2 = tp.native_dropout %x {p = 0.0 : f64} : tensor<3x4xf64> -> "
             "tensor<3x4xf64>, tensor<3x4xi1>",
             [("%0#0", _t([3, 4])), ("%0#1", "tensor<3x4xi1>")]),
     [("float", [3, 4])]),
    ("native_dropout.eval",
     _module([("x", _t([3, 4]), True)],
             "%0:2 = tp.native_dropout %x {p = 0.5 : f64, train = false} : tensor<3x4xf64> "
             "-> tensor<3x4xf64>, tensor<3x4xi1>",
             [("%0#0", _t([3, 4]))]),
     [("float", [3, 4])]),
    ("native_dropout_backward",
     _module([("g", _t([3, 4]), True), ("m", "tensor<3x4xi1>", False)],
             "%0 = tp.native_dropout_backward %g, %m {scale = 2.0 : f64} : "
             "(tensor<3x4xf64>, tensor<3x4xi1>) -> tensor<3x4xf64>",
             [("%0", _t([3, 4]))]),
     [("float", [3, 4]), ("bool", [3, 4])]),
    # CTC: eager's gradient (exp(lp) - posterior) is the log_softmax logits'
    # one, so the case differentiates through a log_softmax, where it is the
    # derivative. Lengths keep every alignment possible (T_n >= 3, L <= 2).
    ("ctc_loss.through_log_softmax",
     _module([("x", _t([6, 3, 4]), True), ("tg", "tensor<3x2xi64>", False),
              ("il", "tensor<3xi64>", False), ("tl", "tensor<3xi64>", False)],
             "%lp = tp._log_softmax %x {dim = 2 : i64} : tensor<6x3x4xf64> -> tensor<6x3x4xf64>\n"
             "%0:2 = tp.ctc_loss %lp, %tg, %il, %tl {blank = 0 : i64} : (tensor<6x3x4xf64>, "
             "tensor<3x2xi64>, tensor<3xi64>, tensor<3xi64>) -> (tensor<3xf64>, tensor<3x6x5xf64>)",
             [("%0#0", _t([3]))]),
     [("float", [6, 3, 4]), ("index", [3, 2], 1, 4), ("index", [3], 3, 7),
      ("index", [3], 0, 3)]),
]

# tp.ctc_loss's gradient, tp.ctc_loss_backward (eager's kernel), has no
# derivative of its own, as in eager.
NOT_TWICE_DIFFERENTIABLE = ("tp.ctc_loss",)
