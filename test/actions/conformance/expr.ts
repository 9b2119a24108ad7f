/**
 * A tiny evaluator for the Jinja conditions used in toncenter's test cases
 * (`{{ value.a.b == 'x' and value.c != None }}`): paths, literals, == != < > <= >=, and/or/not,
 * `in`, parentheses and the `length` filter.
 */
export class ExprError extends Error {}

type Tok = { t: 'num' | 'str' | 'id' | 'op'; v: string };

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    const two = src.slice(i, i + 2);
    if (['==', '!=', '<=', '>='].includes(two)) { out.push({ t: 'op', v: two }); i += 2; continue; }
    if ('<>()|.,[]'.includes(c)) { out.push({ t: 'op', v: c }); i++; continue; }
    if (c === "'" || c === '"') {
      const j = src.indexOf(c, i + 1);
      if (j < 0) throw new ExprError(`unterminated string in ${src}`);
      out.push({ t: 'str', v: src.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    const num = /^-?(0x[0-9a-fA-F]+|\d+)/.exec(src.slice(i));
    if (num) { out.push({ t: 'num', v: num[0] }); i += num[0].length; continue; }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) { out.push({ t: 'id', v: id[0] }); i += id[0].length; continue; }
    throw new ExprError(`unexpected ${JSON.stringify(c)} in ${src}`);
  }
  return out;
}

const isNum = (x: unknown): x is number | bigint => typeof x === 'number' || typeof x === 'bigint';

/** Python-like equality: numbers compare by value whatever their JS type. */
export function pyEq(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (isNum(a) && isNum(b)) return BigInt(a) === BigInt(b);
  if (typeof a === 'boolean' && isNum(b)) return BigInt(a ? 1 : 0) === BigInt(b);
  if (typeof b === 'boolean' && isNum(a)) return BigInt(b ? 1 : 0) === BigInt(a);
  return a === b;
}

function cmp(a: unknown, b: unknown): number {
  if (isNum(a) && isNum(b)) {
    const x = BigInt(a), y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new ExprError(`cannot compare ${String(a)} and ${String(b)}`);
}

function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'bigint') return v !== 0n;
  return Boolean(v);
}

export function evaluate(src: string, scope: Record<string, unknown>): unknown {
  const toks = lex(src);
  let p = 0;
  const peek = () => toks[p];
  const eat = (v?: string) => {
    const t = toks[p];
    if (!t || (v !== undefined && t.v !== v)) throw new ExprError(`expected ${v ?? 'token'} in ${src}`);
    p++;
    return t;
  };
  const orExpr = (): unknown => {
    let l = andExpr();
    while (peek()?.t === 'id' && peek().v === 'or') { eat(); const r = andExpr(); l = truthy(l) || truthy(r); }
    return l;
  };
  const andExpr = (): unknown => {
    let l = notExpr();
    while (peek()?.t === 'id' && peek().v === 'and') { eat(); const r = notExpr(); l = truthy(l) && truthy(r); }
    return l;
  };
  const notExpr = (): unknown => {
    if (peek()?.t === 'id' && peek().v === 'not') { eat(); return !truthy(notExpr()); }
    return cmpExpr();
  };
  const cmpExpr = (): unknown => {
    const l = unary();
    const t = peek();
    if (t && t.t === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(t.v)) {
      eat();
      const r = unary();
      switch (t.v) {
        case '==': return pyEq(l, r);
        case '!=': return !pyEq(l, r);
        case '<': return cmp(l, r) < 0;
        case '>': return cmp(l, r) > 0;
        case '<=': return cmp(l, r) <= 0;
        default: return cmp(l, r) >= 0;
      }
    }
    if (t && t.t === 'id' && t.v === 'in') {
      eat();
      const r = unary();
      if (Array.isArray(r)) return r.some((x) => pyEq(x, l));
      if (typeof r === 'string' && typeof l === 'string') return r.includes(l);
      return false;
    }
    return l;
  };
  const unary = (): unknown => {
    let v = primary();
    while (peek()?.v === '|') {
      eat();
      const f = eat().v;
      if (f === 'length') v = v === null || v === undefined ? 0 : (v as { length: number }).length;
      else if (f === 'lower') v = String(v).toLowerCase();
      else if (f === 'upper') v = String(v).toUpperCase();
      else throw new ExprError(`unsupported filter ${f}`);
    }
    return v;
  };
  const primary = (): unknown => {
    const t = eat();
    if (t.t === 'num') return BigInt(t.v);
    if (t.t === 'str') return t.v;
    if (t.t === 'op' && t.v === '(') { const v = orExpr(); eat(')'); return v; }
    if (t.t === 'op' && t.v === '[') {
      const items: unknown[] = [];
      while (peek()?.v !== ']') { items.push(orExpr()); if (peek()?.v === ',') eat(); }
      eat(']');
      return items;
    }
    if (t.t === 'id') {
      if (t.v === 'None' || t.v === 'none') return null;
      if (t.v === 'True' || t.v === 'true') return true;
      if (t.v === 'False' || t.v === 'false') return false;
      let v: unknown = scope[t.v];
      while (peek()?.v === '.' || peek()?.v === '[') {
        if (eat().v === '.') {
          const k = eat().v;
          v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
        } else {
          const idx = orExpr();
          eat(']');
          v = Array.isArray(v) ? v[Number(idx)] : v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[String(idx)] : undefined;
        }
      }
      return v === undefined ? null : v;
    }
    throw new ExprError(`unexpected ${t.v} in ${src}`);
  };
  const v = orExpr();
  if (p !== toks.length) throw new ExprError(`trailing tokens in ${src}`);
  return v;
}

/** `{{ expr }}` template -> truthiness; any other string compares by equality. */
export function evalTemplate(template: string, value: unknown): boolean {
  const m = /^\{\{([\s\S]*)\}\}$/.exec(template.trim());
  if (!m) return pyEq(value, template);
  return truthy(evaluate(m[1], { value }));
}
