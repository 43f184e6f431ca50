//===- Arena.cpp - the heap behind generated code's memref.alloc ----------===//
//
// A compiled function allocates one arena per call for its intermediates
// (--stax-to-loops), and the Python binding allocates large results here
// too (staxHostAllocate). Memory fresh from the OS costs a page fault per
// 4 KiB page when first written (conv2d's 38 MB im2col buffer: ~65 ms of
// faults on 2 threads, against ~5 ms of copying; a 128 MiB result of
// `a + b`: ~24 ms against ~6 ms for the sum), and glibc hands a block
// above its mmap threshold (at most 32 MiB) back to the OS on free, so
// every call would pay them again. Freed blocks of at least kMinCachedBytes
// are kept instead (at most kMaxCachedBlocks and kMaxCachedBytes, oldest
// dropped first), and an allocation takes the smallest kept block that
// fits and is at most twice its size. Smaller blocks go straight to
// malloc/free. A fresh block of at least kMinHugeBytes is aligned to and
// advised into transparent huge pages (Linux, where the system's policy is
// "madvise", Debian's default), one fault per 2 MiB instead of 512.
//
// The memref conversion calls these under use-generic-functions (MLIR's
// names and signatures).
//
//===----------------------------------------------------------------------===//
#include "Stax/Runtime/Runtime.h"
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <unordered_map>
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace {

constexpr size_t kMinCachedBytes = size_t(1) << 20;
constexpr size_t kMaxCachedBlocks = 64;
constexpr size_t kMaxCachedBytes = size_t(1) << 30;
constexpr size_t kMinAlignment = 64;
constexpr size_t kHugePageBytes = size_t(2) << 20;
constexpr size_t kMinHugeBytes = 2 * kHugePageBytes;

struct Block {
  void *base;
  size_t bytes;
};

class BlockCache {
public:
  void *allocate(size_t alignment, size_t bytes) {
    alignment = std::max(alignment, kMinAlignment);
    if (bytes < kMinCachedBytes)
      return fresh(alignment, bytes).base;
    std::lock_guard<std::mutex> lock(mutex);
    auto best = freeBlocks.end();
    for (auto it = freeBlocks.begin(); it != freeBlocks.end(); ++it)
      if (it->bytes >= bytes && it->bytes / 2 <= bytes &&
          reinterpret_cast<uintptr_t>(it->base) % alignment == 0 &&
          (best == freeBlocks.end() || it->bytes < best->bytes))
        best = it;
    Block block;
    if (best != freeBlocks.end()) {
      block = *best;
      freeBytes -= block.bytes;
      freeBlocks.erase(best);
    } else {
      block = fresh(alignment, bytes);
      if (!block.base)
        return nullptr;
    }
    live[block.base] = block.bytes;
    return block.base;
  }

  void release(void *ptr) {
    if (!ptr)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = live.find(ptr);
    if (it == live.end()) {
      std::free(ptr);
      return;
    }
    freeBlocks.push_back({ptr, it->second});
    freeBytes += it->second;
    live.erase(it);
    while (freeBlocks.size() > kMaxCachedBlocks ||
           freeBytes > kMaxCachedBytes) {
      std::free(freeBlocks.front().base);
      freeBytes -= freeBlocks.front().bytes;
      freeBlocks.pop_front();
    }
  }

  size_t cachedBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return freeBytes;
  }

  void trim() {
    std::lock_guard<std::mutex> lock(mutex);
    for (const Block &b : freeBlocks)
      std::free(b.base);
    freeBlocks.clear();
    freeBytes = 0;
  }

private:
  /// `bytes` from the OS; a large block in whole huge pages (the block's
  /// recorded size is then the rounded one, so reuse sees all of it).
  static Block fresh(size_t alignment, size_t bytes) {
    bool huge = bytes >= kMinHugeBytes;
    if (huge) {
      // Sizes within a huge page of SIZE_MAX would round to 0.
      if (bytes > SIZE_MAX - kHugePageBytes)
        return {nullptr, 0};
      alignment = std::max(alignment, kHugePageBytes);
      bytes = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    }
    void *p = nullptr;
    if (posix_memalign(&p, alignment, std::max<size_t>(bytes, 1)) != 0)
      return {nullptr, 0};
#ifdef MADV_HUGEPAGE
    // Advice only: where the system refuses it, the block keeps 4 KiB pages.
    if (huge)
      (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return {p, bytes};
  }

  std::mutex mutex;
  std::deque<Block> freeBlocks;
  size_t freeBytes = 0;
  std::unordered_map<void *, size_t> live;
};

/// Never destroyed: generated code may free during static destruction.
BlockCache &cache() {
  static BlockCache *c = new BlockCache();
  return *c;
}

} // namespace

void *_mlir_memref_to_llvm_alloc(size_t size) {
  return cache().allocate(kMinAlignment, size);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  return cache().allocate(alignment, size);
}

void _mlir_memref_to_llvm_free(void *ptr) { cache().release(ptr); }

size_t stax_rt_arena_cached_bytes(void) { return cache().cachedBytes(); }

void stax_rt_arena_trim(void) { cache().trim(); }
