"""target=cuda: every corpus model's min-cut forward and backward lower to
PTX (--stax-pipeline="target=cuda", stax-translate --stax-to-ptx), which
CUDA's ptxas assembles for sm_90 with no register spills. No GPU is needed;
without CUDA's ptxas only the PTX generation is checked (the skip says so)."""

import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest
import torch

import stax
from stax import corpus

warnings.filterwarnings("ignore")
ROOT = Path(__file__).resolve().parents[2]
TRANSLATE = ROOT / "build" / "bin" / "stax-translate"
PTXAS = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "ptxas"


@pytest.mark.parametrize("name", corpus.names())
def test_corpus_model_reaches_ptx(name, tmp_path):
    model = corpus.get(name)
    _assert_reaches_ptx(model.fn, model.make_inputs(), tmp_path)


def test_random_ops_and_products_reach_ptx(tmp_path):
    # Dropout, normals (Philox bodies: 32/64-bit integer products) and
    # cumprod (a thread per slice), forward and backward.
    def fn(x):
        h = torch.nn.functional.dropout(x, 0.25) + torch.randn_like(x) * 0.1
        return h.cumprod(1).sum()

    _assert_reaches_ptx(fn, [torch.randn(64, 33, requires_grad=True)], tmp_path)


def _assert_reaches_ptx(fn, inputs, tmp_path):
    text = stax.import_torch(fn, *inputs)
    if any(t.requires_grad for t in inputs):
        text = stax.run_pipeline(text, "builtin.module(stax-joint-graph,stax-mincut)")
    lowered = stax.run_pipeline(text, "builtin.module(stax-pipeline{target=cuda})")
    (tmp_path / "m.mlir").write_text(lowered)
    subprocess.run([str(TRANSLATE), "--stax-to-ptx", str(tmp_path / "m.mlir"),
                    "-o", str(tmp_path / "m.ptx")], check=True)
    ptx = (tmp_path / "m.ptx").read_text()
    assert ptx.count(".version") == 1  # one PTX module for all kernels
    entries = re.findall(r"\.visible \.entry (\w+)\(", ptx)
    # Host code launches on a stream: gpu.launch_func <%s : !llvm.ptr> @m::@k
    launches = set(re.findall(r"gpu.launch_func\s+(?:<[^>]*>\s+)?@\w+::@(\w+)",
                              lowered))
    assert entries and launches == set(entries)
    if not PTXAS.exists():
        pytest.skip(f"PTX generated; {PTXAS} not found, so not assembled")
    r = subprocess.run([str(PTXAS), "-arch=sm_90", "-v", str(tmp_path / "m.ptx"),
                        "-o", str(tmp_path / "m.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("Compiling entry function") == len(entries)
    spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", r.stderr)
    assert spills and all(s == ("0", "0") for s in spills)
