// The comparison semantics of toncenter's YAML tests, as reimplemented by the conformance runner.
import { describe, expect, it } from 'vitest';
import { checkEntry, checkValue, getPath, Mismatch } from './conformance/check.ts';
import { evalTemplate } from './conformance/expr.ts';

const fails = (f: () => void) => expect(f).toThrow(Mismatch);

describe('checkValue', () => {
  it('compares lists unordered but with equal length', () => {
    checkValue(['b', 'a'], ['a', 'b'], 'x');
    fails(() => checkValue(['a', 'b', 'c'], ['a', 'b'], 'x'));
    fails(() => checkValue(['a', 'c'], ['a', 'b'], 'x'));
  });
  it('compares only the listed keys of objects, which must exist', () => {
    checkValue({ a: 1n, b: 2n }, { a: 1n }, 'x');
    fails(() => checkValue({ a: 1n }, { c: null }, 'x'));
  });
  it('compares numbers by value whatever their JS type', () => {
    checkValue(2630055735n, 2630055735n, 'x');
    checkValue(49n, 49, 'x');
    fails(() => checkValue('1', 1n, 'x'));
  });
  it('evaluates {{ }} conditions on the actual value', () => {
    checkValue([], '{{ value|length == 0 }}', 'x');
    fails(() => checkValue(['a'], '{{ value|length == 0 }}', 'x'));
  });
});

describe('selectors and paths', () => {
  it('evaluates the selector forms used in the cases', () => {
    const a = { opcode: 0x0490f09b, start_lt: 51527776000010n, jetton_swap_data: { dex: 'coffee' }, destination: null, ancestor_type: [] };
    expect(evalTemplate("{{ value.jetton_swap_data.dex == 'coffee' }}", a)).toBe(true);
    expect(evalTemplate('{{ value.opcode == 0x0490f09b and value.start_lt == 51527776000010 }}', a)).toBe(true);
    expect(evalTemplate('{{ value.destination != None }}', a)).toBe(false);
    expect(evalTemplate('{{ value.ancestor_type == None or value.ancestor_type|length == 0 }}', a)).toBe(true);
  });
  it('reads dotted paths with indexes', () => {
    expect(getPath({ d: { l: [{ x: 5n }] } }, 'd.l[0].x')).toBe(5n);
    expect(getPath({ d: {} }, 'd.l[3].x')).toBeNull();
  });
  it('requires exactly one candidate of the type unless a selector picks one', () => {
    const items = [{ type: 't', v: 1n }, { type: 't', v: 2n }];
    const typeOf = (x: unknown) => (x as { type: string }).type;
    fails(() => checkEntry('action', { type: 't' }, items, typeOf));
    checkEntry('action', { type: 't', selector: '{{ value.v == 2 }}', values: { v: 2n } }, items, typeOf);
    fails(() => checkEntry('action', { type: 'u' }, items, typeOf));
  });
});
