// A pass that stax-opt does not have, and one whose summary differs: the
// help check must fail on both.
include "mlir/Pass/PassBase.td"

def StaxNoSuchPass : Pass<"stax-no-such-pass", "::mlir::ModuleOp"> {
  let summary = "Not a Stax pass";
}

def StaxFuse : Pass<"stax-fuse", "::mlir::func::FuncOp"> {
  let summary = "Not the summary of --stax-fuse";
  let options = [
    Option<"noSuchOption", "no-such-option", "bool", /*default=*/"false",
           "Not an option of --stax-fuse">,
  ];
}
