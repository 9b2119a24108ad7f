// Every constructor ton-marker can decode, from the scheme itself: for each constructor of the parser types
// (InternalMsgBody0..11, ExternalMsgBody, ForwardPayload) a generator writes cells that are valid instances
// of it by its TL-B declaration (tag, implicit parameters bound from the result type, constraints, negated
// outputs such as Unary ~n and HmLabel ~l n, refs, n * X, conditional fields, dictionaries), and the body
// decoder must print that constructor. The generator is written here from the TL-B semantics and shares
// only the parsed scheme with the decoder, not its printer.
import { beginCell, type Builder, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { decodeBoc, decodeOpcode } from '../../src/api/v3/decode/index.ts';
import { PARSER_TYPES, typeNamed } from '../../src/api/v3/decode/scheme.ts';
import { Tp, type Constructor, type TypeDef, type TypeExpr } from '../../src/api/v3/decode/tlb/model.ts';

interface Closure {
  e: TypeExpr;
  env: Env;
}
type Env = (number | Closure | undefined)[];
type Arg = number | Closure | null;

class Retry extends Error {}

/** xorshift32: deterministic samples */
function rng(seed: number) {
  let x = seed || 1;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % Math.max(1, n);
  };
}

const bitLen = (n: number) => (n <= 0 ? 0 : 32 - Math.clz32(n));

class Budget extends Error {}

class Generator {
  private attempt = 0;
  private steps = 0;
  constructor(private readonly rand: (n: number) => number) {}

  nat(e: TypeExpr, env: Env): number {
    switch (e.tp) {
      case Tp.IntConst:
        return e.value;
      case Tp.Param: {
        const v = env[e.value];
        if (typeof v !== 'number') throw new Retry('unbound nat');
        return v;
      }
      case Tp.Add:
        return this.nat(e.args[0], env) + this.nat(e.args[1], env);
      case Tp.MulConst:
        return e.value * this.nat(e.args[0], env);
      case Tp.GetBit:
        return (this.nat(e.args[0], env) >>> this.nat(e.args[1], env)) & 1;
      default:
        throw new Error(`not a nat expression: ${Tp[e.tp]}`);
    }
  }

  /** Binds a result-type parameter (or a negated output) to a value: x, x + c, c, k * x. */
  bind(p: TypeExpr, v: Arg, env: Env): boolean {
    if (v === null) return true;
    if (typeof v !== 'number') {
      if (p.tp === Tp.Param) env[p.value] = v;
      return true;
    }
    switch (p.tp) {
      case Tp.Param: {
        const cur = env[p.value];
        if (typeof cur === 'number') return cur === v;
        env[p.value] = v;
        return true;
      }
      case Tp.IntConst:
        return p.value === v;
      case Tp.Add: {
        // one side known (a constant, or bound already), the other one solved: n = (~m) + l, n + 1
        const [a, b] = p.args;
        const known = (x: TypeExpr) => !x.negated && (x.tp === Tp.IntConst || (x.tp === Tp.Param && typeof env[x.value] === 'number'));
        if (known(b)) return v >= this.nat(b, env) && this.bind(a, v - this.nat(b, env), env);
        if (known(a)) return v >= this.nat(a, env) && this.bind(b, v - this.nat(a, env), env);
        throw new Retry('unsolvable sum');
      }
      case Tp.MulConst:
        return v % p.value === 0 && this.bind(p.args[0], v / p.value, env);
      default:
        throw new Error(`cannot bind ${Tp[p.tp]}`);
    }
  }

  /** bounds on the nat field being written, from the constraints that follow it (look-ahead) */
  private bounds: [number, number] = [0, Infinity];

  /** A value of a nat type within the look-ahead bounds: mostly tiny, sometimes up to the type's width (constraints retry). */
  private small(max: number): number {
    const [lo, hi] = this.bounds;
    const top = Math.min(max, hi);
    if (lo > top) throw new Retry('bounds');
    const cap = this.attempt < 3 ? 6 : this.attempt < 12 ? 40 : 1000;
    return lo + this.rand(Math.min(top - lo, cap) + 1);
  }

  /** Writes a value of type e; returns the values of its negated (output) arguments, or [v] for a nat type. */
  value(b: Builder, e: TypeExpr, env: Env, depth: number): number[] {
    if (depth > 64) throw new Retry('too deep');
    switch (e.tp) {
      case Tp.Param: {
        const c = env[e.value];
        if (!c || typeof c === 'number') throw new Error('unbound type parameter');
        return this.value(b, c.e, c.env, depth);
      }
      case Tp.Ref: {
        const child = beginCell();
        this.value(child, e.args[0], env, depth + 1);
        b.storeRef(child.endCell());
        return [];
      }
      case Tp.Tuple: {
        const n = this.nat(e.args[0], env);
        for (let i = 0; i < n; i++) this.value(b, e.args[1], env, depth);
        return [];
      }
      case Tp.CondType:
        if (this.nat(e.args[0], env)) this.value(b, e.args[1], env, depth);
        return [];
      case Tp.Apply:
        break;
      default:
        throw new Error(`cannot write ${Tp[e.tp]}`);
    }
    const t = e.type!;
    const arg0 = () => this.nat(e.args[0], env);
    switch (t.builtin) {
      case 'nat': {
        const v = this.small(0xffffffff);
        b.storeUint(v, 32);
        return [v];
      }
      case 'natwidth': {
        const n = arg0();
        const v = this.small(n >= 31 ? 0x7fffffff : 2 ** n - 1);
        b.storeUint(v, n);
        return [v];
      }
      case 'natless': {
        const n = arg0();
        if (n === 0) throw new Retry('#< 0');
        const v = this.small(n - 1);
        b.storeUint(v, bitLen(n - 1));
        return [v];
      }
      case 'natleq': {
        const n = arg0();
        const v = this.small(n);
        b.storeUint(v, bitLen(n));
        return [v];
      }
      case 'any':
      case 'cell':
        return [];
      case 'int':
      case 'uint':
      case 'bits': {
        const w = t.width ?? arg0();
        for (let i = 0; i < w; i++) b.storeBit(this.rand(2) === 1);
        return [];
      }
      case 'snake':
        b.storeBuffer(Buffer.from('hi ✓'));
        return [];
      case null: {
        const args: Arg[] = e.args.map((a) => (a.negated ? null : a.isNat ? this.nat(a, env) : { e: a, env }));
        const outs = this.type(b, t, args, depth + 1);
        let k = 0;
        for (const a of e.args) if (a.negated && !this.bind(a, outs[k++], env)) throw new Retry('output mismatch');
        return outs;
      }
      default:
        throw new Error(`type ${t.name} cannot be written`);
    }
  }

  /**
   * HmLabel ~n m, written directly: a label as long as the remaining key most of the time (so that a
   * dictionary does not branch at every bit: Hashmap 64 would have 2^64 leaves), shorter near the root so
   * that forks appear; the three label forms in turn.
   *   hml_short$0 {m:#} {n:#} len:(Unary ~n) {n <= m} s:(n * Bit)
   *   hml_long$10 {m:#} n:(#<= m) s:(n * Bit)
   *   hml_same$11 {m:#} v:Bit n:(#<= m)
   */
  private label(b: Builder, m: number, depth: number): number[] {
    const n = depth < 8 && this.rand(3) === 0 ? this.rand(m + 1) : m;
    const form = this.rand(3);
    const bits = () => {
      for (let i = 0; i < n; i++) b.storeBit(this.rand(2) === 1);
    };
    if (form === 0 && n <= 16) {
      b.storeBit(false);
      for (let i = 0; i < n; i++) b.storeBit(true);
      b.storeBit(false);
      bits();
    } else if (form === 1) {
      b.storeUint(3, 2).storeBit(this.rand(2) === 1).storeUint(n, bitLen(m));
    } else {
      b.storeUint(2, 2).storeUint(n, bitLen(m));
      bits();
    }
    return [n];
  }

  /** Writes one constructor of t (the forced one, else the first that can be written, in an order of this sample). */
  type(b: Builder, t: TypeDef, args: Arg[], depth: number, forced?: number): number[] {
    if (t.name === 'HmLabel' && typeof args[1] === 'number' && forced === undefined) return this.label(b, args[1], depth);
    let order = forced === undefined ? t.constructors.map((_, i) => i) : [forced];
    if (forced === undefined && depth < 6) order = order.map((i) => [this.rand(1000), i]).sort((x, y) => x[0] - y[0]).map((x) => x[1]);
    for (const i of order) {
      for (let attempt = 0; attempt < (depth ? 6 : 24); attempt++) {
        if (++this.steps > 20000) throw new Budget();
        const saved = this.attempt;
        this.attempt = attempt;
        try {
          const sub = beginCell();
          const outs = this.cons(sub, t.constructors[i], args, depth);
          if (outs === null) break; // parameters do not fit this constructor
          b.storeBuilder(sub);
          return outs;
        } catch (err) {
          if (!(err instanceof Retry) && !(err instanceof RangeError) && !/overflow|Too many|refs|bits/i.test(String(err))) throw err;
        } finally {
          this.attempt = saved;
        }
      }
    }
    throw new Retry(`no constructor of ${t.name} fits`);
  }

  cons(b: Builder, c: Constructor, args: Arg[], depth: number): number[] | null {
    const env: Env = new Array(c.fields.length);
    for (let i = 0; i < c.params.length; i++) if (!c.paramNegated[i] && !this.bind(c.params[i], args[i], env)) return null;
    if (c.tagBits) b.storeUint(c.tag >> BigInt(64 - c.tagBits), c.tagBits);
    for (const f of c.fields) {
      if (f.constraint) {
        const [x, y] = f.type.args;
        switch (f.type.type!.builtin) {
          case 'eq':
            if (x.negated) {
              if (!this.bind(x, this.nat(y, env), env)) throw new Retry('constraint');
            } else if (y.negated) {
              if (!this.bind(y, this.nat(x, env), env)) throw new Retry('constraint');
            } else if (this.nat(x, env) !== this.nat(y, env)) throw new Retry('constraint');
            break;
          case 'less':
            if (!(this.nat(x, env) < this.nat(y, env))) throw new Retry('constraint');
            break;
          case 'leq':
            if (!(this.nat(x, env) <= this.nat(y, env))) throw new Retry('constraint');
            break;
          default:
            break;
        }
      } else if (!f.implicit) {
        this.bounds = f.type.isNatSubtype ? lookAhead(c, f.idx) : [0, Infinity];
        const got = this.value(b, f.type, env, depth);
        this.bounds = [0, Infinity];
        if (f.type.isNatSubtype) env[f.idx] = got[0];
      }
    }
    return c.params.flatMap((p, i) => (c.paramNegated[i] ? [this.nat(p, env)] : []));
  }
}

/** The range the constraints of c put on field idx against constants: {x >= 6000}, {x <= 1022}, {x < 8}, {x = 3}. */
function lookAhead(c: Constructor, idx: number): [number, number] {
  let lo = 0;
  let hi = Infinity;
  for (const f of c.fields) {
    if (!f.constraint) continue;
    const [x, y] = f.type.args;
    const op = f.type.type!.builtin;
    const isField = (e: TypeExpr) => e.tp === Tp.Param && e.value === idx;
    if (isField(x) && y.tp === Tp.IntConst) {
      if (op === 'eq') [lo, hi] = [y.value, y.value];
      else if (op === 'less') hi = Math.min(hi, y.value - 1);
      else if (op === 'leq') hi = Math.min(hi, y.value);
    } else if (isField(y) && x.tp === Tp.IntConst) {
      if (op === 'eq') [lo, hi] = [x.value, x.value];
      else if (op === 'less') lo = Math.max(lo, x.value + 1);
      else if (op === 'leq') lo = Math.max(lo, x.value);
    }
  }
  return [lo, hi];
}

/**
 * Bodies ton-marker prints through a special parser (special.cpp), not by the parser type's own
 * constructor (`w5_*#... rest:Any`, `highload_v3_internal_request#ae42e5a4 rest:Any`): their instances come
 * from the type the special parser prints, with the nat parameters it counts from the refs.
 */
const SPECIAL: Record<string, { type: string; args: (r: (n: number) => number) => number[] }> = {
  w5_internal_signed_request: { type: 'W5MsgBody', args: (r) => [r(3), r(3)] },
  w5_external_signed_request: { type: 'W5MsgBody', args: (r) => [r(3), r(3)] },
  w5_extension_action_request: { type: 'W5MsgBody', args: (r) => [r(3), r(3)] },
  highload_v3_internal_request: { type: 'HighloadV3InternalRequest', args: (r) => [r(4)] },
};

/**
 * Constructors upstream cannot print, whatever the data: tlbc fetches `## n` fields into an `int`
 * (add_fetch_nat_field -> CellSlice::fetch_uint_to(n, int&), false for n > 32).
 */
const UNDECODABLE: Record<string, string> = {
  deploy_storage_contract: 'info:^TorrentInfo has root_hash:(## 256) and header_hash:(## 256)',
};

/** A cell that is an instance of constructor i of t, or null when none could be written. */
function instance(t: TypeDef, i: number, seed: number): Cell | null {
  const b = beginCell();
  const r = rng(seed);
  const special = SPECIAL[t.constructors[i].name ?? ''];
  try {
    if (special) {
      const st = typeNamed(special.type);
      new Generator(r).type(b, st, special.args(r), 0, st.constructors.findIndex((c) => c.name === t.constructors[i].name));
    } else new Generator(r).type(b, t, [], 0, i);
  } catch (err) {
    if (err instanceof Retry || err instanceof Budget) return null;
    throw err;
  }
  return b.endCell();
}

const SAMPLES = [1, 2, 3];

describe('every constructor of the parser types decodes from a generated instance', () => {
  // the constructors the decoder tries for a 32-bit opcode, in its order; the first whose data fits wins
  const order: { type: string; name: string; tag: number }[] = [];
  for (const tn of PARSER_TYPES) {
    const t = typeNamed(tn);
    for (const i of t.enumOrder) {
      const c = t.constructors[i];
      if (c.tagBits === 32) order.push({ type: tn, name: c.name!, tag: c.consTag });
    }
  }

  for (const tn of PARSER_TYPES) {
    it(tn, () => {
      const t = typeNamed(tn);
      const problems: string[] = [];
      t.constructors.forEach((c, i) => {
        const name = c.name!;
        // an earlier constructor with the same tag may take the data first (tags shared across types)
        const rivals = order.filter((o) => o.tag === c.consTag).map((o) => o.name);
        const shadowedBy = rivals.slice(0, rivals.indexOf(name));
        let self = 0;
        for (const seed of SAMPLES) {
          const cell = instance(t, i, seed * 7919 + i);
          if (!cell) {
            problems.push(`${name}: no instance`);
            continue;
          }
          const d = decodeBoc(cell.toBoc({ idx: false, crc32: false }).toString('base64'));
          if (UNDECODABLE[name]) {
            expect(d, `${name}: ${UNDECODABLE[name]}`).toEqual({ error: 'unknown: no parser succeeded' });
            continue;
          }
          if (c.tagBits !== 32) {
            // an untagged or 28-bit tagged constructor is tried only when its cons_tag (0, or the 28-bit
            // number) equals the body's first 32 bits (evaa_liquidate_fail_report, signed_2fa_external,
            // tonco_account_refund_me, coffee_staking_lock_forward_payload): random data names nothing or
            // another constructor
            expect(typeof (d['@type'] ?? d.error)).toBe('string');
            continue;
          }
          expect(rivals, `${name} is in the decoder's order`).toContain(name);
          if (d['@type'] === name) self++;
          else if (!shadowedBy.includes(d['@type'] as string)) problems.push(`${name} seed ${seed}: ${JSON.stringify(d).slice(0, 200)}`);
        }
        // every reachable constructor prints itself for some sample, unless an earlier one with its tag takes its data
        if (c.tagBits === 32 && !UNDECODABLE[name] && !shadowedBy.length && !self) problems.push(`${name}: never decoded as itself`);
      });
      expect(problems).toEqual([]);
    });
  }

  it('wallet externals (signature first): the cascade of special.cpp prints the wallet that fits the whole body', () => {
    // tried in this order when the first 32 bits name no opcode; each must consume the body entirely (empty_ext),
    // the v1-v4 ones get n = the body's number of refs
    const cascade: [string, boolean][] = [
      ['HighloadV3MsgBody', false], ['HighloadV2MsgBody', false], ['HighloadV1MsgBody', false],
      ['W4MsgBody', true], ['W3MsgBody', true], ['W1W2MsgBody', true],
    ];
    const problems: string[] = [];
    cascade.forEach(([tn, counted], k) => {
      const t = typeNamed(tn);
      const allowed = cascade.slice(0, k + 1).flatMap(([x]) => typeNamed(x).constructors.map((c) => c.name));
      let self = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const r = rng(seed * 104729 + k);
        const n = counted ? r(5) : -1;
        const b = beginCell();
        new Generator(r).type(b, t, counted ? [n] : [], 0);
        const cell = b.endCell();
        if (decodeOpcode(cell.beginParse().preloadUint(32)) !== 'unknown') continue; // a signature that looks like an opcode
        if (counted && cell.refs.length !== n) continue; // W4 plugin operations hold refs of their own
        const d = decodeBoc(cell.toBoc({ idx: false, crc32: false }).toString('base64'));
        if (d['@type'] === t.constructors[0].name) self++;
        else if (!allowed.includes(d['@type'] as string)) problems.push(`${tn} seed ${seed}: ${JSON.stringify(d).slice(0, 160)}`);
      }
      if (!self) problems.push(`${tn}: never decoded as itself`);
    });
    expect(problems).toEqual([]);
  });

  it('opcode names agree with the first constructor of each tag', () => {
    for (const tag of new Set(order.map((o) => o.tag))) expect(decodeOpcode(tag)).toBe(order.find((o) => o.tag === tag)!.name);
  });
});
