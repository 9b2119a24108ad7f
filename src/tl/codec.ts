/**
 * TL binary serialization (little-endian ints, 4-byte aligned bytes) driven by a parsed schema.
 * Values: int/# -> number, long -> bigint, int128/int256 -> Buffer, bytes -> Buffer, string -> string,
 * Bool/true -> boolean, bare constructors -> plain objects, boxed types -> objects with `_` = constructor name,
 * vectors -> arrays.
 */
import type { TlConstructor, TlSchema } from './schema.ts';

export type TlValue = number | bigint | boolean | string | Buffer | TlObject | TlValue[] | null | undefined;
export interface TlObject {
  _?: string;
  [field: string]: TlValue;
}

/** A TL decode failure (truncated or unknown data): the query is malformed. */
export class TlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlError';
  }
}

export class TlWriter {
  private chunks: Buffer[] = [];
  int(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v | 0);
    this.chunks.push(b);
    return this;
  }
  uint(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    this.chunks.push(b);
    return this;
  }
  long(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt.asIntN(64, v));
    this.chunks.push(b);
    return this;
  }
  raw(b: Buffer | Uint8Array): this {
    this.chunks.push(Buffer.from(b));
    return this;
  }
  fixed(b: Buffer, size: number): this {
    if (b.length !== size) throw new TlError(`expected ${size} bytes, got ${b.length}`);
    return this.raw(b);
  }
  bytes(b: Buffer | Uint8Array): this {
    const len = b.length;
    let header: Buffer;
    if (len < 254) {
      header = Buffer.from([len]);
    } else {
      header = Buffer.from([254, len & 0xff, (len >> 8) & 0xff, (len >> 16) & 0xff]);
    }
    const total = header.length + len;
    const pad = (4 - (total % 4)) % 4;
    this.chunks.push(header, Buffer.from(b), Buffer.alloc(pad));
    return this;
  }
  build(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export class TlReader {
  offset = 0;
  constructor(readonly buf: Buffer) {}
  private need(n: number): void {
    if (this.offset + n > this.buf.length) throw new TlError(`truncated TL data at byte ${this.offset}`);
  }
  int(): number {
    this.need(4);
    const v = this.buf.readInt32LE(this.offset);
    this.offset += 4;
    return v;
  }
  uint(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.offset);
    this.offset += 4;
    return v;
  }
  long(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64LE(this.offset);
    this.offset += 8;
    return v;
  }
  fixed(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return Buffer.from(v);
  }
  bytes(): Buffer {
    this.need(1);
    let len = this.buf[this.offset];
    let header = 1;
    if (len === 254) {
      this.need(4);
      len = this.buf[this.offset + 1] | (this.buf[this.offset + 2] << 8) | (this.buf[this.offset + 3] << 16);
      header = 4;
    } else if (len === 255) {
      throw new TlError(`bad TL bytes length prefix at byte ${this.offset}`);
    }
    this.need(header + len);
    const v = Buffer.from(this.buf.subarray(this.offset + header, this.offset + header + len));
    const total = header + len;
    this.offset += total + ((4 - (total % 4)) % 4);
    if (this.offset > this.buf.length) throw new TlError('truncated TL bytes padding');
    return v;
  }
  remaining(): number {
    return this.buf.length - this.offset;
  }
}

export class TlCodec {
  private readonly boolTrue: number;
  private readonly boolFalse: number;
  constructor(readonly schema: TlSchema) {
    this.boolTrue = this.ctor('boolTrue').id;
    this.boolFalse = this.ctor('boolFalse').id;
  }

  ctor(name: string): TlConstructor {
    const c = this.schema.byName.get(name);
    if (!c) throw new TlError(`unknown TL constructor ${name}`);
    return c;
  }

  /** Serializes a boxed object (constructor id + fields). */
  encode(obj: TlObject, w = new TlWriter()): Buffer {
    if (!obj._) throw new TlError('boxed TL object needs a constructor name in `_`');
    const c = this.ctor(obj._);
    w.int(c.id);
    this.writeFields(c, obj, w);
    return w.build();
  }

  /** Reads one boxed object (any constructor of the schema). */
  decode(r: TlReader | Buffer): TlObject {
    const reader = r instanceof TlReader ? r : new TlReader(r);
    const id = reader.int();
    const c = this.schema.byId.get(id);
    if (!c) throw new TlError(`unknown TL constructor id 0x${(id >>> 0).toString(16).padStart(8, '0')}`);
    const obj = this.readFields(c, reader);
    obj._ = c.name;
    return obj;
  }

  private writeFields(c: TlConstructor, obj: TlObject, w: TlWriter): void {
    for (const f of c.fields) {
      if (f.cond) {
        const flags = Number(obj[f.cond.flagField] ?? 0);
        if (!(flags & (1 << f.cond.bit))) continue;
        if (f.type === 'true') continue;
      }
      const v = obj[f.name];
      if (v === undefined || v === null) throw new TlError(`${c.name}: missing field ${f.name}`);
      this.writeValue(f.type, v, w, `${c.name}.${f.name}`);
    }
  }

  private writeValue(type: string, v: TlValue, w: TlWriter, where: string): void {
    switch (type) {
      case 'int':
        w.int(Number(v));
        return;
      case '#':
        w.uint(Number(v));
        return;
      case 'long':
        w.long(BigInt(v as bigint | number));
        return;
      case 'int128':
        w.fixed(v as Buffer, 16);
        return;
      case 'int256':
        w.fixed(v as Buffer, 32);
        return;
      case 'bytes':
        w.bytes(v as Buffer);
        return;
      case 'string':
        w.bytes(Buffer.from(v as string, 'utf8'));
        return;
      case 'Bool':
        w.int(v ? this.boolTrue : this.boolFalse);
        return;
      case 'true':
        return;
    }
    if (type.startsWith('vector ')) {
      const inner = type.slice(7);
      const arr = v as TlValue[];
      if (!Array.isArray(arr)) throw new TlError(`${where}: expected an array`);
      w.uint(arr.length);
      for (const x of arr) this.writeValue(inner, x, w, where);
      return;
    }
    const bare = this.schema.byName.get(type);
    if (bare) {
      this.writeFields(bare, v as TlObject, w);
      return;
    }
    // Boxed type: the value names its constructor.
    this.encode(v as TlObject, w);
  }

  private readFields(c: TlConstructor, r: TlReader): TlObject {
    const obj: TlObject = {};
    for (const f of c.fields) {
      if (f.cond) {
        const flags = Number(obj[f.cond.flagField] ?? 0);
        if (!(flags & (1 << f.cond.bit))) {
          obj[f.name] = f.type === 'true' ? false : null;
          continue;
        }
        if (f.type === 'true') {
          obj[f.name] = true;
          continue;
        }
      }
      obj[f.name] = this.readValue(f.type, r);
    }
    return obj;
  }

  private readValue(type: string, r: TlReader): TlValue {
    switch (type) {
      case 'int':
        return r.int();
      case '#':
        return r.uint();
      case 'long':
        return r.long();
      case 'int128':
        return r.fixed(16);
      case 'int256':
        return r.fixed(32);
      case 'bytes':
        return r.bytes();
      case 'string':
        return r.bytes().toString('utf8');
      case 'Bool': {
        const id = r.int();
        if (id === this.boolTrue) return true;
        if (id === this.boolFalse) return false;
        throw new TlError(`bad Bool constructor 0x${(id >>> 0).toString(16)}`);
      }
      case 'true':
        return true;
    }
    if (type.startsWith('vector ')) {
      const inner = type.slice(7);
      const n = r.uint();
      if (n > r.remaining()) throw new TlError(`vector length ${n} exceeds the data`);
      const out: TlValue[] = [];
      for (let i = 0; i < n; i++) out.push(this.readValue(inner, r));
      return out;
    }
    const bare = this.schema.byName.get(type);
    if (bare) return this.readFields(bare, r);
    const obj = this.decode(r);
    const allowed = this.schema.byResult.get(type);
    if (allowed && !allowed.some((c) => c.name === obj._)) throw new TlError(`${obj._} is not a ${type}`);
    return obj;
  }
}
