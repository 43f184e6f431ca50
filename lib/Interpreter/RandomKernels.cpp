//===- RandomKernels.cpp - counter-based random ops -----------------------===//

#include "Kernels.h"

using namespace mlir;
using namespace stax;

void stax::detail::registerRandomKernels(KernelRegistry &) {}
