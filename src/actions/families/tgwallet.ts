/**
 * ↔ indexer/events/blocks/tgwallet.py (newer upstream): a Telegram wallet (ton-blockchain/tg-wallet-contract) rotating
 * its signing key. The request is an external (0xfbba99c8) or, when someone else pays the gas, an internal message
 * (0xfbba99c7); either body starts with the 512-bit signature, so the opcode is read after it. Only successful
 * rotations of accounts the repository knows as `TgWallet` count: a failing external never lands on chain, a failing
 * internal one may end in a successful transaction that changes nothing, so it needs a confirmation:
 * - the account's states before and after the transaction (the `account_states` extra datum) differ in data, or
 * - without them, the latest storage (`data_boc`) confirms it: a valid rotation proof by the new key over the
 *   wallet's address, the same subwallet, a request valid at the transaction's time, and either the new key with a
 *   later seqno, or the old key with the request's seqno and a valid signature of the request.
 */
import { createPublicKey, verify } from 'node:crypto';
import { Address, beginCell } from '@ton/core';
import { CallContractBlock } from '../basic-blocks.ts';
import { interfaceRepository } from '../context.ts';
import { Block } from '../core.ts';
import { BlockMatcher } from '../matchers.ts';
import type { TraceTransaction } from '../model.ts';
import { TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL, TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL, tgWalletRequestOpcode, TgWalletChangePublicKeyRequest } from '../messages/tgwallet.ts';
import { cellFromBoc } from '../../contracts/index.ts';
import { accountId, type AccountId, type Amount } from '../ton-utils.ts';

/** KeyRotationProofPayload's tag ("KEY_ROTATION"): the new key signs it with the wallet's address */
const KEY_ROTATION_PROOF_TAG = 0x4b45595f524f544154494f4en;

export interface ChangeWalletKeyData {
  source: AccountId;
  destination: AccountId;
  value: Amount;
  /** hex */
  new_public_key: string;
  rotation_signature: string | null;
  encrypted_old_private_key: string | null;
}

export class ChangeWalletKeyBlock extends Block<ChangeWalletKeyData> {
  constructor(data: ChangeWalletKeyData) {
    super('change_wallet_key', [], data);
  }
}

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Ed25519 signature check (nacl's VerifyKey.verify); a missing signature or a key that is no key is invalid. */
export function signatureValid(publicKey: Buffer, signedHash: Buffer, signature: Buffer | null): boolean {
  if (signature === null) return false;
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    return verify(null, signedHash, key, signature);
  } catch {
    return false;
  }
}

/** `_latest_state_confirms`: the storage `revision:uint8 seqno:uint32 subwallet:uint32 publicKey:uint256` against the request. */
export function latestStateConfirms(tx: TraceTransaction, request: TgWalletChangePublicKeyRequest, dataBoc: string): boolean {
  const cell = cellFromBoc(dataBoc);
  if (cell === null) throw new Error('data does not parse');
  const storage = cell.beginParse(true);
  storage.skip(8);
  const seqno = storage.loadUint(32);
  const subwalletId = storage.loadUint(32);
  const publicKey = storage.loadBuffer(32);
  const address = Address.parseRaw(tx.account);
  const proof = beginCell().storeUint(KEY_ROTATION_PROOF_TAG, 96).storeInt(address.workChain, 8).storeBuffer(address.hash).endCell();
  if (request.validUntil <= tx.now || request.subwalletId !== subwalletId || !signatureValid(request.newPublicKey, proof.hash(), request.rotationSignature)) return false;
  if (publicKey.equals(request.newPublicKey)) return seqno > request.seqno;
  // the storage before the rotation: the checks the contract makes
  return seqno === request.seqno && signatureValid(publicKey, request.signedHash, request.signature);
}

type J = Record<string, unknown>;

/** `_rotation_confirmed` (see the file comment). */
function rotationConfirmed(tx: TraceTransaction & { accountStateHashBefore?: string | null; accountStateHashAfter?: string | null }, request: TgWalletChangePublicKeyRequest): boolean {
  const repo = interfaceRepository();
  const extra = repo.getExtraData(tx.account, 'account_states') as J | null;
  const states = ((extra ?? {}).states ?? {}) as Record<string, J | undefined>;
  const before = tx.accountStateHashBefore ? states[tx.accountStateHashBefore] : undefined;
  const after = tx.accountStateHashAfter ? states[tx.accountStateHashAfter] : undefined;
  if (before !== undefined && after !== undefined) return before.data_hash !== after.data_hash;
  const latest = repo.getExtraData(tx.account, 'data_boc');
  if (typeof latest !== 'string' || latest === '') return false;
  try {
    return latestStateConfirms(tx, request, latest);
  } catch {
    return false;
  }
}

export class ChangeWalletKeyMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    if (!(block instanceof CallContractBlock)) return false;
    const expected = block.isExternal ? TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL : TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL;
    // newer upstream's call_contract opcode of a Telegram wallet request is the one after the signature
    return (tgWalletRequestOpcode(block.eventNodes[0].message.body) ?? block.opcode) === expected;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const tx = block.eventNodes[0].getTx();
    // failed rotations are not recognised
    if (tx === null || tx.aborted) return [];
    const msg = block.getMessage();
    if (!('TgWallet' in interfaceRepository().getInterfaces(msg.destination))) return [];
    let request: TgWalletChangePublicKeyRequest;
    try {
      request = new TgWalletChangePublicKeyRequest(block.getBody());
    } catch {
      return [];
    }
    if (!(block as CallContractBlock).isExternal && !rotationConfirmed(tx, request)) return [];
    const newBlock = new ChangeWalletKeyBlock({
      // externals have no source
      source: msg.source !== null ? accountId(msg.source) : null,
      destination: msg.destination !== null ? accountId(msg.destination) : null,
      value: (block as CallContractBlock).data.value,
      new_public_key: request.newPublicKey.toString('hex'),
      rotation_signature: request.rotationSignature ? request.rotationSignature.toString('hex') : null,
      encrypted_old_private_key: request.encryptedOldPrivateKey ? request.encryptedOldPrivateKey.toString('hex') : null,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  ChangeWalletKeyMatcher: new ChangeWalletKeyMatcher(),
};
