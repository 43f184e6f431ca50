"""Derivative cases of the indexing family (index, index_put, index_select,
gather, scatter, scatter_add, embedding, embedding_dense_backward): one op
per case, float64, every float argument differentiated. Writes that do not
accumulate use constant, duplicate-free indices (with duplicates the last
write wins and finite differences disagree with eager's convention). See
stax.gradcheck for the format of CASES."""


def _t(shape, elt="f64"):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), elt) if shape else "tensor<%s>" % elt


def _module(args, body, results):
    """A module with one `func.func @f`; `args` are (name, type, grad)."""
    params = ", ".join("%%%s: %s%s" % (n, t, " {tp.requires_grad}" if g else "")
                       for n, t, g in args)
    rtypes = ", ".join(t for _, t in results)
    rvals = ", ".join(v for v, _ in results)
    return ("module {\n  func.func @f(%s) -> (%s) {\n%s\n    return %s : %s\n  }\n}\n"
            % (params, rtypes, "\n".join("    " + l for l in body.strip().splitlines()),
               rvals, rtypes))


CASES = [
    ("index",
     _module([("x", _t([5, 4, 3]), True), ("i", _t([2], "i64"), False)],
             "%0 = tp.index %x[%i] {dims = array<i64: 1>} : (tensor<5x4x3xf64>, "
             "tensor<2xi64>) -> tensor<5x2x3xf64>",
             [("%0", _t([5, 2, 3]))]),
     [("float", [5, 4, 3]), ("index", [2], -4, 4)]),
    # Non-adjacent indexed dims: the index shape goes first; duplicates add.
    ("index.split_dims",
     _module([("x", _t([5, 4, 3]), True), ("i", _t([2], "i64"), False),
              ("j", _t([3, 2], "i64"), False)],
             "%0 = tp.index %x[%i, %j] {dims = array<i64: 0, 2>} : (tensor<5x4x3xf64>, "
             "tensor<2xi64>, tensor<3x2xi64>) -> tensor<3x2x4xf64>",
             [("%0", _t([3, 2, 4]))]),
     [("float", [5, 4, 3]), ("index", [2], 0, 5), ("index", [3, 2], 0, 3)]),
    ("index_put",
     _module([("x", _t([4, 3]), True), ("v", _t([2, 3]), True)],
             "%i = tp.constant dense<[3, 1]> : tensor<2xi64>\n"
             "%0 = tp.index_put %x[%i], %v {dims = array<i64: 0>} : (tensor<4x3xf64>, "
             "tensor<2xi64>, tensor<2x3xf64>) -> tensor<4x3xf64>",
             [("%0", _t([4, 3]))]),
     [("float", [4, 3]), ("float", [2, 3])]),
    # Accumulating, with duplicate indices and broadcast values.
    ("index_put.accumulate",
     _module([("x", _t([5, 4, 3]), True), ("i", _t([3], "i64"), False),
              ("v", _t([3]), True)],
             "%0 = tp.index_put %x[%i], %v {dims = array<i64: 1>, accumulate = true} : "
             "(tensor<5x4x3xf64>, tensor<3xi64>, tensor<3xf64>) -> tensor<5x4x3xf64>",
             [("%0", _t([5, 4, 3]))]),
     [("float", [5, 4, 3]), ("index", [3], 0, 4), ("float", [3])]),
    ("index_select",
     _module([("x", _t([5, 4]), True), ("i", _t([6], "i64"), False)],
             "%0 = tp.index_select %x, %i {dim = 1 : i64} : (tensor<5x4xf64>, "
             "tensor<6xi64>) -> tensor<5x6xf64>",
             [("%0", _t([5, 6]))]),
     [("float", [5, 4]), ("index", [6], 0, 4)]),
    ("gather",
     _module([("x", _t([4, 3]), True), ("i", _t([5, 2], "i64"), False)],
             "%0 = tp.gather %x, %i {dim = 0 : i64} : (tensor<4x3xf64>, tensor<5x2xi64>)"
             " -> tensor<5x2xf64>",
             [("%0", _t([5, 2]))]),
     [("float", [4, 3]), ("index", [5, 2], 0, 4)]),
    # src larger than index: only its leading part is read.
    ("scatter",
     _module([("x", _t([4, 3]), True), ("s", _t([3, 3]), True)],
             "%i = tp.constant dense<[[0, 1, 2], [3, 2, 0]]> : tensor<2x3xi64>\n"
             "%0 = tp.scatter %x, %i, %s {dim = 0 : i64} : (tensor<4x3xf64>, "
             "tensor<2x3xi64>, tensor<3x3xf64>) -> tensor<4x3xf64>",
             [("%0", _t([4, 3]))]),
     [("float", [4, 3]), ("float", [3, 3])]),
    ("scatter_add",
     _module([("x", _t([4, 3]), True), ("i", _t([3, 2], "i64"), False),
              ("s", _t([3, 3]), True)],
             "%0 = tp.scatter_add %x, %i, %s {dim = 1 : i64} : (tensor<4x3xf64>, "
             "tensor<3x2xi64>, tensor<3x3xf64>) -> tensor<4x3xf64>",
             [("%0", _t([4, 3]))]),
     [("float", [4, 3]), ("index", [3, 2], 0, 3), ("float", [3, 3])]),
    ("embedding",
     _module([("w", _t([6, 4]), True), ("i", _t([2, 3], "i64"), False)],
             "%0 = tp.embedding %w, %i : (tensor<6x4xf64>, tensor<2x3xi64>) -> "
             "tensor<2x3x4xf64>",
             [("%0", _t([2, 3, 4]))]),
     [("float", [6, 4]), ("index", [2, 3], 0, 6)]),
    # padding_idx rows get no gradient (eager's convention), so the indices
    # avoid it here for finite differences to agree.
    ("embedding.padding_idx",
     _module([("w", _t([6, 4]), True), ("i", _t([5], "i64"), False)],
             "%0 = tp.embedding %w, %i {padding_idx = 5 : i64} : (tensor<6x4xf64>, "
             "tensor<5xi64>) -> tensor<5x4xf64>",
             [("%0", _t([5, 4]))]),
     [("float", [6, 4]), ("index", [5], 0, 5)]),
    ("embedding_dense_backward",
     _module([("g", _t([2, 3, 4]), True), ("i", _t([2, 3], "i64"), False)],
             "%0 = tp.embedding_dense_backward %g, %i {num_weights = 6 : i64} : "
             "(tensor<2x3x4xf64>, tensor<2x3xi64>) -> tensor<6x4xf64>",
             [("%0", _t([6, 4]))]),
     [("float", [2, 3, 4]), ("index", [2, 3], 0, 6)]),
    ("embedding_dense_backward.scale_padding",
     _module([("g", _t([7, 4]), True), ("i", _t([7], "i64"), False)],
             "%0 = tp.embedding_dense_backward %g, %i {num_weights = 4 : i64, "
             "padding_idx = 2 : i64, scale_grad_by_freq = true} : (tensor<7x4xf64>, "
             "tensor<7xi64>) -> tensor<4x4xf64>",
             [("%0", _t([4, 4]))]),
     [("float", [7, 4]), ("index", [7], 0, 4)]),
]
