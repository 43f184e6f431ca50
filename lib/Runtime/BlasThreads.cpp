//===- BlasThreads.cpp - BLAS calls on compiled code's threads ------------===//
//
// libomp and OpenBLAS are found among the libraries already loaded
// (dlopen with RTLD_NOLOAD): the runtime links neither by name, so an
// ahead-of-time object may link any BLAS, and without both a product
// calls BLAS as it is. The team is started with libomp's own entry
// point (__kmpc_fork_call, what compiled parallel loops call), not
// GOMP_parallel, which would resolve to GNU's libgomp where PyTorch
// loaded it first.
//
//===----------------------------------------------------------------------===//
#include "BlasThreads.h"
#include "Stax/Runtime/LibOmp.h"
#include <dlfcn.h>

using namespace stax::rt;

namespace {
using stax::rt::libomp::ForkCall;
using stax::rt::libomp::Ident;
using stax::rt::libomp::Microtask;

struct Libraries {
  ForkCall fork = nullptr;
  int (*maxThreads)() = nullptr;
  int (*threadNum)() = nullptr;
  int (*numThreads)() = nullptr;
  int (*blasGetThreads)() = nullptr;
  void (*blasSetThreads)(int) = nullptr;

  bool complete() const {
    return fork && maxThreads && threadNum && numThreads && blasGetThreads &&
           blasSetThreads;
  }
};

template <typename F> void lookUp(void *so, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(so, name));
}

Libraries find() {
  Libraries l;
  if (void *omp = dlopen("libomp.so.5", RTLD_NOW | RTLD_NOLOAD)) {
    lookUp(omp, "__kmpc_fork_call", l.fork);
    lookUp(omp, "omp_get_max_threads", l.maxThreads);
    lookUp(omp, "omp_get_thread_num", l.threadNum);
    lookUp(omp, "omp_get_num_threads", l.numThreads);
  }
  if (void *blas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD)) {
    lookUp(blas, "openblas_get_num_threads", l.blasGetThreads);
    lookUp(blas, "openblas_set_num_threads", l.blasSetThreads);
  }
  return l;
}

/// Looked up at the first product: compiled code has loaded libomp by
/// then (the JIT before it runs anything, an executable at startup).
const Libraries *libraries() {
  static const Libraries found = find();
  return found.complete() ? &found : nullptr;
}

struct Job {
  const Libraries *libs;
  int64_t parts;
  void (*body)(void *, int64_t);
  void *context;
};

void runParts(int32_t *, int32_t *, Job *job) {
  int64_t tid = job->libs->threadNum(), team = job->libs->numThreads();
  for (int64_t part = tid; part < job->parts; part += team)
    job->body(job->context, part);
}
} // namespace

int stax::rt::blasTeamSize() {
  const Libraries *l = libraries();
  return l ? l->maxThreads() : 0;
}

void stax::rt::runOnBlasTeam(int64_t parts, void (*body)(void *, int64_t),
                             void *context) {
  const Libraries *l = libraries();
  int before = l->blasGetThreads();
  if (before != 1)
    l->blasSetThreads(1);
  Job job{l, parts, body, context};
  static Ident ident;
  l->fork(&ident, 1, reinterpret_cast<Microtask>(runParts), &job);
  if (before != 1)
    l->blasSetThreads(before);
}
