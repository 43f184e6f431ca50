//===- TypeInferenceTest.cpp - broadcasting and promotion -----------------===//
//
// Broadcasting is checked against a brute-force oracle on random shapes;
// promotion against PyTorch's documented result_type table.
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"
#include <random>

using namespace mlir;
using namespace mlir::tp;

namespace {

/// Oracle: a shape broadcasts with another iff, aligned from the right, each
/// pair of dims is equal or contains a 1; the result takes the non-1 dim.
std::optional<SmallVector<int64_t>> oracle(ArrayRef<int64_t> a,
                                           ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out;
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out.insert(out.begin(), std::max(da, db) == 1 ? std::min(da, db) : (da == 1 ? db : da));
  }
  return out;
}

TEST(Broadcast, MatchesOracleOnRandomShapes) {
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> rankDist(0, 4), dimDist(0, 3);
  int compatible = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    SmallVector<int64_t> a, b;
    for (int i = 0, r = rankDist(gen); i < r; ++i)
      a.push_back(dimDist(gen));
    for (int i = 0, r = rankDist(gen); i < r; ++i)
      b.push_back(dimDist(gen));
    auto expected = oracle(a, b);
    auto got = broadcastShapes(a, b);
    ASSERT_EQ(expected.has_value(), succeeded(got));
    if (expected) {
      ++compatible;
      EXPECT_EQ(*expected, *got);
      EXPECT_EQ(*got, *broadcastShapes(b, a)); // symmetric
    }
  }
  EXPECT_GT(compatible, 500); // the oracle saw both outcomes
}

TEST(Broadcast, ZeroSizedDims) {
  EXPECT_EQ(*broadcastShapes({0, 3}, {1, 3}), (SmallVector<int64_t>{0, 3}));
  EXPECT_TRUE(failed(broadcastShapes({0}, {2})));
}

class Promotion : public ::testing::Test {
protected:
  MLIRContext ctx;
  Type f16 = Float16Type::get(&ctx), bf16 = BFloat16Type::get(&ctx),
       f32 = Float32Type::get(&ctx), f64 = Float64Type::get(&ctx),
       i1 = IntegerType::get(&ctx, 1), i32 = IntegerType::get(&ctx, 32),
       i64 = IntegerType::get(&ctx, 64);
};

TEST_F(Promotion, CommonTypeTable) {
  // torch.result_type on dimensioned tensors.
  EXPECT_EQ(promoteElementTypes(f32, f64), f64);
  EXPECT_EQ(promoteElementTypes(f16, f32), f32);
  EXPECT_EQ(promoteElementTypes(f16, bf16), f32);
  EXPECT_EQ(promoteElementTypes(i64, f16), f16);
  EXPECT_EQ(promoteElementTypes(i32, i64), i64);
  EXPECT_EQ(promoteElementTypes(i1, i32), i32);
  EXPECT_EQ(promoteElementTypes(i1, f32), f32);
  // Symmetric over all pairs.
  for (Type a : {f16, bf16, f32, f64, i1, i32, i64})
    for (Type b : {f16, bf16, f32, f64, i1, i32, i64})
      EXPECT_EQ(promoteElementTypes(a, b), promoteElementTypes(b, a));
}

TEST_F(Promotion, ScalarsAndZeroDim) {
  auto tensor = [&](ArrayRef<int64_t> shape, Type t) {
    return RankedTensorType::get(shape, t);
  };
  auto resultOf = [&](Type a, Type b) {
    SmallVector<Type> out;
    EXPECT_TRUE(succeeded(inferBinary(std::nullopt, "tp.add", a, b,
                                      tp::Promotion::Default, out)));
    return cast<RankedTensorType>(out[0]).getElementType();
  };
  // A 0-d tensor of the same category does not widen: f16 + f32[] is f16.
  EXPECT_EQ(resultOf(tensor({4}, f16), tensor({}, f32)), f16);
  // A higher category does: i32 + f64[] is f64.
  EXPECT_EQ(resultOf(tensor({4}, i32), tensor({}, f64)), f64);
  auto scalarResult = [&](Type t, TypedAttr s, tp::Promotion p) {
    SmallVector<Type> out;
    EXPECT_TRUE(succeeded(inferBinaryScalar(std::nullopt, "tp.mul.Scalar",
                                            tensor({2}, t), s, p, out)));
    return cast<RankedTensorType>(out[0]).getElementType();
  };
  TypedAttr two = getIntScalar(&ctx, 2);
  TypedAttr half = FloatAttr::get(f64, 0.5);
  // Scalars: an int tensor times 0.5 is the default float, times 2 stays.
  EXPECT_EQ(scalarResult(i32, half, tp::Promotion::Default), f32);
  EXPECT_EQ(scalarResult(i32, two, tp::Promotion::Default), i32);
  EXPECT_EQ(scalarResult(f16, half, tp::Promotion::Default), f16);
  EXPECT_EQ(scalarResult(i1, two, tp::Promotion::Default), i64);
  // Modes: true division and sqrt turn ints into floats; comparisons bool.
  EXPECT_EQ(scalarResult(i64, two, tp::Promotion::IntToFloat), f32);
  EXPECT_EQ(scalarResult(f64, two, tp::Promotion::ToBool), i1);
}

TEST(Reshape, InfersMinusOne) {
  MLIRContext ctx;
  auto t = RankedTensorType::get({4, 6}, Float32Type::get(&ctx));
  SmallVector<Type> out;
  ASSERT_TRUE(succeeded(inferReshape(std::nullopt, "tp.view", t, {2, -1, 3}, out)));
  EXPECT_EQ(cast<RankedTensorType>(out[0]).getShape(), ArrayRef<int64_t>({2, 4, 3}));
  out.clear();
  EXPECT_TRUE(failed(inferReshape(std::nullopt, "tp.view", t, {5, -1}, out)));
}

TEST(NormalizeDim, Ranges) {
  EXPECT_EQ(normalizeDim(-1, 3), 2);
  EXPECT_EQ(normalizeDim(2, 3), 2);
  EXPECT_EQ(normalizeDim(3, 3), std::nullopt);
  EXPECT_EQ(normalizeDim(-4, 3), std::nullopt);
  // A 0-d tensor accepts dims -1 and 0, as in eager.
  EXPECT_EQ(normalizeDim(-1, 0), 0);
  EXPECT_EQ(normalizeDim(1, 0), std::nullopt);
}

} // namespace
