//===- RandomKernels.cpp - counter-based random ops -----------------------===//
//
// The bit-level formulas are those of the op descriptions in TpRandomOps.td,
// on the stream of include/Stax/Interpreter/Philox.h. Draws depend on the
// op's declared element type only, never on the f64 promotion, so a promoted
// reference run draws the same numbers as the run it checks.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Stax/Interpreter/Philox.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

namespace {

/// The stream of a random op: state tensor [seed, offset] (read as uint64)
/// and the op's counter. The verifier guarantees the state's type.
philox::Stream streamOf(const Tensor &state, int64_t counter) {
  return philox::Stream(static_cast<uint64_t>(state.getI(0)),
                        static_cast<uint64_t>(state.getI(1)),
                        static_cast<uint64_t>(counter));
}

/// Mantissa bits (with the implicit one) of the float types the ops draw.
unsigned mantissaBits(Type t) {
  if (t.isF16())
    return 11;
  if (t.isBF16())
    return 8;
  if (t.isF64())
    return 53;
  return 24;
}

/// The 24-bit uniform of word i (bernoulli, dropout_seeded).
double uniform24(philox::Stream &s, int64_t i) {
  return philox::uniformFromWord(s.word(static_cast<uint64_t>(i)), 24);
}

} // namespace

void stax::detail::registerRandomKernels(KernelRegistry &registry) {
  registry.add<tp::RandOp>([](tp::RandOp op, Inputs in,
                              const KernelContext &ctx) -> FailureOr<Tensor> {
    philox::Stream s = streamOf(*in[0], op.getCounter());
    Tensor out = ctx.result(op);
    unsigned bits = mantissaBits(op.getType().getElementType());
    for (int64_t i = 0; i < out.numel(); ++i) {
      auto j = static_cast<uint64_t>(i);
      out.setF(i, bits == 53 ? philox::uniformFromDword(s.dword(j))
                             : philox::uniformFromWord(s.word(j), bits));
    }
    return out;
  });

  registry.add<tp::RandnOp>([](tp::RandnOp op, Inputs in,
                               const KernelContext &ctx) -> FailureOr<Tensor> {
    philox::Stream s = streamOf(*in[0], op.getCounter());
    Tensor out = ctx.result(op);
    Type elt = op.getType().getElementType();
    bool wide = elt.isF64();
    for (int64_t i = 0; i < out.numel(); i += 2) {
      auto a = static_cast<uint64_t>(i), b = a + 1; // word / dword indices
      double u1, u2;
      if (wide) {
        u1 = static_cast<double>((s.dword(a) >> 11) + 1) * 0x1.0p-53;
        u2 = philox::uniformFromDword(s.dword(b));
      } else {
        u1 = static_cast<double>((s.word(a) >> 8) + 1) * 0x1.0p-24;
        u2 = philox::uniformFromWord(s.word(b), 24);
      }
      auto [z0, z1] = philox::boxMuller(u1, u2);
      // Rounded to the declared type first: the same values under promotion.
      out.setF(i, roundToFloatType(z0, elt));
      if (i + 1 < out.numel())
        out.setF(i + 1, roundToFloatType(z1, elt));
    }
    return out;
  });

  registry.add<tp::BernoulliOp>(
      [](tp::BernoulliOp op, Inputs in,
         const KernelContext &ctx) -> FailureOr<Tensor> {
        const Tensor &self = *in[0];
        philox::Stream s = streamOf(*in[1], op.getCounter());
        Tensor out = ctx.result(op);
        std::optional<double> p;
        if (auto attr = op.getPAttr())
          p = attr.getValueAsDouble();
        for (int64_t i = 0; i < out.numel(); ++i) {
          double pi = p ? *p : self.getF(i);
          out.setF(i, uniform24(s, i) < pi ? 1.0 : 0.0);
        }
        return out;
      });

  registry.addMulti<tp::DropoutSeededOp>(
      [](tp::DropoutSeededOp op, Inputs in, SmallVectorImpl<Tensor> &results,
         const KernelContext &ctx) -> LogicalResult {
        const Tensor &x = *in[0];
        philox::Stream s = streamOf(*in[1], op.getCounter());
        Tensor out = ctx.result(op, 0), mask = ctx.result(op, 1);
        double p = op.getP().convertToDouble();
        double keepProb = 1.0 - p;
        FloatMath m{accumulationType(out.elementType())};
        double scale = m.r(keepProb == 0.0 ? 0.0 : 1.0 / keepProb);
        for (int64_t i = 0; i < out.numel(); ++i) {
          bool keep = uniform24(s, i) < keepProb;
          mask.setI(i, keep ? 1 : 0);
          double xi = m.r(x.getF(i));
          out.setF(i, m.mul(m.mul(xi, keep ? 1.0 : 0.0), scale));
        }
        results.push_back(std::move(out));
        results.push_back(std::move(mask));
        return success();
      });
}
