/**
 * One lite_api query over a ton-lite-client engine, (de)serialized by the project's TL codec (src/tl), so that
 * answers come back as the plain objects src/proofs checks. A liteServer.error answer throws LiteAnswerError.
 */
import type { LiteEngine } from 'ton-lite-client';
import type { TLFunction } from 'ton-tl';
import { liteApi, type TlObject } from '../tl/index.ts';

/** The liteserver answered liteServer.error. */
export class LiteAnswerError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'LiteAnswerError';
  }
}

const tlFunction: TLFunction<TlObject, TlObject> = {
  encodeRequest(src, encoder) {
    const bytes = liteApi.encode(src);
    // TL objects are 4-byte aligned: written as little-endian int32 words.
    for (let i = 0; i < bytes.length; i += 4) encoder.writeInt32(bytes.readInt32LE(i));
  },
  decodeResponse(decoder) {
    const obj = liteApi.decode(decoder.readObject());
    if (obj._ === 'liteServer.error') throw new LiteAnswerError(String(obj.message), Number(obj.code));
    return obj;
  },
};

export function liteQuery(engine: LiteEngine, query: TlObject, timeoutMs: number): Promise<TlObject> {
  return engine.query(tlFunction, query, { timeout: timeoutMs });
}
