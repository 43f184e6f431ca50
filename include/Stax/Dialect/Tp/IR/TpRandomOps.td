//===- TpRandomOps.td - counter-based random ops -------------*- tablegen -*-===//
//
// Random ops take an explicit counter-based RNG state, so that recomputing
// them (in the backward, after rematerialization) draws the same numbers
// (step 5 of Algorithm 5.1). Included by TpOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPRANDOMOPS_TD
#define STAX_DIALECT_TP_IR_TPRANDOMOPS_TD

#endif // STAX_DIALECT_TP_IR_TPRANDOMOPS_TD
