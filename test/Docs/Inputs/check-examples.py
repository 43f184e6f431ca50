#!/usr/bin/env python3
"""Checks the examples of the generated references.

Usage: check-examples.py STAX_OPT DOC.md...

Every ```mlir block of the given Markdown files must parse and verify with
`stax-opt` (each block on its own, as a file of its own; a block of bare
ops, `%y = tp.op %x : T -> R`, is put in a function whose arguments are the
values it uses without defining them), and in a dialect
reference every op (a `### `tp.x` (...)` heading), in the pass reference
every pass (`### `-stax-x``), must have at least one ```mlir block in its
entry. Prints one line per problem and exits 1 if
there is any; otherwise prints "N examples parse, M ops have examples".
"""
import re
import subprocess
import sys

# An op of a dialect reference (### `tp.add` (tp::AddOp)) or a pass of the
# pass reference (### `-stax-fuse`); the pipelines show commands instead.
OP_HEADING = re.compile(r"^### `([a-z_]+\.[A-Za-z0-9_.]+|-stax-(?!\S*pipeline`)[a-z-]+)`")


def blocks(text):
    """(line number, block text) of every ```mlir block."""
    out, cur, start = [], None, 0
    for n, line in enumerate(text.splitlines(), 1):
        if cur is None and line.strip() == "```mlir":
            cur, start = [], n
        elif cur is not None and line.strip() == "```":
            out.append((start, "\n".join(cur) + "\n"))
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def split_top(text, sep):
    """`text` split at the occurrences of the character `sep` that are not
    nested in (), [], {} or <>."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and cur.endswith("-")):
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def as_function(block):
    """A block that is not a whole module or function (`%y = tp.op %x : T
    -> R`, one op per statement) wrapped into a function whose arguments
    are the values the block uses without defining, typed by the operand
    types the ops print. None when that does not work out."""
    statements, defined, args = [], set(), []
    for line in block.splitlines():
        if line.startswith("%") or not statements:
            statements.append(line)
        else:
            statements[-1] += " " + line.strip()
    for st in statements:
        lhs, _, rhs = st.partition(" = ") if " = " in st else ("", "", st)
        head = split_top(rhs, ":")
        if len(head) < 2:
            return None
        operands = [v for v in re.findall(r"%[\w$.-]+", head[0])]
        types = ":".join(head[1:])
        inputs = split_top(types, "-")[0].rstrip(">").strip() if "->" in types else types.strip()
        if inputs.startswith("(") and inputs.endswith(")"):
            inputs = inputs[1:-1]
        tys = [t.strip() for t in split_top(inputs, ",") if t.strip()]
        if len(tys) != len(operands):
            return None
        for v, t in zip(operands, tys):
            if v not in defined:
                defined.add(v)
                args.append(f"{v}: {t}")
        defined.update(re.findall(r"%[\w$.-]+", lhs))
    body = "\n".join("  " + l for l in block.splitlines())
    return f"func.func @example({', '.join(args)}) {{\n{body}\n  return\n}}\n"


def ops_without_example(text):
    """Ops of a dialect reference whose entry has no ```mlir block."""
    missing, op, seen = [], None, False
    for line in text.splitlines():
        m = OP_HEADING.match(line)
        if m or line.startswith("## "):
            if op and not seen:
                missing.append(op)
            op, seen = (m.group(1) if m else None), False
        elif line.strip() == "```mlir":
            seen = True
    if op and not seen:
        missing.append(op)
    return missing


def main():
    stax_opt, docs = sys.argv[1], sys.argv[2:]
    problems, n_examples, n_ops = [], 0, 0
    for doc in docs:
        text = open(doc, encoding="utf-8").read()
        for op in ops_without_example(text):
            problems.append(f"{doc}: {op} has no example")
        n_ops += sum(1 for l in text.splitlines() if OP_HEADING.match(l))
        found = [(line, b if re.search(r"^\s*(func\.func|module|#)", b, re.M)
                  else (as_function(b) or b))
                 for line, b in blocks(text)]
        n_examples += len(found)
        # One run for all the blocks; only when it fails, one run per block
        # to name the failing ones.
        joined = "\n// -----\n".join(b for _, b in found)
        run = subprocess.run([stax_opt, "--split-input-file", "-o", "/dev/null", "-"],
                             input=joined, capture_output=True, text=True)
        if run.returncode == 0:
            continue
        for line, block in found:
            one = subprocess.run([stax_opt, "-o", "/dev/null", "-"], input=block,
                                 capture_output=True, text=True)
            if one.returncode != 0:
                first = one.stderr.strip().splitlines()[0] if one.stderr.strip() else ""
                problems.append(f"{doc}:{line}: example does not parse: {first}")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{n_examples} examples parse, {n_ops} ops and passes have examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
