//===- OpenMPWorkers.cpp - when libomp's idle workers spin ----------------===//
#include "OpenMPWorkers.h"
#include "Stax/Runtime/LibOmp.h"
#include "llvm/Support/DynamicLibrary.h"
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::stax;

namespace {
using ::stax::rt::libomp::ForkCall;
using ::stax::rt::libomp::Ident;
using ::stax::rt::libomp::Microtask;
using SetBlocktime = void (*)(int);

/// How long workers spin after a loop during a call. Loops of one call are
/// microseconds to a few milliseconds apart (a BLAS call between them);
/// longer gaps cost one wake-up.
constexpr int kSpinMilliseconds = 5;

struct LibOmp {
  bool userBlocktime = false;
  SetBlocktime setBlocktime = nullptr;
  ForkCall forkCall = nullptr;
};

LibOmp &libomp() {
  static LibOmp lib = [] {
    LibOmp l;
    l.userBlocktime = std::getenv("KMP_BLOCKTIME") != nullptr;
    if (!l.userBlocktime)
      ::setenv("KMP_BLOCKTIME", "0", /*overwrite=*/0);
    std::string err;
    auto so =
        llvm::sys::DynamicLibrary::getPermanentLibrary(STAX_LIBOMP_PATH, &err);
    if (so.isValid()) {
      l.setBlocktime = reinterpret_cast<SetBlocktime>(
          so.getAddressOfSymbol("kmp_set_blocktime"));
      l.forkCall =
          reinterpret_cast<ForkCall>(so.getAddressOfSymbol("__kmpc_fork_call"));
    }
    return l;
  }();
  return lib;
}

void nothing(int32_t *, int32_t *) {}
} // namespace

void mlir::stax::configureOpenMPWorkers() { (void)libomp(); }

SpinningWorkers::SpinningWorkers(bool active) : active(active) {
  LibOmp &l = libomp();
  this->active = active && !l.userBlocktime && l.setBlocktime && l.forkCall;
  if (this->active)
    l.setBlocktime(kSpinMilliseconds);
}

SpinningWorkers::~SpinningWorkers() {
  if (!active)
    return;
  // A worker takes the blocktime of the loop it last ran: one empty loop
  // with blocktime 0 sends them to sleep now rather than after the spin.
  LibOmp &l = libomp();
  l.setBlocktime(0);
  static Ident ident;
  l.forkCall(&ident, 0, reinterpret_cast<Microtask>(nothing));
}
