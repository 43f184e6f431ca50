//===- ScanCombine.h - one step of the tp scans -----------------*- C++ -*-===//
//
// The combine steps of tp.logcumsumexp and tp.cummax/cummin as eager's CPU
// kernels take them (ATen's _log_add_exp_helper and cummax_cummin_helper).
// The interpreter runs these; the code generator (ScanLoops.cpp) emits the
// same comparisons and operations, so that compiled scans are bitwise equal
// to the oracle. Plain C++.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_SUPPORT_SCANCOMBINE_H
#define STAX_SUPPORT_SCANCOMBINE_H

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace mlir::stax {

/// log(exp(acc) + exp(x)), stable: the larger of the two plus log1p of the
/// exponential of their difference. A NaN running value stays NaN; two
/// equal infinities give `x` (log1p(exp(inf - inf)) would be NaN).
template <typename T> T logAddExpStep(T x, T acc) {
  static_assert(std::is_floating_point_v<T>);
  // std::min/max return their first argument when either is NaN.
  T lo = std::isnan(acc) ? acc : std::min(x, acc);
  T hi = std::isnan(acc) ? acc : std::max(x, acc);
  if (lo != hi || std::isfinite(lo))
    return std::log1p(std::exp(lo - hi)) + hi;
  return x;
}

/// True when element `x` replaces the running extremum `acc` of cummax
/// (`isMax`) or cummin: x is NaN, or acc is not NaN and x >= acc (x <= acc).
/// Ties take the later position.
template <typename T> bool cumExtremumTakes(T x, T acc, bool isMax) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x))
      return true;
    if (std::isnan(acc))
      return false;
  }
  return isMax ? x >= acc : x <= acc;
}

} // namespace mlir::stax

#endif // STAX_SUPPORT_SCANCOMBINE_H
