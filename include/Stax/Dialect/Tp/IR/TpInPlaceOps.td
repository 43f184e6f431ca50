//===- TpInPlaceOps.td - in-place operator overloads ---------*- tablegen -*-===//
//
// The in-place overloads (`add_`, `mul_`, `copy_`, `index_put_`, ...) that
// --stax-functionalize rewrites into value semantics. Included by TpOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPINPLACEOPS_TD
#define STAX_DIALECT_TP_IR_TPINPLACEOPS_TD

#endif // STAX_DIALECT_TP_IR_TPINPLACEOPS_TD
