/**
 * tlbc's scheme checks that decide code generation (crypto/tl/tlbc.cpp check_scheme): the bit prefixes each
 * constructor can begin with (BitPfxCollection, a fixpoint over all types), min/max sizes, whether every
 * bit pattern is valid (any_bits), 1-bit Bool-like and 0-bit Unit types, and the enum order of constructors
 * (by smallest prefix) that the generated `cons_tag` arrays follow.
 */
import { ALL, Tp, U64, type Constructor, type TypeDef, type TypeExpr } from './model.ts';
import type { Scheme } from './parse.ts';
import { MinMaxSize, abstractAdd, abstractConst, abstractGetBit, abstractMul } from './size.ts';

// ---------------------------------------------------------------- BitPfxCollection (64-bit prefixes with a marker bit)

const lowerBit = (z: bigint): bigint => z & ((~z + 1n) & U64);

function ctz(z: bigint): number {
  let n = 0;
  while (n < 64 && !((z >> BigInt(n)) & 1n)) n++;
  return n;
}

function mergeBack(pfx: bigint[], z0: bigint): void {
  let z = z0;
  if (!pfx.length) {
    pfx.push(z);
    return;
  }
  let w = lowerBit(z);
  while (pfx.length) {
    const t = z ^ pfx[pfx.length - 1];
    if (!t) return;
    if (t !== ((w << 1n) & U64)) break;
    z -= w;
    w = (w << 1n) & U64;
    pfx.pop();
  }
  pfx.push(z);
}

/** `prepend * collection`: every prefix prefixed with the tag bits of `prepend`. */
export function pfxMul(col: bigint[], prepend: bigint): bigint[] {
  if (!prepend) return [];
  if (prepend === ALL) return [...col];
  const l = BigInt(63 - ctz(prepend));
  const head = prepend & (prepend - 1n);
  const res: bigint[] = [];
  for (const z0 of col) {
    const zw = lowerBit(z0);
    let z = z0 >> l;
    z |= head;
    if (!(zw >> l)) z |= 1n;
    mergeBack(res, z);
  }
  return res;
}

export function pfxAdd(a: bigint[], b: bigint[]): bigint[] {
  if (!b.length) return [...a];
  if (!a.length) return [...b];
  const res: bigint[] = [];
  const iv = (z: bigint) => ({ z, lo: z & (z - 1n), hi: (z | (z - 1n)) & U64 });
  let i = 0;
  let j = 0;
  let U = iv(a[0]);
  let V = iv(b[0]);
  while (i < a.length && j < b.length) {
    if (U.hi < V.hi || (U.hi === V.hi && U.lo >= V.lo)) {
      if (U.lo < V.lo) mergeBack(res, U.z);
      if (++i === a.length) break;
      U = iv(a[i]);
    } else {
      if (V.lo < U.lo) mergeBack(res, V.z);
      if (++j === b.length) break;
      V = iv(b[j]);
    }
  }
  while (i < a.length) mergeBack(res, a[i++]);
  while (j < b.length) mergeBack(res, b[j++]);
  return res;
}

const pfxEq = (a: bigint[], b: bigint[]) => a.length === b.length && a.every((x, i) => x === b[i]);
export const pfxIsAll = (a: bigint[]) => a.length === 1 && a[0] === ALL;

/** the length of a prefix and its value */
export function pfxParts(z: bigint): { len: number; value: bigint } {
  const len = 63 - ctz(z);
  return { len, value: len ? z >> BigInt(64 - len) : 0n };
}

// ---------------------------------------------------------------- type expression properties

export function abstractNat(e: TypeExpr): number {
  if (!e.isNat || e.tchkOnly) return 0;
  switch (e.tp) {
    case Tp.Param:
      return 0xf;
    case Tp.Add:
      return abstractAdd(abstractNat(e.args[0]), abstractNat(e.args[1]));
    case Tp.GetBit:
      return abstractGetBit(abstractNat(e.args[0]), abstractNat(e.args[1]));
    case Tp.IntConst:
      return abstractConst(e.value);
    case Tp.MulConst:
      return abstractMul(abstractNat(e.args[0]), abstractConst(e.value));
    default:
      return 0xf;
  }
}

const clz32 = (n: number) => Math.clz32(n);

export function computeSize(e: TypeExpr): MinMaxSize {
  if (e.isNat) return MinMaxSize.fixed(0);
  switch (e.tp) {
    case Tp.Type:
      return MinMaxSize.fixed(0);
    case Tp.Param:
      return MinMaxSize.any();
    case Tp.Ref:
      return computeSize(e.args[0]).isPossible() ? MinMaxSize.oneRef() : MinMaxSize.impossible();
    case Tp.CondType: {
      const z = abstractNat(e.args[0]);
      if (!(z & ~1)) return MinMaxSize.fixed(0);
      const t = computeSize(e.args[1]);
      return z & 1 ? t.clearMin() : t;
    }
    case Tp.Tuple: {
      const z = abstractNat(e.args[0]);
      if (!(z & ~1)) return MinMaxSize.fixed(0);
      let t = computeSize(e.args[1]);
      if (e.args[0].tp === Tp.IntConst) return t.repeat(e.args[0].value);
      if (z & 1) t = t.clearMin();
      if (z & 12) t = t.repeatAtLeast(z & 1 ? 0 : z & 2 ? 1 : 2);
      return t;
    }
    case Tp.Apply: {
      const t = e.type!;
      if (e.args.length === 1 && e.args[0].tp === Tp.IntConst) {
        const n = e.args[0].value;
        if (t.builtin === 'natwidth' || (t.width === null && (t.builtin === 'int' || t.builtin === 'uint' || t.builtin === 'bits'))) return MinMaxSize.fixed(Math.min(n, 2047));
        if (t.builtin === 'natleq') return MinMaxSize.fixed(32 - clz32(n));
        if (t.builtin === 'natless') return MinMaxSize.fixed(n ? 32 - clz32(n - 1) : 2047);
      }
      return t.size;
    }
    default:
      return MinMaxSize.impossible();
  }
}

export function computeAnyBits(e: TypeExpr): boolean {
  if (e.isNat) return true;
  switch (e.tp) {
    case Tp.Type:
    case Tp.Ref:
      return true;
    case Tp.Param:
      return false;
    case Tp.Tuple:
    case Tp.CondType: {
      const z = abstractNat(e.args[0]);
      return !(z & ~1) ? true : computeAnyBits(e.args[1]);
    }
    case Tp.Apply: {
      const t = e.type!;
      if (e.args.length === 1 && e.args[0].tp === Tp.IntConst) {
        const n = e.args[0].value;
        if (t.builtin === 'natleq') return !(n & (n + 1));
        if (t.builtin === 'natless') return !(n & (n - 1));
      }
      return t.anyBits;
    }
    default:
      return false;
  }
}

/** TypeExpr::is_integer: 1 unsigned, -1 signed, 0 not an integer type. */
export function isInteger(e: TypeExpr): number {
  if (e.isNat) return 1;
  if (e.tp !== Tp.Apply) return 0;
  const t = e.type!;
  if (t.builtin === 'int' && t.width === null) return -1;
  if (t.builtin === 'uint' && t.width === null) return 1;
  if (t.isBool) return 1;
  if (t.builtin) return t.isInteger;
  return 0;
}

// ---------------------------------------------------------------- fixpoints over the scheme

function consBeginsWith(c: Constructor): boolean {
  for (const f of c.fields) {
    if (f.implicit || f.constraint) continue;
    const e = f.type;
    if (e.tp === Tp.Ref) continue;
    if (e.tp !== Tp.Apply) break;
    const add = pfxMul(e.type!.beginsWith, c.tag);
    const next = pfxAdd(c.beginsWith, add);
    if (pfxEq(next, c.beginsWith)) return false;
    c.beginsWith = next;
    return true;
  }
  const add = [c.tag];
  if (pfxEq(c.beginsWith, add)) return false;
  const next = pfxAdd(c.beginsWith, add);
  const changed = !pfxEq(next, c.beginsWith);
  c.beginsWith = next;
  return changed;
}

/** every user type an expression mentions (type arguments included) */
function mentions(e: TypeExpr, out: Set<TypeDef>): void {
  if (e.tp === Tp.Apply && e.type && e.type.builtin === null) out.add(e.type);
  for (const a of e.args) mentions(a, out);
}

/**
 * Strongly connected components of the "a constructor field mentions" graph, dependencies first (Tarjan's
 * order). tlbc iterates its monotone fixpoints (prefixes, sizes, any_bits) over all types until nothing
 * changes; iterating each component after the ones it depends on reaches the same least fixpoint.
 */
function components(user: TypeDef[]): TypeDef[][] {
  const deps = new Map<TypeDef, TypeDef[]>();
  for (const t of user) {
    const m = new Set<TypeDef>();
    for (const c of t.constructors) for (const f of c.fields) if (!f.implicit && !f.constraint) mentions(f.type, m);
    deps.set(t, [...m]);
  }
  const index = new Map<TypeDef, number>();
  const low = new Map<TypeDef, number>();
  const onStack = new Set<TypeDef>();
  const stack: TypeDef[] = [];
  const out: TypeDef[][] = [];
  let counter = 0;
  const visit = (v: TypeDef) => {
    // iterative Tarjan: frames of (node, next dependency index)
    const frames: [TypeDef, number][] = [[v, 0]];
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    while (frames.length) {
      const fr = frames[frames.length - 1];
      const [node, i] = fr;
      const ds = deps.get(node) ?? [];
      if (i < ds.length) {
        fr[1]++;
        const w = ds[i];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          frames.push([w, 0]);
        } else if (onStack.has(w)) low.set(node, Math.min(low.get(node)!, index.get(w)!));
        continue;
      }
      frames.pop();
      if (frames.length) {
        const parent = frames[frames.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === index.get(node)) {
        const comp: TypeDef[] = [];
        let w: TypeDef;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== node);
        out.push(comp.sort((a, b) => a.idx - b.idx));
      }
    }
  };
  for (const t of user) if (!index.has(t)) visit(t);
  return out;
}

function fixpoint(comps: TypeDef[][], step: (t: TypeDef) => boolean): void {
  for (const comp of comps) {
    let changes = true;
    while (changes) {
      changes = false;
      for (const t of comp) if (step(t)) changes = true;
    }
  }
}

export function analyzeScheme(s: Scheme): void {
  const user = s.types.filter((t) => t.builtin === null);
  for (const t of user) if (t.arity < 0) t.arity = 0;
  const comps = components(user);
  fixpoint(comps, (t) => {
    let changed = false;
    for (const c of t.constructors) {
      if (consBeginsWith(c)) {
        const next = pfxAdd(t.beginsWith, c.beginsWith);
        if (!pfxEq(next, t.beginsWith)) {
          t.beginsWith = next;
          changed = true;
        }
      }
    }
    return changed;
  });
  fixpoint(comps, (t) => {
    let changed = false;
    let sz = MinMaxSize.impossible();
    for (const c of t.constructors) {
      let cs = MinMaxSize.fixed(c.tagBits);
      for (const f of c.fields) if (!f.implicit && !f.constraint) cs = cs.add(computeSize(f.type));
      if (!cs.equals(c.size)) c.size = cs;
      sz = sz.or(c.size);
    }
    if (!sz.equals(t.size)) {
      t.size = sz;
      changed = true;
    }
    return changed;
  });
  fixpoint(comps, (t) => {
    let res = pfxIsAll(t.beginsWith);
    for (const c of t.constructors) {
      let r = true;
      for (const f of c.fields) if (!f.implicit && !f.constraint) r &&= computeAnyBits(f.type);
      c.anyBits = r;
      res &&= r;
    }
    if (res === t.anyBits) return false;
    t.anyBits = res;
    return true;
  });
  for (const t of user) {
    if (!t.arity && t.constructors.length > 0 && t.size.isFixed() && t.anyBits) {
      t.isUnit = t.size.minBits === 0 && t.size.minRefs === 0;
      t.isBool = t.size.minBits === 1 && t.size.minRefs === 0;
    }
    for (const c of t.constructors) {
      c.prefixes = c.beginsWith.map(pfxParts);
      c.consTag = c.tagBits ? Number(c.tag >> BigInt(64 - c.tagBits)) : 0;
    }
    t.enumOrder = t.constructors
      .map((c, i) => ({ i, min: c.beginsWith[0] ?? 0n }))
      .sort((a, b) => (a.min < b.min ? -1 : a.min > b.min ? 1 : a.i - b.i))
      .map((x) => x.i);
  }
}
