/* The string C API (Stax-c/Stax.h) on arguments a caller got wrong: null
 * handles and pointers, negative counts, impossible buffer shapes and
 * allocation sizes. Each returns an error (1 or NULL, *error set) instead
 * of crashing the host process. */

// RUN: %clang -std=c99 -pedantic-errors -Wall -Wextra -Werror %s -I%stax_src_root/include -L%stax_lib_dir -lStaxCAPI -Wl,-rpath,%stax_lib_dir -o %t
// RUN: %t | FileCheck %s

#include "Stax-c/Stax.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *add =
    "func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "  %0 = tp.add %x, %x : tensor<2x3xf32>, tensor<2x3xf32>"
    " -> tensor<2x3xf32>\n"
    "  return %0 : tensor<2x3xf32>\n"
    "}\n";

static void report(const char *what, int rc, char *error) {
  printf("%s: rc=%d error=%s\n", what, rc, error ? error : "(none)");
  staxFreeString(error);
}

static void interpret(const char *what, int64_t rank, int64_t *shape,
                      void *data) {
  StaxBuffer arg;
  arg.rank = rank;
  arg.shape = shape;
  strcpy(arg.dtype, "<f4");
  arg.data = data;
  StaxBuffer *results = NULL;
  int64_t numResults = 0;
  char *error = NULL;
  int rc = staxInterpret(add, "f", 1, &arg, 0, &results, &numResults, &error);
  report(what, rc, error);
}

int main(void) {
  char *error = NULL;
  StaxExecutable *none = staxCompile(NULL, "", NULL, &error);
  // CHECK: compile null: rc=1 error=staxCompile: null module
  report("compile null", none == NULL, error);

  error = NULL;
  StaxExecutable *exe = staxCompile(add, "", NULL, &error);
  if (!exe) {
    report("compile", 1, error);
    return 1;
  }
  float x[6] = {0}, out[6];
  void *buffers[2] = {x, out};
  error = NULL;
  // CHECK: call null executable: rc=1 error=staxExecutableCall: null executable
  report("call null executable",
         staxExecutableCall(NULL, "f", buffers, 2, &error), error);
  error = NULL;
  // CHECK: call null entry: rc=1 error=staxExecutableCall: null entry
  report("call null entry", staxExecutableCall(exe, NULL, buffers, 2, &error),
         error);
  error = NULL;
  // CHECK: call null buffers: rc=1 error=staxExecutableCall: null buffer array
  report("call null buffers", staxExecutableCall(exe, "f", NULL, 2, &error),
         error);
  error = NULL;
  // CHECK: call negative count: rc=1 error=staxExecutableCall: negative buffer count -1
  report("call negative count",
         staxExecutableCall(exe, "f", buffers, -1, &error), error);
  error = NULL;
  // CHECK: call: rc=0 error=(none)
  report("call", staxExecutableCall(exe, "f", buffers, 2, &error), error);

  // CHECK: signature of null: (null)
  char *signature = staxExecutableSignature(NULL, "f");
  printf("signature of null: %s\n", signature ? signature : "(null)");
  // CHECK: kernels of null: (null)
  char *kernels = staxExecutableKernels(NULL);
  printf("kernels of null: %s\n", kernels ? kernels : "(null)");
  staxExecutableDestroy(exe);

  int64_t negative[2] = {2, -3}, huge[2] = {INT64_MAX, 2}, good[2] = {2, 3};
  // CHECK: negative dimension: rc=1 error=argument #0: negative dimension -3
  interpret("negative dimension", 2, negative, x);
  // CHECK: negative rank: rc=1 error=argument #0: negative rank -1
  interpret("negative rank", -1, good, x);
  // CHECK: overflowing shape: rc=1 error=argument #0: a shape whose element count overflows int64
  interpret("overflowing shape", 2, huge, x);
  // CHECK: null data: rc=1 error=argument #0: null data
  interpret("null data", 2, good, NULL);

  double best, median;
  error = NULL;
  // CHECK: zero reps: rc=1 error=staxTimePipeline: reps must be at least 1, got 0
  report("zero reps",
         staxTimePipeline(add, "builtin.module(canonicalize)", 0, 1, &best,
                          &median, &error),
         error);

  // Sizes within a huge page of SIZE_MAX used to round up to 0 bytes.
  // CHECK: allocate SIZE_MAX - 64: null
  void *p = staxHostAllocate(SIZE_MAX - 64);
  printf("allocate SIZE_MAX - 64: %s\n", p ? "a block" : "null");
  staxHostRelease(p);
  return 0;
}
