// Derives entity / trace rows from the real transactions already in the fixture store (what the
// traces and entity stages will write), so the v3 entity and trace endpoints are tested on real data.
import { createHash } from 'node:crypto';
import { Address, Cell } from '@ton/core';
import { afterAll, beforeAll } from 'vitest';
import { parseTxDoc, stringifyTxDoc } from '../../src/decode/index.ts';
import { type StoreClient } from '../../src/store/client/index.ts';
import { openFixture, type Fixture } from './helpers.ts';

const raw = (a: Address | null) => (a ? `${a.workChain}:${a.hash.toString('hex').toUpperCase()}` : null);

type R = Record<string, unknown>;

async function rows(store: StoreClient, sql: string, params?: Record<string, unknown>): Promise<R[]> {
  return store.query<R>(sql, params);
}

async function insert(store: StoreClient, table: string, list: R[]): Promise<void> {
  if (list.length === 0) return;
  const body = list.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).join('\n');
  await store.insertFormatted(table, body, 'JSONEachRow');
}

export interface SeededTrace {
  traceId: string;
  txHashes: string[];
  accounts: string[];
  externalHash: string;
  state: 'complete' | 'pending';
  pendingEdges: number;
}

export interface Seeded {
  transfer: { txHash: string; lt: string; source: string; destination: string; amount: string; wallet: string; master: string; queryId: string };
  wallets: { address: string; owner: string; jetton: string; balance: string }[];
  trace: SeededTrace;
  pendingTrace: SeededTrace;
  action: { actionId: string; childId: string; source: string; master: string };
}

/** Jetton transfers (transfer#0f8a7ea5 in_msg of a jetton wallet), jetton wallets (their data), one trace. */
export async function seed(store: StoreClient): Promise<Seeded> {
  // every transaction whose in_msg is a jetton transfer request: the sender's jetton wallet
  const txs = await rows(
    store,
    `SELECT t.hash AS hash, t.lt AS lt, t.now AS now, t.account AS account, t.aborted AS aborted, t.mc_block_seqno AS mc, m.source AS source, c.boc AS body, s.data_boc AS data
     FROM transactions AS t FINAL
     JOIN messages AS m FINAL ON m.tx_account = t.account AND m.tx_lt = t.lt AND m.direction = 'in'
     JOIN message_contents AS c ON c.hash = m.body_hash
     JOIN latest_account_states AS s FINAL ON s.account = t.account
     WHERE m.opcode = 260734629 ORDER BY t.lt`,
  );
  const transfers: R[] = [];
  const wallets = new Map<string, R>();
  for (const t of txs) {
    if (typeof t.data !== 'string' || t.data === '') continue; // state without data in this block
    const b = Cell.fromBase64(String(t.body)).beginParse();
    b.loadUint(32);
    const queryId = b.loadUintBig(64);
    const amount = b.loadCoins();
    const destination = b.loadAddress();
    const response = b.loadMaybeAddress();
    const custom = b.loadMaybeRef();
    const fwdTon = b.loadCoins();
    // forward_payload:(Either Cell ^Cell) (TEP-74); stored as the payload cell's BoC
    let fwdPayload: Cell | null = null;
    if (b.remainingBits > 0) fwdPayload = b.loadBit() ? b.loadRef() : b.asCell();
    const d = Cell.fromBase64(String(t.data)).beginParse();
    // USDT wallet data: status:uint4 balance owner master; standard wallets: balance owner master code
    let balance: bigint;
    let owner: Address;
    let master: Address;
    try {
      const s2 = d.clone();
      balance = s2.loadCoins();
      owner = s2.loadAddress();
      master = s2.loadAddress();
    } catch {
      d.loadUint(4);
      balance = d.loadCoins();
      owner = d.loadAddress();
      master = d.loadAddress();
    }
    transfers.push({
      tx_hash: t.hash, tx_lt: t.lt, tx_now: t.now, tx_aborted: Boolean(t.aborted), mc_seqno: t.mc, query_id: queryId, amount,
      source: t.source, destination: raw(destination), jetton_wallet_address: t.account, jetton_master_address: raw(master),
      response_destination: raw(response), custom_payload: custom ? custom.toBoc().toString('base64') : null, forward_ton_amount: fwdTon,
      forward_payload: fwdPayload ? fwdPayload.toBoc().toString('base64') : null, trace_id: null,
    });
    wallets.set(String(t.account), {
      address: t.account, balance, owner: raw(owner), jetton: raw(master), last_transaction_lt: t.lt, code_hash: null, data_hash: null,
      mintless_is_claimed: null, mintless_amount: null, mintless_start_from: null, mintless_expire_at: null,
    });
  }
  await insert(store, 'jetton_transfers', transfers);
  await insert(store, 'jetton_wallets', [...wallets.values()]);

  const trace = await buildTrace(store, 71398501);
  const pendingTrace = await buildTrace(store, 54593195);
  // a jetton_transfer action over the USDT transfer of the complete trace, and its lower-level child
  const usdt = transfers.find((t) => trace.txHashes.includes(String(t.tx_hash)))!;
  const tr = (await rows(store, 'SELECT * FROM traces FINAL WHERE trace_id = {t:FixedString(64)}', { t: trace.traceId }))[0];
  const action = {
    trace_id: trace.traceId, action_id: createHash('sha256').update(String(usdt.tx_hash) + 'jetton_transfer').digest('hex'), type: 'jetton_transfer',
    start_lt: usdt.tx_lt, end_lt: tr.end_lt, start_utime: usdt.tx_now, end_utime: tr.end_utime, trace_end_lt: tr.end_lt, trace_end_utime: tr.end_utime,
    trace_mc_seqno_end: tr.mc_seqno_end, trace_external_hash: trace.externalHash, trace_external_hash_norm: null, tx_hashes: trace.txHashes.slice(1, 4),
    success: true, source: usdt.source, source_secondary: usdt.jetton_wallet_address, destination: usdt.destination, destination_secondary: null,
    asset: usdt.jetton_master_address, asset_secondary: null, asset2: null, asset2_secondary: null, opcode: 260734629, value: null, amount: usdt.amount,
    value_extra_currencies: {}, parent_action_id: null, ancestor_type: [],
    details: JSON.stringify({ asset: usdt.jetton_master_address, sender: usdt.source, receiver: usdt.destination, amount: String(usdt.amount), query_id: String(usdt.query_id) }),
  };
  const child = { ...action, action_id: createHash('sha256').update(String(usdt.tx_hash) + 'ton_transfer').digest('hex'), type: 'ton_transfer', ancestor_type: ['jetton_transfer'], parent_action_id: action.action_id, details: '{}' };
  await insert(store, 'actions', [action, child]);
  await insert(store, 'action_accounts', [action, child].flatMap((a) =>
    [a.source, a.source_secondary, a.destination].filter(Boolean).map((acc) => ({
      account: acc, trace_end_lt: a.trace_end_lt, trace_id: a.trace_id, action_end_lt: a.end_lt, action_id: a.action_id, trace_end_utime: a.trace_end_utime, action_end_utime: a.end_utime,
    }))));
  const first = transfers[0];
  return {
    transfer: {
      txHash: String(first.tx_hash), lt: String(first.tx_lt), source: String(first.source), destination: String(first.destination), amount: String(first.amount),
      wallet: String(first.jetton_wallet_address), master: String(first.jetton_master_address), queryId: String(first.query_id),
    },
    wallets: [...wallets.values()].map((w) => ({ address: String(w.address), owner: String(w.owner), jetton: String(w.jetton), balance: String(w.balance) })),
    trace,
    pendingTrace,
    action: { actionId: action.action_id, childId: child.action_id, source: String(usdt.source), master: String(usdt.jetton_master_address) },
  };
}


/** The trace started by the first external-in transaction of block `seqno`: every transaction its messages reach in the store. */
async function buildTrace(store: StoreClient, seqno: number): Promise<SeededTrace> {
  const [root] = await rows(
    store,
    `SELECT t.account AS account, t.lt AS lt, t.hash AS hash, m.msg_hash AS ext FROM transactions AS t FINAL
     JOIN messages AS m FINAL ON m.tx_account = t.account AND m.tx_lt = t.lt AND m.direction = 'in' AND m.message_type = 'ext_in'
     WHERE t.block_seqno = {seqno:UInt32} ORDER BY t.lt LIMIT 1`,
    { seqno },
  );
  const nodes: R[] = [];
  let frontier: R[] = [root];
  let pending = 0;
  let edges = 1;
  while (frontier.length) {
    nodes.push(...frontier);
    const out = await rows(
      store,
      `SELECT msg_hash, message_type FROM messages FINAL WHERE direction = 'out' AND concat(tx_account, '|', toString(tx_lt)) IN {k:Array(String)}`,
      { k: frontier.map((n) => `${n.account}|${n.lt}`) },
    );
    const internal = out.filter((m) => m.message_type === 'int').map((m) => m.msg_hash);
    edges += out.length;
    const next = internal.length
      ? await rows(
          store,
          `SELECT t.account AS account, t.lt AS lt, t.hash AS hash FROM transactions AS t FINAL
           WHERE (t.account, t.lt) IN (SELECT tx_account, tx_lt FROM message_hashes WHERE hash IN {h:Array(FixedString(64))} AND direction = 'in')`,
          { h: internal },
        )
      : [];
    pending += internal.length - next.length;
    edges -= internal.length - next.length;
    frontier = next;
  }
  const all = await rows(store, `SELECT account, lt, hash, now, mc_block_seqno FROM transactions FINAL WHERE hash IN {h:Array(FixedString(64))} ORDER BY lt`, { h: nodes.map((n) => n.hash) });
  const state = pending > 0 ? 'pending' : 'complete';
  await insert(store, 'traces', [{
    trace_id: root.hash, external_hash: root.ext, external_hash_norm: null, mc_seqno_start: all[0].mc_block_seqno, mc_seqno_end: all[all.length - 1].mc_block_seqno,
    start_lt: all[0].lt, start_utime: all[0].now, end_lt: all[all.length - 1].lt, end_utime: all[all.length - 1].now, state,
    pending_edges: pending, edges, nodes: all.length, classification_state: 'unclassified',
  }]);
  await insert(store, 'trace_transactions', all.map((t) => ({ trace_id: root.hash, lt: t.lt, account: t.account, hash: t.hash })));
  // the traces stage sets transactions.trace_id: re-insert the rows (same key, last write wins under FINAL)
  await store.command(
    `INSERT INTO transactions SELECT * REPLACE ({tid:String} AS trace_id) FROM transactions FINAL WHERE hash IN {h:Array(FixedString(64))}`,
    { tid: root.hash, h: all.map((t) => t.hash) },
  );
  // and writes their documents again with it (the transaction's and its messages' trace_id)
  const docs = await rows(store, 'SELECT account, lt, hash, doc FROM transaction_docs_kv WHERE hash IN {h:Array(FixedString(64))}', { h: all.map((t) => t.hash) });
  await insert(
    store,
    'transaction_docs_kv',
    docs.map((d) => {
      // parsed documents are shared and frozen: a changed copy
      const doc = parseTxDoc(String(d.doc));
      return { account: d.account, lt: d.lt, hash: d.hash, traced: 1, doc: stringifyTxDoc({ ...doc, tx: { ...doc.tx, trace_id: root.hash } }) };
    }),
  );
  return { traceId: String(root.hash), txHashes: all.map((t) => String(t.hash)), accounts: [...new Set(all.map((t) => String(t.account)))], externalHash: String(root.ext), state, pendingEdges: pending };
}

/**
 * The mainnet fixture store with the seeded rows, opened before the file's tests and closed after them. Read
 * `ref.fx` / `ref.seeded` inside tests (they are set once beforeAll ran).
 */
export function seededFixture(): { readonly fx: Fixture; readonly seeded: Seeded } {
  const ref = {} as { fx: Fixture; seeded: Seeded };
  beforeAll(async () => {
    ref.fx = await openFixture({ extra: async (store) => { ref.seeded = await seed(store); } });
  });
  afterAll(async () => {
    await ref.fx?.close();
  });
  return ref;
}
