#!/usr/bin/env python3
"""Runs the commands that the docs show, as they are written.

Usage: run-doc-commands.py SRC_ROOT BUILD_DIR WORKDIR DOC.md...

Every line of a ```sh block that starts with `build/bin/` or
`/usr/bin/python3 ` runs with bash in WORKDIR, which holds a copy of the
repository's `examples/` and a link `build` to the build directory, so the
commands run literally (relative paths included). A command that fails is
reported with its output. Every `examples/*.mlir` must be used by at least
one command. Prints one line per problem and exits 1 if there is any.
"""
import glob
import os
import shutil
import subprocess
import sys


def commands(doc):
    out, in_sh = [], False
    for n, line in enumerate(open(doc, encoding="utf-8").read().splitlines(), 1):
        if line.strip() == "```sh":
            in_sh = True
        elif line.strip().startswith("```"):
            in_sh = False
        elif in_sh and (line.startswith("build/bin/") or
                        line.startswith("/usr/bin/python3 ")):
            out.append((n, line))
    return out


def main():
    src, build, work, docs = (os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3],
                              sys.argv[4:])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    shutil.copytree(os.path.join(src, "examples"), os.path.join(work, "examples"),
                    ignore=shutil.ignore_patterns("embed"))
    os.symlink(os.path.abspath(build), os.path.join(work, "build"))
    env = dict(os.environ, PYTHONPATH=os.path.join(src, "python"),
               STAX_LIB_DIR=os.path.join(os.path.abspath(build), "lib"))
    problems, used, ran = [], set(), 0
    for doc in docs:
        for n, cmd in commands(doc):
            ran += 1
            p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env,
                               capture_output=True, text=True, timeout=300)
            if p.returncode != 0:
                tail = (p.stdout + p.stderr).strip().splitlines()[-5:]
                problems.append(f"{doc}:{n}: `{cmd}` failed ({p.returncode}):\n    " +
                                "\n    ".join(tail))
            used.update(w for w in cmd.split() if w.startswith("examples/"))
    for example in sorted(glob.glob(os.path.join(src, "examples", "*.mlir"))):
        name = "examples/" + os.path.basename(example)
        if name not in used:
            problems.append(f"{name}: no command in the docs runs it")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{ran} documented commands ran; every example is used")
    return 0


if __name__ == "__main__":
    sys.exit(main())
