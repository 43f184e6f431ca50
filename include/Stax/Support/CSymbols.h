//===- CSymbols.h - names an entry point may take in C ----------*- C++ -*-===//
//
// Compiled entry points are C functions: the JIT and the ahead-of-time
// object export them under their MLIR names, and the C header declares
// them. A name must be a C identifier that is no C or C++ keyword, and must
// not be a symbol the compiled code itself calls or links against (libm,
// libmvec, the OpenMP and Stax runtimes, the C allocator): an entry point
// named `exp` would be called for every scalar exp in its own body.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_SUPPORT_CSYMBOLS_H
#define STAX_SUPPORT_CSYMBOLS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::stax {

/// Whether `name` is a C identifier: a letter or '_', then letters, digits
/// and '_'.
inline bool isCIdentifier(llvm::StringRef name) {
  auto alpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (name.empty() || !alpha(name.front()))
    return false;
  return llvm::all_of(name, [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

/// Whether `name` is a keyword of C23 or C++20 (the header compiles as both).
inline bool isCKeyword(llvm::StringRef name) {
  static const llvm::StringSet<> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
      "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
      "char32_t", "class", "co_await", "co_return", "co_yield", "compl",
      "concept", "const", "const_cast", "consteval", "constexpr", "constinit",
      "continue", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
      "float", "for", "friend", "goto", "if", "inline", "int", "long",
      "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
      "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
      "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
      "template", "this", "thread_local", "throw", "true", "try", "typedef",
      "typeid", "typename", "typeof", "union", "unsigned", "using", "virtual",
      "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "_Alignas",
      "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary",
      "_Noreturn", "_Static_assert", "_Thread_local"};
  return keywords.contains(name);
}

/// Whether `name` is taken by what compiled code calls or links against:
/// the C math library (double, float and long double forms), the C
/// allocator and memory functions, and the prefixes of libmvec (_ZGV), LLVM/MLIR (llvm., _mlir_),
/// OpenMP (__kmpc_, omp_), BLAS (cblas_) and the Stax runtime (stax_rt_).
/// Names starting with "__" are the implementation's in C.
inline bool isReservedCSymbol(llvm::StringRef name) {
  static const llvm::StringSet<> math = {
      "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt",
      "ceil", "copysign", "cos", "cosh", "erf", "erfc", "exp", "exp10",
      "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod",
      "frexp", "hypot", "ilogb", "ldexp", "lgamma", "llrint", "llround",
      "log", "log10", "log1p", "log2", "logb", "lrint", "lround", "modf",
      "nearbyint", "nextafter", "nexttoward", "pow", "remainder", "remquo",
      "rint", "round", "roundeven", "scalbln", "scalbn", "sin", "sincos",
      "sinh", "sqrt", "tan", "tanh", "tgamma", "trunc"};
  static const llvm::StringSet<> c = {
      "malloc", "calloc", "realloc", "free", "aligned_alloc",
      "posix_memalign", "memcpy", "memmove", "memset", "memcmp", "abort",
      "exit", "printf", "fprintf", "puts", "strlen"};
  if (math.contains(name) || c.contains(name))
    return true;
  if (name.size() > 1 && (name.back() == 'f' || name.back() == 'l') &&
      math.contains(name.drop_back()))
    return true;
  for (llvm::StringRef prefix : {"__", "_ZGV", "_mlir_", "llvm.", "__kmpc_",
                                 "omp_", "cblas_", "stax_rt_"})
    if (name.starts_with(prefix))
      return true;
  return false;
}

} // namespace mlir::stax

#endif // STAX_SUPPORT_CSYMBOLS_H
