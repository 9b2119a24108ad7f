/**
 * What a network is called (/healthcheck, key plans): mainnet and testnet by their zero states, a devnet by the name
 * its directory's config gives it, anything else `custom`; a devnet is never called mainnet.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledConfigPath, networkNameOf, NetworkConfigError } from '../../src/source/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { writeLiteServerJson } from '../../src/devnet/liteserver/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-netname-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('networkNameOf', () => {
  it('no config: the --network name', () => {
    expect(networkNameOf({})).toBe('mainnet');
    expect(networkNameOf({ network: 'testnet' })).toBe('testnet');
  });

  it('a copy of a bundled config is that network, whatever --network says', () => {
    for (const n of ['mainnet', 'testnet'] as const) {
      const p = join(dir, `${n}.json`);
      copyFileSync(bundledConfigPath(n), p);
      expect(networkNameOf({ configPath: p, network: n === 'mainnet' ? 'testnet' : 'mainnet' })).toBe(n);
    }
  });

  it('a generated devnet (and a served one) is "devnet"', async () => {
    const d = join(dir, 'devnet');
    await generateDevnet(d, { seed: 7, blocks: 4, bulkWallets: 0 });
    expect(networkNameOf({ configPath: join(d, 'liteserver.json') })).toBe('devnet');
    mkdirSync(join(dir, 'served-dir'));
    writeLiteServerJson(join(dir, 'served-dir'), { host: '127.0.0.1', port: 1, publicKey: Buffer.alloc(32, 1) });
    expect(networkNameOf({ configPath: join(dir, 'served-dir', 'liteserver.json') })).toBe('devnet');
  });

  it('an unknown zero state without a name is "custom"; a bad or stolen name is refused, naming the field', () => {
    const text = readFileSync(join(dir, 'devnet', 'liteserver.json'), 'utf8');
    const p = join(dir, 'custom.json');
    writeFileSync(p, text.replace(/\s*"network_name": "devnet",/, ''));
    expect(networkNameOf({ configPath: p })).toBe('custom');
    for (const bad of ['"mainnet"', '"Main Net"', '7']) {
      writeFileSync(p, text.replace('"network_name": "devnet"', `"network_name": ${bad}`));
      expect(() => networkNameOf({ configPath: p })).toThrow(NetworkConfigError);
      expect(() => networkNameOf({ configPath: p })).toThrow(/network_name/);
    }
  });
});
