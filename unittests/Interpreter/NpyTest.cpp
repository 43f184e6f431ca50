//===- NpyTest.cpp - .npy round trips -------------------------------------===//

#include "Stax/Interpreter/Npy.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stax;

TEST(Npy, RoundTripsEveryDtype) {
  MLIRContext ctx;
  for (Type t : {Type(Float16Type::get(&ctx)), Type(Float32Type::get(&ctx)),
                 Type(Float64Type::get(&ctx)), Type(IntegerType::get(&ctx, 1)),
                 Type(IntegerType::get(&ctx, 8)), Type(IntegerType::get(&ctx, 16)),
                 Type(IntegerType::get(&ctx, 32)), Type(IntegerType::get(&ctx, 64)),
                 Type(IntegerType::get(&ctx, 8, IntegerType::Unsigned))}) {
    Tensor x({2, 3}, t);
    for (int64_t i = 0; i < x.numel(); ++i)
      x.setF(i, i % 2 ? -1.5 * i : i * 60); // ui8 wraps -1.5 * 5 to 249
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("stax", "npy", path));
    std::string error;
    ASSERT_TRUE(succeeded(writeNpy(path, x, error))) << error;
    auto y = readNpy(path, &ctx, error);
    llvm::sys::fs::remove(path);
    ASSERT_TRUE(succeeded(y)) << error;
    EXPECT_EQ(y->shape(), x.shape());
    EXPECT_EQ(y->elementType(), t);
    for (int64_t i = 0; i < x.numel(); ++i)
      EXPECT_EQ(y->getF(i), x.getF(i));
  }
}

TEST(Npy, Descrs) {
  MLIRContext ctx;
  Type u8 = IntegerType::get(&ctx, 8, IntegerType::Unsigned);
  EXPECT_EQ(npyDescr(u8), "|u1");
  EXPECT_EQ(typeFromNpyDescr("|u1", &ctx), u8);
  EXPECT_EQ(npyDescr(IntegerType::get(&ctx, 16)), "<i2");
  // bf16 has no NumPy dtype: the C API's own string, which .npy refuses.
  Type bf16 = BFloat16Type::get(&ctx);
  EXPECT_EQ(npyDescr(bf16), kBF16Descr);
  EXPECT_EQ(typeFromNpyDescr(kBF16Descr, &ctx), bf16);
  EXPECT_EQ(npyDescr(IntegerType::get(&ctx, 8, IntegerType::Signed)), "");
  std::string error;
  EXPECT_TRUE(failed(writeNpy("unused.npy", Tensor({1}, bf16), error)));
  EXPECT_NE(error.find("NumPy has no bfloat16"), std::string::npos) << error;
}

TEST(Npy, ZeroDimAndErrors) {
  MLIRContext ctx;
  Tensor x({}, Float32Type::get(&ctx));
  x.setF(0, 3.25);
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("stax", "npy", path));
  std::string error;
  ASSERT_TRUE(succeeded(writeNpy(path, x, error)));
  auto y = readNpy(path, &ctx, error);
  ASSERT_TRUE(succeeded(y)) << error;
  EXPECT_EQ(y->rank(), 0);
  EXPECT_EQ(y->getF(0), 3.25);
  EXPECT_TRUE(failed(readNpy("/nonexistent.npy", &ctx, error)));
  EXPECT_NE(error.find("nonexistent"), std::string::npos);
  llvm::sys::fs::remove(path);
}
