/**
 * The pieces under the liteserver: TL codec (real liteserver answers from the fixtures), the devnet
 * directory loader, liteserver.json, --live release of the acton chain, tcp.ping, and the CLI command.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync as rf } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { blockFileName, ChainLoadError, loadChainDir, loadRecordedChain, parseBlock, shardHex } from '../../src/devnet/chain/index.ts';
import { intToIp, ipToInt, readLiteServerJson, seedFromText, serverKeyFromSeed, startLiteServer, writeLiteServerJson } from '../../src/devnet/liteserver/index.ts';
import { liteApi, parseTlSchema, TlError } from '../../src/tl/index.ts';
import { ACTON, connect, FIX, IDS, RawClient, SHARD } from './liteserver-helpers.ts';

const hex = (b: Buffer) => b.toString('hex');
const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) rmSync(d, { recursive: true, force: true });
});

/** A devnet directory holding the acton recorded chain, as the generator would lay it out (no states). */
function actonDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ls-dir-'));
  tmp.push(dir);
  mkdirSync(join(dir, 'blocks'));
  const order = [ACTON[2], ACTON[0], ACTON[3], ACTON[1]];
  const blocks = order.map((f) => {
    const b = parseBlock(readFileSync(f));
    copyFileSync(f, join(dir, 'blocks', blockFileName(b.id.workchain, b.id.shard, b.id.seqno)));
    return { workchain: b.id.workchain, shard: shardHex(b.id.shard), seqno: b.id.seqno, root_hash: hex(b.id.rootHash), file_hash: hex(b.id.fileHash) };
  });
  writeFileSync(join(dir, 'chain.json'), JSON.stringify({ blocks, transactions: [] }));
  return dir;
}

describe('TL', () => {
  it('decodes and re-encodes real liteserver answers byte for byte', () => {
    const mi = readFileSync(join(FIX, 'liteserver', 'mainnet-liteServer.masterchainInfo-mc26309435.tl.bin'));
    const o = liteApi.decode(mi);
    expect(o._).toBe('liteServer.masterchainInfo');
    expect((o.last as { seqno: number }).seqno).toBe(26309435);
    expect(liteApi.encode(o).equals(mi)).toBe(true);
    const ci = readFileSync(join(FIX, 'liteserver', 'mainnet-liteServer.configInfo-mc26309435.tl.bin'));
    const c = liteApi.decode(ci);
    expect(c._).toBe('liteServer.configInfo');
    expect(liteApi.encode(c).equals(ci)).toBe(true);
  });

  it('constructor ids computed from the schema lines match the ids ton-lite-client sends', () => {
    const src = rf(join(import.meta.dirname, '..', '..', 'node_modules', 'ton-lite-client', 'dist', 'schema.js'), 'utf8');
    const names = ['liteServer.getMasterchainInfo', 'liteServer.lookupBlock', 'liteServer.listBlockTransactions', 'liteServer.runMethodResult', 'liteServer.transactionList', 'liteServer.error', 'adnl.message.query', 'liteServer.query', 'liteServer.waitMasterchainSeqno', 'liteServer.transactionId'];
    for (const n of names) expect(src.includes(`(${liteApi.ctor(n).id})`), n).toBe(true);
    expect(liteApi.ctor('tcp.ping').id >>> 0).toBe(0x4d082b9a);
    expect(liteApi.ctor('boolTrue').id >>> 0).toBe(0x997275b5);
  });

  it('rejects truncated data and unknown constructors with TlError', () => {
    expect(() => liteApi.decode(Buffer.from([1, 2, 3]))).toThrow(TlError);
    expect(() => liteApi.decode(Buffer.from([1, 2, 3, 4]))).toThrow('unknown TL constructor id 0x04030201');
    const s = parseTlSchema('foo a:int = Foo;\n---functions---\nbar x:long = Foo;');
    expect(s.byName.get('bar')!.isFunction).toBe(true);
  });
});

describe('liteserver.json and keys', () => {
  it('ip as signed int32, round trip of the file, update in place', () => {
    expect(ipToInt('127.0.0.1')).toBe(2130706433);
    expect(ipToInt('200.1.2.3')).toBeLessThan(0);
    expect(intToIp(ipToInt('200.1.2.3'))).toBe('200.1.2.3');
    const dir = mkdtempSync(join(tmpdir(), 'ls-json-'));
    tmp.push(dir);
    const key = serverKeyFromSeed(seedFromText('x'));
    writeLiteServerJson(dir, { host: '127.0.0.1', port: 1234, publicKey: key.publicKey }, { zeroState: { workchain: -1, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) } });
    expect(readLiteServerJson(dir)).toEqual([{ host: '127.0.0.1', port: 1234, publicKey: key.publicKey }]);
    const before = readFileSync(join(dir, 'liteserver.json'), 'utf8');
    expect(before).toContain('"shard": -9223372036854775808');
    writeLiteServerJson(dir, { host: '127.0.0.1', port: 4321, publicKey: key.publicKey });
    const after = readFileSync(join(dir, 'liteserver.json'), 'utf8');
    expect(readLiteServerJson(dir)[0].port).toBe(4321);
    expect(after.replace('4321', '1234')).toBe(before);
  });

  it('the key id is sha256 of TL pub.ed25519', () => {
    const key = serverKeyFromSeed(Buffer.alloc(32, 1));
    const expected = createHash('sha256').update(Buffer.concat([Buffer.from('c6b41348', 'hex'), key.publicKey])).digest();
    expect(hex(key.keyId)).toBe(hex(expected));
    // ed25519 public key of seed 0x01*32 (RFC 8032 style derivation, via node:crypto)
    expect(key.publicKey).toHaveLength(32);
    expect(() => serverKeyFromSeed(Buffer.alloc(5))).toThrow('32 bytes');
  });
});

describe('devnet directory loader', () => {
  it('loads DIR/chain.json + blocks/ and serves the same tip as the recorded loader', async () => {
    const chain = loadChainDir(actonDir());
    expect(hex(chain.lastMasterchain().id.rootHash)).toBe(IDS.mc2.root);
    expect(chain.shardBlocks(0, 0x8000000000000000n).map((b) => b.id.seqno)).toEqual([1, 2]);
    expect(chain.getState(chain.lastMasterchain().id)).toBeUndefined();
  });

  it('reports a missing chain.json, a missing block file and a wrong file hash clearly', () => {
    const empty = mkdtempSync(join(tmpdir(), 'ls-empty-'));
    tmp.push(empty);
    expect(() => loadChainDir(empty)).toThrow(/chain\.json not found/);
    const dir = actonDir();
    const json = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8'));
    json.blocks[0].file_hash = '00'.repeat(32);
    writeFileSync(join(dir, 'chain.json'), JSON.stringify(json));
    expect(() => loadChainDir(dir)).toThrow(ChainLoadError);
    expect(() => loadChainDir(dir)).toThrow(/file hash \(sha256\) b88cedf0.* differs from chain\.json 0000/);
    json.blocks[0].file_hash = IDS.wc1.file;
    json.blocks[0].seqno = 7;
    writeFileSync(join(dir, 'chain.json'), JSON.stringify(json));
    expect(() => loadChainDir(dir)).toThrow(/0_8000000000000000_7\.boc not found/);
  });

  it('a recorded shard block without its masterchain block is refused', () => {
    expect(() => loadRecordedChain([ACTON[0], ACTON[2], ACTON[3]])).toThrow('shard block 0:8000000000000000:2 is not committed by any masterchain block given');
    expect(() => loadRecordedChain([Buffer.from('junk')])).toThrow(/not a BoC/);
  });
});

describe('--live release and tcp.ping', () => {
  it('the served tip advances one masterchain block at a time; shard blocks appear with the block committing them', async () => {
    const chain = loadRecordedChain(ACTON, { visibleMc: 1 });
    const server = await startLiteServer({ source: chain, key: seedFromText('live'), port: 0 });
    const { client, engine } = await connect(server.port, server.publicKey);
    const raw = await RawClient.open(server.port, server.publicKey);
    try {
      expect((await client.getMasterchainInfo()).last.seqno).toBe(1);
      await expect(client.lookupBlockByID({ workchain: 0, shard: SHARD, seqno: 2 })).rejects.toThrow('ltdb: block not found');
      const wc1 = await client.lookupBlockByID({ workchain: 0, shard: SHARD, seqno: 1 });
      expect(hex(wc1.id.rootHash)).toBe(IDS.wc1.root);
      const waiting = client.getMasterchainInfo({ awaitSeqno: 2, timeout: 10_000 });
      expect(chain.release()).toBe(true);
      expect((await waiting).last.seqno).toBe(2);
      const wc2 = await client.lookupBlockByID({ workchain: 0, shard: SHARD, seqno: 2 });
      expect(hex(wc2.id.rootHash)).toBe(IDS.wc2.root);
      expect(chain.release()).toBe(false);
      // tcp.ping is answered with tcp.pong carrying the same random id
      const pong = new Promise<Buffer>((resolve) => raw.adnl.once('data', (d: Buffer) => resolve(Buffer.from(d))));
      raw.adnl.write(liteApi.encode({ _: 'tcp.ping', random_id: 1234567890123n }));
      expect(liteApi.decode(await pong)).toEqual({ _: 'tcp.pong', random_id: 1234567890123n });
    } finally {
      engine.close();
      raw.close();
      await server.close();
    }
  });
});

describe('ton-gateway devnet serve', () => {
  const bin = join(import.meta.dirname, '..', '..', 'bin', 'ton-gateway.js');

  it('serves DIR, prints one line with the port and writes it to liteserver.json', async () => {
    const dir = actonDir();
    const child = spawn(process.execPath, [bin, 'devnet', 'serve', dir, '--port', '0', '--live', '60000', '--seed', 'cli'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      expect(line).toMatch(/^liteserver listening on 127\.0\.0\.1:\d+ key \S+ serving /);
      const [entry] = readLiteServerJson(dir);
      expect(line).toContain(`127.0.0.1:${entry.port}`);
      expect(hex(entry.publicKey)).toBe(hex(serverKeyFromSeed(seedFromText('cli')).publicKey));
      expect(readFileSync(join(dir, 'liteserver.key'), 'utf8').trim()).toBe(hex(seedFromText('cli')));
      const { client, engine } = await connect(entry.port, entry.publicKey);
      expect((await client.getMasterchainInfo()).last.seqno).toBe(1); // --live: starts at the first block
      engine.close();
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
  });

  it('bad arguments: one line, exit code 1, no stack trace', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const c = spawn(process.execPath, [bin, 'devnet', 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let err = '';
        c.stderr.on('data', (d: Buffer) => (err += d.toString()));
        c.on('exit', (code) => resolve({ code, err }));
      });
    const missing = await run(['/nonexistent/devnet']);
    expect(missing.code).toBe(1);
    expect(missing.err.trim()).toBe('ton-gateway devnet serve: /nonexistent/devnet/chain.json not found (is /nonexistent/devnet a devnet directory?)');
    const badPort = await run([actonDir(), '--port', 'abc']);
    expect(badPort.code).toBe(1);
    expect(badPort.err.trim().split('\n')).toHaveLength(1);
    expect(badPort.err).toContain('--port must be an integer from 0 to 65535');
  });
});
