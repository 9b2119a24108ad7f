/**
 * A chain that grows while served: blocks come from a producer (the devnet generator's live mode:
 * sendMessage queues an external message, produceRound cuts the next shard blocks and masterchain block).
 */
import type { Cell } from '@ton/core';
import { ChainMessageError, MemoryChain, type ChainBlock, type MemoryChainOptions } from './source.ts';

export interface BlockProducer {
  /** Queues an external message BoC for the next round; throws when the message is malformed. */
  sendMessage(boc: Buffer): unknown;
  /** Throws when the message's account would not accept it now (a liteserver's check); optional. */
  checkMessage?(boc: Buffer): Promise<void>;
  /** Produces the next round, in chain order (shard blocks, then the masterchain block committing them). */
  produceRound(): Promise<{ boc: Buffer; state: Cell; proof?: Cell }[]>;
}

export class LiveChain extends MemoryChain {
  private timer?: ReturnType<typeof setInterval>;
  private producing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly producer: BlockProducer,
    opts: Omit<MemoryChainOptions, 'sendMessage' | 'visibleMc'> = {},
  ) {
    super({
      ...opts,
      sendMessage: async (boc) => {
        try {
          await producer.checkMessage?.(boc);
          producer.sendMessage(boc);
        } catch (err) {
          // the wording of a liteserver whose validator refuses the message
          throw new ChainMessageError(0, `cannot apply external message to current state : ${(err as Error).message}`);
        }
      },
    });
  }

  /** Produces one round and serves it; rounds never overlap. */
  produce(): Promise<ChainBlock | undefined> {
    const next = this.producing.then(async () => {
      const blocks = await this.producer.produceRound();
      let mc: ChainBlock | undefined;
      for (const b of blocks) {
        const added = this.addBlock(b.boc, b.state, b.proof);
        if (added.id.workchain === -1) mc = added as ChainBlock;
      }
      return mc;
    });
    this.producing = next.catch(() => undefined);
    return next;
  }

  /** Produces a round every `intervalMs` until stop(). */
  start(intervalMs: number, onError?: (err: Error) => void): void {
    this.stop();
    this.timer = setInterval(() => {
      this.produce().catch((err: Error) => onError?.(err));
    }, intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
