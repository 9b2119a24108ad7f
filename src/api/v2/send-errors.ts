/**
 * Human-readable explanations of why a liteserver refused an external message (users' most asked
 * question about sendBoc). The original liteserver text is always kept.
 */

/** Exit codes of the standard wallets (wallet v3/v4 FunC sources, wallet v5 `errors` constants). */
const WALLET_EXIT_HINTS: Record<number, string> = {
  33: 'seqno mismatch (wallet v3/v4): the message was signed for another seqno; fetch the current seqno (runGetMethod seqno) and sign again',
  34: 'wallet/subwallet id mismatch (wallet v3/v4): the message was signed for another wallet_id',
  35: 'invalid signature (wallet v3/v4): signed with another key, or the body was changed after signing',
  36: 'message expired (wallet v4): valid_until is in the past; sign again with a later valid_until',
  37: 'not enough TON on the account to pay for the message',
  38: 'not enough extra currency on the account',
  132: 'signature authentication is disabled on this wallet v5',
  133: 'seqno mismatch (wallet v5): fetch the current seqno and sign again',
  134: 'wallet_id mismatch (wallet v5): signed for another network or subwallet',
  135: 'invalid signature (wallet v5)',
  136: 'message expired (wallet v5): valid_until is in the past',
  137: 'wallet v5 external messages must use send mode with +2 (ignore errors)',
  13: 'out of gas before accept_message(): the contract did not accept the message',
  0: 'the contract finished without accepting the message (no accept_message())',
};

export interface SendFailure {
  exitCode: number | null;
  hint: string;
}

export function explainSendError(message: string): SendFailure {
  const m = /exit ?code[=: ]+(-?\d+)/i.exec(message);
  const exitCode = m ? Number(m[1]) : null;
  if (exitCode !== null && WALLET_EXIT_HINTS[exitCode]) return { exitCode, hint: WALLET_EXIT_HINTS[exitCode] };
  if (/not initialized|account_none|uninit|no state ?init|unpack account/i.test(message)) {
    return { exitCode, hint: 'the account is not initialized: include the StateInit (code and data) in the first message to deploy it' };
  }
  if (/duplicate|already (?:in|applied)|already known/i.test(message)) return { exitCode, hint: 'this message was already sent' };
  if (exitCode !== null) return { exitCode, hint: `the contract rejected the message with exit code ${exitCode}` };
  return { exitCode, hint: 'the liteserver refused the message' };
}
