// Body parsers on real mainnet messages from test/fixtures/msgs (see MANIFEST.md for provenance).
import { readFileSync } from 'node:fs';
import { type Address, beginCell, Cell, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { extractPayloadFromWalletMessage } from '../../src/actions/messages/externals.ts';
import { accountId } from '../../src/actions/ton-utils.ts';
import { commentText, decodeComment } from '../../src/contracts/cells.ts';
import {
  parseExcesses, parseJettonBurn, parseJettonBurnNotification, parseJettonInternalTransfer, parseJettonNotify, parseJettonTransfer,
} from '../../src/contracts/jetton.ts';
import { parseNftOwnershipAssigned, parseNftTransfer } from '../../src/contracts/nft.ts';

const DIR = new URL('../fixtures/msgs/', import.meta.url);
function body(name: string): string {
  const m = loadMessage(Cell.fromBoc(readFileSync(new URL(name, DIR)))[0].beginParse());
  return m.body.toBoc().toString('base64');
}

describe('TEP-74 jetton bodies', () => {
  it('transfer carrying a STON.fi v2 swap payload, and the internal_transfer it caused', () => {
    const t = parseJettonTransfer(body('mainnet-jetton-transfer-in-msg-lt76734069000003-2a587123.boc'))!;
    expect(t.queryId).toBe(4266162756592296n);
    expect(t.amount).toBe(2617761542n);
    expect(t.destination).toBe('0:92E1411AE546892F33B2C8A89EA90390D8FF4CFBB917A643B91E73F706FDB9D1');
    expect(t.responseDestination).toBe('0:FCD79429C113DCD437396311467DCC2DC1F3772C295CAE75D07693E6E0CCEF77');
    expect(t.customPayload).toBeNull();
    expect(t.forwardAmount).toBe(240000000n);
    expect(t.forwardPayload.op).toBe(0x6664de2a);
    expect(Cell.fromBase64(t.forwardPayload.boc!).refs.length).toBe(1);
    const it2 = parseJettonInternalTransfer(body('mainnet-jetton-internal-transfer-in-msg-lt76734069000016-2a587123.boc'))!;
    expect(it2.queryId).toBe(t.queryId);
    expect(it2.amount).toBe(t.amount);
    expect(it2.from).toBe(t.destination);
    expect(it2.responseAddress).toBe(t.responseDestination);
    expect(it2.forwardAmount).toBe(0n);
    expect(parseJettonTransfer(body('mainnet-jetton-internal-transfer-in-msg-lt76734069000016-2a587123.boc'))).toBeNull();
  });

  it('plain transfer without payload', () => {
    const t = parseJettonTransfer(body('mainnet-jetton-transfer-in-msg-lt58895241000001-13544018.boc'))!;
    expect(t.amount).toBe(3000000000n);
    expect(t.destination).toBe('0:C1254755CFDB209822EC3E8EB071A27FDF23CDF59B297B055EF32877594F7F98');
    expect(t.forwardAmount).toBe(1n);
    expect(t.forwardPayload.boc).toBeNull();
  });

  it('transfer_notification with a STON.fi v1 swap payload', () => {
    const n = parseJettonNotify(body('mainnet-stonfi-v1-swap-in-msg-lt43049086000007-779dcc81.boc'))!;
    expect(n.queryId).toBe(2074589184n);
    expect(n.amount).toBe(148899201000n);
    expect(n.sender).toBe('0:7F03B45BBC62C1700F1CA35A117AB99DDEDC9A5E6AD886D7E33784272B0793FB');
    expect(n.forwardPayload?.op).toBe(0x25938561);
    const n2 = parseJettonNotify(body('mainnet-jetton-transfer-notification-in-msg-lt58895241000001-025b2d19.boc'))!;
    expect(n2.queryId).toBe(17286061478558338237n);
    expect(n2.amount).toBe(211676300000n);
  });

  it('excesses', () => {
    expect(parseExcesses(body('mainnet-jetton-excesses-in-msg-lt58969751000001-8c6c53da.boc'))).toEqual({ queryId: 510242975060n });
    expect(parseExcesses(body('mainnet-jetton-excesses-in-msg-lt76734069000010-89f356bd.boc'))).toEqual({ queryId: 1n });
  });

  it('burn and the burn_notification the wallet sent to the minter', () => {
    const b = parseJettonBurn(body('mainnet-jetton-burn-in-msg-lt76734069000003-93503d3a.boc'))!;
    expect(b.amount).toBe(25797083659n);
    expect(b.responseDestination).toBe('0:BC91B30E0AFE5CB6DB47B1F2127C83B63F75207102FC3499A6A7B8182C85115E');
    expect(b.customPayload).not.toBeNull();
    const bn = parseJettonBurnNotification(body('mainnet-jetton-burn-notification-in-msg-lt76734069000007-bdf3fa80.boc'))!;
    expect(bn.amount).toBe(b.amount);
    expect(bn.sender).toBe(b.responseDestination);
    expect(bn.responseDestination).toBe(b.responseDestination);
  });
});

describe('TEP-62 NFT bodies', () => {
  it('transfer and the ownership_assigned it caused (same block)', () => {
    const t = parseNftTransfer(body('mainnet-nft-transfer-in-msg-lt37124585000003-e49288fb.boc'))!;
    expect(t.newOwner).toBe('0:A3738F3771A5CCC16C3693097669F16AB803CED0B5F557265B9D952CDEDA0C62');
    expect(t.responseDestination).toBe('0:BE5A6ED4A900B47D2D2D55F0AB81DFCDA1304C7C7D85AB7AB2C235D47F26DBA4');
    expect(t.forwardAmount).toBe(1000000000n);
    const oa = parseNftOwnershipAssigned(body('mainnet-nft-ownership-assigned-in-msg-lt37124585000005-a3738f37.boc'))!;
    expect(oa.prevOwner).toBe(t.responseDestination);
    expect(oa.forwardPayload?.boc).toBe(t.forwardPayload?.boc);
  });
  it('transfer with a short forward payload', () => {
    const t = parseNftTransfer(body('mainnet-nft-transfer-in-msg-lt43049060000003-ad61bd69.boc'))!;
    expect(t.newOwner).toBe('0:12EBF07F04031BD1C23F7DCEF40BC48FEE2D725F0CB9BE19B10B57DE7384835C');
    expect(t.forwardAmount).toBe(150000000n);
    expect(t.forwardPayload?.op).toBe(0x429c67c7);
  });
});

describe('comments', () => {
  it('decodes text comments (ASCII, multi-line, Arabic)', () => {
    const c = (f: string) => {
      const d = decodeComment(Cell.fromBase64(body(f)));
      expect(d.encrypted).toBe(false);
      return commentText(d.comment!);
    };
    expect(c('mainnet-text-comment-in-msg-lt58895241000001-04f3c1c7.boc')).toBe('e0e3f090-b327-4190-b332-f3f051cf27f1');
    expect(c('mainnet-text-comment-in-msg-lt58969751000001-852443f8.boc')).toBe('500 Telegram Stars \n\nRef#hPAG8Tqft');
    expect(c('mainnet-text-comment-in-msg-lt76734069000033-7692c307.boc')).toBe('ميزو');
  });
});

describe('wallet externals (intended messages, used for failed-external fallbacks)', () => {
  it('reads the send list of wallet v4r2 and v5r1 externals', () => {
    // v4r2 external that staked at the Tonstakers pool in block 71398501 (deposit 0x47d54391)
    const [v4, k4] = extractPayloadFromWalletMessage(body('mainnet-ext-in-wallet-v4r2-in-msg-lt76734069000001-89f356bd.boc'));
    // upstream tries v3 first, and v3's layout reads a v4 body too (the op byte is left unread): same messages
    expect(k4).toBe('v3');
    expect(v4).toHaveLength(1);
    expect(accountId(v4[0].info!.dest as Address)).toBe('0:A45B17F28409229B78360E3290420F13E4FE20F90D7E2BF8C4AC6703259E22FA');
    expect(v4[0].info!.valueCoins).toBe(521000000000n);
    expect(v4[0].opcode).toBe(0x47d54391);
    // v5r1 external whose message is the tsTON burn received by wallet 0:93503D3A… in the same block
    const [v5, k5] = extractPayloadFromWalletMessage(body('mainnet-ext-in-wallet-v5r1-in-msg-lt76734069000001-bc91b30e.boc'));
    expect(k5).toBe('v5r1');
    expect(v5).toHaveLength(1);
    expect(accountId(v5[0].info!.dest as Address)).toBe('0:93503D3A286A25F9BDE372166FB330B1B2490F00AB1FE0F5293B6CB61F811219');
    expect(v5[0].info!.valueCoins).toBe(1050000000n);
    const burn = parseJettonBurn(v5[0].body!.toBoc().toString('base64'))!;
    expect(burn.amount).toBe(25797083659n);
  });
  it('reads what upstream reads in a body that is not a wallet external', () => {
    // a long enough comment passes as a v5r1 request with no action list (upstream's v5 reader checks no opcode)
    expect(extractPayloadFromWalletMessage(body('mainnet-text-comment-in-msg-lt58895241000001-04f3c1c7.boc'))).toEqual([[], 'v5r1']);
    // shorter than every layout: nothing
    expect(extractPayloadFromWalletMessage(beginCell().storeUint(0, 32).storeUint(7, 64).endCell().toBoc().toString('base64'))).toEqual([[], null]);
    expect(extractPayloadFromWalletMessage('not a boc')).toEqual([[], null]);
  });
});
