/**
 * Response shapes of API v2 (tonlib types as toncenter renders them). Strict: a field added or lost is a
 * contract change. 64-bit values (lt, shard, coin amounts) are decimal strings; hashes standard base64.
 */
import { z } from 'zod';

const b64hash = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'base64 of 32 bytes');
const dec = z.string().regex(/^-?\d+$/, 'decimal string');
const b64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');

export const extra = z.string().regex(/^\d+:[\d,_]+:[\d.]+(:c)?$/);

export const okEnvelope = <T extends z.ZodTypeAny>(result: T) => z.strictObject({ ok: z.literal(true), result, '@extra': extra });
export const errorEnvelope = z.strictObject({ ok: z.literal(false), code: z.number().int().min(100).max(600), error: z.string().min(1), '@extra': extra, result: z.string().optional() });

export const blockIdExt = z.strictObject({
  '@type': z.literal('ton.blockIdExt'),
  workchain: z.number().int(),
  shard: dec,
  seqno: z.number().int().nonnegative(),
  root_hash: b64hash,
  file_hash: b64hash,
});

export const transactionId = z.strictObject({ '@type': z.literal('internal.transactionId'), lt: dec, hash: b64hash });
export const accountAddress = z.strictObject({ '@type': z.literal('accountAddress'), account_address: z.string() });
export const extraCurrency = z.strictObject({ '@type': z.literal('extraCurrency'), id: z.number().int(), amount: dec });

export const masterchainInfo = z.strictObject({ '@type': z.literal('blocks.masterchainInfo'), last: blockIdExt, state_root_hash: b64hash, init: blockIdExt });

export const fullAccountState = z.strictObject({
  '@type': z.literal('raw.fullAccountState'),
  balance: dec,
  extra_currencies: z.array(extraCurrency),
  code: b64,
  data: b64,
  last_transaction_id: transactionId,
  block_id: blockIdExt,
  frozen_hash: z.union([b64hash, z.literal('')]),
  sync_utime: z.number().int(),
  state: z.enum(['active', 'uninitialized', 'frozen']),
  suspended: z.boolean(),
});

const msgData = z.union([
  z.strictObject({ '@type': z.literal('msg.dataRaw'), body: b64, init_state: b64 }),
  z.strictObject({ '@type': z.literal('msg.dataText'), text: b64 }),
  z.strictObject({ '@type': z.literal('msg.dataEncryptedText'), text: b64 }),
]);

const messageFields = {
  hash: b64hash,
  value: dec,
  extra_currencies: z.array(extraCurrency),
  fwd_fee: dec,
  ihr_fee: dec,
  created_lt: dec,
  body_hash: b64hash,
  msg_data: msgData,
};

/** raw.message (getTransactionsStd, getBlockTransactionsExt): addresses as accountAddress objects. */
export const rawMessage = z.strictObject({ '@type': z.literal('raw.message'), source: accountAddress, destination: accountAddress, ...messageFields });
/** ext.message (getTransactions, tryLocate*): plain-string addresses and the decoded `message`. */
export const extMessage = z.strictObject({ '@type': z.literal('ext.message'), source: z.string(), destination: z.string(), ...messageFields, message: z.string() });

const txFields = {
  address: accountAddress,
  utime: z.number().int(),
  data: b64,
  transaction_id: transactionId,
  fee: dec,
  storage_fee: dec,
  other_fee: dec,
};

export const rawTransaction = z.strictObject({ '@type': z.literal('raw.transaction'), ...txFields, in_msg: rawMessage.nullable(), out_msgs: z.array(rawMessage) });
export const transactionExt = z.strictObject({ '@type': z.literal('raw.transactionExt'), ...txFields, account: z.string(), in_msg: rawMessage.nullable(), out_msgs: z.array(rawMessage) });
export const extTransaction = z.strictObject({ '@type': z.literal('ext.transaction'), ...txFields, account: z.string(), in_msg: extMessage.optional(), out_msgs: z.array(extMessage) });

export const blockTransactionsExt = z.strictObject({
  '@type': z.literal('blocks.transactionsExt'),
  id: blockIdExt,
  req_count: z.number().int(),
  incomplete: z.boolean(),
  transactions: z.array(transactionExt),
});

export const blockTransactions = z.strictObject({
  '@type': z.literal('blocks.transactions'),
  id: blockIdExt,
  req_count: z.number().int(),
  incomplete: z.boolean(),
  transactions: z.array(z.strictObject({ '@type': z.literal('blocks.shortTxId'), mode: z.number().int(), account: z.string(), lt: dec, hash: b64hash })),
});

export const runResult = z.strictObject({
  '@type': z.literal('smc.runResult'),
  gas_used: z.number().int().nonnegative(),
  stack: z.array(z.unknown()),
  exit_code: z.number().int(),
  block_id: blockIdExt,
  last_transaction_id: transactionId,
});
