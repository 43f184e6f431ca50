//===- stax-translate.cpp - translations out of MLIR ----------------------===//
//
// Registers the translations Stax uses: `--mlir-to-llvmir` for CPU code (later
// issues add PTX and the min-cut picture).
//
//===----------------------------------------------------------------------===//

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerToLLVMIRTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Stax translation driver\n"));
}
