/**
 * A TL-B source parser that builds the same model as tlbc (crypto/tl/tlbc.cpp parse_constructor_def and
 * friends): implicit parameters and constraints in braces, named and anonymous fields, `^X`, `[ ... ]`
 * anonymous records, `(## n)`, `(#< n)`, `(#<= n)`, `x . b ? T`, `n * T`, negated `~x` outputs, and
 * result-type parameters that bind a constructor's implicit parameters (auto-negated as in tlbc).
 * Constructors are attached to their type in source order; a named constructor without a tag gets
 * tlbc's CRC32 tag of its canonical text.
 */
import { crc32 } from './crc32.ts';
import { ALL, Tp, type Builtin, type Constructor, type Field, type TypeDef, type TypeExpr } from './model.ts';
import { MinMaxSize } from './size.ts';

export class TlbSyntaxError extends Error {}

interface Tok {
  t: 'id' | 'num' | 'tag' | 'kw' | 'eof';
  s: string;
  line: number;
}

const SEPARATORS = new Set(['(', ')', '{', '}', ':', ';', '?', '[', ']', '^', '~', '.']);
const KEYWORDS = new Set(['+', '-', '*', '=', '_', '==', '<=', '>=', '!=', 'Type', 'EMPTY', ...SEPARATORS]);

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (src.startsWith('//', i)) {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (src.startsWith('/*', i)) {
      const e = src.indexOf('*/', i + 2);
      const stop = e < 0 ? n : e + 2;
      for (let k = i; k < stop; k++) if (src[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (SEPARATORS.has(c)) {
      out.push({ t: 'kw', s: c, line });
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && !/\s/.test(src[j]) && !SEPARATORS.has(src[j]) && src[j] !== '#' && src[j] !== '$' && !src.startsWith('//', j)) j++;
    // a word starting with # or $ runs on through # and $ (##, #<=, #0f8a7ea5)
    if (c === '#' || c === '$') while (j < n && !/\s/.test(src[j]) && !SEPARATORS.has(src[j])) j++;
    const w = src.slice(i, j);
    i = j;
    if (KEYWORDS.has(w)) out.push({ t: 'kw', s: w, line });
    else if (/^[0-9]/.test(w)) out.push({ t: 'num', s: w, line });
    else if ((w[0] === '#' || w[0] === '$') && specialValue(w) !== 0n) out.push({ t: 'tag', s: w, line });
    else out.push({ t: 'id', s: w, line });
  }
  out.push({ t: 'eof', s: '', line });
  return out;
}

/** tlbc's get_special_value: `#hex_` / `$bin_` -> bits left-aligned in 64 followed by a 1 bit; 0 = not a tag. */
export function specialValue(str: string): bigint {
  const n = str.length;
  if (n <= 1) return 0n;
  let val = 0n;
  let bits = 0;
  let i = 1;
  if (str[0] === '#') {
    for (; i < n; i++) {
      const ch = str[i];
      if (ch === '_') break;
      const d = parseInt(ch, 16);
      if (Number.isNaN(d) || !/[0-9a-fA-F]/.test(ch)) return 0n;
      if (bits > 60) return 0n;
      val |= BigInt(d) << BigInt(60 - bits);
      bits += 4;
    }
  } else if (str[0] === '$') {
    if (str[1] !== '_') {
      for (; i < n; i++) {
        const d = str.charCodeAt(i) - 48;
        if (d !== 0 && d !== 1) return 0n;
        if (bits > 63) return 0n;
        val |= BigInt(d) << BigInt(63 - bits);
        bits++;
      }
    }
  } else return 0n;
  if (i < n - 1) return 0n;
  if (i === n - 1 && bits) {
    // trailing '_': drop the zeros and the completion bit
    while (bits && !((val >> BigInt(64 - bits)) & 1n)) bits--;
    if (bits) bits--;
  }
  if (bits === 64) return 0n;
  return (val & ~((1n << BigInt(64 - bits)) - 1n) & ((1n << 64n) - 1n)) | (1n << BigInt(63 - bits));
}

export function tagBitsOf(tag: bigint): number {
  let tz = 0;
  while (tz < 64 && !((tag >> BigInt(tz)) & 1n)) tz++;
  return 63 - tz;
}

export interface Scheme {
  types: TypeDef[];
  byName: Map<string, TypeDef>;
}

function newType(s: Scheme, name: string | null, builtin: Builtin | null = null): TypeDef {
  const t: TypeDef = {
    idx: s.types.length, name, builtin, width: null, producesNat: false, arity: -1, constructors: [],
    size: MinMaxSize.impossible(), anyBits: false, beginsWith: [], isBool: false, isUnit: false,
    isEnum: builtin === null, isSimpleEnum: builtin === null, isInteger: 0, isAnon: false, enumOrder: [],
  };
  s.types.push(t);
  if (name !== null) s.byName.set(name, t);
  return t;
}

/** Builtin types, defined as tlbc's define_builtins does (sizes, any_bits, integer signedness). */
function builtinType(s: Scheme, name: string): TypeDef | null {
  const have = s.byName.get(name);
  if (have) return have;
  const mk = (b: Builtin, arity: number, size: MinMaxSize, anyBits: boolean, isInt = 0, producesNat = false, width: number | null = null) => {
    const t = newType(s, name, b);
    t.arity = arity;
    t.size = size;
    t.anyBits = anyBits;
    t.isInteger = isInt;
    t.producesNat = producesNat;
    t.width = width;
    t.beginsWith = [ALL];
    return t;
  };
  switch (name) {
    case '#': return mk('nat', 0, MinMaxSize.fixed(32), true, 0, true);
    case '##': return mk('natwidth', 1, MinMaxSize.range(0, 32), true, 0, true);
    case '#<': return mk('natless', 1, MinMaxSize.range(0, 32), false, 0, true);
    case '#<=': return mk('natleq', 1, MinMaxSize.range(0, 32), false, 0, true);
    case 'Any': return mk('any', 0, MinMaxSize.any(), false);
    case 'Cell': return mk('cell', 0, MinMaxSize.any(), false);
    case 'int': return mk('int', 1, MinMaxSize.range(0, 257), true, -1);
    case 'uint': return mk('uint', 1, MinMaxSize.range(0, 256), true, 1);
    case 'bits': return mk('bits', 1, MinMaxSize.range(0, 1023), true, 0);
    case 'SnakeString': return mk('snake', 0, MinMaxSize.any(), true);
    case '=': return mk('eq', 2, MinMaxSize.fixed(0), true);
    case '<': return mk('less', 2, MinMaxSize.fixed(0), true);
    case '<=': return mk('leq', 2, MinMaxSize.fixed(0), true);
  }
  const m = /^(u?int|bits)([1-9][0-9]*)$/.exec(name);
  if (m) {
    const w = Number(m[2]);
    if (m[1] === 'int' && w <= 257) return mk('int', 0, MinMaxSize.fixed(w), true, -1, false, w);
    if (m[1] === 'uint' && w <= 256) return mk('uint', 0, MinMaxSize.fixed(w), true, 1, false, w);
    if (m[1] === 'bits' && w <= 1023) return mk('bits', 0, MinMaxSize.fixed(w), true, 0, false, w);
  }
  return null;
}

function expr(tp: Tp, value = 0, args: TypeExpr[] = [], type: TypeDef | null = null): TypeExpr {
  return { tp, value, args, type, isNat: false, isNatSubtype: false, negated: false, tchkOnly: false };
}

function isUpper(name: string): boolean {
  const c = name.replace(/^!/, '')[0] ?? '';
  return c >= 'A' && c <= 'Z';
}

/** tlbc's TypeExpr::close for applications: arity, nat-subtype and negation flags. */
function closeApply(e: TypeExpr): void {
  if (e.tp !== Tp.Apply || !e.type) return;
  const t = e.type;
  if (t.arity < 0) t.arity = e.args.length;
  else if (t.arity !== e.args.length) throw new TlbSyntaxError(`type ${t.name} applied with ${e.args.length} arguments, expected ${t.arity}`);
  e.isNatSubtype = t.producesNat;
  const neg = e.args.some((a) => a.negated);
  e.negated = neg;
  e.tchkOnly = neg;
}

class Parser {
  private i = 0;
  constructor(
    private readonly toks: Tok[],
    private readonly s: Scheme,
  ) {}

  private get cur(): Tok {
    return this.toks[this.i];
  }
  private peek(): Tok {
    return this.toks[this.i + 1];
  }
  private is(s: string): boolean {
    return this.cur.t === 'kw' && this.cur.s === s;
  }
  private expect(s: string): void {
    if (!this.is(s)) throw new TlbSyntaxError(`line ${this.cur.line}: expected '${s}', got '${this.cur.s}'`);
    this.i++;
  }

  parseAll(): void {
    while (this.cur.t !== 'eof') this.constructorDef();
  }

  private lookupType(name: string): TypeDef {
    const t = builtinType(this.s, name) ?? this.s.byName.get(name);
    if (t) return t;
    if (!isUpper(name)) throw new TlbSyntaxError(`line ${this.cur.line}: unknown identifier ${name}`);
    return newType(this.s, name);
  }

  private constructorDef(): void {
    let name: string | null = null;
    if (this.is('_')) this.i++;
    else if (this.cur.t === 'id') {
      name = this.cur.s;
      this.i++;
    } else throw new TlbSyntaxError(`line ${this.cur.line}: constructor name expected, got '${this.cur.s}'`);
    let tag = 0n;
    if (this.cur.t === 'tag') {
      tag = specialValue(this.cur.s);
      this.i++;
    }
    const fields: Field[] = [];
    this.fieldList(fields, '=');
    this.expect('=');
    if (this.cur.t !== 'id' || !isUpper(this.cur.s)) throw new TlbSyntaxError(`line ${this.cur.line}: type name expected`);
    const type = this.lookupType(this.cur.s);
    this.i++;
    const params: TypeExpr[] = [];
    const paramNegated: boolean[] = [];
    while (!this.is(';')) {
      const neg = this.is('~');
      if (neg) this.i++;
      const p = this.term(fields, !neg);
      closeApply(p);
      params.push(p);
      paramNegated.push(neg);
    }
    this.expect(';');
    const c: Constructor = {
      name, tag, tagBits: 0, fields, params, paramNegated, typeDef: type, isEnum: false,
      isSpecial: name !== null && name.startsWith('!'), beginsWith: [], size: MinMaxSize.impossible(), anyBits: false,
      prefixes: [], consTag: 0,
    };
    bindConstructor(type, c);
  }

  /** fields until `=` or `]` */
  private fieldList(fields: Field[], end: '=' | ']'): void {
    while (!this.is(end)) {
      if (this.is('{')) {
        this.i++;
        if (this.cur.t === 'id' && this.peek().t === 'kw' && this.peek().s === ':') {
          const name = this.cur.s;
          this.i += 2;
          let type: TypeExpr;
          if (this.is('Type')) type = expr(Tp.Type);
          else if (this.cur.t === 'id' && this.cur.s === '#') {
            type = expr(Tp.Apply, 0, [], this.lookupType('#'));
            type.isNatSubtype = true;
          } else throw new TlbSyntaxError(`line ${this.cur.line}: Type or # expected`);
          this.i++;
          fields.push({ idx: fields.length, name, implicit: true, constraint: false, type, known: false });
        } else {
          const type = this.expr10(fields);
          closeApply(type);
          fields.push({ idx: fields.length, name: null, implicit: true, constraint: true, type, known: true });
        }
        this.expect('}');
      } else {
        let name: string | null = null;
        if ((this.cur.t === 'id' || this.is('_')) && this.peek().t === 'kw' && this.peek().s === ':') {
          name = this.is('_') ? null : this.cur.s;
          this.i += 2;
        }
        const type = this.expr95(fields);
        closeApply(type);
        fields.push({ idx: fields.length, name, implicit: false, constraint: false, type, known: true });
      }
    }
  }

  /** E = E | E <= E | E >= E | E < E | E > E */
  private expr10(f: Field[]): TypeExpr {
    const a = this.expr20(f);
    const op = this.cur.t === 'kw' || this.cur.t === 'id' ? this.cur.s : '';
    if (!['=', '<', '>', '<=', '>='].includes(op)) return a;
    this.i++;
    const b = this.expr20(f);
    closeApply(a);
    closeApply(b);
    const [x, y, name] = op === '>' ? [b, a, '<'] : op === '>=' ? [b, a, '<='] : [a, b, op];
    const e = expr(Tp.Apply, 0, [x, y], this.lookupType(name));
    closeApply(e);
    return e;
  }

  private expr20(f: Field[]): TypeExpr {
    let e = this.expr30(f);
    while (this.is('+')) {
      this.i++;
      const b = this.expr30(f);
      closeApply(e);
      closeApply(b);
      const neg = e.negated || b.negated;
      e = expr(Tp.Add, 0, [e, b]);
      e.isNat = true;
      e.negated = neg;
    }
    return e;
  }

  private expr30(f: Field[]): TypeExpr {
    let e = this.expr90(f);
    while (this.is('*')) {
      this.i++;
      const b = this.expr90(f);
      closeApply(e);
      closeApply(b);
      if (b.isNat) {
        let [x, k] = [e, b];
        if (k.tp !== Tp.IntConst) [x, k] = [k, x];
        if (x.tp === Tp.IntConst) {
          e = expr(Tp.IntConst, x.value * k.value);
          e.isNat = true;
        } else if (k.value === 0) e = k;
        else {
          const m = expr(Tp.MulConst, k.value, [x]);
          m.isNat = true;
          m.negated = x.negated;
          e = m;
        }
      } else e = expr(Tp.Tuple, 0, [e, b]);
    }
    return e;
  }

  /** application: E E ... */
  private expr90(f: Field[]): TypeExpr {
    const e = this.expr95(f);
    while (this.cur.t === 'id' || this.cur.t === 'num' || this.is('(') || this.is('~') || this.is('^') || this.is('[')) {
      const a = this.expr95(f);
      closeApply(a);
      if (e.tp !== Tp.Apply) throw new TlbSyntaxError(`line ${this.cur.line}: cannot apply one expression to another`);
      e.args.push(a);
    }
    return e;
  }

  /** E ? T */
  private expr95(f: Field[]): TypeExpr {
    const e = this.expr97(f);
    if (!this.is('?')) return e;
    this.i++;
    const t = this.term(f, false);
    closeApply(e);
    closeApply(t);
    return expr(Tp.CondType, 0, [e, t]);
  }

  /** E . E */
  private expr97(f: Field[]): TypeExpr {
    const e = this.term(f, false);
    if (!this.is('.')) return e;
    this.i++;
    const b = this.term(f, false);
    const g = expr(Tp.GetBit, 0, [e, b]);
    g.isNat = true;
    return g;
  }

  /**
   * ( E ) | [ fields ] | ^T | num | ~id | id. `autoNegate`: a result-type parameter, where a reference to a
   * not yet bound implicit parameter binds it (tlbc's mode 4).
   */
  private term(f: Field[], autoNegate: boolean): TypeExpr {
    if (this.is('(')) {
      this.i++;
      const e = autoNegate ? this.withAutoNegate(() => this.expr10(f)) : this.expr10(f);
      this.expect(')');
      return e;
    }
    if (this.cur.t === 'num') {
      const e = expr(Tp.IntConst, Number(this.cur.s));
      e.isNat = true;
      this.i++;
      return e;
    }
    if (this.is('[')) {
      this.i++;
      const t = this.anonymous();
      this.expect(']');
      return expr(Tp.Apply, 0, [], t);
    }
    if (this.is('^')) {
      this.i++;
      const inner = this.term(f, false);
      closeApply(inner);
      return expr(Tp.Ref, 0, [inner]);
    }
    let negate = false;
    if (this.is('~')) {
      this.i++;
      negate = true;
    }
    if (this.cur.t !== 'id') throw new TlbSyntaxError(`line ${this.cur.line}: identifier expected, got '${this.cur.s}'`);
    const name = this.cur.s;
    this.i++;
    const local = findField(f, name);
    if (local) {
      const e = expr(Tp.Param, local.idx);
      e.isNat = local.type.isNatSubtype;
      if ((autoNegate || this.autoNeg) && !local.known) {
        negate = true;
        local.known = true;
      }
      e.negated = negate;
      return e;
    }
    if (negate) throw new TlbSyntaxError(`line ${this.cur.line}: cannot negate a type`);
    const t = this.lookupType(name);
    const e = expr(Tp.Apply, 0, [], t);
    e.isNatSubtype = t.producesNat && t.arity === 0;
    return e;
  }

  private autoNeg = false;
  private withAutoNegate<T>(fn: () => T): T {
    const was = this.autoNeg;
    this.autoNeg = true;
    try {
      return fn();
    } finally {
      this.autoNeg = was;
    }
  }

  /** `[ fields ]`: an anonymous type with one anonymous constructor (its own field scope). */
  private anonymous(): TypeDef {
    const was = this.autoNeg;
    this.autoNeg = false;
    const fields: Field[] = [];
    this.fieldList(fields, ']');
    this.autoNeg = was;
    const t = newType(this.s, null);
    t.isAnon = true;
    const c: Constructor = {
      name: null, tag: ALL, tagBits: 0, fields, params: [], paramNegated: [], typeDef: t, isEnum: false,
      isSpecial: false, beginsWith: [], size: MinMaxSize.impossible(), anyBits: false, prefixes: [], consTag: 0,
    };
    bindConstructor(t, c, true);
    return t;
  }
}

function findField(f: Field[], name: string): Field | undefined {
  for (let i = f.length - 1; i >= 0; i--) if (f[i].name === name) return f[i];
  return undefined;
}

function bindConstructor(type: TypeDef, c: Constructor, fixedTag = false): void {
  if (type.arity < 0) type.arity = c.params.length;
  else if (type.arity !== c.params.length) throw new TlbSyntaxError(`type ${type.name} redefined with another arity`);
  const explicit = c.fields.filter((x) => !x.implicit && !x.constraint).length;
  const trueParams = c.paramNegated.filter((n) => !n).length;
  c.isEnum = explicit === 0;
  if (c.name !== null && type.constructors.some((x) => x.name === c.name)) throw new TlbSyntaxError(`constructor ${type.name}::${c.name} redefined`);
  if (!fixedTag) {
    // check_assign_tag: a named constructor without a tag gets its CRC32 tag, an anonymous one the empty tag
    if (c.tag === 0n) c.tag = c.name !== null ? computeTag(c) : ALL;
  }
  c.tagBits = tagBitsOf(c.tag);
  type.isEnum &&= c.isEnum;
  type.isSimpleEnum &&= c.isEnum && trueParams === 0;
  type.constructors.push(c);
}

// ---------------------------------------------------------------- canonical text and CRC tag (Constructor::show mode 10)

function showExpr(e: TypeExpr, c: { fields: Field[] }, mode: number): string {
  switch (e.tp) {
    case Tp.Type:
      return 'Type';
    case Tp.Param: {
      const f = c.fields[e.value];
      return (e.negated !== Boolean(mode & 1) ? '~' : '') + (f?.name ?? `_${e.value + 1}`);
    }
    case Tp.Apply: {
      const t = e.type!;
      if (!e.args.length && t.name === null && t.constructors.length === 1 && t.constructors[0].name === null && t.constructors[0].tag === ALL) {
        return showConstructor(t.constructors[0], mode | 4);
      }
      return [t.name ?? `TYPE_${t.idx}`, ...e.args.map((a) => showExpr(a, c, mode))].join(' ');
    }
    case Tp.Add:
      return `${showExpr(e.args[0], c, mode)} + ${showExpr(e.args[1], c, mode)}`;
    case Tp.GetBit:
      return `${showExpr(e.args[0], c, mode)}.${showExpr(e.args[1], c, mode)}`;
    case Tp.IntConst:
      return String(e.value);
    case Tp.MulConst:
      return `${e.value} * ${showExpr(e.args[0], c, mode)}`;
    case Tp.Tuple:
      return `${showExpr(e.args[0], c, mode)} * ${showExpr(e.args[1], c, mode)}`;
    case Tp.CondType:
      return `${showExpr(e.args[0], c, mode)}?${showExpr(e.args[1], c, mode)}`;
    case Tp.Ref:
      return `^${showExpr(e.args[0], c, mode)}`;
  }
}

/** mode 10 (no tag, no braces, no parentheses); mode | 4 prints an anonymous record as `[ ... ]`. */
function showConstructor(c: Constructor, mode: number): string {
  let s = mode & 4 ? '[' : (c.name ?? '');
  for (const f of c.fields) {
    s += ' ';
    if (f.name) s += `${f.name}:`;
    s += showExpr(f.type, c, mode & ~1);
  }
  if (mode & 4) return `${s} ]`;
  s += ` = ${c.typeDef.name ?? `TYPE_${c.typeDef.idx}`}`;
  for (const p of c.params) s += ` ${showExpr(p, c, mode | 1)}`;
  return s;
}

function computeTag(c: Constructor): bigint {
  const crc = crc32(Buffer.from(showConstructor(c, 10), 'utf8'));
  return (BigInt(crc) << 32n) | 0x80000000n;
}

export function canonicalText(c: Constructor): string {
  return showConstructor(c, 10);
}

export function parseScheme(src: string): Scheme {
  const s: Scheme = { types: [], byName: new Map() };
  new Parser(tokenize(src), s).parseAll();
  return s;
}
