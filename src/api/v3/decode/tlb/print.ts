/**
 * An interpreter that prints a cell by a TL-B type exactly as the C++ code tlbc generates for ton-marker
 * would (tlbc-gen-cpp.cpp generate_print_method / generate_print_field over tlb::JsonPrinter):
 * - a constructor is selected by the bit prefixes it can begin with, then by its type parameters;
 * - nat fields (#, ## n, #< n, #<= n) print as `"name":"n"`; fixed-size fields whose every bit pattern is
 *   valid print as a plain value (decimal string, hex bits, or true/false for 1-bit Bool-like types);
 * - any other field prints `"name":` then its type's own object (Maybe, Either, VarUInteger, addresses and
 *   dictionaries keep their constructors), a field `^X` reads X from the next ref; `^X` as a type argument
 *   (`Either X ^X`, `Maybe ^X`) is a RefT: `{"cell_reference": X}`, except a constant `^Cell` / `^Any`, which
 *   prints the referenced cell's BoC;
 * - Cell / Any print as the base64 BoC of the remaining data; builtins without a JSON printer
 *   (## n, #< n, #<= n used as type arguments) print the BoC of the bits they cover.
 * Nothing is checked after a successful read: trailing bits and refs are allowed, as in print_skip.
 */
import type { Cell } from '@ton/core';
import { CellSlice } from '../cell-slice.ts';
import type { JsonPrinter } from '../json-printer.ts';
import { bocString } from '../std-boc.ts';
import { computeAnyBits, computeSize, isInteger } from './analyze.ts';
import { Tp, type Constructor, type Field, type TypeDef, type TypeExpr } from './model.ts';

export type Obj =
  | { k: 'user'; t: TypeDef; args: Arg[] }
  | { k: 'uint' | 'int' | 'bits'; n: number }
  | { k: 'natwidth' | 'natless' | 'natleq'; n: number }
  | { k: 'any' }
  /** `^X` as a type argument: tlbc's `RefT` (or `t_RefCell` for a constant `^Cell` / `^Any`, see resolve) */
  | { k: 'ref'; x: Obj }
  | { k: 'refcell' }
  | { k: 'snake' }
  | { k: 'tuple' | 'cond'; n: number; x: Obj };
/** a type argument: a number (nat), a type, or null for an output (negated) position */
export type Arg = number | Obj | null;
type Env = (number | Obj | undefined)[];

type CppType = 'slice' | 'cell' | 'bits' | 'bitstring' | 'integer' | 'bool' | 'enum' | 'int32' | 'uint32' | 'int64' | 'uint64';
const SIMPLE = new Set<CppType>(['bits', 'bitstring', 'integer', 'bool', 'int32', 'uint32', 'int64', 'uint64']);

/** tlbc-gen-cpp's detect_cpp_type: how the generated code holds (and prints) a field. */
export function detectCppType(e: TypeExpr): CppType {
  if (e.tp === Tp.Ref) return 'cell';
  if (e.isNat) return 'int32';
  const sz = computeSize(e);
  const l = sz.fixedBitSize();
  if (e.isNatSubtype) return l === 1 ? 'bool' : 'int32';
  if (e.tp === Tp.CondType) {
    const sub = detectCppType(e.args[1]);
    if (sub === 'slice' || sub === 'cell' || sub === 'integer' || sub === 'bitstring' || sub === 'enum') return sub;
    if ((sub === 'int32' || sub === 'int64') && isInteger(e.args[1]) > 0) return sub;
    return 'slice';
  }
  const x = isInteger(e);
  if (sz.maxRefs) return 'slice';
  if (!x) {
    const t = e.tp === Tp.Apply ? e.type! : null;
    if (t && t.builtin === null && t.isSimpleEnum) return 'enum';
    if (t && t.builtin === 'bits') return l >= 0 && l <= 256 ? 'bits' : 'bitstring';
    if (e.tp === Tp.Tuple && e.args[1].tp === Tp.Apply && e.args[1].type!.isBool) return l >= 0 && l <= 256 ? 'bits' : 'bitstring';
    return 'slice';
  }
  const maxBits = sz.maxBits;
  if (x > 0 && maxBits === 1) return 'bool';
  if (maxBits < 32) return 'int32';
  if (maxBits === 32) return x < 0 ? 'int32' : 'uint32';
  if (maxBits < 64) return 'int64';
  if (maxBits === 64) return x < 0 ? 'int64' : 'uint64';
  return 'integer';
}

export function evalNat(e: TypeExpr, env: Env): number {
  switch (e.tp) {
    case Tp.IntConst:
      return e.value;
    case Tp.Param:
      return env[e.value] as number;
    case Tp.Add:
      return evalNat(e.args[0], env) + evalNat(e.args[1], env);
    case Tp.MulConst:
      return e.value * evalNat(e.args[0], env);
    case Tp.GetBit:
      return (evalNat(e.args[0], env) & (1 << evalNat(e.args[1], env))) >>> 0;
    default:
      return NaN;
  }
}

/** The runtime type object of a field type (output_cpp_expr): nat arguments evaluated, outputs left null. */
export function resolve(e: TypeExpr, env: Env): Obj {
  switch (e.tp) {
    case Tp.Param:
      return env[e.value] as Obj;
    case Tp.Ref: {
      // assign_const_type_cpp_idents: a constant `^Cell` / `^Any` is tlblib's t_RefCell (RefAnything); any other
      // `^X` is a RefT, which prints {"cell_reference": X}
      const a = e.args[0];
      if (a.tp === Tp.Apply && (a.type!.builtin === 'any' || a.type!.builtin === 'cell')) return { k: 'refcell' };
      return { k: 'ref', x: resolve(a, env) };
    }
    case Tp.Tuple:
      return { k: 'tuple', n: evalNat(e.args[0], env), x: resolve(e.args[1], env) };
    case Tp.CondType:
      return { k: 'cond', n: evalNat(e.args[0], env), x: resolve(e.args[1], env) };
    case Tp.Apply: {
      const t = e.type!;
      const arg0 = () => evalNat(e.args[0], env);
      switch (t.builtin) {
        case 'nat':
          return { k: 'natwidth', n: 32 };
        case 'natwidth':
        case 'natless':
        case 'natleq':
          return { k: t.builtin, n: arg0() };
        case 'any':
        case 'cell':
          return { k: 'any' };
        case 'int':
        case 'uint':
        case 'bits':
          return { k: t.builtin, n: t.width ?? arg0() };
        case 'snake':
          return { k: 'snake' };
        case null:
          return { k: 'user', t, args: e.args.map((a) => (a.negated ? null : a.isNat ? evalNat(a, env) : resolve(a, env))) };
        default:
          throw new Error(`type ${t.name} cannot be printed`);
      }
    }
    default:
      throw new Error('expression is not a type');
  }
}

/** Binds a pattern (a result-type parameter, or a negated field argument) to a value: `n + 1` binds n = v - 1. */
function bind(p: TypeExpr, v: number | Obj | null | undefined, env: Env): boolean {
  if (v === null || v === undefined) return false;
  switch (p.tp) {
    case Tp.IntConst:
      return v === p.value;
    case Tp.Param:
      if (p.negated) {
        env[p.value] = v;
        return true;
      }
      return env[p.value] === v;
    case Tp.Add: {
      const [a, b] = p.args;
      const [neg, other] = a.negated ? [a, b] : [b, a];
      const o = evalNat(other, env);
      if (typeof v !== 'number' || v < o) return false;
      return bind(neg, v - o, env);
    }
    case Tp.MulConst:
      if (typeof v !== 'number' || !p.value || v % p.value !== 0) return false;
      return bind(p.args[0], v / p.value, env);
    default:
      return true;
  }
}

/** Could the constructor's result type match these arguments (the generated get_tag's parameter test)? */
function admissible(c: Constructor, args: Arg[]): boolean {
  for (let i = 0; i < c.params.length; i++) {
    if (c.paramNegated[i]) continue;
    const v = args[i];
    if (typeof v !== 'number') continue;
    const p = c.params[i];
    if (p.tp === Tp.IntConst && v !== p.value) return false;
    if (p.tp === Tp.Add) {
      const k = p.args.find((a) => !a.negated);
      if (k && k.tp === Tp.IntConst && v < k.value) return false;
    }
    if (p.tp === Tp.MulConst && p.value && v % p.value !== 0) return false;
  }
  return true;
}

function fetchNat(e: TypeExpr, env: Env, cs: CellSlice): number | null {
  // add_fetch_nat_field into an `int` variable: fetch_uint_to(32 | n, int&) fails past 32 bits and on values
  // >= 2^31, fetch_uint_leq / fetch_uint_less(bound, int&) when the bound needs more than 31 bits,
  // (## 1) is fetch_bool_to
  const t = e.type!;
  const n = t.builtin === 'nat' ? 32 : evalNat(e.args[0], env);
  let width: number;
  if (t.builtin === 'nat' || t.builtin === 'natwidth') {
    if (n > 32) return null;
    width = n;
  } else if (t.builtin === 'natleq') width = 32 - Math.clz32(n);
  else if (t.builtin === 'natless') {
    if (n <= 0) return null;
    width = 32 - Math.clz32(n - 1);
  } else return null;
  if (width > 32 || (t.builtin !== 'nat' && t.builtin !== 'natwidth' && width > 31)) return null;
  const v = cs.fetchUint(width);
  if (v === null) return null;
  const x = Number(v);
  if (x >= 2 ** 31) return null;
  if (t.builtin === 'natleq' && x > n) return null;
  if (t.builtin === 'natless' && x >= n) return null;
  return x;
}

/** output_cpp_sizeof_expr: the bit length of a simple field at run time. */
function sizeOf(e: TypeExpr, env: Env): number {
  const sz = computeSize(e);
  if (sz.isFixed()) return sz.minBits;
  switch (e.tp) {
    case Tp.CondType:
      return evalNat(e.args[0], env) ? sizeOf(e.args[1], env) : 0;
    case Tp.Tuple: {
      if (e.args[0].tp === Tp.IntConst && e.args[0].value === 1) return sizeOf(e.args[1], env);
      const s1 = computeSize(e.args[1]);
      if (s1.isFixed() && s1.minBits === 1 && s1.minRefs === 0) return evalNat(e.args[0], env);
      return evalNat(e.args[0], env) * sizeOf(e.args[1], env);
    }
    default:
      return evalNat(e.args[0], env);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class TlbPrinter {
  constructor(readonly pp: JsonPrinter) {}

  printSkip(o: Obj, cs: CellSlice, outs?: number[]): boolean {
    const pp = this.pp;
    switch (o.k) {
      case 'user':
        return this.printUser(o.t, o.args, cs, outs);
      case 'uint':
      case 'int': {
        const v = o.k === 'int' ? cs.fetchInt(o.n) : cs.fetchUint(o.n);
        return v !== null && pp.outInt(v);
      }
      case 'bits': {
        const hex = cs.fetchHex(o.n);
        return hex !== null && pp.out(hex);
      }
      case 'natwidth':
      case 'natless':
      case 'natleq': {
        // no JSON printer of its own: TLB::print_skip prints the covered bits as a BoC
        const start = cs.clone();
        let ok: boolean;
        if (o.k === 'natwidth') ok = o.n <= 32 && cs.advance(o.n);
        else {
          const bound = o.k === 'natleq' ? o.n : o.n - 1;
          const v = bound >= 0 ? cs.fetchUint(32 - Math.clz32(bound)) : null;
          ok = v !== null && Number(v) <= bound;
        }
        if (!ok) return pp.fail('invalid value');
        return pp.out(bocString(cs.consumedSince(start)));
      }
      case 'any': {
        const start = cs.clone();
        cs.pos = cs.end;
        cs.refPos = cs.cell.refs.length;
        return pp.out(bocString(cs.consumedSince(start)));
      }
      case 'ref':
        // RefT::print_skip(Printer&): an anonymous object with the referenced value under "cell_reference"
        return pp.open() && pp.field('cell_reference') && this.printRef(o.x, cs.fetchRef()) && pp.close();
      case 'refcell': {
        // RefAnything::print_skip(Printer&): the referenced cell's BoC, no recursive call counted
        const cell = cs.fetchRef();
        if (!cell) return pp.fail('no reference');
        return this.printSkip({ k: 'any' }, new CellSlice(cell));
      }
      case 'snake':
        return this.printSnake(cs);
      case 'tuple': {
        pp.open('tuple');
        for (let i = 0; i < o.n; i++) if (!pp.open(String(i)) || !this.printSkip(o.x, cs) || !pp.close()) return false;
        return pp.close();
      }
      case 'cond':
        return o.n > 0 ? this.printSkip(o.x, cs) : o.n === 0 && pp.out('()');
    }
  }

  printRef(o: Obj, cell: Cell | null): boolean {
    if (!cell) return this.pp.fail('null cell reference');
    if (!this.pp.registerRecursiveCall()) return this.pp.fail('too many recursive calls while printing a TL-B value');
    return this.printSkip(o, new CellSlice(cell));
  }

  /** SnakeString: the bytes of this cell then of each next (single) ref; must be valid UTF-8. */
  private printSnake(cs: CellSlice): boolean {
    const parts: number[] = [];
    let cur = cs.clone();
    for (;;) {
      let bits = cur.size();
      while (bits >= 8) {
        parts.push(Number(cur.fetchUint(8)));
        bits -= 8;
      }
      if (bits > 0) parts.push(Number(cur.fetchUint(bits)) << (8 - bits));
      if (cur.sizeRefs() > 1) return this.pp.fail('snake cell has more than one reference');
      if (cur.sizeRefs() === 0) break;
      const next = cur.fetchRef()!;
      if (next.isExotic) return this.pp.fail('failed to load snake cell reference');
      cur = new CellSlice(next);
    }
    cs.pos = cs.end;
    cs.refPos = cs.cell.refs.length;
    let text: string;
    try {
      text = utf8.decode(Uint8Array.from(parts));
    } catch {
      return this.pp.fail('invalid utf-8 string');
    }
    return this.pp.out(text);
  }

  private printUser(t: TypeDef, args: Arg[], cs: CellSlice, outs?: number[]): boolean {
    const cons = t.constructors;
    if (!cons.length) return this.pp.fail(`no constructors for ${t.name ?? `TYPE_${t.idx}`}`);
    let ci = 0;
    if (cons.length > 1) {
      ci = selectConstructor(t, args, cs);
      if (ci < 0) return this.pp.fail(`unknown constructor for ${t.name ?? `TYPE_${t.idx}`}`);
    }
    return this.printCons(cons[ci], args, cs, outs);
  }

  private printCons(c: Constructor, args: Arg[], cs: CellSlice, outs?: number[]): boolean {
    const pp = this.pp;
    const env: Env = new Array(c.fields.length);
    for (let i = 0; i < c.params.length; i++) if (!c.paramNegated[i] && !bind(c.params[i], args[i], env)) return false;
    if (c.tagBits) {
      const v = cs.prefetchUint(c.tagBits);
      if (v === null || v !== c.tag >> BigInt(64 - c.tagBits)) return false;
      cs.advance(c.tagBits);
    }
    if (c.isEnum) pp.cons(c.name ?? '');
    else pp.open(c.name ?? '');
    for (const f of c.fields) {
      if (f.constraint) {
        if (!constraintHolds(f.type, env)) return false;
      } else if (!f.implicit && !this.printField(f, env, cs)) return false;
    }
    if (outs) for (let i = 0; i < c.params.length; i++) if (c.paramNegated[i]) outs.push(evalNat(c.params[i], env));
    return c.isEnum || pp.close();
  }

  private printField(f: Field, env: Env, cs: CellSlice): boolean {
    const pp = this.pp;
    const e = f.type;
    const name = f.name ?? '';
    if (e.isNatSubtype) {
      const v = fetchNat(e, env, cs);
      if (v === null) return false;
      env[f.idx] = v;
      return pp.fieldUint(v, name);
    }
    f.meta ??= fieldMeta(e);
    const isSimple = f.meta.simple;
    if (f.meta.fixedAnyBits) {
      const r = this.printSimple(e, name, env, cs);
      if (r !== null) return r;
    }
    const condChain = e.tp === Tp.CondType;
    if (!condChain && !isSimple) pp.field(name);
    if (e.negated) {
      const got: number[] = [];
      if (!this.printSkip(resolve(e, env), cs, got)) return false;
      let k = 0;
      for (const a of e.args) if (a.negated && !bind(a, got[k++], env)) return false;
      return true;
    }
    let x = e;
    while (x.tp === Tp.CondType) {
      if (!evalNat(x.args[0], env)) return true;
      x = x.args[1];
    }
    const r = this.printSimple(x, name, env, cs);
    if (r !== null) return r;
    if (condChain) pp.field(name);
    if (x.tp !== Tp.Ref) return this.printSkip(resolve(x, env), cs);
    return this.printRef(resolve(x.args[0], env), cs.fetchRef());
  }

  /** output_print_simple_field; null when the field's C++ type is not a simple one. */
  private printSimple(e: TypeExpr, name: string, env: Env, cs: CellSlice): boolean | null {
    const cvt = detectCppType(e);
    const key = name || undefined;
    switch (cvt) {
      case 'bits':
      case 'bitstring':
        return this.pp.fetchBitsField(cs, sizeOf(e, env), key);
      case 'bool':
        return this.pp.fetchBoolField(cs, key);
      case 'int32':
      case 'uint32':
      case 'int64':
      case 'uint64':
      case 'integer':
        return this.pp.fetchIntField(cs, sizeOf(e, env), isInteger(e) < 0, key);
      default:
        return null;
    }
  }
}

function fieldMeta(e: TypeExpr): { fixedAnyBits: boolean; simple: boolean } {
  const sz = computeSize(e);
  return { fixedAnyBits: sz.isFixed() && sz.minRefs === 0 && computeAnyBits(e), simple: SIMPLE.has(detectCppType(e)) };
}

function constraintHolds(e: TypeExpr, env: Env): boolean {
  const [a, b] = e.args;
  switch (e.type?.builtin) {
    case 'eq':
      if (a.negated) return bind(a, evalNat(b, env), env);
      if (b.negated) return bind(b, evalNat(a, env), env);
      return evalNat(a, env) === evalNat(b, env);
    case 'less':
      return evalNat(a, env) < evalNat(b, env);
    case 'leq':
      return evalNat(a, env) <= evalNat(b, env);
    default:
      return true;
  }
}

function prefixMatches(c: Constructor, cs: CellSlice): boolean {
  for (const { len, value } of c.prefixes) {
    if (len > cs.size()) continue;
    if (len <= 48 ? BigInt(cs.prefetchNum(len)!) === value : cs.prefetchUint(len) === value) return true;
  }
  return false;
}

/** The generated get_tag: the constructor whose prefixes match, then the one admissible for the parameters. */
export function selectConstructor(t: TypeDef, args: Arg[], cs: CellSlice): number {
  const hits: number[] = [];
  t.constructors.forEach((c, i) => {
    if (prefixMatches(c, cs)) hits.push(i);
  });
  if (hits.length === 1) return hits[0];
  if (hits.length === 0) return -1;
  const ok = hits.filter((i) => admissible(t.constructors[i], args));
  return ok.length === 1 ? ok[0] : -1;
}
