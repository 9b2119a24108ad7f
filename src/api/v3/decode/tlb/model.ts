/**
 * The scheme model tlbc builds from a .tlb file (crypto/tl/tlbc-data.h): types, constructors, fields and
 * type expressions, with the properties the C++ code generator derives from them.
 */
import type { MinMaxSize } from './size.ts';

export enum Tp {
  Type,
  Param,
  Apply,
  Add,
  GetBit,
  IntConst,
  MulConst,
  Tuple,
  CondType,
  Ref,
}

export interface TypeExpr {
  tp: Tp;
  /** IntConst / MulConst value; Param: field index */
  value: number;
  args: TypeExpr[];
  /** Apply: the type applied */
  type: TypeDef | null;
  /** the expression is a natural number */
  isNat: boolean;
  /** the expression is a type whose values are natural numbers (#, ## n, #< n, #<= n) */
  isNatSubtype: boolean;
  /** ~x: computed while reading (an output) */
  negated: boolean;
  /** applied with a negated argument: usable only for type checking */
  tchkOnly: boolean;
}

export interface Field {
  idx: number;
  name: string | null;
  implicit: boolean;
  constraint: boolean;
  type: TypeExpr;
  /** bound (for implicit parameters referenced by the constructor's result type) */
  known: boolean;
  /** how the generated code prints it, derived once from the analysed scheme */
  meta?: { fixedAnyBits: boolean; simple: boolean };
}

export interface Constructor {
  name: string | null;
  /** tag bits left-aligned in 64 bits followed by a 1 (tlbc's encoding); 1 << 63 = no tag */
  tag: bigint;
  tagBits: number;
  fields: Field[];
  /** the result type's arguments: `= Type p1 p2` */
  params: TypeExpr[];
  paramNegated: boolean[];
  typeDef: TypeDef;
  isEnum: boolean;
  isSpecial: boolean;
  beginsWith: bigint[];
  size: MinMaxSize;
  anyBits: boolean;
  /** beginsWith as (length, value) pairs, and the tag as the generated `cons_tag` number; set by analyzeScheme */
  prefixes: { len: number; value: bigint }[];
  consTag: number;
}

export type Builtin =
  | 'nat' // #
  | 'natwidth' // ## n
  | 'natless' // #< n
  | 'natleq' // #<= n
  | 'any' // Any
  | 'cell' // Cell
  | 'int' // int n, intN
  | 'uint' // uint n, uintN
  | 'bits' // bits n, bitsN
  | 'snake' // SnakeString (builtin of the reference's tlbc fork)
  | 'eq'
  | 'less'
  | 'leq';

export interface TypeDef {
  idx: number;
  name: string | null;
  builtin: Builtin | null;
  /** fixed width of intN / uintN / bitsN */
  width: number | null;
  producesNat: boolean;
  arity: number;
  constructors: Constructor[];
  size: MinMaxSize;
  anyBits: boolean;
  beginsWith: bigint[];
  isBool: boolean;
  isUnit: boolean;
  isEnum: boolean;
  isSimpleEnum: boolean;
  /** builtins: 1 unsigned, -1 signed, 0 not an integer */
  isInteger: number;
  isAnon: boolean;
  /** constructor indices in the generated enum order (by smallest prefix) */
  enumOrder: number[];
}

export const ALL = 1n << 63n;
export const U64 = (1n << 64n) - 1n;
