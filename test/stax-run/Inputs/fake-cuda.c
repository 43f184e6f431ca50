/* A stand-in for libcuda.so.1 that runs no kernel, for testing the CUDA
 * launcher (lib/Runtime/CudaLauncher.cpp) on machines without a GPU: load
 * it with STAX_CUDA_DRIVER. "Device" memory is host memory; each module load
 * and kernel launch is printed to stderr ("fake-cuda: ..."), after checking
 * what a real driver would reject (PTX without its NUL, a kernel the PTX
 * does not define). FAKE_CUDA_FAIL=<function>:<code> makes that driver
 * function return the CUresult <code>. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static CUresult injected(const char *fn) {
  const char *spec = getenv("FAKE_CUDA_FAIL");
  size_t n = strlen(fn);
  if (spec && strncmp(spec, fn, n) == 0 && spec[n] == ':')
    return atoi(spec + n + 1);
  return 0;
}

#define FAIL_IF_INJECTED(fn)                                                   \
  do {                                                                         \
    CUresult r = injected(fn);                                                 \
    if (r)                                                                     \
      return r;                                                                \
  } while (0)

static const struct {
  CUresult code;
  const char *name, *text;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {710, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

CUresult cuGetErrorName(CUresult r, const char **s) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i)
    if (errors[i].code == r)
      return *s = errors[i].name, 0;
  return 1;
}

CUresult cuGetErrorString(CUresult r, const char **s) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i)
    if (errors[i].code == r)
      return *s = errors[i].text, 0;
  return 1;
}

static int context;
CUresult cuInit(unsigned flags) {
  (void)flags;
  FAIL_IF_INJECTED("cuInit");
  return 0;
}
CUresult cuDeviceGet(int *d, int ordinal) { return *d = ordinal, 0; }
CUresult cuDeviceGetName(char *name, int len, int d) {
  (void)d;
  snprintf(name, len, "Fake GPU");
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  *v = attr == 75 ? 9 : 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **c, int d) {
  (void)d;
  return *c = &context, 0;
}
CUresult cuCtxGetCurrent(void **c) { return *c = NULL, 0; }
CUresult cuCtxGetDevice(int *d) { return *d = 0, 0; }
CUresult cuCtxPushCurrent_v2(void *c) { return c == &context ? 0 : 201; }
CUresult cuCtxPopCurrent_v2(void **c) { return *c = &context, 0; }

struct Module {
  const char *ptx;
};
struct Function {
  char name[256];
  int params;
};

CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n,
                            int *options, void **values) {
  FAIL_IF_INJECTED("cuModuleLoadDataEx");
  const char *ptx = image;
  int opt = -1;
  for (unsigned i = 0; i < n; ++i)
    if (options[i] == 7)
      opt = (int)(intptr_t)values[i];
  if (strncmp(ptx, "//", 2) != 0 || !strstr(ptx, ".version"))
    return 218;
  fprintf(stderr, "fake-cuda: load %zu bytes of PTX at O%d\n", strlen(ptx),
          opt);
  struct Module *mod = malloc(sizeof(struct Module));
  mod->ptx = ptx;
  *m = mod;
  return 0;
}

CUresult cuModuleUnload(void *m) {
  free(m);
  return 0;
}

/* The number of .param lines of entry `name` in `ptx`, or -1. */
static int countParams(const char *ptx, const char *name) {
  char header[300];
  snprintf(header, sizeof(header), ".entry %s(", name);
  const char *p = strstr(ptx, header);
  if (!p)
    return -1;
  const char *end = strchr(p, ')');
  int count = 0;
  for (p = strstr(p, ".param"); p && p < end; p = strstr(p + 1, ".param"))
    ++count;
  return count;
}

CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  FAIL_IF_INJECTED("cuModuleGetFunction");
  int params = countParams(((struct Module *)m)->ptx, name);
  if (params < 0)
    return 500;
  struct Function *fn = malloc(sizeof(struct Function));
  snprintf(fn->name, sizeof(fn->name), "%s", name);
  fn->params = params;
  *f = fn;
  return 0;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  (void)smem, (void)stream, (void)extra;
  FAIL_IF_INJECTED("cuLaunchKernel");
  struct Function *fn = f;
  /* Each parameter is read, as the driver would: a bad params array
     faults here. */
  unsigned long long sum = 0;
  for (int i = 0; i < fn->params; ++i)
    sum += *(unsigned long long *)params[i];
  fprintf(stderr, "fake-cuda: launch %s grid %ux%ux%u block %ux%ux%u, %d params\n",
          fn->name, gx, gy, gz, bx, by, bz, fn->params);
  return sum == 0xdeadbeef ? 1 : 0; /* keep the reads */
}

static int handles;
CUresult cuStreamCreate(void **s, unsigned flags) {
  (void)flags;
  FAIL_IF_INJECTED("cuStreamCreate");
  return *s = &handles, 0;
}
CUresult cuStreamDestroy_v2(void *s) { return (void)s, 0; }
CUresult cuStreamSynchronize(void *s) {
  (void)s;
  FAIL_IF_INJECTED("cuStreamSynchronize");
  return 0;
}
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) {
  return (void)s, (void)e, (void)f, 0;
}
CUresult cuEventCreate(void **e, unsigned flags) {
  (void)flags;
  return *e = &handles, 0;
}
CUresult cuEventDestroy_v2(void *e) { return (void)e, 0; }
CUresult cuEventRecord(void *e, void *s) { return (void)e, (void)s, 0; }
CUresult cuEventSynchronize(void *e) { return (void)e, 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
  (void)a, (void)b;
  return *ms = 1.0f, 0;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
  FAIL_IF_INJECTED("cuMemAlloc");
  *p = (CUdeviceptr)(uintptr_t)calloc(1, n);
  return 0;
}
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags) {
  (void)flags;
  return cuMemAlloc_v2(p, n);
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  free((void *)(uintptr_t)p);
  return 0;
}
CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, void *st) {
  (void)st;
  memcpy((void *)(uintptr_t)d, (void *)(uintptr_t)s, n);
  return 0;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) {
  memcpy((void *)(uintptr_t)d, s, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) {
  memcpy(d, (void *)(uintptr_t)s, n);
  return 0;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n,
                              void *st) {
  return cuMemcpyAsync(d, s, n, st);
}
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, void *s) {
  (void)s;
  for (size_t i = 0; i < n; ++i)
    ((unsigned *)(uintptr_t)d)[i] = v;
  return 0;
}
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n,
                          void *s) {
  (void)s;
  for (size_t i = 0; i < n; ++i)
    ((unsigned short *)(uintptr_t)d)[i] = v;
  return 0;
}
