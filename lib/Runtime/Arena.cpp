//===- Arena.cpp - the heap behind generated code's memref.alloc ----------===//
//
// A compiled function allocates one arena per call for its intermediates
// (--stax-to-loops). Memory fresh from the OS costs a page fault per 4 KiB
// page when first written (conv2d's 38 MB im2col buffer: ~65 ms of faults
// on 2 threads, against ~5 ms of copying), and glibc hands a block above
// its mmap threshold (at most 32 MiB) back to the OS on free, so every
// call would pay them again. Freed blocks of at least kMinCachedBytes are
// kept instead (at most kMaxCachedBlocks, oldest dropped first), and an
// allocation takes the smallest kept block that fits and is at most twice
// its size. Smaller blocks go straight to malloc/free.
//
// The memref conversion calls these under use-generic-functions (MLIR's
// names and signatures).
//
//===----------------------------------------------------------------------===//
#include "Stax/Runtime/Runtime.h"
#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace {

constexpr size_t kMinCachedBytes = size_t(1) << 20;
constexpr size_t kMaxCachedBlocks = 8;
constexpr size_t kMinAlignment = 64;

struct Block {
  void *base;
  size_t bytes;
};

class BlockCache {
public:
  void *allocate(size_t alignment, size_t bytes) {
    alignment = std::max(alignment, kMinAlignment);
    if (bytes < kMinCachedBytes)
      return fresh(alignment, bytes);
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
      freeBlocks.erase(best);
    } else {
      block = {fresh(alignment, bytes), bytes};
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
    live.erase(it);
    if (freeBlocks.size() > kMaxCachedBlocks) {
      std::free(freeBlocks.front().base);
      freeBlocks.erase(freeBlocks.begin());
    }
  }

  size_t cachedBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    size_t total = 0;
    for (const Block &b : freeBlocks)
      total += b.bytes;
    return total;
  }

  void trim() {
    std::lock_guard<std::mutex> lock(mutex);
    for (const Block &b : freeBlocks)
      std::free(b.base);
    freeBlocks.clear();
  }

private:
  static void *fresh(size_t alignment, size_t bytes) {
    void *p = nullptr;
    if (posix_memalign(&p, alignment, std::max<size_t>(bytes, 1)) != 0)
      return nullptr;
    return p;
  }

  std::mutex mutex;
  std::vector<Block> freeBlocks;
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
