//===- ArenaTest.cpp - the heap of generated code -------------------------===//
#include "Stax/Runtime/Runtime.h"
#include <cstring>
#include <gtest/gtest.h>
#include <atomic>
#include <thread>
#include <vector>

namespace {

constexpr size_t kMiB = size_t(1) << 20;

class ArenaTest : public ::testing::Test {
protected:
  void SetUp() override { stax_rt_arena_trim(); }
  void TearDown() override { stax_rt_arena_trim(); }
};

TEST_F(ArenaTest, LargeBlockIsReusedAfterFree) {
  void *a = _mlir_memref_to_llvm_aligned_alloc(64, 8 * kMiB);
  ASSERT_NE(a, nullptr);
  std::memset(a, 1, 8 * kMiB);
  _mlir_memref_to_llvm_free(a);
  EXPECT_EQ(stax_rt_arena_cached_bytes(), 8 * kMiB);
  // Same size, and a smaller one within a factor of two: the kept block.
  void *b = _mlir_memref_to_llvm_aligned_alloc(64, 8 * kMiB);
  EXPECT_EQ(b, a);
  EXPECT_EQ(stax_rt_arena_cached_bytes(), 0u);
  _mlir_memref_to_llvm_free(b);
  void *c = _mlir_memref_to_llvm_alloc(5 * kMiB);
  EXPECT_EQ(c, a);
  _mlir_memref_to_llvm_free(c);
}

TEST_F(ArenaTest, NoReuseForTooSmallOrMuchLargerRequests) {
  void *a = _mlir_memref_to_llvm_alloc(4 * kMiB);
  _mlir_memref_to_llvm_free(a);
  void *big = _mlir_memref_to_llvm_alloc(6 * kMiB); // does not fit
  void *small = _mlir_memref_to_llvm_alloc(
      kMiB + 1); // fits, but would waste over half of it
  EXPECT_NE(big, a);
  EXPECT_NE(small, a);
  EXPECT_EQ(stax_rt_arena_cached_bytes(), 4 * kMiB);
  _mlir_memref_to_llvm_free(big);
  _mlir_memref_to_llvm_free(small);
}

TEST_F(ArenaTest, AlignmentIsHonoured) {
  for (size_t align : {64u, 128u, 4096u}) {
    void *p = _mlir_memref_to_llvm_aligned_alloc(align, 2 * kMiB);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u);
    _mlir_memref_to_llvm_free(p);
  }
  void *small = _mlir_memref_to_llvm_aligned_alloc(256, 100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % 256, 0u);
  _mlir_memref_to_llvm_free(small);
  EXPECT_EQ(stax_rt_arena_cached_bytes() % kMiB, 0u); // small ones not kept
}

TEST_F(ArenaTest, KeepsAtMostSixtyFourBlocks) {
  std::vector<void *> blocks;
  for (int i = 0; i < 70; ++i)
    blocks.push_back(_mlir_memref_to_llvm_alloc(kMiB + 64 * i));
  for (void *p : blocks)
    _mlir_memref_to_llvm_free(p);
  // The oldest freed go first: the last 64 stay.
  size_t expected = 0;
  for (int i = 6; i < 70; ++i)
    expected += kMiB + 64 * i;
  EXPECT_EQ(stax_rt_arena_cached_bytes(), expected);
  stax_rt_arena_trim();
  EXPECT_EQ(stax_rt_arena_cached_bytes(), 0u);
}

TEST_F(ArenaTest, KeepsAtMostOneGiB) {
  // Never written: address space only.
  std::vector<void *> blocks;
  for (int i = 0; i < 5; ++i)
    blocks.push_back(_mlir_memref_to_llvm_alloc(300 * kMiB));
  for (void *p : blocks)
    _mlir_memref_to_llvm_free(p);
  EXPECT_EQ(stax_rt_arena_cached_bytes(), 3 * 300 * kMiB);
}

TEST_F(ArenaTest, FreshLargeBlocksAreWholeHugePages) {
  // From 4 MiB on, a fresh block starts on a 2 MiB boundary and is rounded
  // up to whole 2 MiB pages (madvise'd into transparent huge pages).
  void *p = _mlir_memref_to_llvm_alloc(5 * kMiB);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (2 * kMiB), 0u);
  std::memset(p, 1, 5 * kMiB);
  _mlir_memref_to_llvm_free(p);
  EXPECT_EQ(stax_rt_arena_cached_bytes(), 6 * kMiB);
  // Below 4 MiB: the size asked for.
  void *q = _mlir_memref_to_llvm_alloc(2 * kMiB + 64);
  _mlir_memref_to_llvm_free(q);
  EXPECT_EQ(stax_rt_arena_cached_bytes(), 8 * kMiB + 64);
}

TEST_F(ArenaTest, ConcurrentCallersNeverShareABlock) {
  constexpr int kThreads = 4, kRounds = 200;
  std::vector<std::thread> threads;
  std::atomic<int> overlaps{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        auto *p = static_cast<unsigned char *>(
            _mlir_memref_to_llvm_alloc(2 * kMiB));
        std::memset(p, t, 4096);
        std::this_thread::yield();
        for (int i = 0; i < 4096; ++i)
          if (p[i] != t) {
            ++overlaps;
            break;
          }
        _mlir_memref_to_llvm_free(p);
      }
    });
  for (std::thread &th : threads)
    th.join();
  EXPECT_EQ(overlaps.load(), 0);
}

} // namespace
