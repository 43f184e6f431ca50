"""Derivative cases of the shape family (views, reshapes, slices, splits,
concatenation): one op per case, float64, every float argument
differentiated. See stax.gradcheck for the format of CASES."""


def _module(args, body, results):
    """A module with one `func.func @f`; `args` are (name, type, grad)."""
    params = ", ".join("%%%s: %s%s" % (n, t, " {tp.requires_grad}" if g else "")
                       for n, t, g in args)
    rtypes = ", ".join(t for _, t in results)
    rvals = ", ".join(v for v, _ in results)
    return ("module {\n  func.func @f(%s) -> (%s) {\n%s\n    return %s : %s\n  }\n}\n"
            % (params, rtypes, "\n".join("    " + l for l in body.strip().splitlines()),
               rvals, rtypes))


def _unary(name, in_shape, out_shape, op_text):
    """A case `%0 = <op_text> %x ... : in -> out`."""
    tin = "tensor<%sxf64>" % "x".join(map(str, in_shape)) if in_shape else "tensor<f64>"
    tout = "tensor<%sxf64>" % "x".join(map(str, out_shape)) if out_shape else "tensor<f64>"
    body = "%%0 = %s : %s -> %s" % (op_text.replace("$x", "%x"), tin, tout)
    return (name, _module([("x", tin, True)], body, [("%0", tout)]),
            [("float", list(in_shape))])


CASES = [
    _unary("t", [3, 4], [4, 3], "tp.t $x"),
    _unary("transpose", [2, 3, 4], [4, 3, 2],
           "tp.transpose $x {dim0 = 0 : i64, dim1 = -1 : i64}"),
    _unary("permute", [2, 3, 4], [4, 2, 3],
           "tp.permute $x {dims = array<i64: 2, 0, 1>}"),
    _unary("view", [3, 4], [2, 6], "tp.view $x {size = array<i64: 2, -1>}"),
    _unary("reshape", [2, 3, 4], [4, 6], "tp.reshape $x {size = array<i64: 4, 6>}"),
    _unary("_unsafe_view", [3, 4], [12], "tp._unsafe_view $x {size = array<i64: 12>}"),
    _unary("_reshape_alias", [4, 3], [3, 4],
           "tp._reshape_alias $x {size = array<i64: 3, 4>, stride = array<i64: 4, 1>}"),
    _unary("expand", [3, 1], [2, 3, 4], "tp.expand $x {size = array<i64: 2, -1, 4>}"),
    _unary("unsqueeze", [3, 4], [3, 1, 4], "tp.unsqueeze $x {dim = 1 : i64}"),
    _unary("squeeze.dims", [3, 1, 4], [3, 4], "tp.squeeze $x {dims = array<i64: 1>}"),
    _unary("squeeze.all", [1, 3, 1], [3], "tp.squeeze $x"),
    _unary("slice.step", [5, 4], [2, 4],
           "tp.slice $x {dim = 0 : i64, start = 1 : i64, end = 5 : i64, step = 2 : i64}"),
    _unary("slice.negative", [5, 4], [5, 3],
           "tp.slice $x {dim = -1 : i64, start = -3 : i64, "
           "end = 9223372036854775807 : i64, step = 1 : i64}"),
    _unary("select", [4, 3], [4], "tp.select $x {dim = 1 : i64, index = -1 : i64}"),
    _unary("slice_backward", [2, 4], [5, 4],
           "tp.slice_backward $x {input_sizes = array<i64: 5, 4>, dim = 0 : i64, "
           "start = 1 : i64, end = 5 : i64, step = 2 : i64}"),
    _unary("select_backward", [4], [4, 3],
           "tp.select_backward $x {input_sizes = array<i64: 4, 3>, dim = 1 : i64, "
           "index = 2 : i64}"),
    _unary("as_strided", [3, 4], [2, 3],
           "tp.as_strided $x {size = array<i64: 2, 3>, stride = array<i64: 4, 2>, "
           "storage_offset = 1 : i64}"),
    # Overlapping windows: a storage element is read more than once.
    _unary("as_strided.overlap", [6], [3, 3],
           "tp.as_strided $x {size = array<i64: 3, 3>, stride = array<i64: 1, 1>}"),
    # im2col windows of a 6 x 10 image: kernel 3 x 2 (dilation 2 along
    # columns), output 2 x 3 (strides 2 and 3), offset 1: the transpose is
    # a sum of embedded slices (ShapeRules.cpp windowsTranspose).
    _unary("as_strided.im2col", [6, 10], [3, 2, 2, 3],
           "tp.as_strided $x {size = array<i64: 3, 2, 2, 3>, "
           "stride = array<i64: 10, 2, 20, 3>, storage_offset = 1 : i64}"),
    # A size-1 view dim, and a source dim only the offset reaches.
    _unary("as_strided.offset_dim", [2, 3, 8], [1, 2, 3],
           "tp.as_strided $x {size = array<i64: 1, 2, 3>, "
           "stride = array<i64: 5, 24, 2>, storage_offset = 9 : i64}"),
    # Steps that carry into the next source dim: not windows (index_put).
    _unary("as_strided.carry", [2, 3], [4],
           "tp.as_strided $x {size = array<i64: 4>, stride = array<i64: 1>, "
           "storage_offset = 1 : i64}"),
    ("split",
     _module([("x", "tensor<5x4xf64>", True)],
             "%0:3 = tp.split %x {split_size = 2 : i64} : tensor<5x4xf64> -> "
             "tensor<2x4xf64>, tensor<2x4xf64>, tensor<1x4xf64>",
             [("%0#0", "tensor<2x4xf64>"), ("%0#1", "tensor<2x4xf64>"),
              ("%0#2", "tensor<1x4xf64>")]),
     [("float", [5, 4])]),
    # Only one chunk is used: the others' adjoints are zero.
    ("split.partial",
     _module([("x", "tensor<5x4xf64>", True)],
             "%0:3 = tp.split %x {split_size = 2 : i64} : tensor<5x4xf64> -> "
             "tensor<2x4xf64>, tensor<2x4xf64>, tensor<1x4xf64>",
             [("%0#1", "tensor<2x4xf64>")]),
     [("float", [5, 4])]),
    ("split_with_sizes",
     _module([("x", "tensor<5x4xf64>", True)],
             "%0:2 = tp.split_with_sizes %x {split_sizes = array<i64: 1, 3>, dim = 1 : i64}"
             " : tensor<5x4xf64> -> tensor<5x1xf64>, tensor<5x3xf64>",
             [("%0#0", "tensor<5x1xf64>"), ("%0#1", "tensor<5x3xf64>")]),
     [("float", [5, 4])]),
    ("unbind",
     _module([("x", "tensor<3x4xf64>", True)],
             "%0:4 = tp.unbind %x {dim = 1 : i64} : tensor<3x4xf64> -> "
             "tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>",
             [("%0#0", "tensor<3xf64>"), ("%0#2", "tensor<3xf64>"),
              ("%0#3", "tensor<3xf64>")]),
     [("float", [3, 4])]),
    ("cat",
     _module([("a", "tensor<2x3xf64>", True), ("b", "tensor<4x3xf64>", True)],
             "%0 = tp.cat %a, %b : (tensor<2x3xf64>, tensor<4x3xf64>) -> tensor<6x3xf64>",
             [("%0", "tensor<6x3xf64>")]),
     [("float", [2, 3]), ("float", [4, 3])]),
    ("cat.last_dim",
     _module([("a", "tensor<2x3xf64>", True), ("b", "tensor<2x1xf64>", True),
              ("c", "tensor<2x2xf64>", True)],
             "%0 = tp.cat %a, %b, %c {dim = -1 : i64} : (tensor<2x3xf64>, "
             "tensor<2x1xf64>, tensor<2x2xf64>) -> tensor<2x6xf64>",
             [("%0", "tensor<2x6xf64>")]),
     [("float", [2, 3]), ("float", [2, 1]), ("float", [2, 2])]),
    ("stack",
     _module([("a", "tensor<2x3xf64>", True), ("b", "tensor<2x3xf64>", True)],
             "%0 = tp.stack %a, %b {dim = 1 : i64} : (tensor<2x3xf64>, tensor<2x3xf64>)"
             " -> tensor<2x2x3xf64>",
             [("%0", "tensor<2x2x3xf64>")]),
     [("float", [2, 3]), ("float", [2, 3])]),
]
