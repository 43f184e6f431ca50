"""Checks that `stax-opt --help` documents every Stax pass and pipeline.

Usage: check-help.py STAX_OPT PIPELINES_CPP PASSES_TD...

The passes come from the Passes.td files and the pipelines from their
registration in Pipelines.cpp, so a new pass or pipeline is checked without
editing the test. For each one, --help must list it with its summary (for a
pass, the ODS summary verbatim) and all of its options, each option's line
ending in "(default: V)". V is checked against the value that
--dump-pass-pipeline prints for a pass created with no options ("empty" for
an empty string or list); for a pipeline, against the passes it expands to
wherever they have an option of the same name. Prints one line per failure,
exits 1 if there is any.
"""
import re
import subprocess
import sys

ENTRY = re.compile(r"^ {6}--([\w-]+) +-   (.*)$")
OPTION = re.compile(r"^ {8}--([\w-]+)(?:=<[^>]*>)? +- (.*)$")
DEFAULT = re.compile(r"\(default: ([^()]*)\)$")
ANCHORS = {"::mlir::func::FuncOp": "func.func", "::mlir::ModuleOp": None}


def td_string(text):
    """The value of a TableGen string: adjacent literals pasted together."""
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))


def read_passes(paths):
    """{argument: (anchor op or None, summary, [option arguments])}."""
    passes = {}
    for path in paths:
        text = open(path).read()
        defs = list(re.finditer(r'^def \w+ : Pass<"([\w-]+)"(?:, "([^"]*)")?>',
                                text, re.M))
        for i, d in enumerate(defs):
            body = text[d.end():defs[i + 1].start() if i + 1 < len(defs) else None]
            summary = re.search(r'let summary = ((?:"(?:[^"\\]|\\.)*"\s*)+);', body)
            options = re.findall(r'\b(?:List)?Option<"\w+",\s*"([\w-]+)"', body)
            passes[d.group(1)] = (ANCHORS.get(d.group(2)),
                                  td_string(summary.group(1)) if summary else "",
                                  options)
    return passes


def read_pipelines(path):
    return re.findall(r'(?:PassPipelineRegistration|registerModulePipeline)<\w+>\(\s*"([\w-]+)"',
                      open(path).read())


def parse_help(text):
    """{entry: (summary, {option: description})} for every listed pass."""
    entries, current = {}, None
    for line in text.splitlines():
        m = ENTRY.match(line)
        if m:
            current = m.group(1)
            entries[current] = (m.group(2).strip(), {})
            continue
        m = OPTION.match(line)
        if m and current:
            entries[current][1][m.group(1)] = m.group(2).strip()
        elif not line.startswith(" " * 4 + "="):
            current = None
    return entries


def dumped_options(stax_opt, pipeline):
    """{option: set of values} over the passes of `pipeline` as
    --dump-pass-pipeline prints them."""
    run = subprocess.run([stax_opt, "--pass-pipeline=" + pipeline,
                          "--dump-pass-pipeline", "-o", "/dev/null"],
                         input="module {}\n", capture_output=True, text=True)
    values = {}
    for group in re.findall(r"\{([^{}]*)\}", run.stderr):
        for key, value in re.findall(r"([\w-]+)=(\S*)", group):
            values.setdefault(key, set()).add(value)
    return values


def main():
    stax_opt, pipelines_cpp, tds = sys.argv[1], sys.argv[2], sys.argv[3:]
    help_text = subprocess.run([stax_opt, "--help"], capture_output=True,
                               text=True, check=True).stdout
    listed = parse_help(help_text)
    errors = []
    checked = 0

    def check_entry(name, summary, expected_options, actual_defaults):
        nonlocal checked
        if name not in listed:
            errors.append("--%s: not listed" % name)
            return
        got_summary, options = listed[name]
        if not got_summary or (summary is not None and got_summary != summary):
            errors.append("--%s: summary '%s', expected '%s'" %
                          (name, got_summary, summary))
        for option in expected_options:
            if option not in options:
                errors.append("--%s: option %s not listed" % (name, option))
        for option, description in sorted(options.items()):
            checked += 1
            m = DEFAULT.search(description)
            if not m:
                errors.append("--%s: option %s shows no default" % (name, option))
                continue
            shown = m.group(1).split(",")[0]
            shown = "" if shown == "empty" else shown
            actual = actual_defaults.get(option)
            if actual is not None and shown not in actual:
                errors.append("--%s: option %s shows default '%s', but it is %s"
                              % (name, option, shown, " or ".join(
                                  "'%s'" % v for v in sorted(actual))))

    passes = read_passes(tds)
    for name, (anchor, summary, options) in sorted(passes.items()):
        nested = "%s(%s)" % (anchor, name) if anchor else name
        check_entry(name, summary, options,
                    dumped_options(stax_opt, "builtin.module(%s)" % nested))
    pipelines = read_pipelines(pipelines_cpp)
    for name in pipelines:
        check_entry(name, None, [],
                    dumped_options(stax_opt, "builtin.module(%s)" % name))
    for error in errors:
        print("error: " + error)
    print("%d passes, %d pipelines, %d options checked, %d errors" %
          (len(passes), len(pipelines), checked, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
