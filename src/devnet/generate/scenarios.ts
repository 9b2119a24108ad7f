/**
 * Scripted activity on the devnet: wallets v4r2 / v5r1 signed with seed-derived keys, TON transfers with
 * comments, deploys, jetton mint / transfer (with forward payload) / burn, NFT mint / transfer, a bounce with
 * an aborted transaction, plus bulk wallet-to-wallet transfers that scale the chain.
 * One scenario cycle spans CYCLE rounds; cycles repeat with fresh contracts.
 */
import { Address, toNano } from '@ton/core';
import { keyPairFromSeed } from './keys.ts';
import {
  comment,
  jettonBurnBody,
  jettonMinterInit,
  jettonMintBody,
  jettonTransferBody,
  jettonWalletAddress,
  makeWallet,
  nftCollectionInit,
  nftItemAddress,
  nftFixpriceSaleInit,
  nftMintBody,
  nftTransferBody,
  walletExternal,
  type Transfer,
  type Wallet,
  type WalletKind,
} from './contracts.ts';
import type { Devnet } from './chain.ts';

/** The price of the cycle's NFT sale. */
const SALE_PRICE = toNano('5');

/** Rounds in one scenario cycle (every trace of a cycle completes inside it). */
export const CYCLE = 16;

export interface ScenarioOptions {
  /** Bulk wallets, each sending one external with `bulkFanout` transfers every round (default 8). */
  bulkWallets?: number;
  /** Transfers per bulk external (1..4; default 4). */
  bulkFanout?: number;
  /** Run the scripted jetton/NFT/bounce cycle (default true). */
  scripted?: boolean;
}

/** What the scripted cycle created, for tests and docs. */
export interface CycleRecord {
  cycle: number;
  startRound: number;
  jettonMinter: Address;
  nftCollection: Address;
  nftItem: Address;
  /** The getgems fix-price sale of the item (carol the marketplace, alice the seller, bob the buyer). */
  nftSale: Address;
  freshWallet: Address;
  bounceTarget: Address;
}

export class Scenarios {
  readonly alice: Wallet;
  readonly bob: Wallet;
  readonly carol: Wallet;
  readonly dave: Wallet;
  /** A wallet in the masterchain (workchain -1). */
  readonly master: Wallet;
  readonly bulk: Wallet[];
  readonly cycles: CycleRecord[] = [];
  private readonly fanout: number;
  private readonly scripted: boolean;
  private readonly fresh = new Map<number, Wallet>();

  constructor(
    private readonly devnet: Devnet,
    opts: ScenarioOptions = {},
  ) {
    const key = (label: string) => keyPairFromSeed(devnet.derive(`key/${label}`));
    const w = (label: string, kind: WalletKind) => makeWallet(kind, key(label), devnet.globalId);
    this.alice = w('alice', 'v4r2');
    this.bob = w('bob', 'v5r1');
    this.carol = w('carol', 'v4r2');
    this.dave = w('dave', 'v5r1');
    this.master = makeWallet('v4r2', key('master'), devnet.globalId, -1);
    const n = opts.bulkWallets ?? 8;
    this.bulk = Array.from({ length: n }, (_, i) => w(`bulk/${i}`, i % 2 === 0 ? 'v4r2' : 'v5r1'));
    this.fanout = Math.min(4, Math.max(1, opts.bulkFanout ?? 4));
    this.scripted = opts.scripted ?? true;
    for (const x of [this.alice, this.bob, this.carol, this.dave, this.master, ...this.bulk]) {
      devnet.addGenesisAccount(x.address, x.init, toNano('1000000'));
    }
  }

  /** The wallet a cycle funds and deploys. */
  private freshWallet(cycle: number): Wallet {
    let fresh = this.fresh.get(cycle);
    if (!fresh) {
      fresh = makeWallet(cycle % 2 === 0 ? 'v5r1' : 'v4r2', keyPairFromSeed(this.devnet.derive(`key/fresh/${cycle}`)), this.devnet.globalId);
      this.fresh.set(cycle, fresh);
    }
    return fresh;
  }

  /** The seqno each wallet signs its next message with, by label: what a resumed chain needs besides the devnet's snapshot. */
  seqnos(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [label, w] of this.labelled()) if (w.seqno > 0) out[label] = w.seqno;
    for (const [cycle, w] of this.fresh) if (w.seqno > 0) out[`fresh/${cycle}`] = w.seqno;
    return out;
  }

  /** Sets the seqnos saved by `seqnos()` (a devnet restored from a snapshot). */
  restoreSeqnos(saved: Record<string, number>): void {
    const named = new Map(this.labelled());
    for (const [label, seqno] of Object.entries(saved)) {
      const m = /^fresh\/(\d+)$/.exec(label);
      const w = m ? this.freshWallet(Number(m[1])) : named.get(label);
      if (!w) throw new Error(`devnet snapshot names a wallet "${label}" these scenarios do not have`);
      w.seqno = seqno;
    }
  }

  private labelled(): [string, Wallet][] {
    return [['alice', this.alice], ['bob', this.bob], ['carol', this.carol], ['dave', this.dave], ['master', this.master], ...this.bulk.map((w, i): [string, Wallet] => [`bulk/${i}`, w])];
  }

  /** The named genesis wallets (funded in the zero state), for live use. */
  wallets(): Wallet[] {
    return [this.alice, this.bob, this.carol, this.dave, this.master, ...this.bulk];
  }

  private send(w: Wallet, transfers: Transfer[], now: number, deploy = false): void {
    this.devnet.submitExternal(walletExternal(w, transfers, now + 600, deploy));
  }

  /** Queues the external messages of round `r` (call before devnet.produceRound()); `last` is the final round. */
  beforeRound(r: number, last: number): void {
    const now = this.devnet.roundTime(r);
    if (this.scripted) this.scriptedRound(r, now);
    const busy = new Set<Wallet>();
    // Bulk transfers between bulk wallets.
    const n = this.bulk.length;
    for (let i = 0; i < n && n > 1; i++) {
      const from = this.bulk[i];
      const transfers: Transfer[] = [];
      for (let k = 0; k < this.fanout; k++) {
        const to = this.bulk[(i + 1 + ((r + k) % (n - 1))) % n];
        transfers.push({ to: to.address, value: toNano('0.01') + BigInt(k), bounce: true, body: comment(`bulk r${r} #${i}.${k}`) });
      }
      this.send(from, transfers, now);
      busy.add(from);
    }
    // The tip: a transfer whose internal message is still in flight when the last block is cut.
    if (r === last && !this.scriptedBusy(r)) {
      this.send(this.alice, [{ to: this.bob.address, value: toNano('0.5'), bounce: true, body: comment('in flight at the tip') }], now);
    }
  }

  /** Is alice already sending in round r of the scripted cycle? */
  private scriptedBusy(r: number): boolean {
    if (!this.scripted) return false;
    const off = (r - 1) % CYCLE;
    return off === 0 || off === 12;
  }

  private scriptedRound(r: number, now: number): void {
    const cycle = Math.floor((r - 1) / CYCLE);
    const off = (r - 1) % CYCLE;
    const { alice, bob, carol, dave } = this;
    const q = BigInt(r);
    const minterInit = jettonMinterInit(carol.address, `https://devnet.example/jetton/${cycle}.json`);
    const minter = this.devnet.addressOf(minterInit);
    const collInit = nftCollectionInit(carol.address, `https://devnet.example/nft/${cycle}`);
    const collection = this.devnet.addressOf(collInit);
    const item = nftItemAddress(collection, 0n);
    const fresh = this.freshWallet(cycle);
    const bounceTarget = this.devnet.addressFromHash(this.devnet.derive(`nobody/${cycle}`));
    // created_at: the nominal time of the deploy round (off 7) on the chain's first time base, so the sale's address
    // does not move when a resumed chain's clock jumps mid-cycle
    const saleInit = nftFixpriceSaleInit({
      marketplace: carol.address,
      nft: item,
      fullPrice: SALE_PRICE,
      marketplaceFeeAddress: carol.address,
      marketplaceFee: SALE_PRICE / 20n,
      royaltyAddress: dave.address,
      royaltyAmount: SALE_PRICE / 10n,
      createdAt: this.devnet.startTime + (cycle * CYCLE + 8) * this.devnet.blockInterval,
    });
    const sale = this.devnet.addressOf(saleInit);
    if (off === 0) {
      this.cycles.push({ cycle, startRound: r, jettonMinter: minter, nftCollection: collection, nftItem: item, nftSale: sale, freshWallet: fresh.address, bounceTarget });
      // TON transfer with a text comment; funding of a wallet that deploys itself later.
      this.send(alice, [
        { to: bob.address, value: toNano('1.5'), bounce: true, body: comment(`hello from alice, cycle ${cycle}`) },
        { to: fresh.address, value: toNano('3'), bounce: false, body: comment('funding a new wallet') },
      ], now);
      // Deploys of a jetton minter and an NFT collection (internal messages with StateInit).
      this.send(carol, [
        { to: minter, value: toNano('0.5'), bounce: false, init: minterInit },
        { to: collection, value: toNano('0.5'), bounce: false, init: collInit },
      ], now);
      // A bounceable transfer to an address with no account: aborted there, bounced back.
      this.send(dave, [{ to: bounceTarget, value: toNano('1'), bounce: true, body: comment('this will bounce') }], now);
    } else if (off === 2) {
      // The funded wallet deploys itself with its first external message.
      this.send(fresh, [{ to: alice.address, value: toNano('0.1'), bounce: true, body: comment('deployed!') }], now, true);
      // Mint 1000 jettons to bob (transfer_notification to bob, excesses to carol).
      this.send(carol, [
        {
          to: minter,
          value: toNano('0.3'),
          bounce: true,
          body: jettonMintBody(q, bob.address, toNano('0.2'), 1000_000_000_000n, carol.address, toNano('0.01'), comment('minted')),
        },
        // Mint NFT item 0 owned by dave.
        { to: collection, value: toNano('0.2'), bounce: true, body: nftMintBody(q, 0n, toNano('0.1'), dave.address, `item-${cycle}-0.json`) },
      ], now);
    } else if (off === 4) {
      // Masterchain -> basechain and back (the answer crosses again in the next round).
      this.send(this.master, [{ to: alice.address, value: toNano('2'), bounce: true, body: comment(`from the masterchain, cycle ${cycle}`) }], now);
    } else if (off === 6) {
      // Jetton transfer with a forward payload: bob -> dave, 100 + cycle jettons (notification to dave, excesses to bob).
      this.send(bob, [
        {
          to: jettonWalletAddress(bob.address, minter),
          value: toNano('0.2'),
          bounce: true,
          body: jettonTransferBody(q, (100n + BigInt(cycle)) * 1_000_000_000n, dave.address, bob.address, toNano('0.02'), comment('jetton payment')),
        },
      ], now);
      // NFT transfer: dave -> alice (ownership_assigned to alice, excesses to dave).
      this.send(dave, [
        { to: item, value: toNano('0.2'), bounce: true, body: nftTransferBody(q, alice.address, dave.address, toNano('0.01'), comment('gift')) },
      ], now);
    } else if (off === 7) {
      // A getgems fix-price sale of the item, deployed by the marketplace (carol; it only accepts the coins).
      this.send(carol, [{ to: sale, value: toNano('0.05'), bounce: false, init: saleInit }], now);
    } else if (off === 9) {
      // alice (the item's owner since off 6) puts it on sale: the item tells the sale its owner (ownership_assigned).
      this.send(alice, [
        { to: item, value: toNano('0.2'), bounce: true, body: nftTransferBody(q, sale, alice.address, toNano('0.05'), null) },
      ], now);
    } else if (off === 11) {
      // bob buys it with a plain transfer (no body: the sale's op 0 buy, as GetGems' own client sends): alice is paid
      // (price - fee - royalty), dave gets the royalty, carol the fee, the item goes to bob.
      this.send(bob, [{ to: sale, value: SALE_PRICE + toNano('0.2'), bounce: true }], now);
    } else if (off === 10) {
      // Burn: bob's jetton wallet -> minter burn_notification -> excesses to bob.
      this.send(bob, [{ to: jettonWalletAddress(bob.address, minter), value: toNano('0.2'), bounce: true, body: jettonBurnBody(q, 30_000_000_000n, bob.address) }], now);
    } else if (off === 8) {
      this.send(bob, [{ to: this.master.address, value: toNano('1'), bounce: true, body: comment(`to the masterchain, cycle ${cycle}`) }], now);
    } else if (off === 12) {
      this.send(alice, [{ to: bob.address, value: toNano('0.25'), bounce: true, body: comment(`thanks, cycle ${cycle}`) }], now);
    }
  }
}
