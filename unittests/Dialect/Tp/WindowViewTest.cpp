//===- WindowViewTest.cpp - as_strided views that are windows -------------===//
#include "Stax/Dialect/Tp/IR/WindowView.h"
#include <gtest/gtest.h>

using namespace mlir::tp;

namespace {

TEST(WindowView, Im2colWindows) {
  // A 6 x 10 image, kernel 3 x 2 (column dilation 2), output 2 x 3
  // (strides 2 and 3), offset 1: view dims (kh, kw, oh, ow).
  auto v = decomposeWindowView({6, 10}, {3, 2, 2, 3}, {10, 2, 20, 3}, 1);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->start, (llvm::SmallVector<int64_t>{0, 1}));
  EXPECT_EQ(v->sourceDim, (llvm::SmallVector<int64_t>{0, 1, 0, 1}));
  EXPECT_EQ(v->step, (llvm::SmallVector<int64_t>{1, 2, 2, 3}));
}

TEST(WindowView, SizeOneAndBroadcastDimsMoveNowhere) {
  auto v = decomposeWindowView({2, 3, 8}, {1, 2, 4, 3}, {5, 24, 0, 2}, 9);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->start, (llvm::SmallVector<int64_t>{0, 1, 1}));
  EXPECT_EQ(v->sourceDim, (llvm::SmallVector<int64_t>{-1, 0, -1, 2}));
  EXPECT_EQ(v->step, (llvm::SmallVector<int64_t>{0, 1, 0, 2}));
}

TEST(WindowView, NotWindows) {
  // Four consecutive elements from offset 1 of a 2 x 3 tensor: column 1 + 3
  // is past the row (a carry).
  EXPECT_FALSE(decomposeWindowView({2, 3}, {4}, {1}, 1).has_value());
  // The last window reaches exactly the last element: still one.
  EXPECT_TRUE(decomposeWindowView({2, 3}, {2}, {1}, 1).has_value());
  EXPECT_FALSE(decomposeWindowView({4, 4}, {3}, {-1}, 3).has_value());
  EXPECT_FALSE(decomposeWindowView({4, 4}, {2}, {6}, 0).has_value());
  EXPECT_FALSE(decomposeWindowView({4, 4}, {2}, {1}, 16).has_value());
  EXPECT_FALSE(decomposeWindowView({}, {2}, {1}, 0).has_value());
  EXPECT_FALSE(decomposeWindowView({0, 4}, {2}, {1}, 0).has_value());
}

} // namespace
