//===- DiskCache.cpp - compiled CPU code kept between processes -----------===//
#include "DiskCache.h"
#include "Stax/ExecutionEngine/CompiledModule.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include <dlfcn.h>
#include <sys/stat.h>

using namespace mlir::stax;

/// This build of Stax: the path, size and modification time of the binary
/// that holds this function (a rebuilt compiler is another binary).
static std::string buildIdentity() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&buildIdentity), &info) ||
      !info.dli_fname)
    return "unknown";
  struct stat st;
  if (::stat(info.dli_fname, &st) != 0)
    return info.dli_fname;
  return std::string(info.dli_fname) + ";" + std::to_string(st.st_size) + ";" +
         std::to_string(st.st_mtime);
}

std::string mlir::stax::diskCacheKey(llvm::StringRef moduleText,
                                     llvm::StringRef options) {
  llvm::SHA256 hash;
  auto part = [&](llvm::StringRef s) {
    hash.update(s);
    hash.update(llvm::StringRef("\0", 1));
  };
  part("stax-disk-cache-2");
  static const std::string build = buildIdentity();
  part(build);
  part(llvm::sys::getHostCPUName());
  for (auto &feature : llvm::sys::getHostCPUFeatures())
    if (feature.second)
      part(feature.first());
  part(options);
  part(moduleText);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

static std::string pathOf(llvm::StringRef dir, llvm::StringRef key,
                          llvm::StringRef ext) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, key + ext);
  return std::string(p);
}

/// The contents of the cache file `path`, when it is a regular file (after
/// symbolic links) of at most `maxBytes`: an entry replaced by a FIFO
/// blocked the load, one linked to /dev/zero read without bound.
static std::unique_ptr<llvm::MemoryBuffer> readEntryFile(llvm::StringRef path,
                                                         uint64_t maxBytes) {
  llvm::sys::fs::file_status st;
  if (llvm::sys::fs::status(path, st) ||
      st.type() != llvm::sys::fs::file_type::regular_file ||
      st.getSize() > maxBytes)
    return nullptr;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return buffer ? std::move(*buffer) : nullptr;
}

static std::string sha256Hex(llvm::StringRef bytes) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes)),
                     /*LowerCase=*/true);
}

static std::optional<CachedMetadata> readMetadata(llvm::StringRef path,
                                                  std::string &objectHash) {
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      readEntryFile(path, /*maxBytes=*/uint64_t(64) << 20);
  if (!buffer)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse(buffer->getBuffer());
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *o = parsed->getAsObject();
  if (!o)
    return std::nullopt;
  CachedMetadata m;
  std::optional<bool> parallel = o->getBoolean("parallel");
  const llvm::json::Array *sites = o->getArray("errorSites");
  std::optional<llvm::StringRef> hash = o->getString("objectSha256");
  if (!parallel || !sites || !hash)
    return std::nullopt;
  objectHash = hash->str();
  m.parallelLoops = *parallel;
  for (const llvm::json::Value &s : *sites) {
    std::optional<llvm::StringRef> text = s.getAsString();
    if (!text)
      return std::nullopt;
    m.errorSites.push_back(text->str());
  }
  return m;
}

std::optional<CachedCode> mlir::stax::loadCachedCode(llvm::StringRef dir,
                                                     llvm::StringRef key,
                                                     SymbolsFn symbols) {
  std::string objectHash;
  std::optional<CachedMetadata> metadata =
      readMetadata(pathOf(dir, key, ".json"), objectHash);
  if (!metadata)
    return std::nullopt;
  // An object that links may still be damaged (a flipped bit, a torn
  // write of the same length): it runs only if it is the one stored.
  std::unique_ptr<llvm::MemoryBuffer> object =
      readEntryFile(pathOf(dir, key, ".o"), /*maxBytes=*/uint64_t(4) << 30);
  if (!object || sha256Hex(object->getBuffer()) != objectHash)
    return std::nullopt;
  auto tmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmb) {
    llvm::consumeError(tmb.takeError());
    return std::nullopt;
  }
  auto jit =
      llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*tmb).create();
  if (!jit) {
    llvm::consumeError(jit.takeError());
    return std::nullopt;
  }
  llvm::orc::LLJIT &j = **jit;
  llvm::orc::JITDylib &main = j.getMainJITDylib();
  char prefix = j.getDataLayout().getGlobalPrefix();
  llvm::orc::MangleAndInterner interner(j.getExecutionSession(),
                                        j.getDataLayout());
  llvm::Error err = main.define(llvm::orc::absoluteSymbols(symbols(interner)));
  auto libomp =
      llvm::orc::DynamicLibrarySearchGenerator::Load(STAX_LIBOMP_PATH, prefix);
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (err || !libomp || !process) {
    llvm::consumeError(std::move(err));
    if (!libomp)
      llvm::consumeError(libomp.takeError());
    if (!process)
      llvm::consumeError(process.takeError());
    return std::nullopt;
  }
  main.addGenerator(std::move(*libomp));
#ifdef STAX_LIBMVEC_PATH
  // --stax-vector-math-calls' functions.
  if (auto libmvec = llvm::orc::DynamicLibrarySearchGenerator::Load(
          STAX_LIBMVEC_PATH, prefix))
    main.addGenerator(std::move(*libmvec));
  else
    llvm::consumeError(libmvec.takeError());
#endif
  main.addGenerator(std::move(*process));
  if (llvm::Error e = j.addObjectFile(std::move(object))) {
    llvm::consumeError(std::move(e));
    return std::nullopt;
  }
  return CachedCode{std::move(*jit), std::move(*metadata)};
}

/// Writes `contents` to `path` through a temporary file in the same
/// directory and a rename.
static bool writeAtomically(const std::string &path, llvm::StringRef contents) {
  llvm::SmallString<256> tmp;
  int fd;
  if (llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, tmp))
    return false;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return false;
    }
  }
  if (llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    return false;
  }
  return true;
}

bool mlir::stax::storeCachedCode(llvm::StringRef dir, llvm::StringRef key,
                                 llvm::StringRef object,
                                 const CachedMetadata &metadata) {
  if (llvm::sys::fs::create_directories(dir))
    return false;
  llvm::json::Array sites;
  for (const std::string &s : metadata.errorSites)
    sites.push_back(s);
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::json::Value(llvm::json::Object{
      {"parallel", metadata.parallelLoops},
      {"errorSites", std::move(sites)},
      {"objectSha256", sha256Hex(object)}});
  // The object first: a metadata file promises its object.
  return writeAtomically(pathOf(dir, key, ".o"), object) &&
         writeAtomically(pathOf(dir, key, ".json"), json);
}
