/**
 * Store-independent trace model the action classifier reads, and the action rows it writes.
 * Addresses are raw upper-case (`0:ABC…`, as API v3 renders them); hashes are lower-case hex;
 * lt and coin amounts are bigint.
 */

export interface TraceMessage {
  hash: string;
  /** null for external-in messages */
  source: string | null;
  /** null for external-out messages (logs) */
  destination: string | null;
  value: bigint | null;
  valueExtraCurrencies?: Record<string, string> | null;
  fwdFee?: bigint | null;
  ihrFee?: bigint | null;
  /** 32-bit opcode (unsigned) or null when the body has fewer than 32 bits */
  opcode: number | null;
  /** message body as a BoC in base64 */
  body: string | null;
  bounce: boolean | null;
  bounced: boolean | null;
  createdLt: bigint | null;
  createdAt: number | null;
  /** StateInit BoC (base64) when the message carries one */
  initState?: string | null;
}

export interface TraceTransaction {
  hash: string;
  account: string;
  lt: bigint;
  now: number;
  mcSeqno: number | null;
  /** 'ord', 'tick_tock', 'storage', 'split_prepare', … */
  descr: string;
  isTock?: boolean | null;
  origStatus: string;
  endStatus: string;
  aborted: boolean;
  destroyed?: boolean;
  computeSkipped?: boolean | null;
  /** compute phase skip reason (`no_state`, `bad_state`, `no_gas`, `suspended`), null when it ran */
  computeSkippedReason?: string | null;
  computeSuccess?: boolean | null;
  computeExitCode: number | null;
  actionResultCode?: number | null;
  totalFees?: bigint | null;
  emulated?: boolean;
  inMsg: TraceMessage | null;
  outMsgs: TraceMessage[];
}

/** What is known about an account from get-methods / detected interfaces (toncenter's `interfaces`). */
export interface AccountInterfaces {
  jettonWallet?: { owner: string; jetton: string; balance?: bigint };
  nftItem?: { index: bigint | null; collection: string | null; owner: string | null; init?: boolean };
  nftSale?: Record<string, unknown>;
  dedustPool?: { assets: Array<{ isTon: boolean; address: string | null }> };
  codeHash?: string;
  dataBoc?: string;
  /** the provider's raw interface objects, by interface name */
  raw?: Record<string, unknown>;
}

export interface AccountStateSnapshot {
  balance?: bigint;
  codeHash?: string | null;
  dataBoc?: string | null;
}

export interface Trace {
  traceId: string;
  externalHash: string | null;
  externalHashNorm?: string | null;
  mcSeqnoStart: number | null;
  mcSeqnoEnd: number | null;
  startLt: bigint;
  endLt: bigint;
  startUtime: number;
  endUtime: number;
  /** all transactions of the trace, any order; the classifier links them by message hash */
  transactions: TraceTransaction[];
  interfaces?: Record<string, AccountInterfaces>;
  accountStates?: Record<string, { before?: AccountStateSnapshot; after?: AccountStateSnapshot }>;
}

/**
 * An action row: the generic columns of the reference classifier's `actions` table
 * (source … amount) plus the per-type composite `*_data` columns. `toApiAction` renders it as API v3.
 */
export interface ActionRow {
  action_id: string;
  type: string;
  trace_id: string;
  /** tx hashes (hex) */
  tx_hashes: string[];
  start_lt: bigint;
  end_lt: bigint;
  start_utime: number;
  end_utime: number;
  success: boolean;
  mc_seqno_end: number | null;
  source: string | null;
  source_secondary: string | null;
  destination: string | null;
  destination_secondary: string | null;
  asset: string | null;
  asset_secondary: string | null;
  asset2: string | null;
  asset2_secondary: string | null;
  opcode: number | null;
  value: bigint | null;
  amount: bigint | null;
  value_extra_currencies: Record<string, string>;
  accounts: string[];
  parent_action_id: string | null;
  ancestor_type: string[];
  /** newer upstream: the action id (base64) of the gasless_request marker this action comes straight from */
  parent_gasless_action: string | null;
  trace_end_lt: bigint;
  trace_end_utime: number;
  trace_external_hash: string | null;
  trace_external_hash_norm: string | null;
  trace_mc_seqno_end: number | null;
  /** per-type composite columns: ton_transfer_data, jetton_transfer_data, jetton_swap_data, … */
  [composite: `${string}_data`]: Record<string, unknown> | null | undefined;
}
