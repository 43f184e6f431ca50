#!/usr/bin/env python3
"""Checks that the docs stand alone.

Usage: check-standalone.py ROOT FILE.md|DIR...

A reader of the repository has nothing else, so a doc must not send them
elsewhere: no mention of the design workspace (`../shared`), of the
design notes that are not in the repository (`NOTES.md`, `ARCHITECTURE.md`),
of an issue number (`#11`, "issue 15": the tracker is not part of the
repository), and no relative link to a file that does not exist in the
repository. Markdown anchors (`[x](#section)`), SSA result numbers
(`%0#1`) and HTML entities are not issue numbers. Prints one line per
problem and exits 1 if there is any.
"""
import os
import re
import sys

FORBIDDEN = [
    (re.compile(r"\.\./shared"), "a path outside the repository (../shared)"),
    (re.compile(r"\bNOTES\.md\b"), "NOTES.md, which is not in the repository"),
    (re.compile(r"\bARCHITECTURE\.md\b"), "ARCHITECTURE.md, which is not in the repository"),
    (re.compile(r"(?<![\w/&(#])#\d+\b"), "an issue number"),
    (re.compile(r"\b[Ii]ssues? #?\d+\b"), "an issue number"),
]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def check(root, path):
    problems = []
    text = open(path, encoding="utf-8").read()
    in_code = False
    for n, line in enumerate(text.splitlines(), 1):
        for pattern, what in FORBIDDEN:
            m = pattern.search(line)
            if m:
                problems.append(f"{path}:{n}: mentions {what}: {m.group(0)!r}")
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL, or an anchor in the same page
            file = target.split("#", 1)[0]
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file))
            inside = os.path.commonpath([os.path.abspath(resolved), root]) == root
            if not inside or not os.path.exists(resolved):
                problems.append(f"{path}:{n}: link to a file that is not in the "
                                f"repository: {target}")
    return problems


def main():
    root = os.path.abspath(sys.argv[1])
    paths = []
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):  # every .md under it
            paths += sorted(os.path.join(d, f) for d, _, fs in os.walk(arg)
                            for f in fs if f.endswith(".md"))
        else:
            paths.append(arg)
    problems = []
    for path in paths:
        problems += check(root, path)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{len(paths)} docs stand alone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
