//===- TensorTest.cpp - rounding, casting, iteration order ----------------===//

#include "../../lib/Interpreter/Kernels.h"
#include "Stax/Interpreter/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::stax;

TEST(Rounding, F32MatchesHardwareConversion) {
  MLIRContext ctx;
  Type f32 = Float32Type::get(&ctx);
  std::mt19937_64 gen(1);
  for (int i = 0; i < 10000; ++i) {
    double v = std::ldexp(static_cast<double>(gen() >> 11), -40) *
               ((gen() & 1) ? 1 : -1);
    EXPECT_EQ(roundToFloatType(v, f32), static_cast<double>(static_cast<float>(v)));
  }
}

TEST(Rounding, F16TiesToEven) {
  MLIRContext ctx;
  Type f16 = Float16Type::get(&ctx);
  // 2049 lies halfway between f16 neighbours 2048 and 2050: ties to even.
  EXPECT_EQ(roundToFloatType(2049.0, f16), 2048.0);
  EXPECT_EQ(roundToFloatType(2051.0, f16), 2052.0);
  EXPECT_TRUE(std::isinf(roundToFloatType(70000.0, f16)));
}

TEST(Rounding, HalfStoresThroughFloat) {
  MLIRContext ctx;
  Type bf16 = BFloat16Type::get(&ctx), f16 = Float16Type::get(&ctx);
  // Just above a bf16 tie, but a tie once rounded to f32: PyTorch builds
  // c10::BFloat16 from a float, so the tie goes to even.
  double v = 1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(roundToFloatType(v, bf16), 1 + std::ldexp(1.0, -7));
  EXPECT_EQ(storeToFloatType(v, bf16), 1.0);
  Tensor t({1}, f16);
  t.setF(0, 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  EXPECT_EQ(t.getF(0), 1.0);
}

TEST(Casting, IntegersWrapAndTruncate) {
  MLIRContext ctx;
  Type i8 = IntegerType::get(&ctx, 8), i1 = IntegerType::get(&ctx, 1);
  EXPECT_EQ(wrapToIntType(130, i8), -126);
  EXPECT_EQ(castToIntType(-2.7, i8), -2);
  EXPECT_EQ(castToIntType(0.25, i1), 1);
  EXPECT_EQ(castToIntType(NAN, IntegerType::get(&ctx, 64)), 0);
}

TEST(Casting, Uint8ZeroExtends) {
  MLIRContext ctx;
  Type u8 = IntegerType::get(&ctx, 8, IntegerType::Unsigned);
  EXPECT_EQ(wrapToIntType(-1, u8), 255);
  EXPECT_EQ(wrapToIntType(300, u8), 44);
  EXPECT_EQ(castToIntType(-1.0, u8), 255);
  EXPECT_EQ(castToIntType(200.7, u8), 200);
  Tensor t({1}, u8);
  t.setI(0, 200 + 100);
  EXPECT_EQ(t.getI(0), 44);
  EXPECT_EQ(t.getF(0), 44.0);
}

TEST(Iteration, RowMajorOrder) {
  SmallVector<SmallVector<int64_t>> seen;
  forEachIndex({2, 3}, [&](int64_t linear, ArrayRef<int64_t> idx) {
    EXPECT_EQ(linear, static_cast<int64_t>(seen.size()));
    seen.push_back(SmallVector<int64_t>(idx));
  });
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_EQ(seen[4], (SmallVector<int64_t>{1, 1}));
}

TEST(ReductionGroups, LexicographicWithinEachOutput) {
  // Reduce dims 0 and 2 of a 2x3x2 tensor: output j combines the inputs
  // (i, j, k) in the order (0,j,0), (0,j,1), (1,j,0), (1,j,1).
  auto groups = stax::detail::reductionGroups({2, 3, 2}, {true, false, true});
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[1], (std::vector<int64_t>{2, 3, 8, 9}));
  // Every input appears exactly once.
  std::vector<int> count(12, 0);
  for (auto &g : groups)
    for (int64_t i : g)
      ++count[i];
  for (int c : count)
    EXPECT_EQ(c, 1);
}
