"""Python state a compiled function reaches that tracing must not change
(python_state.py, CompiledFunction._warn_untraced).

An iterator or generator cannot be snapshotted: a trace consumed its
values and the plan replayed one of them at every call, silently. Such a
function runs in PyTorch untraced, with one warning naming the iterator.
A list or dict nested in what the function reads (a dict of lists, a
list of dicts) changed by a trace is restored in place, so that the
calls that run in PyTorch see what eager sees.
"""

import itertools
import warnings

import torch

import stax

X = torch.ones(2)


def _values(f, n):
    return [f(X)[0].item() for _ in range(n)]


def _calls(call, n):
    """[call() for n calls], and the stax.compile warnings they gave."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        got = [call() for _ in range(n)]
    return got, [str(w.message) for w in record
                 if "stax.compile" in str(w.message)]


def _untraced(compiled, n, match):
    """n calls' values; exactly one warning, containing `match`."""
    got, messages = _calls(lambda: compiled(X)[0].item(), n)
    assert len(messages) == 1, messages
    assert match in messages[0], messages[0]
    return got


COUNTER = None


def _next_count(x):
    return x * next(COUNTER)


def test_a_global_iterator_runs_untraced_and_is_not_consumed():
    """`x * next(COUNTER)`: compiled calls gave 1, 1, 1, 1 (the trace took
    0, the plan baked 1)."""
    global COUNTER
    COUNTER = itertools.count()
    assert _values(_next_count, 4) == [0.0, 1.0, 2.0, 3.0]
    COUNTER = itertools.count()
    got = _untraced(stax.compile(_next_count), 4,
                    "runs _next_count in PyTorch: it reaches the iterator "
                    "'COUNTER' (a itertools.count)")
    assert got == [0.0, 1.0, 2.0, 3.0]
    assert next(COUNTER) == 4        # no trace took a value


def test_a_captured_generator_runs_untraced():
    def scales():
        yield from (2.0, 3.0, 5.0)
    gen = scales()

    def f(x):
        return x * next(gen)
    got = _untraced(stax.compile(f), 3,
                    "reaches the iterator 'gen' (a generator)")
    assert got == [2.0, 3.0, 5.0]


STATE = {}


def _next_in_dict(x):
    return x * next(STATE["it"])


def test_an_iterator_in_a_global_dict_or_a_module_attribute_runs_untraced():
    STATE["it"] = iter([4.0, 6.0])
    got = _untraced(stax.compile(_next_in_dict), 2,
                    "reaches the iterator \"STATE['it']\" (a list_iterator)")
    assert got == [4.0, 6.0]

    class Scaled(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.scales = iter([7.0, 9.0])

        def forward(self, x):
            return x * next(self.scales)
    got = _untraced(stax.compile(Scaled()), 2,
                    "reaches the iterator 'Scaled.scales'")
    assert got == [7.0, 9.0]


STACK = {}


def _pop_nested(x):
    return x * STACK["stack"].pop()


def test_a_list_in_a_global_dict_popped_by_the_trace_is_restored():
    """The trace's pops were noticed (the call ran in PyTorch) but not
    undone: compiled calls gave 9, 6, 5 where eager gives 11, 10, 9."""
    STACK["stack"] = [5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]
    compiled = stax.compile(_pop_nested)
    got, messages = _calls(lambda: compiled(X)[0].item(), 3)
    assert got == [11.0, 10.0, 9.0]
    assert STACK["stack"] == [5.0, 6.0, 7.0, 8.0]
    # Seen at two builds: no later call traces.
    assert messages == ["stax.compile: runs _pop_nested in PyTorch: it "
                        "changes a list, dict, set or object it reads in "
                        "place; compiled calls run no Python, so that would "
                        "happen only while tracing"] * 2


RECORDS = []


def _count_in_record(x):
    RECORDS[0]["n"] += 1
    return x * RECORDS[0]["n"]


def test_a_dict_in_a_global_list_changed_by_the_trace_is_restored():
    RECORDS[:] = [{"n": 0}]
    compiled = stax.compile(_count_in_record)
    got, messages = _calls(lambda: compiled(X)[0].item(), 3)
    assert got == [1.0, 2.0, 3.0]
    assert RECORDS == [{"n": 3}]
    assert len(messages) == 2 and all(
        "it changes a list, dict, set or object it reads in place" in m
        for m in messages), messages


def test_a_list_in_a_module_s_dict_appended_by_the_trace_is_restored():
    class Logging(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.log = {"sums": []}

        def forward(self, x):
            self.log["sums"].append(len(self.log["sums"]))
            return x * 2

    m = Logging()
    compiled = stax.compile(m)
    got, messages = _calls(lambda: compiled(X), 3)
    assert all(torch.equal(y, X * 2) for y in got)
    assert m.log == {"sums": [0, 1, 2]}
    assert len(messages) == 2 and all(
        "runs Logging in PyTorch: it changes Logging.log in place" in m
        for m in messages), messages
