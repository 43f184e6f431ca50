//===- Toy.td - the example's own dialect ------------------*- tablegen -*-===//
//
// A dialect that stands for the embedding compiler's own IR: two ops on f32
// tensors, which --toy-to-tp rewrites into Stax's tp dialect.
//
//===----------------------------------------------------------------------===//

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Toy_Dialect : Dialect {
  let name = "toy";
  let cppNamespace = "::toy";
  let summary = "The embedding example's own dialect";
}

class Toy_Op<string mnemonic, list<Trait> traits = []>
    : Op<Toy_Dialect, mnemonic, traits>;

def Toy_SquareOp : Toy_Op<"square", [Pure, SameOperandsAndResultType]> {
  let summary = "Each element times itself";
  let description = [{
    ```mlir
    %y = toy.square %x : tensor<64x256xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$input);
  let results = (outs RankedTensorOf<[F32]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Toy_SumOp : Toy_Op<"sum", [Pure]> {
  let summary = "The sum of every element, as a 0-d tensor";
  let description = [{
    ```mlir
    %s = toy.sum %y : tensor<64x256xf32> -> tensor<f32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$input);
  let results = (outs 0DTensorOf<[F32]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}
