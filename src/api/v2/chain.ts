/**
 * Typed liteserver calls of API v2 over a NodeClient: block lookups, account states, transactions,
 * config, libraries. Answers are checked against the request where the protocol allows it.
 */
import { Cell, loadAccount, type Account } from '@ton/core';
import { ApiError, notFound } from '../errors.ts';
import type { TlObject } from '../../tl/index.ts';
import type { AccountAddress } from '../../format/index.ts';
import { LiteServerError, type NodeClient } from './node.ts';
import { configFromProof, genUtimeFromAccountProof, lastTxFromStateProof } from './tlb.ts';
import { BoundedMap } from '../../util/index.ts';

export const MASTER_SHARD_SIGNED = -(1n << 63n);

export interface BlockIdTl extends TlObject {
  _?: 'tonNode.blockIdExt';
  workchain: number;
  shard: bigint;
  seqno: number;
  root_hash: Buffer;
  file_hash: Buffer;
}

export function blockIdTl(workchain: number, shard: bigint, seqno: number, rootHash: Buffer, fileHash: Buffer): BlockIdTl {
  return { workchain, shard: BigInt.asIntN(64, shard), seqno, root_hash: rootHash, file_hash: fileHash };
}

/** Maps "not found" style liteserver answers to 404 with a clear message. */
function notFoundOr(err: unknown, what: string): never {
  if (err instanceof LiteServerError && /not in db|cannot find|not found|cannot locate|unknown block|block is not applied/i.test(err.message)) {
    throw notFound(`${what} not found (liteserver: ${err.message})`);
  }
  throw err;
}

export async function masterchainInfo(node: NodeClient): Promise<TlObject> {
  return node.query({ _: 'liteServer.getMasterchainInfo' });
}

export async function lastMcBlock(node: NodeClient): Promise<BlockIdTl> {
  return (await masterchainInfo(node)).last as BlockIdTl;
}

export type LookupBy = { seqno: number } | { lt: bigint } | { utime: number };

export async function lookupBlock(node: NodeClient, workchain: number, shard: bigint, by: LookupBy): Promise<BlockIdTl> {
  const mode = 'seqno' in by ? 1 : 'lt' in by ? 2 : 4;
  const what = `block (${workchain}, ${BigInt.asIntN(64, shard)}, ${'seqno' in by ? `seqno ${by.seqno}` : 'lt' in by ? `lt ${by.lt}` : `utime ${by.utime}`})`;
  try {
    const res = await node.query({
      _: 'liteServer.lookupBlock',
      mode,
      id: { workchain, shard: BigInt.asIntN(64, shard), seqno: 'seqno' in by ? by.seqno : 0 },
      lt: 'lt' in by ? by.lt : undefined,
      utime: 'utime' in by ? by.utime : undefined,
    });
    const id = res.id as BlockIdTl;
    if ('seqno' in by && (id.workchain !== workchain || id.seqno !== by.seqno)) {
      throw new LiteServerError(`lookupBlock answered another block (${id.workchain}, ${id.seqno})`);
    }
    return id;
  } catch (err) {
    return notFoundOr(err, what);
  }
}

/** The masterchain block at `seqno`, or the latest one. */
export async function mcBlock(node: NodeClient, seqno?: number): Promise<BlockIdTl> {
  if (seqno === undefined) return lastMcBlock(node);
  return lookupBlock(node, -1, MASTER_SHARD_SIGNED, { seqno });
}

/** Full block id from (workchain, shard, seqno); given hashes are checked against the chain's. */
export async function resolveBlock(
  node: NodeClient,
  p: { workchain: number; shard: bigint; seqno: number; root_hash?: string; file_hash?: string },
): Promise<BlockIdTl> {
  const id = await lookupBlock(node, p.workchain, p.shard, { seqno: p.seqno });
  if (p.root_hash && id.root_hash.toString('hex') !== p.root_hash) {
    throw notFound(`block (${p.workchain}, ${BigInt.asIntN(64, p.shard)}, ${p.seqno}) with root_hash ${p.root_hash} not found (the chain's block has another root_hash)`);
  }
  if (p.file_hash && id.file_hash.toString('hex') !== p.file_hash) {
    throw notFound(`block (${p.workchain}, ${BigInt.asIntN(64, p.shard)}, ${p.seqno}) with file_hash ${p.file_hash} not found (the chain's block has another file_hash)`);
  }
  return id;
}

export interface AccountStateResult {
  block: BlockIdTl;
  shardBlock: BlockIdTl;
  /** null: the account does not exist (account_none). */
  account: Account | null;
  accountCell: Cell | null;
  lastTx: { lt: bigint; hash: Buffer };
  syncUtime: number;
}

export async function accountState(node: NodeClient, addr: AccountAddress, block: BlockIdTl): Promise<AccountStateResult> {
  const res = await node.query({
    _: 'liteServer.getAccountState',
    id: block,
    account: { workchain: addr.workchain, id: Buffer.from(addr.hash, 'hex') },
  });
  const stateBoc = res.state as Buffer;
  let account: Account | null = null;
  let accountCell: Cell | null = null;
  if (stateBoc.length > 0) {
    accountCell = Cell.fromBoc(stateBoc)[0];
    const s = accountCell.beginParse(true);
    if (s.loadBit()) account = loadAccount(s);
  }
  const proof = res.proof as Buffer;
  const lastTx = (proof.length > 0 ? lastTxFromStateProof(proof, Buffer.from(addr.hash, 'hex')) : null) ?? { lt: 0n, hash: Buffer.alloc(32) };
  const syncUtime = (proof.length > 0 ? genUtimeFromAccountProof(proof) : null) ?? Math.floor(Date.now() / 1000);
  return { block: res.id as BlockIdTl, shardBlock: res.shardblk as BlockIdTl, account, accountCell, lastTx, syncUtime };
}

/** ConfigParams dictionaries by masterchain block root hash: made where a network's API starts, passed to configAll. */
export type ConfigCache = BoundedMap<string, Cell>;

/** A cache of the latest 65 blocks' config dictionaries. */
export function newConfigCache(): ConfigCache {
  return new BoundedMap<string, Cell>(65);
}

/** ConfigParams dictionary at a masterchain block (cached per block in `cache`). */
export async function configAll(node: NodeClient, block: BlockIdTl, cache: ConfigCache): Promise<Cell> {
  const key = block.root_hash.toString('hex');
  const hit = cache.get(key);
  if (hit) return hit;
  const res = await node.query({ _: 'liteServer.getConfigAll', mode: 0, id: block });
  let cell: Cell;
  try {
    cell = configFromProof(res.config_proof as Buffer);
  } catch (e) {
    throw new LiteServerError(`liteserver sent an unreadable config proof: ${(e as Error).message}`);
  }
  cache.set(key, cell);
  return cell;
}

export async function configParams(node: NodeClient, block: BlockIdTl, params: number[]): Promise<Cell> {
  const res = await node.query({ _: 'liteServer.getConfigParams', mode: 0, id: block, param_list: params });
  try {
    return configFromProof(res.config_proof as Buffer);
  } catch (e) {
    throw new LiteServerError(`liteserver sent an unreadable config proof: ${(e as Error).message}`);
  }
}

export async function libraries(node: NodeClient, hashesHex: string[]): Promise<Map<string, Cell>> {
  const res = await node.query({ _: 'liteServer.getLibraries', library_list: hashesHex.map((h) => Buffer.from(h, 'hex')) });
  const out = new Map<string, Cell>();
  for (const e of res.result as TlObject[]) {
    const cells = Cell.fromBoc(e.data as Buffer);
    const cell = cells[0];
    const hash = (e.hash as Buffer).toString('hex');
    // A liteserver must not be able to substitute a library: the cell hash is the key.
    if (cell.hash().toString('hex') !== hash) throw new LiteServerError(`liteserver sent library ${hash} whose cell hash differs`);
    out.set(hash, cell);
  }
  return out;
}

/** Up to `count` (<= 16) transactions of an account, newest first, starting at (lt, hash). */
export async function accountTransactions(
  node: NodeClient,
  addr: AccountAddress,
  lt: bigint,
  hash: Buffer,
  count: number,
  archival = false,
): Promise<{ cells: Cell[]; blocks: BlockIdTl[] }> {
  try {
    const res = await node.query(
      { _: 'liteServer.getTransactions', count, account: { workchain: addr.workchain, id: Buffer.from(addr.hash, 'hex') }, lt, hash },
      { archival },
    );
    const boc = res.transactions as Buffer;
    const cells = boc.length > 0 ? Cell.fromBoc(boc) : [];
    return { cells, blocks: res.ids as BlockIdTl[] };
  } catch (err) {
    if (err instanceof LiteServerError && /not in db|cannot locate|lt not in db/i.test(err.message)) {
      throw new ApiError(500, `LITE_SERVER_UNKNOWN: ${err.message} (the liteservers do not keep this history; try archival=true)`);
    }
    throw err;
  }
}
