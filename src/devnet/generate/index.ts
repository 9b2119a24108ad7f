/**
 * Devnet chain generator: real contracts in the TVM emulator packed into TL-B blocks.
 *   generateDevnet(dir, opts)  - writes a deterministic chain directory (see README of src/devnet)
 *   createDevnet({ seed })     - a live chain: sendMessage(boc) + produceRound()
 */
import { Devnet, type ProducedBlock } from './chain.ts';
import { CYCLE, Scenarios, type ScenarioOptions } from './scenarios.ts';
import { writeDevnetDir, type StatesMode } from './write.ts';

export { Devnet, SHARD_ALL, type DevnetSnapshotJson, type DevnetOptions, type ProducedBlock, type ProducedTx, type PendingMessage } from './chain.ts';
export { Scenarios, CYCLE, type CycleRecord, type ScenarioOptions } from './scenarios.ts';
export { writeDevnetDir, liteserverKey, blockFile, DEFAULT_LITESERVER_PORT, type StatesMode } from './write.ts';
export { OP, makeWallet, walletExternal, comment, jettonMintBody, jettonMinterInit, jettonTransferBody, jettonWalletAddress, type Wallet } from './contracts.ts';

export interface GenerateOptions extends ScenarioOptions {
  seed?: number | bigint | string;
  /** Number of masterchain blocks (rounds); default 32. */
  blocks?: number;
  /** ShardState files (default: all up to 200 blocks, else last). */
  states?: StatesMode;
  port?: number;
  /** gen_utime of the zero state (default: the library's fixed 1700000000; the CLI passes the generation time). */
  startTime?: number;
  /** Seconds between rounds (default 3). */
  blockInterval?: number;
  /** Split / merge rounds; default about 1/3 and 2/3 of the chain (none below 8 blocks). */
  splitAt?: number | null;
  mergeAt?: number | null;
}

export interface GenerateResult {
  devnet: Devnet;
  scenarios: Scenarios;
  blocks: number;
  transactions: number;
  /** Wall time of emulation + block packing (not the file writes), ms. */
  elapsedMs: number;
  /** CPU time (user + system) of the same, ms: the rate that does not depend on other load on the machine. */
  cpuMs: number;
}

export function defaultSplitMerge(blocks: number): { splitAt: number | null; mergeAt: number | null } {
  if (blocks < 8) return { splitAt: null, mergeAt: null };
  const splitAt = Math.max(3, Math.floor(blocks / 3));
  const mergeAt = Math.max(splitAt + 3, Math.floor((2 * blocks) / 3));
  return { splitAt, mergeAt: mergeAt <= blocks ? mergeAt : null };
}

/** Runs `blocks` rounds of scenarios and returns the devnet (nothing written). */
export async function runDevnet(opts: GenerateOptions = {}): Promise<GenerateResult> {
  const blocks = opts.blocks ?? 32;
  const sm = defaultSplitMerge(blocks);
  const devnet = await Devnet.create({
    seed: opts.seed ?? 1,
    startTime: opts.startTime,
    blockInterval: opts.blockInterval,
    splitAt: opts.splitAt === undefined ? sm.splitAt : opts.splitAt,
    mergeAt: opts.mergeAt === undefined ? sm.mergeAt : opts.mergeAt,
  });
  const scenarios = new Scenarios(devnet, opts);
  await devnet.start();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let transactions = 0;
  for (let r = 1; r <= blocks; r++) {
    scenarios.beforeRound(r, blocks);
    const produced: ProducedBlock[] = await devnet.produceRound();
    for (const b of produced) transactions += b.txs.length;
  }
  const cpu = process.cpuUsage(cpu0);
  return { devnet, scenarios, blocks, transactions, elapsedMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Generates a chain and writes it to `dir`. */
export async function generateDevnet(dir: string, opts: GenerateOptions = {}): Promise<GenerateResult> {
  const res = await runDevnet(opts);
  // Full states after every block grow with the chain: above 200 blocks keep only the shard tops by default.
  const states = opts.states ?? (res.blocks > 200 ? 'last' : 'all');
  writeDevnetDir(res.devnet, dir, { states, port: opts.port, extra: { seed: String(opts.seed ?? 1), start_time: res.devnet.startTime, scenario_cycle_rounds: CYCLE } });
  return res;
}

export interface LiveDevnet {
  devnet: Devnet;
  scenarios: Scenarios;
  /** Queues an external message BoC for the next round; throws on a malformed message. Returns its hash. */
  sendMessage(boc: Buffer): Buffer;
  /** Throws when the message's account would not accept it now (as a liteserver checks before taking it). */
  checkMessage(boc: Buffer): Promise<void>;
  /** Produces the next round (shard blocks then the masterchain block), in chain order. */
  produceRound(): Promise<ProducedBlock[]>;
}

/**
 * A live devnet: genesis wallets funded (keys derived from the seed), no scripted traffic; external
 * messages sent with sendMessage are executed in the next produceRound().
 */
export async function createDevnet(opts: { seed?: number | bigint | string; startTime?: number } = {}): Promise<LiveDevnet> {
  const devnet = await Devnet.create({ seed: opts.seed ?? 1, startTime: opts.startTime ?? Math.floor(Date.now() / 1000) });
  const scenarios = new Scenarios(devnet, { bulkWallets: 0, scripted: false });
  await devnet.start();
  return {
    devnet,
    scenarios,
    sendMessage: (boc) => devnet.submitExternal(boc),
    checkMessage: (boc) => devnet.checkExternal(boc),
    produceRound: () => devnet.produceRound(),
  };
}
