# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "STAX"
# The internal shell: portable, and it provides `not` itself.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stax_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%stax_src_root", config.stax_src_root))
config.substitutions.append(("%stax_cmake_args", config.stax_cmake_args))
config.substitutions.append(("%stax_lib_dir", config.stax_obj_root + "/lib"))
config.substitutions.append(("%stax_obj_root", config.stax_obj_root))
config.substitutions.append(("%llvm_lib_dir",
                             os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))
config.substitutions.append(("%clang", " ".join(filter(None, [
    os.path.join(config.llvm_tools_dir, "clang"),
    getattr(config, "stax_sanitizer_link_flag", "")]))))
# The MLIR-style C API is complete in clang builds only (STAX_MLIR_CAPI).
if config.stax_mlir_capi.upper() in ("ON", "1", "TRUE"):
    config.available_features.add("stax-mlir-capi")
# CUDA's PTX assembler checks generated PTX; CUDA (not a GPU) may be absent.
_ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
if os.path.exists(_ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", _ptxas))

# A CUDA driver (libcuda.so.1, which only GPU machines have) runs the tests
# that launch kernels; elsewhere the launcher is tested with a fake driver
# (test/stax-run/Inputs/fake-cuda.c).
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# A failing stax-opt pipeline writes a reproducer to the temporary directory
# (tools/stax-opt): the tests' failures go under the build, not /tmp.
_tmp = os.path.join(config.test_exec_root, "Output", "tmp")
os.makedirs(_tmp, exist_ok=True)
config.environment["TMPDIR"] = _tmp
llvm_config.use_default_substitutions()

tool_dirs = [config.stax_tools_dir, config.llvm_tools_dir]
tools = ["stax-opt", "stax-translate", "stax-run"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
