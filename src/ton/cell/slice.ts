/**
 * A read cursor over one cell of a `Cells` arena (bits read straight from the BoC buffer).
 * Readers throw DecodeError when they run past the cell's bits or refs.
 */
import { DecodeError } from '../errors.ts';
import { CELL_ORDINARY, type Cells } from './boc.ts';

const TWO32 = 4294967296;

export class Slice {
  readonly cells: Cells;
  readonly cell: number;
  /** absolute bit position in cells.buf */
  pos: number;
  readonly end: number;
  ref: number;
  readonly refEnd: number;
  /** what is being read, for error messages */
  readonly what: string;

  constructor(cells: Cells, cell: number, what = 'cell') {
    this.what = what;
    this.cells = cells;
    this.cell = cell;
    this.pos = cells.dataOff[cell] * 8;
    this.end = this.pos + cells.bits[cell];
    this.ref = 0;
    this.refEnd = cells.refCount[cell];
  }

  /** Open an ordinary cell for reading (exotic cells are not TL-B data: pruned branches mean the data is absent). */
  static of(cells: Cells, cell: number, what: string): Slice {
    if (cells.type[cell] !== CELL_ORDINARY) {
      throw new DecodeError(`${what}: cell is ${cells.type[cell] === 1 ? 'pruned' : 'exotic'} in this BoC`);
    }
    return new Slice(cells, cell, what);
  }

  get bitsLeft(): number {
    return this.end - this.pos;
  }

  get refsLeft(): number {
    return this.refEnd - this.ref;
  }

  /** bit offset inside the cell */
  get bitOffset(): number {
    return this.pos - this.cells.dataOff[this.cell] * 8;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new DecodeError(`${this.what}: cell underflow (need ${n} bits, ${this.end - this.pos} left)`);
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }

  bit(): boolean {
    this.need(1);
    const p = this.pos++;
    return ((this.cells.buf[p >> 3] >> (7 - (p & 7))) & 1) === 1;
  }

  /** unsigned, n <= 48 */
  uint(n: number): number {
    this.need(n);
    const buf = this.cells.buf;
    let p = this.pos;
    let r = 0;
    let left = n;
    while (left > 0) {
      const bo = p & 7;
      const take = 8 - bo < left ? 8 - bo : left;
      const v = (buf[p >> 3] >> (8 - bo - take)) & ((1 << take) - 1);
      r = r * (1 << take) + v;
      p += take;
      left -= take;
    }
    this.pos = p;
    return r;
  }

  preloadUint(n: number): number {
    const p = this.pos;
    const v = this.uint(n);
    this.pos = p;
    return v;
  }

  /** signed, n <= 48 */
  int(n: number): number {
    const u = this.uint(n);
    const half = 2 ** (n - 1);
    return u >= half ? u - 2 * half : u;
  }

  /** unsigned 64-bit */
  uint64(): bigint {
    const hi = this.uint(32);
    const lo = this.uint(32);
    // exact as a double while below 2^53
    if (hi < 0x200000) return BigInt(hi * TWO32 + lo);
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** unsigned, any n, as bigint */
  bigUint(n: number): bigint {
    if (n <= 48) return BigInt(this.uint(n));
    let r = 0n;
    while (n > 0) {
      const take = n > 48 ? 48 : n;
      r = (r << BigInt(take)) | BigInt(this.uint(take));
      n -= take;
    }
    return r;
  }

  /** `var_uint$_ {n:#} len:(#< n) value:(uint (len * 8)) = VarUInteger n;` */
  varUint(n: number): bigint {
    const lenBits = 32 - Math.clz32(n - 1);
    const len = this.uint(lenBits);
    if (len === 0) return 0n;
    return this.bigUint(len * 8);
  }

  /** `nanograms$_ amount:(VarUInteger 16) = Grams;` */
  grams(): bigint {
    const len = this.uint(4);
    if (len === 0) return 0n;
    if (len <= 6) return BigInt(this.uint(len * 8));
    return this.bigUint(len * 8);
  }

  /** n bits as hex (right-padded with zeros to whole bytes), upper or lower case */
  hex(n: number, upper = false): string {
    this.need(n);
    let s: string;
    if ((this.pos & 7) === 0 && (n & 7) === 0) {
      const b = this.pos >> 3;
      s = this.cells.buf.toString('hex', b, b + (n >> 3));
      this.pos += n;
    } else {
      const bytes = Buffer.alloc((n + 7) >> 3);
      let i = 0;
      let left = n;
      while (left > 0) {
        const take = left >= 8 ? 8 : left;
        bytes[i++] = this.uint(take) << (8 - take);
        left -= take;
      }
      s = bytes.toString('hex');
    }
    return upper ? s.toUpperCase() : s;
  }

  /** 256 bits as lower-case hex */
  hash(): string {
    return this.hex(256);
  }

  loadRef(): number {
    if (this.ref >= this.refEnd) throw new DecodeError(`${this.what}: cell underflow (no more refs)`);
    return this.cells.refs[this.cell * 4 + this.ref++];
  }

  /** Slice of the next ref (must be an ordinary cell) */
  refSlice(what: string): Slice {
    return Slice.of(this.cells, this.loadRef(), what);
  }

  /** Maybe ^X: the ref cell index or -1 */
  maybeRef(): number {
    return this.bit() ? this.loadRef() : -1;
  }
}
