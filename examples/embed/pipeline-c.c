/* A C consumer of Stax's installed C API (Stax::StaxCAPI): reads a module
 * from stdin, runs Stax's pipeline on it with the options of argv[1] (the
 * text of --stax-pipeline="..."), prints the result. Errors are printed by
 * the context's diagnostic handler; the exit status is then 1.
 *
 *   embed-opt toy.mlir --toy-to-tp | pipeline-c "target=cpu"             */
#include "Stax-c/Dialects.h"
#include "Stax-c/Pipelines.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), print, stderr);
  fprintf(stderr, ": ");
  mlirDiagnosticPrint(diagnostic, print, stderr);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

/* All of stdin, NUL-terminated. */
static char *readAll(FILE *in) {
  size_t size = 0, capacity = 1 << 16;
  char *text = malloc(capacity);
  size_t n;
  while (text && (n = fread(text + size, 1, capacity - size - 1, in)) > 0) {
    size += n;
    if (capacity - size == 1)
      text = realloc(text, capacity *= 2);
  }
  if (text)
    text[size] = '\0';
  return text;
}

int main(int argc, char **argv) {
  const char *options = argc > 1 ? argv[1] : "";
  char *text = readAll(stdin);
  if (!text)
    return 1;

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  staxRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  int status = 1;
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (!mlirModuleIsNull(module)) {
    if (mlirLogicalResultIsSuccess(staxModuleRunPipeline(
            module, mlirStringRefCreateFromCString(options)))) {
      mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
      printf("\n");
      status = 0;
    }
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  free(text);
  return status;
}
