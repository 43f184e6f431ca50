//===- Npy.cpp - NumPy .npy reading and writing ---------------------------===//
//
// The format: magic "\x93NUMPY", a version (1.0 or 2.0), a little-endian
// header length, then a Python dict literal with 'descr', 'fortran_order' and
// 'shape', padded to 64 bytes, then the raw data.
//
//===----------------------------------------------------------------------===//

#include "Stax/Interpreter/Npy.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

using namespace mlir;
using namespace mlir::stax;

std::string stax::npyDescr(Type t) {
  if (t.isF16()) return "<f2";
  if (t.isBF16()) return kBF16Descr;
  if (t.isF32()) return "<f4";
  if (t.isF64()) return "<f8";
  if (t.isInteger(1)) return "|b1";
  if (t.isUnsignedInteger(8)) return "|u1";
  if (t.isSignlessInteger(8)) return "|i1";
  if (t.isSignlessInteger(16)) return "<i2";
  if (t.isSignlessInteger(32)) return "<i4";
  if (t.isSignlessInteger(64)) return "<i8";
  return "";
}

Type stax::typeFromNpyDescr(StringRef d, MLIRContext *ctx) {
  if (d == "<f2") return Float16Type::get(ctx);
  if (d == kBF16Descr) return BFloat16Type::get(ctx);
  if (d == "<f4") return Float32Type::get(ctx);
  if (d == "<f8") return Float64Type::get(ctx);
  if (d == "|b1") return IntegerType::get(ctx, 1);
  if (d == "|i1") return IntegerType::get(ctx, 8);
  if (d == "|u1") return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  if (d == "<i2") return IntegerType::get(ctx, 16);
  if (d == "<i4") return IntegerType::get(ctx, 32);
  if (d == "<i8") return IntegerType::get(ctx, 64);
  return Type();
}

unsigned stax::rawElementSize(Type t) {
  if (t.isInteger(1))
    return 1;
  return t.getIntOrFloatBitWidth() / 8;
}

template <typename T> static T loadAs(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> static void storeAs(char *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

void stax::loadRawElement(Tensor &t, int64_t i, const char *p) {
  Type e = t.elementType();
  if (e.isF64())
    t.setF(i, loadAs<double>(p));
  else if (e.isF32())
    t.setF(i, loadAs<float>(p));
  else if (e.isF16() || e.isBF16()) {
    llvm::APInt bits(16, loadAs<uint16_t>(p));
    llvm::APFloat f(cast<FloatType>(e).getFloatSemantics(), bits);
    bool losesInfo;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &losesInfo);
    t.setF(i, f.convertToDouble());
  } else if (e.isInteger(1))
    t.setI(i, loadAs<uint8_t>(p) != 0);
  else if (e.isUnsignedInteger(8))
    t.setI(i, loadAs<uint8_t>(p));
  else if (e.isInteger(8))
    t.setI(i, loadAs<int8_t>(p));
  else if (e.isInteger(16))
    t.setI(i, loadAs<int16_t>(p));
  else if (e.isInteger(32))
    t.setI(i, loadAs<int32_t>(p));
  else
    t.setI(i, loadAs<int64_t>(p));
}

void stax::storeRawElement(const Tensor &t, int64_t i, char *p) {
  Type e = t.elementType();
  if (e.isF64())
    storeAs<double>(p, t.getF(i));
  else if (e.isF32())
    storeAs<float>(p, static_cast<float>(t.getF(i)));
  else if (e.isF16() || e.isBF16()) {
    llvm::APFloat f(t.getF(i));
    bool losesInfo;
    f.convert(cast<FloatType>(e).getFloatSemantics(),
              llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    storeAs<uint16_t>(p, static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue()));
  } else if (e.isInteger(1))
    storeAs<uint8_t>(p, t.getI(i) != 0);
  else if (e.isInteger(8)) // the low byte: int8 and uint8 alike
    storeAs<uint8_t>(p, static_cast<uint8_t>(t.getI(i)));
  else if (e.isInteger(16))
    storeAs<uint16_t>(p, static_cast<uint16_t>(t.getI(i)));
  else if (e.isInteger(32))
    storeAs<uint32_t>(p, static_cast<uint32_t>(t.getI(i)));
  else
    storeAs<int64_t>(p, t.getI(i));
}

/// Extracts the value text after `'key':` in the header dict.
static std::optional<StringRef> headerField(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  return rest.ltrim();
}

FailureOr<Tensor> stax::readNpy(StringRef path, MLIRContext *ctx,
                                std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    error = (path + ": " + file.getError().message()).str();
    return failure();
  }
  StringRef data = (*file)->getBuffer();
  auto fail = [&](const Twine &why) {
    error = (path + ": " + why).str();
    return failure();
  };
  if (data.size() < 10 || !data.starts_with("\x93NUMPY"))
    return fail("not a .npy file");
  unsigned major = static_cast<unsigned char>(data[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = loadAs<uint16_t>(data.data() + 8);
    headerStart = 10;
  } else {
    if (data.size() < 12)
      return fail("truncated header");
    headerLen = loadAs<uint32_t>(data.data() + 8);
    headerStart = 12;
  }
  if (headerStart + headerLen > data.size())
    return fail("truncated header");
  StringRef header = data.substr(headerStart, headerLen);
  auto descr = headerField(header, "descr");
  auto order = headerField(header, "fortran_order");
  auto shapeText = headerField(header, "shape");
  if (!descr || !order || !shapeText)
    return fail("malformed header");
  if (order->starts_with("True"))
    return fail("Fortran-order arrays are not supported");
  StringRef d = descr->drop_front().take_until([](char c) { return c == '\''; });
  Type elt = typeFromNpyDescr(d, ctx);
  if (!elt)
    return fail("unsupported dtype '" + d + "'");
  SmallVector<int64_t> shape;
  StringRef dims = shapeText->drop_front().take_until([](char c) { return c == ')'; });
  SmallVector<StringRef> parts;
  dims.split(parts, ',', -1, false);
  for (StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      continue;
    int64_t v;
    if (p.getAsInteger(10, v) || v < 0)
      return fail("malformed shape");
    shape.push_back(v);
  }
  // Check the header's shape against the file before allocating anything:
  // a corrupt or hostile header must not make us allocate its product.
  std::string why = allocationError(shape);
  if (!why.empty())
    return fail("shape " + why);
  unsigned size = rawElementSize(elt);
  size_t payload = headerStart + headerLen;
  uint64_t elements = 1;
  for (int64_t d : shape)
    elements *= static_cast<uint64_t>(d); // allocationError bounded it
  if ((data.size() - payload) / size < elements)
    return fail("file has fewer elements than its shape says");
  Tensor t(shape, elt);
  for (int64_t i = 0; i < t.numel(); ++i)
    loadRawElement(t, i, data.data() + payload + i * size);
  return t;
}

LogicalResult stax::writeNpy(StringRef path, const Tensor &t,
                             std::string &error) {
  std::string descr = npyDescr(t.elementType());
  if (descr.empty() || descr == kBF16Descr) {
    // NumPy would not read kBF16Descr back: bf16 has no NumPy dtype.
    llvm::raw_string_ostream os(error);
    os << "cannot write element type " << t.elementType() << " to .npy";
    if (descr == kBF16Descr)
      os << " (NumPy has no bfloat16)";
    return failure();
  }
  std::string shape = "(";
  for (int64_t d : t.shape())
    shape += std::to_string(d) + ", ";
  if (t.rank() > 1)
    shape.resize(shape.size() - 2);
  else if (t.rank() == 1)
    shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = (path + ": " + ec.message()).str();
    return failure();
  }
  os << "\x93NUMPY" << char(1) << char(0);
  uint16_t len = header.size();
  os.write(reinterpret_cast<const char *>(&len), 2);
  os << header;
  unsigned size = rawElementSize(t.elementType());
  std::vector<char> buffer(size);
  for (int64_t i = 0; i < t.numel(); ++i) {
    storeRawElement(t, i, buffer.data());
    os.write(buffer.data(), size);
  }
  return success();
}
