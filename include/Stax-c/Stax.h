/*===- Stax.h - C API of Stax --------------------------------------*- C -*-===*\
|*                                                                            *|
|* A small, stateless C API over Stax for foreign callers (the Python package *|
|* binds it with ctypes). Strings returned by the API are owned by the caller *|
|* and released with staxFreeString; buffers with staxFreeBuffers.           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef STAX_C_STAX_H
#define STAX_C_STAX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STAX_CAPI_EXPORT __attribute__((visibility("default")))

/// A dense row-major tensor. `dtype` is a NumPy dtype string ("<f4", "<f8",
/// "<f2", "<i8", "<i4", "<i2", "|i1", "|u1", "|b1") or "<bf16" for bfloat16,
/// which NumPy lacks (each element its raw little-endian 16-bit word); `data`
/// holds prod(shape) elements.
typedef struct StaxBuffer {
  int64_t rank;
  int64_t *shape;
  char dtype[8];
  void *data;
} StaxBuffer;

/// How staxRunPipeline prints its result (flags, or'ed): ops in generic
/// form; every op's location (`loc(...)`), so that the result parsed again
/// keeps them (a frontend's names for the ops, in later diagnostics).
enum { STAX_PRINT_GENERIC = 1, STAX_PRINT_LOCATIONS = 2 };

/// Parses `module` (any dialect Stax registers, custom or generic form),
/// verifies it, runs the textual pass pipeline `pipeline` (e.g.
/// "builtin.module(canonicalize)"; empty runs nothing) and returns the
/// result printed as `print` (STAX_PRINT_* flags; 0: custom form, no
/// locations) says. On failure returns NULL and sets *error to the
/// diagnostics, each with its location.
STAX_CAPI_EXPORT char *staxRunPipeline(const char *module, const char *pipeline,
                                       int print, char **error);

/// Interprets function `entry` of `module` on `args`. On success returns 0,
/// sets *results to an array of *numResults buffers. With `f64` every
/// floating value is computed in float64 (results are then "<f8"). A bf16
/// argument may also be passed as "<f4", rounded to nearest even.
STAX_CAPI_EXPORT int staxInterpret(const char *module, const char *entry,
                                   int64_t numArgs, const StaxBuffer *args,
                                   int f64, StaxBuffer **results,
                                   int64_t *numResults, char **error);

/// Times `pipeline` alone: parses and verifies `module` once, then `reps`
/// times clones it (untimed) and runs the pipeline on the clone with one
/// persistent context, excluding parsing, printing and context creation.
/// With `verify` nonzero the verifier runs after each pass and is timed
/// too. On success returns 0 and sets *bestMs and *medianMs (milliseconds);
/// on failure returns 1 and sets *error.
STAX_CAPI_EXPORT int staxTimePipeline(const char *module, const char *pipeline,
                                      int64_t reps, int verify, double *bestMs,
                                      double *medianMs, char **error);

/// Nonzero when the reference interpreter implements op `name` ("tp.add").
STAX_CAPI_EXPORT int staxInterpreterHasKernel(const char *name);

/// The names of every op of `dialect` ("tp"), one per line.
STAX_CAPI_EXPORT char *staxListOperations(const char *dialect);

/// Nonzero when op `name` has derivative rules (DifferentiableOpInterface).
STAX_CAPI_EXPORT int staxOpIsDifferentiable(const char *name);

/// Machine code for a module (see staxCompile).
typedef struct StaxExecutable StaxExecutable;

/// 0 when `options` parse as --stax-pipeline options; else 1, with *error
/// (free with staxFreeString) naming the option or value that does not.
STAX_CAPI_EXPORT int staxCheckPipelineOptions(const char *options,
                                              char **error);

/// Compiles `module` (tp or lowered stax, static shapes) for the host CPU
/// with the --stax-pipeline options `options` ("" for the defaults, e.g.
/// "vector-width=1 parallel=false"). Compiled code is cached in memory per
/// (module, options): compiling the same text again costs a hash. With
/// `llvmIR` non-NULL, *llvmIR receives the optimized LLVM IR. Returns NULL
/// and sets *error on failure. The environment variable STAX_CACHE_DIR, when
/// set, is the disk cache of staxCompileCached.
STAX_CAPI_EXPORT StaxExecutable *staxCompile(const char *module,
                                             const char *options,
                                             char **llvmIR, char **error);

/// staxCompile that also keeps target=cpu machine code on disk in directory
/// `cacheDir` (created if needed; NULL or "" for none), keyed by the module
/// text, the options, the host CPU and this build of Stax: a later process
/// loads it instead of compiling. Entries that cannot be read are compiled
/// again and replaced. Requests for the LLVM IR always compile.
STAX_CAPI_EXPORT StaxExecutable *staxCompileCached(const char *module,
                                                   const char *options,
                                                   const char *cacheDir,
                                                   char **llvmIR, char **error);

/// The compiled modules in memory: the 32 most recently compiled or found
/// by staxCompile / staxCompileCached (which then skip compiling), and any
/// older one an executable still holds.
STAX_CAPI_EXPORT size_t staxCompiledModuleCount(void);

/// The times of code compiled with the profile=true option since the last
/// call, one line per node, kernel or runtime call: "name\tcalls\t
/// total ns\tfastest ns\tbytes" (bytes: the distinct tensors it reads and
/// writes). Free with staxFreeString.
STAX_CAPI_EXPORT char *staxCpuTakeProfile(void);

/// Nonzero when the executable's machine code came from the disk cache.
STAX_CAPI_EXPORT int staxExecutableFromCache(StaxExecutable *exe);

/// Calls function `entry` of `exe` on `numBuffers` data pointers: its
/// inputs, then one per result, each the contiguous row-major storage of
/// the declared tensor type (results are written there). Returns 0, or 1
/// with *error set (a wrong buffer count, a failed run-time index check, or
/// with the "check-nan=true" option a NaN stored: "NaN at element 7 of the
/// result of 'stax.pointwise' at loc(...) in @f").
STAX_CAPI_EXPORT int staxExecutableCall(StaxExecutable *exe, const char *entry,
                                        void **buffers, int64_t numBuffers,
                                        char **error);

/// Like staxExecutableCall. For a module compiled with "target=cuda", the
/// buffers of staxExecutableCall are device pointers (e.g. PyTorch CUDA
/// tensors' data); a driver error is returned the same way ("no CUDA
/// driver: libcuda.so.1 not found (...)", "CUDA error
/// CUDA_ERROR_LAUNCH_FAILED in cuLaunchKernel for kernel 'k': ..."), while
/// this function takes host buffers for every target: target=cuda copies
/// the inputs to device memory, calls, and copies the results back.
STAX_CAPI_EXPORT int staxExecutableCallHost(StaxExecutable *exe,
                                            const char *entry, void **buffers,
                                            int64_t numBuffers, char **error);

/// target=cuda: one line per kernel of `exe`, "<name> <bytes>", the bytes of
/// the distinct buffers it is launched on (each read or written once: the
/// ideal traffic of a launch).
STAX_CAPI_EXPORT char *staxExecutableKernels(StaxExecutable *exe);

/// The CUDA launcher (target=cuda). Returns 0 when the driver
/// (libcuda.so.1, loaded at run time) is there and a device context is
/// ready, with *device (if non-NULL) set to its name ("NVIDIA H200
/// (sm_90)"); otherwise 1 with *error set.
STAX_CAPI_EXPORT int staxCudaInitialize(char **device, char **error);

/// With `enable` nonzero, every kernel launch is timed with CUDA events.
STAX_CAPI_EXPORT void staxCudaSetProfiling(int enable);

/// The kernel times since the last call, one line per kernel name:
/// "<name> <launches> <total ms> <min ms>".
STAX_CAPI_EXPORT char *staxCudaTakeProfile(void);

/// The device-to-device copy bandwidth (bytes read plus written per second,
/// in GB/s) of the best of `reps` copies of `bytes`, timed with CUDA events.
/// Returns 0, or 1 with *error set.
STAX_CAPI_EXPORT int staxCudaCopyBandwidth(int64_t bytes, int reps,
                                           double *gbps, char **error);

/// The tensor types of `entry`'s inputs and results, as
/// "tensor<4x8xf32>,tensor<8xf32>;tensor<f32>" (inputs, a semicolon, results);
/// NULL when `exe` has no such function.
STAX_CAPI_EXPORT char *staxExecutableSignature(StaxExecutable *exe,
                                               const char *entry);

/// Memory for results a caller hands out (Python: torch tensors), from the
/// heap compiled code allocates its arenas in: a freed block of at least
/// 1 MiB is kept (up to 1 GiB in all) and given to the next allocation of
/// about its size, so a result written on every call does not fault its
/// pages in from the OS each time. 64-byte aligned; NULL when out of memory.
/// Release with staxHostRelease.
STAX_CAPI_EXPORT void *staxHostAllocate(size_t bytes);
STAX_CAPI_EXPORT void staxHostRelease(void *ptr);
/// The bytes of freed blocks the heap keeps; staxHostTrim returns them all
/// to the system.
STAX_CAPI_EXPORT size_t staxHostCachedBytes(void);
STAX_CAPI_EXPORT void staxHostTrim(void);

/// Threads of the parallel loops; <= 0 means all cores (the default).
STAX_CAPI_EXPORT void staxSetNumThreads(int threads);

STAX_CAPI_EXPORT void staxExecutableDestroy(StaxExecutable *exe);

STAX_CAPI_EXPORT void staxFreeString(char *s);
STAX_CAPI_EXPORT void staxFreeBuffers(StaxBuffer *buffers, int64_t count);

#ifdef __cplusplus
}
#endif

#endif /* STAX_C_STAX_H */
