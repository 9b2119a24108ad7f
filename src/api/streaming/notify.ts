/**
 * What one subscriber gets of one rendered seqno (part): toncenter's per-client adjustment (`AdjustForClient` of its
 * v2 streaming handlers), pure. Transactions and actions are filtered to the subscriber's addresses and its action
 * filters, the address book and metadata to the addresses of what it gets; a trace goes whole to the subscribers of its
 * trace_external_hash_norm. Each notification comes with a key that identifies its content, so that the hub serializes
 * one text for every subscriber that gets the same thing.
 */
import { FINALITY_RANK, type Finality, type Subscription } from './subscription.ts';

type Json = Record<string, unknown>;

export interface RenderedTx {
  /** as /api/v3/transactions renders it */
  json: Json;
  account: string;
  /** the addresses its address book covers (account, in_msg source, out_msgs destinations) */
  addrs: string[];
}

export interface RenderedAction {
  /** as /api/v3/actions renders it, with `accounts` (include_accounts) */
  json: Json;
  /** as /api/v3/traces renders it in a trace (without `accounts`) */
  bare: Json;
  /** the stored type (before extra_currency_transfer renaming) and its ancestors: what the filters read */
  type: string;
  ancestors: string[];
  accounts: string[];
  addrs: string[];
}

export interface RenderedTrace {
  /** trace_external_hash_norm, hex and as sent (base64) */
  norm: string;
  normB64: string;
  /** lt descending (the order of `transactions` notifications) */
  txs: RenderedTx[];
  actions: RenderedAction[];
  /** as /api/v3/traces renders it, without its actions (null: not rendered, nobody subscribed to the trace) */
  trace: Json | null;
  traceAddrs: string[];
}

export interface RenderedPart {
  mcSeqno: number;
  /** the part's index in its seqno (keys) */
  part: number;
  /** pending: an emulated trace (src/emulate), before the chain */
  finality: Finality;
  /** null: not rendered (no subscriber wanted it) */
  traces: (RenderedTrace | null)[];
  accounts: { account: string; state: Json }[];
  jettons: { json: Json; address: string; owner: string; bookAddrs: string[]; metaAddrs: string[] }[];
  /** the address book and metadata of every address above (null: nobody asked for them) */
  book: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
}

export interface Note {
  /** equal keys, equal content (within the part) */
  key: string;
  type: string;
  make(): Json;
}

function pick(from: Record<string, unknown> | null, addrs: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!from) return out;
  for (const a of addrs) if (a in from) out[a] = from[a];
  return out;
}

/** toncenter's action filters: `action_types` (if any), then the supported types (a type whose ancestor is supported is left out). */
export function actionPasses(sub: Subscription, a: { type: string; ancestors: string[] }): boolean {
  if (sub.actionTypes.size > 0 && !sub.actionTypes.has(a.type)) return false;
  if (a.ancestors.some((t) => sub.supported.has(t))) return false;
  return sub.supported.has(a.type);
}

function extras(sub: Subscription, part: RenderedPart, book: Iterable<string>, meta: Iterable<string> = book): Json {
  const o: Json = {};
  if (sub.includeAddressBook) o.address_book = pick(part.book, book);
  if (sub.includeMetadata) o.metadata = pick(part.metadata, meta);
  return o;
}

/** The notifications `sub` gets of `part`, in order: per trace transactions, actions, trace; then account states, jettons. */
export function notesFor(sub: Subscription, part: RenderedPart): Note[] {
  if (FINALITY_RANK[part.finality] < FINALITY_RANK[sub.minFinality]) return [];
  const notes: Note[] = [];
  const fin = part.finality;
  const flags = `${sub.includeAddressBook ? 1 : 0}${sub.includeMetadata ? 1 : 0}`;
  const head = (type: string, t: RenderedTrace) => ({ type, finality: fin, trace_external_hash_norm: t.normB64, mc_seqno: part.mcSeqno });
  part.traces.forEach((t, ti) => {
    if (!t) return;
    if (sub.types.has('transactions')) {
      const idx: number[] = [];
      t.txs.forEach((x, i) => sub.addresses.has(x.account) && idx.push(i));
      if (idx.length) {
        notes.push({
          key: `t${ti}:${idx.join(',')}:${flags}`,
          type: 'transactions',
          make: () => {
            const txs = idx.map((i) => t.txs[i]);
            return { ...head('transactions', t), transactions: txs.map((x) => x.json), ...extras(sub, part, txs.flatMap((x) => x.addrs)) };
          },
        });
      }
    }
    if (sub.types.has('actions')) {
      const idx: number[] = [];
      t.actions.forEach((a, i) => a.accounts.some((x) => sub.addresses.has(x)) && actionPasses(sub, a) && idx.push(i));
      if (idx.length) {
        notes.push({
          key: `a${ti}:${idx.join(',')}:${flags}`,
          type: 'actions',
          make: () => {
            const acts = idx.map((i) => t.actions[i]);
            return { ...head('actions', t), actions: acts.map((a) => a.json), ...extras(sub, part, acts.flatMap((a) => a.addrs)) };
          },
        });
      }
    }
    if (sub.types.has('trace') && t.trace && sub.traces.has(t.norm)) {
      const trace = t.trace;
      const idx: number[] = [];
      t.actions.forEach((a, i) => actionPasses(sub, a) && idx.push(i));
      notes.push({
        key: `r${ti}:${idx.join(',')}:${flags}`,
        type: 'trace',
        make: () => {
          const o: Json = { ...head('trace', t), ...trace };
          // as toncenter: the trace's actions that pass the filters, absent when the trace has none
          if (t.actions.length) o.actions = idx.map((i) => t.actions[i].bare);
          return { ...o, ...extras(sub, part, t.traceAddrs) };
        },
      });
    }
  });
  if (sub.types.has('account_state_change')) {
    for (const a of part.accounts) {
      if (!sub.addresses.has(a.account)) continue;
      notes.push({ key: `s${a.account}`, type: 'account_state_change', make: () => ({ type: 'account_state_change', finality: fin, account: a.account, state: a.state, mc_seqno: part.mcSeqno }) });
    }
  }
  if (sub.types.has('jettons_change')) {
    for (const j of part.jettons) {
      if (!sub.addresses.has(j.address) && !sub.addresses.has(j.owner)) continue;
      notes.push({
        key: `j${j.address}:${flags}`,
        type: 'jettons_change',
        make: () => ({ type: 'jettons_change', finality: fin, jetton: j.json, mc_seqno: part.mcSeqno, ...extras(sub, part, j.bookAddrs, j.metaAddrs) }),
      });
    }
  }
  return notes;
}
