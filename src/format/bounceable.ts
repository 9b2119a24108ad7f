import { formatFriendly, type AccountAddress } from './address.ts';
import { walletTypeOfCodeHash } from './wallet-codes.ts';

/**
 * API v3 address_book rule (api-v3.md §1.8): bounceable unless the account has no code
 * (uninit / nonexist / unknown) or its code is one of the standard wallet codes.
 */
export function isBounceableByDefault(codeHashHex: string | null | undefined): boolean {
  if (!codeHashHex) return false;
  return walletTypeOfCodeHash(codeHashHex) === null;
}

/** url-safe friendly form per the rule above; testnet flag when the deployment serves testnet. */
export function userFriendly(addr: AccountAddress, opts: { codeHash?: string | null; testnet?: boolean }): string {
  return formatFriendly(addr, { bounceable: isBounceableByDefault(opts.codeHash), testOnly: opts.testnet ?? false, urlSafe: true });
}
