/** Accounts (reference §2.4): addressBook, metadata, accountStates, walletStates, topAccountsByBalance. */
import { Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { toRawUpper, tryParseAddress, walletTypeOfCodeHash } from '../../../format/index.ts';
import { ApiError } from '../../errors.ts';
import { addressBook, bookAndMetadata, metadataOf } from '../address-book.ts';
import type { Row } from '../db.ts';
import { latestStates, topAccountsByBalance } from '../queries/accounts.ts';
import { PAGE_SORT, pageOf } from '../params.ts';
import { b64, extra, str } from '../render.ts';
import { addRoute, type V3Deps } from '../route.ts';

function walletInfo(s: Row): Record<string, unknown> {
  const type = walletTypeOfCodeHash(s.code_hash as string | null);
  if (!type || !s.data_boc) return { is_wallet: false };
  const out: Record<string, unknown> = { is_wallet: true, wallet_type: type };
  try {
    const d = Cell.fromBase64(s.data_boc as string).beginParse();
    if (type.startsWith('wallet v5')) {
      out.is_signature_allowed = d.loadBit();
      out.seqno = d.loadUint(32);
      out.wallet_id = d.loadInt(32);
    } else {
      out.seqno = d.loadUint(32);
      if (/v[34]/.test(type)) out.wallet_id = d.loadUint(32);
    }
  } catch {
    // unexpected data layout: report the type without parsed fields
  }
  return out;
}

export function accountRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['accounts'];

  addRoute(app, deps, {
    url: '/addressBook',
    tags,
    summary: 'User-friendly forms, DNS names and interfaces of addresses',
    description: 'Keys are the input strings as given. Bounceable unless the account has no code or runs a standard wallet code.',
    params: { address: { kind: 'string[]', required: true, description: 'addresses in any form (repeat the parameter), max 1024' } },
    response: S.AddressBook,
    async handler({ q, db, testnet }) {
      const inputs = q.address;
      if (inputs.length > 1024) throw new ApiError(422, 'invalid address: at most 1024 values');
      const keys = new Map<string, string | null>();
      for (const a of inputs) keys.set(a, tryParseAddress(a) ? toRawUpper(a) : null);
      return addressBook(db, keys, testnet);
    },
  });

  addRoute(app, deps, {
    url: '/metadata',
    tags,
    summary: 'Token metadata of jetton / NFT addresses',
    params: { address: { kind: 'address[]', required: true } },
    response: S.Metadata,
    async handler({ q, db }) {
      return metadataOf(db, q.address);
    },
  });

  addRoute(app, deps, {
    url: '/accountStates',
    tags,
    summary: 'Latest states of accounts',
    description: 'Only accounts the index has seen are returned (destroyed accounts have status nonexist).',
    params: {
      address: { kind: 'address[]', required: true },
      include_boc: { kind: 'bool', default: true },
      code_hash: { kind: 'hash[]' },
    },
    response: S.AccountStatesResponse,
    async handler(ctx) {
      const { q, db } = ctx;
      const withBoc = q.include_boc;
      const states = await latestStates(db, q.address, withBoc, q.code_hash);
      const accounts = states.map((s) => {
        const o: Record<string, unknown> = {
          address: s.account,
          account_state_hash: b64(s.hash),
          balance: str(s.balance),
          extra_currencies: extra(s.extra_currencies),
          status: s.account_status,
          frozen_hash: b64(s.frozen_hash) ?? undefined,
          last_transaction_hash: b64(s.last_trans_hash),
          last_transaction_lt: str(s.last_trans_lt),
          data_hash: b64(s.data_hash) ?? undefined,
          code_hash: b64(s.code_hash) ?? undefined,
          data_boc: withBoc ? (str(s.data_boc) ?? undefined) : undefined,
          code_boc: withBoc ? (str(s.code_boc) ?? undefined) : undefined,
          contract_methods: Array.isArray(s.methods) ? [...new Set(s.methods as number[])] : null,
          interfaces: [] as string[],
        };
        for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
        return o;
      });
      const addrs = accounts.map((a) => a.address as string);
      // the states just read carry the code hashes the address book wants: it reads no state of its own
      const codes = new Map(states.map((s) => [s.account as string, (s.code_hash as string | null) ?? null]));
      const { address_book, metadata } = await bookAndMetadata(ctx, addrs, { knownCodes: codes });
      for (const a of accounts) a.interfaces = (address_book as Record<string, { interfaces: string[] }>)[a.address as string]?.interfaces ?? [];
      return { accounts, address_book, metadata };
    },
  });

  walletRoutes(app, deps, tags);
}

/** /walletStates and /topAccountsByBalance. */
function walletRoutes(app: FastifyInstance, deps: V3Deps, tags: string[]): void {
  addRoute(app, deps, {
    url: '/walletStates',
    tags,
    summary: 'Wallet states (type, seqno, wallet id) of accounts',
    description: 'code_hash keeps the accounts running that code. include_boc is accepted as the reference accepts it (its AccountRequest); wallet states carry no BoC either way.',
    params: {
      address: { kind: 'address[]', required: true },
      code_hash: { kind: 'hash[]' },
      include_boc: { kind: 'bool', default: true },
    },
    response: S.WalletStatesResponse,
    async handler(ctx) {
      const { q, db } = ctx;
      const states = await latestStates(db, q.address, true, q.code_hash);
      const wallets = states.map((s) => {
        const o: Record<string, unknown> = {
          address: s.account,
          ...walletInfo(s),
          balance: str(s.balance),
          extra_currencies: extra(s.extra_currencies),
          status: s.account_status,
          code_hash: b64(s.code_hash) ?? undefined,
          last_transaction_hash: b64(s.last_trans_hash),
          last_transaction_lt: str(s.last_trans_lt),
        };
        for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
        return o;
      });
      const addrs = wallets.map((w) => w.address as string);
      const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
      return { wallets, address_book, metadata };
    },
  });

  addRoute(app, deps, {
    url: '/topAccountsByBalance',
    tags,
    summary: 'Accounts with the highest balance',
    description: 'Order: balance desc, then account; sort=asc lists the smallest balances first.',
    params: { ...PAGE_SORT },
    response: S.TopAccounts,
    async handler({ q, db }) {
      const rows = await topAccountsByBalance(db, pageOf(q));
      return rows.map((r) => ({ account: r.account, balance: String(r.balance) }));
    },
  });
}
