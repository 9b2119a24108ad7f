/**
 * Loaders: a devnet directory (DIR/chain.json + DIR/blocks + DIR/states) or a list of recorded block files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { parseBlock, shardHex, shardOverlaps, SHARD_ALL, type ParsedBlock } from './block.ts';
import { MemoryChain, type MemoryChainOptions, type ZeroStateId } from './source.ts';

/** A devnet directory or recorded chain that cannot be served as given. */
export class ChainLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainLoadError';
  }
}

export interface ChainJsonBlock {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

export interface ChainJson {
  blocks: ChainJsonBlock[];
  transactions?: unknown[];
  global_id?: number;
  zero_state?: { root_hash: string; file_hash: string };
  [key: string]: unknown;
}

export function blockFileName(workchain: number, shard: bigint | string, seqno: number): string {
  const s = typeof shard === 'string' ? shard.toLowerCase() : shardHex(shard);
  return `${workchain}_${s}_${seqno}.boc`;
}

/** Orders blocks as the chain does: each masterchain block after the shard blocks it commits. */
function chainOrder(blocks: ParsedBlock[]): ParsedBlock[] {
  const mc = blocks.filter((b) => b.id.workchain === -1).sort((a, b) => a.id.seqno - b.id.seqno);
  const shards = blocks.filter((b) => b.id.workchain !== -1).sort((a, b) => a.id.seqno - b.id.seqno);
  const out: ParsedBlock[] = [];
  const used = new Set<ParsedBlock>();
  for (const m of mc) {
    for (const s of shards) {
      if (used.has(s)) continue;
      if (m.shards.some((d) => d.workchain === s.id.workchain && shardOverlaps(d.shard, s.id.shard) && d.seqno >= s.id.seqno)) {
        out.push(s);
        used.add(s);
      }
    }
    out.push(m);
  }
  return out;
}

function zeroStateFrom(first: ParsedBlock | undefined): ZeroStateId {
  // The first masterchain block after the zero state links to it: prev of mc seqno 1 is the zero state.
  if (first && first.header.seqno === 1 && first.header.prev.length === 1) {
    return { workchain: -1, rootHash: Buffer.from(first.header.prev[0].root_hash, 'hex'), fileHash: Buffer.from(first.header.prev[0].file_hash, 'hex') };
  }
  return { workchain: -1, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) };
}

/**
 * Serves recorded block files (no states). Blocks are sorted into chain order; every shard block must be
 * committed by one of the masterchain blocks given, else it is reported.
 */
export function loadRecordedChain(files: (string | Buffer)[], opts: MemoryChainOptions = {}): MemoryChain {
  const parsed = files.map((f) => {
    const boc = typeof f === 'string' ? readFileSync(f) : f;
    try {
      return parseBlock(boc);
    } catch (err) {
      throw new ChainLoadError(`${typeof f === 'string' ? f : 'block'}: ${(err as Error).message}`);
    }
  });
  const ordered = chainOrder(parsed);
  const orphan = parsed.filter((b) => !ordered.includes(b));
  if (orphan.length > 0) {
    const o = orphan[0].id;
    throw new ChainLoadError(`shard block ${o.workchain}:${shardHex(o.shard)}:${o.seqno} is not committed by any masterchain block given`);
  }
  const mcFirst = ordered.find((b) => b.id.workchain === -1);
  const chain = new MemoryChain({
    globalId: mcFirst?.header.globalId ?? 0,
    zeroState: zeroStateFrom(mcFirst),
    ...opts,
  });
  for (const b of ordered) chain.addBlock(b);
  return chain;
}

function hex32(v: unknown, what: string): Buffer {
  if (typeof v !== 'string' || !/^[0-9a-fA-F]{64}$/.test(v)) throw new ChainLoadError(`${what}: expected 64 hex digits`);
  return Buffer.from(v, 'hex');
}

/** A lazily parsed BoC file (state and proof BoCs are large and most are never asked for). */
function lazyCell(path: string, what: string): () => Cell {
  return () => {
    try {
      return Cell.fromBoc(readFileSync(path))[0];
    } catch (err) {
      throw new ChainLoadError(`${path}: not a ${what} BoC (${(err as Error).message})`, { cause: err });
    }
  };
}

/** DIR/blocks.jsonl: blocks a live devnet appended to the chain of chain.json, one JSON line each, with `round`. */
export const APPENDED_BLOCKS = 'blocks.jsonl';

export interface LoadDirOptions extends MemoryChainOptions {
  /** Of DIR/blocks.jsonl, only the blocks of rounds up to this one (a live devnet's last saved round). */
  appendedUpTo?: number;
}

/**
 * Loads DIR/chain.json with its blocks (then those of DIR/blocks.jsonl) (and, when present, states/ including the masterchain zero state and
 * proofs/ with the masterchain blocks' signatures), verifying every block hash.
 */
export function loadChainDir(dir: string, opts: LoadDirOptions = {}): MemoryChain {
  const path = join(dir, 'chain.json');
  if (!existsSync(path)) throw new ChainLoadError(`${path} not found (is ${dir} a devnet directory?)`);
  let json: ChainJson;
  try {
    json = JSON.parse(readFileSync(path, 'utf8')) as ChainJson;
  } catch (err) {
    throw new ChainLoadError(`${path}: not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(json.blocks) || json.blocks.length === 0) throw new ChainLoadError(`${path}: "blocks" must be a non-empty array`);
  const listed: { b: ChainJsonBlock; where: string }[] = json.blocks.map((b, i) => ({ b, where: `${path}: blocks[${i}]` }));
  // blocks a live devnet produced while served (DIR/blocks.jsonl, one block a line, with the round that made it)
  const appendedPath = join(dir, APPENDED_BLOCKS);
  if (existsSync(appendedPath)) {
    for (const [i, line] of readFileSync(appendedPath, 'utf8').split('\n').entries()) {
      if (!line.trim()) continue;
      let b: ChainJsonBlock & { round?: number };
      try {
        b = JSON.parse(line) as ChainJsonBlock & { round?: number };
      } catch (err) {
        throw new ChainLoadError(`${appendedPath}: line ${i + 1}: not valid JSON (${(err as Error).message})`);
      }
      if (!Number.isInteger(b.round)) throw new ChainLoadError(`${appendedPath}: line ${i + 1}: needs the round that produced the block`);
      if (opts.appendedUpTo !== undefined && b.round! > opts.appendedUpTo) continue;
      listed.push({ b, where: `${appendedPath}: line ${i + 1}` });
    }
  }
  const loaded: { parsed: ParsedBlock; state?: () => Cell; proof?: () => Cell }[] = [];
  for (const { b, where } of listed) {
    if (!Number.isInteger(b.workchain) || !Number.isInteger(b.seqno) || typeof b.shard !== 'string' || !/^[0-9a-fA-F]{16}$/.test(b.shard)) {
      throw new ChainLoadError(`${where}: needs workchain, seqno and shard (16 hex digits)`);
    }
    const name = blockFileName(b.workchain, b.shard, b.seqno);
    const file = join(dir, 'blocks', name);
    if (!existsSync(file)) throw new ChainLoadError(`${where}: ${file} not found`);
    let parsed: ParsedBlock;
    try {
      parsed = parseBlock(readFileSync(file));
    } catch (err) {
      throw new ChainLoadError(`${file}: ${(err as Error).message}`);
    }
    if (!parsed.id.rootHash.equals(hex32(b.root_hash, `${where}.root_hash`))) {
      throw new ChainLoadError(`${file}: root hash ${parsed.id.rootHash.toString('hex')} differs from chain.json ${b.root_hash}`);
    }
    if (!parsed.id.fileHash.equals(hex32(b.file_hash, `${where}.file_hash`))) {
      throw new ChainLoadError(`${file}: file hash (sha256) ${parsed.id.fileHash.toString('hex')} differs from chain.json ${b.file_hash}`);
    }
    if (parsed.id.workchain !== b.workchain || parsed.id.seqno !== b.seqno || shardHex(parsed.id.shard) !== b.shard.toLowerCase()) {
      throw new ChainLoadError(`${file}: block header says ${parsed.id.workchain}:${shardHex(parsed.id.shard)}:${parsed.id.seqno}`);
    }
    const statePath = join(dir, 'states', name);
    const state = existsSync(statePath) ? lazyCell(statePath, 'state') : undefined;
    const proofPath = join(dir, 'proofs', name);
    const proof = existsSync(proofPath) ? lazyCell(proofPath, 'block proof') : undefined;
    loaded.push({ parsed, state, proof });
  }
  const mcFirst = loaded.find((l) => l.parsed.id.workchain === -1)?.parsed;
  const zeroState = json.zero_state
    ? { workchain: -1, rootHash: hex32(json.zero_state.root_hash, 'zero_state.root_hash'), fileHash: hex32(json.zero_state.file_hash, 'zero_state.file_hash') }
    : zeroStateFrom(mcFirst);
  const chainOpts: MemoryChainOptions = { ...opts };
  delete (chainOpts as LoadDirOptions).appendedUpTo;
  const chain = new MemoryChain({ globalId: json.global_id ?? mcFirst?.header.globalId ?? 0, zeroState, ...chainOpts });
  for (const { parsed, state, proof } of loaded) chain.addBlock(parsed, state, proof);
  const zeroStatePath = join(dir, 'states', blockFileName(-1, SHARD_ALL, 0));
  if (existsSync(zeroStatePath)) chain.setState({ workchain: -1, shard: SHARD_ALL, seqno: 0 }, lazyCell(zeroStatePath, 'zero state'));
  return chain;
}
