// TON_GATEWAY_EMULATION: 0 turns emulated traces off, 1 or unset leaves them on, anything else is refused by name.
import { describe, expect, it } from 'vitest';
import { emulationFromEnv } from '../../src/api/gateway.ts';

describe('TON_GATEWAY_EMULATION', () => {
  it('0 off, 1 or unset on, anything else refused naming the variable', () => {
    expect(emulationFromEnv({})).toBeUndefined();
    expect(emulationFromEnv({ TON_GATEWAY_EMULATION: '1' })).toBeUndefined();
    expect(emulationFromEnv({ TON_GATEWAY_EMULATION: '0' })).toBe(false);
    expect(() => emulationFromEnv({ TON_GATEWAY_EMULATION: 'off' })).toThrow('TON_GATEWAY_EMULATION must be 0 or 1, got "off"');
  });
});
