#!/usr/bin/python3
"""Writes the seed corpus of tools/stax-fuzz (docs/Testing.md).

Two kinds of seeds, one file each:
  * every .mlir file under test/, split at `// -----` like stax-opt's
    --split-input-file, with full-line comments (RUN/CHECK lines) removed so
    that seeds stay short;
  * N random well-typed tp modules: PyTorch programs from the differential
    tester's generator (stax.difftest.random_program), imported to tp.

With --dict FILE it also writes a libFuzzer dictionary: every tp/stax op
name, attribute name and enum keyword, read from the ODS-generated .inc
files of a build (--inc-dir) and the .td files, plus MLIR's type and
syntax tokens.

Usage: PYTHONPATH=python STAX_LIB_DIR=build/lib \\
         /usr/bin/python3 scripts/fuzz-seeds.py OUT_DIR [--random N] [--seed S]
         [--dict FILE --inc-dir BUILD/include]
"""
import argparse
import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)


def write(out: Path, text: str) -> bool:
    """Writes `text` under its hash (so reruns do not duplicate seeds)."""
    data = text.encode()
    path = out / hashlib.sha1(data).hexdigest()
    if path.exists():
        return False
    path.write_bytes(data)
    return True


def lit_seeds(out: Path) -> int:
    n = 0
    for f in sorted((ROOT / "test").rglob("*.mlir")):
        for chunk in SPLIT.split(f.read_text(errors="replace")):
            lines = [l for l in chunk.splitlines()
                     if not l.lstrip().startswith("//")]
            text = "\n".join(lines).strip()
            if text and write(out, text + "\n"):
                n += 1
    return n


def random_seeds(out: Path, count: int, seed: int, max_steps: int) -> int:
    import stax
    from stax.difftest import random_program
    n = 0
    for k in range(seed, seed + count):
        p = random_program(k, max_steps)
        if not p.steps:
            continue
        try:
            text = stax.import_torch(p.fn, *p.inputs)
        except Exception as e:  # noqa: BLE001 - an import failure is no seed
            print(f"fuzz-seeds: seed {k}: {str(e).splitlines()[0][:120]}",
                  file=sys.stderr)
            continue
        n += write(out, text)
    return n


# MLIR syntax and the builtin types and attributes tp/stax functions use.
BASE_TOKENS = [
    "module", "func.func", "@forward", "return", "tensor<", "memref<", "x",
    "f16", "bf16", "f32", "f64", "i1", "i8", "i32", "i64", "index", "complex<",
    "dense<", "array<i64:", "unit", "true", "false", "0x7FC00000", "-inf",
    "0.000000e+00", "1.000000e+00", "%arg0", "%arg1", "%0", "%1", "->", "?",
    "{tp.requires_grad}", "arith.constant", "math.exp", "loc(", "#stax.",
    " : ", "(", ")", "[", "]", "<", ">", "{", "}", "=", ",", "^bb0",
    "9223372036854775807", "-9223372036854775808", "4294967296", "2147483648",
]


def write_dict(path: Path, inc_dir: Path) -> int:
    tokens = set(BASE_TOKENS)
    for inc in inc_dir.rglob("*.inc"):
        text = inc.read_text(errors="replace")
        # Operation names: getOperationName() returns a StringLiteral.
        tokens.update(re.findall(r'StringLiteral\("((?:tp|stax)\.[\w.]+)"\)',
                                 text))
        # Inherent attribute names (getAttributeNames).
        for names in re.findall(r"attrNames\[\] = \{([^}]*)\}", text):
            tokens.update(re.findall(r'StringRef\("(\w+)"\)', names))
    for td in (ROOT / "include").rglob("*.td"):
        text = td.read_text(errors="replace")
        # Enum keywords (`stax.reduction sum`) and attribute mnemonics.
        tokens.update(re.findall(r'EnumAttrCase<"\w+",\s*\d+,\s*"(\w+)"',
                                 text))
        tokens.update(re.findall(r'mnemonic = "(\w+)"', text))
    with open(path, "w") as f:
        for t in sorted(tokens):
            f.write('"%s"\n' % t.replace("\\", "\\\\").replace('"', '\\"'))
    return len(tokens)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--random", type=int, default=200,
                    help="random tp modules from stax.difftest (default 200)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-steps", type=int, default=12)
    ap.add_argument("--dict", type=Path, help="write a libFuzzer dictionary")
    ap.add_argument("--inc-dir", type=Path, default=ROOT / "build" / "include",
                    help="a build's include/ (ODS-generated .inc files)")
    args = ap.parse_args(argv)
    if args.dict:
        n = write_dict(args.dict, args.inc_dir)
        print(f"fuzz-seeds: {n} dictionary entries in {args.dict}")
    args.out.mkdir(parents=True, exist_ok=True)
    lit = lit_seeds(args.out)
    rnd = random_seeds(args.out, args.random, args.seed, args.max_steps) \
        if args.random else 0
    print(f"fuzz-seeds: {lit} from test/, {rnd} random tp modules "
          f"in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
