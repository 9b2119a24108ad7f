/**
 * Liteservers that lie, for tests: the devnet liteserver with an `intercept` (src/devnet/liteserver/server.ts)
 * that rewrites some of its honest answers. Each lie is counted, so a test can tell the liar was asked.
 *
 * - forgedSignature: every forward proof link carries one signature with a flipped byte.
 * - reencodedTip: the tip masterchain block is served as another BoC of the same cells (other bytes, so another
 *   file hash): lookupBlock and getMasterchainInfo name that file hash, getBlock sends those bytes, and the proof
 *   is the honest one with its ends renamed to the re-encoded id.
 * - flippedByte: every masterchain block's bytes have one bit flipped (the ids stay honest).
 * - fabricatedLookup: lookupBlock names masterchain blocks with made-up hashes, and the proof is the honest one
 *   renamed to the made-up id.
 * - futureTip: getMasterchainInfo claims a tip `ahead` blocks past the real one, with made-up hashes.
 */
import { createHash } from 'node:crypto';
import { Cell } from '@ton/core';
import type { LiteServerOptions } from '../../src/devnet/liteserver/index.ts';
import type { TlObject } from '../../src/tl/index.ts';
import { parseBoc } from '../../src/ton/index.ts';

export type Intercept = NonNullable<LiteServerOptions['intercept']>;
export interface Liar {
  intercept: Intercept;
  /** Answers changed so far. */
  lies: number;
}

type Answer = (q: TlObject) => Promise<TlObject>;
const MC = -1;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();

function isMc(id: TlObject | undefined): boolean {
  return id?.workchain === MC;
}

function sameId(a: TlObject, b: TlObject): boolean {
  return a.seqno === b.seqno && (a.root_hash as Buffer).equals(b.root_hash as Buffer) && (a.file_hash as Buffer).equals(b.file_hash as Buffer);
}

/** Renames block `real` to `fake` wherever a proof answer names it (its ends and its links' ends). */
function renameInProof(proof: TlObject, real: TlObject, fake: TlObject): TlObject {
  const swap = (id: TlObject) => (sameId(id, real) ? { ...id, root_hash: fake.root_hash, file_hash: fake.file_hash } : id);
  return {
    ...proof,
    from: swap(proof.from as TlObject),
    to: swap(proof.to as TlObject),
    steps: (proof.steps as TlObject[]).map((s) => ({ ...s, from: swap(s.from as TlObject), to: swap(s.to as TlObject) })),
  };
}

/**
 * A liar that names some masterchain blocks by other ids: `fakeOf(realId, data)` gives the fake id (or null:
 * honest), `bytesOf` what getBlock sends for it. Proof requests for a fake id get the honest proof renamed.
 */
function namingLiar(fakeOf: (real: TlObject, data: Buffer) => { id: TlObject; bytes: Buffer } | null): Liar {
  const fakes = new Map<number, { real: TlObject; fake: TlObject; bytes: Buffer }>();
  const liar: Liar = { lies: 0, intercept: async () => ({}) };
  const fakeFor = async (real: TlObject, answer: Answer) => {
    if (!isMc(real)) return null;
    let f = fakes.get(real.seqno as number);
    if (!f) {
      const data = (await answer({ _: 'liteServer.getBlock', id: real })).data as Buffer;
      const made = fakeOf(real, data);
      if (!made) return null;
      f = { real, fake: made.id, bytes: made.bytes };
      fakes.set(real.seqno as number, f);
    }
    return f;
  };
  liar.intercept = async (q, answer) => {
    if (q._ === 'liteServer.lookupBlock' || q._ === 'liteServer.getMasterchainInfo' || q._ === 'liteServer.getMasterchainInfoExt') {
      const res = await answer(q);
      const key = q._ === 'liteServer.lookupBlock' ? 'id' : 'last';
      const f = await fakeFor(res[key] as TlObject, answer);
      if (!f) return res;
      liar.lies++;
      return { ...res, [key]: f.fake };
    }
    if (q._ === 'liteServer.getBlock' && isMc(q.id as TlObject)) {
      const f = fakes.get((q.id as TlObject).seqno as number);
      if (f && sameId(q.id as TlObject, f.fake)) {
        liar.lies++;
        return { _: 'liteServer.blockData', id: f.fake, data: f.bytes };
      }
    }
    if (q._ === 'liteServer.getBlockProof') {
      const target = q.target_block as TlObject | undefined;
      const f = target ? fakes.get(target.seqno as number) : undefined;
      if (f && target && sameId(target, f.fake)) {
        liar.lies++;
        return renameInProof(await answer({ ...q, target_block: f.real }), f.real, f.fake);
      }
    }
    return answer(q);
  };
  return liar;
}

export function forgedSignature(): Liar {
  const liar: Liar = { lies: 0, intercept: async () => ({}) };
  liar.intercept = async (q, answer) => {
    const res = await answer(q);
    if (q._ !== 'liteServer.getBlockProof') return res;
    const steps = (res.steps as TlObject[]).map((s) => {
      if (s._ !== 'liteServer.blockLinkForward') return s;
      const set = s.signatures as TlObject;
      const sigs = (set.signatures as TlObject[]).map((x, i) => {
        if (i !== 0) return x;
        const signature = Buffer.from(x.signature as Buffer);
        signature[5] ^= 0x01;
        return { ...x, signature };
      });
      liar.lies++;
      return { ...s, signatures: { ...set, signatures: sigs } };
    });
    return { ...res, steps };
  };
  return liar;
}

/** The same cells in other BoC bytes (another serialization of the same root). */
export function reencode(boc: Buffer): Buffer {
  const root = Cell.fromBoc(boc)[0];
  for (const opts of [{ idx: true, crc32: true }, { idx: false, crc32: false }, { idx: true, crc32: false }, { idx: false, crc32: true }]) {
    const out = root.toBoc(opts);
    if (!out.equals(boc)) return out;
  }
  throw new Error('no other serialization of the block');
}

export function reencodedTip(tipSeqno: number): Liar {
  return namingLiar((real, data) => {
    if (real.seqno !== tipSeqno) return null;
    const bytes = reencode(data);
    // the same cells: the root hash is the honest one, only the file hash differs
    parseBoc(bytes); // our reader takes it
    if (!Cell.fromBoc(bytes)[0].hash().equals(real.root_hash as Buffer)) throw new Error('re-encoding changed the root hash');
    return { id: { ...real, file_hash: sha256(bytes) }, bytes };
  });
}

/** From masterchain seqno `from` on (below it the anchor would give the lie away before any proof is asked). */
export function fabricatedLookup(from = 2): Liar {
  return namingLiar((real, data) => {
    if ((real.seqno as number) < from) return null;
    const root = sha256(Buffer.concat([Buffer.from('fabricated'), real.root_hash as Buffer]));
    return { id: { ...real, root_hash: root, file_hash: sha256(root) }, bytes: data };
  });
}

export function flippedByte(): Liar {
  const liar: Liar = { lies: 0, intercept: async () => ({}) };
  liar.intercept = async (q, answer) => {
    const res = await answer(q);
    if (q._ !== 'liteServer.getBlock' || !isMc(q.id as TlObject)) return res;
    const data = Buffer.from(res.data as Buffer);
    data[data.length - 40] ^= 0x10;
    liar.lies++;
    return { ...res, data };
  };
  return liar;
}

export function futureTip(ahead: number): Liar {
  const liar: Liar = { lies: 0, intercept: async () => ({}) };
  liar.intercept = async (q, answer) => {
    const res = await answer(q);
    if (q._ !== 'liteServer.getMasterchainInfo' && q._ !== 'liteServer.getMasterchainInfoExt') return res;
    const last = res.last as TlObject;
    liar.lies++;
    return { ...res, last: { ...last, seqno: (last.seqno as number) + ahead, root_hash: sha256(last.root_hash as Buffer), file_hash: sha256(last.file_hash as Buffer) } };
  };
  return liar;
}
