# Sanitizer and fuzzer builds (docs/Testing.md). Both are off by default and
# need clang (clang-22's runtimes come from Debian's libclang-rt-22-dev).
#
#   -DSTAX_SANITIZERS="address;undefined"  instruments every target of this
#       project (Stax's libraries, tools, unit tests, the runtime library).
#       Debian's libMLIR.so/libLLVM.so are not instrumented: ASan sees their
#       heap through its malloc interceptors but not their stack or globals.
#   -DSTAX_FUZZ=ON  builds tools/stax-fuzz, a libFuzzer target; it implies the
#       same sanitizers unless STAX_SANITIZERS says otherwise.
set(STAX_SANITIZERS "" CACHE STRING
  "Sanitizers for Stax's own targets, e.g. \"address;undefined\" (clang only)")
option(STAX_FUZZ "Build the libFuzzer target tools/stax-fuzz (clang only)" OFF)

if(STAX_FUZZ AND NOT STAX_SANITIZERS)
  set(STAX_SANITIZERS "address;undefined" CACHE STRING "" FORCE)
endif()

if(STAX_SANITIZERS OR STAX_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "STAX_SANITIZERS and STAX_FUZZ need clang (clang++-22)")
  endif()
endif()

set(STAX_SANITIZER_FLAGS "")
if(STAX_SANITIZERS)
  string(REPLACE ";" "," _stax_sanitizers "${STAX_SANITIZERS}")
  # Frame pointers give whole stack traces through the fast unwinder; an
  # undefined-behaviour report aborts instead of scrolling by, so that a test
  # whose code has UB fails.
  set(STAX_SANITIZER_FLAGS
    -fsanitize=${_stax_sanitizers} -fno-omit-frame-pointer)
  if(_stax_sanitizers MATCHES "undefined")
    list(APPEND STAX_SANITIZER_FLAGS -fno-sanitize-recover=undefined)
  endif()
  if(STAX_FUZZ)
    # Coverage feedback for libFuzzer from all of Stax, not only from the
    # fuzz target's own file; tools/stax-fuzz links libFuzzer itself.
    list(APPEND STAX_SANITIZER_FLAGS -fsanitize=fuzzer-no-link)
  endif()
  message(STATUS "Stax sanitizers: ${STAX_SANITIZER_FLAGS}")
  add_compile_options(${STAX_SANITIZER_FLAGS})
  add_link_options(${STAX_SANITIZER_FLAGS})
  # One runtime for the whole process, the shared one: Python (which is not
  # instrumented) loads libStaxCAPI.so only with the runtime preloaded, and
  # the tools it starts inherit that preload; a second, static copy of the
  # runtime in those tools would clash with it.
  execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
    OUTPUT_VARIABLE STAX_SANITIZER_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(_stax_runtime_dir "${STAX_SANITIZER_RUNTIME}"
    DIRECTORY)
  add_link_options(-shared-libsan "-Wl,-rpath,${_stax_runtime_dir}")
  # Shared libraries (libStaxCAPI.so) take the sanitizer runtime from the
  # process that loads them (the instrumented executable, or Python with the
  # runtime preloaded), so their sanitizer symbols stay undefined at link
  # time: drop HandleLLVMOptions' -z defs, as LLVM_USE_SANITIZER does.
  string(REPLACE "-Wl,-z,defs" "" CMAKE_SHARED_LINKER_FLAGS
    "${CMAKE_SHARED_LINKER_FLAGS}")
endif()
# What a program that links Stax's instrumented libraries needs at link time
# (test/AOT's main.c, test/Embed's embed-opt): the sanitizer runtimes.
# -lstdc++: the runtime library's C++ (std::vector) is not all inlined at
# -O1, and %clang links as C.
set(STAX_SANITIZER_LINK_FLAG "")
if(STAX_SANITIZERS)
  set(STAX_SANITIZER_LINK_FLAG "-fsanitize=${_stax_sanitizers}")
  if(STAX_FUZZ)
    string(APPEND STAX_SANITIZER_LINK_FLAG ",fuzzer-no-link")
  endif()
  string(APPEND STAX_SANITIZER_LINK_FLAG
    " -shared-libsan -Wl,-rpath,${_stax_runtime_dir} -lstdc++")
else()
  set(STAX_SANITIZER_RUNTIME "")
endif()
