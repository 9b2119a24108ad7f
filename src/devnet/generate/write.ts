/** Writes a devnet directory: chain.json, liteserver.json, liteserver.key, blocks/, states/ and proofs/. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyPairFromSeed } from '@ton/crypto';
import { shardHex } from '../chain/index.ts';
import type { ProducedRef } from './refs.ts';
import type { Devnet, ProducedBlock } from './chain.ts';

export const DEFAULT_LITESERVER_PORT = 46732;

export type StatesMode = 'all' | 'last' | 'none';

export function blockFile(ref: { workchain: number; shard: bigint; seqno: number }): string {
  return `${ref.workchain}_${shardHex(ref.shard)}_${ref.seqno}.boc`;
}

/** Global-config style block id (base64 hashes, shard as a signed 64-bit integer written verbatim). */
function configBlockId(ref: ProducedRef): string {
  const shard = BigInt.asIntN(64, ref.shard).toString();
  return `{"workchain": ${ref.workchain}, "shard": ${shard}, "seqno": ${ref.seqno}, "root_hash": "${ref.rootHash.toString('base64')}", "file_hash": "${ref.fileHash.toString('base64')}"}`;
}

/** The liteserver's ed25519 key, derived from the seed: { seed (private), publicKey }. */
export function liteserverKey(devnet: Devnet): { seed: Buffer; publicKey: Buffer } {
  const seed = devnet.derive('liteserver-key');
  return { seed, publicKey: keyPairFromSeed(seed).publicKey };
}

function blockJson(b: ProducedBlock) {
  return { workchain: b.ref.workchain, shard: shardHex(b.ref.shard), seqno: b.ref.seqno, root_hash: b.ref.rootHash.toString('hex'), file_hash: b.ref.fileHash.toString('hex') };
}

export interface WriteOptions {
  states?: StatesMode;
  port?: number;
  /** Extra top-level keys for chain.json. */
  extra?: Record<string, unknown>;
}

/** Writes everything the devnet produced so far into `dir`. */
export function writeDevnetDir(devnet: Devnet, dir: string, opts: WriteOptions = {}): void {
  const states = opts.states ?? 'all';
  // A previous chain's files would be mistaken for this one's: start blocks/ and states/ afresh.
  rmSync(join(dir, 'blocks'), { recursive: true, force: true });
  rmSync(join(dir, 'states'), { recursive: true, force: true });
  rmSync(join(dir, 'proofs'), { recursive: true, force: true });
  mkdirSync(join(dir, 'blocks'), { recursive: true });
  mkdirSync(join(dir, 'states'), { recursive: true });
  mkdirSync(join(dir, 'proofs'), { recursive: true });
  const zs = devnet.zeroState;
  if (states !== 'none') {
    for (const z of [zs.mc, zs.shard]) writeFileSync(join(dir, 'states', blockFile(z.ref)), z.boc);
  }
  const lastOfShard = new Map<string, ProducedBlock>();
  for (const b of devnet.blocks) lastOfShard.set(`${b.ref.workchain}:${b.ref.shard}`, b);
  const tops = new Set(lastOfShard.values());
  for (const b of devnet.blocks) {
    writeFileSync(join(dir, 'blocks', blockFile(b.ref)), b.boc);
    // masterchain blocks: the BlockProof with the validators' signatures, as a node keeps it
    if (b.proof) writeFileSync(join(dir, 'proofs', blockFile(b.ref)), b.proof.toBoc({ idx: false, crc32: true }));
    if (states === 'all' || (states === 'last' && tops.has(b))) {
      writeFileSync(join(dir, 'states', blockFile(b.ref)), b.state.toBoc({ idx: false, crc32: false }));
    }
  }
  const chain = {
    global_id: devnet.globalId,
    zero_state: { root_hash: zs.mc.ref.rootHash.toString('hex'), file_hash: zs.mc.ref.fileHash.toString('hex') },
    shard_zero_state: { workchain: 0, shard: shardHex(zs.shard.ref.shard), root_hash: zs.shard.ref.rootHash.toString('hex'), file_hash: zs.shard.ref.fileHash.toString('hex') },
    blocks: devnet.blocks.map(blockJson),
    transactions: devnet.blocks.flatMap((b) =>
      b.txs.map((t) => ({
        hash: t.hash.toString('hex'),
        lt: t.lt.toString(),
        account: `${t.workchain}:${t.account.toString(16).padStart(64, '0')}`,
        workchain: b.ref.workchain,
        shard: shardHex(b.ref.shard),
        seqno: b.ref.seqno,
      })),
    ),
    in_flight: devnet.inFlight().map((m) => ({
      hash: m.hash.toString('hex'),
      destination: m.dest.toRawString(),
      created_lt: m.createdLt.toString(),
      external: m.external,
    })),
    states: states,
    ...opts.extra,
  };
  writeFileSync(join(dir, 'chain.json'), JSON.stringify(chain, null, 1) + '\n');
  const key = liteserverKey(devnet);
  writeFileSync(join(dir, 'liteserver.key'), key.seed.toString('hex') + '\n');
  const initBlock = devnet.blocks.filter((b) => b.ref.workchain === -1 && b.ref.seqno === 1)[0]?.ref ?? zs.mc.ref;
  const ls =
    '{\n' +
    `  "@type": "config.global",\n` +
    // what the gateway calls this network (/healthcheck): not mainnet, whose zero state it does not have
    `  "network_name": "devnet",\n` +
    `  "liteservers": [{"ip": 2130706433, "port": ${opts.port ?? DEFAULT_LITESERVER_PORT}, "id": {"@type": "pub.ed25519", "key": "${key.publicKey.toString('base64')}"}}],\n` +
    `  "validator": {"@type": "validator.config.global", "zero_state": ${configBlockId(zs.mc.ref)}, "init_block": ${configBlockId(initBlock)}}\n` +
    '}\n';
  writeFileSync(join(dir, 'liteserver.json'), ls);
}
