/**
 * tlbc's MinMaxSize (crypto/tl/tlbc-aux.h): a bit/ref range of a type, saturating at 2047 bits and 7 refs
 * ("infinity"). Used to tell fixed-size fields, 1-bit Bool-like types and Unit types apart exactly as the
 * code generator does, since that decides how a field is printed.
 */
const MAX_BITS = 0x7ff;
const MAX_REFS = 7;

export class MinMaxSize {
  constructor(
    public minBits: number,
    public minRefs: number,
    public maxBits: number,
    public maxRefs: number,
  ) {}

  static fixed(bits: number, refs = 0): MinMaxSize {
    return new MinMaxSize(bits, refs, bits, refs);
  }
  static range(min: number, max: number): MinMaxSize {
    return new MinMaxSize(min, 0, max, 0);
  }
  static any(): MinMaxSize {
    return new MinMaxSize(0, 0, MAX_BITS, MAX_REFS);
  }
  static oneRef(): MinMaxSize {
    return MinMaxSize.fixed(0, 1);
  }
  static impossible(): MinMaxSize {
    return new MinMaxSize(MAX_BITS, MAX_REFS, 0, 0);
  }

  clone(): MinMaxSize {
    return new MinMaxSize(this.minBits, this.minRefs, this.maxBits, this.maxRefs);
  }
  equals(o: MinMaxSize): boolean {
    return this.minBits === o.minBits && this.minRefs === o.minRefs && this.maxBits === o.maxBits && this.maxRefs === o.maxRefs;
  }
  isFixed(): boolean {
    return this.minBits === this.maxBits && this.minRefs === this.maxRefs;
  }
  isPossible(): boolean {
    return this.minBits <= this.maxBits && this.minRefs <= this.maxRefs;
  }
  /** bits of a fixed size without refs, else -1 */
  fixedBitSize(): number {
    return this.isFixed() && this.maxRefs === 0 ? this.minBits : -1;
  }
  add(o: MinMaxSize): MinMaxSize {
    return new MinMaxSize(
      Math.min(this.minBits + o.minBits, MAX_BITS),
      Math.min(this.minRefs + o.minRefs, MAX_REFS),
      Math.min(this.maxBits + o.maxBits, MAX_BITS),
      Math.min(this.maxRefs + o.maxRefs, MAX_REFS),
    );
  }
  or(o: MinMaxSize): MinMaxSize {
    return new MinMaxSize(
      Math.min(this.minBits, o.minBits),
      Math.min(this.minRefs, o.minRefs),
      Math.max(this.maxBits, o.maxBits),
      Math.max(this.maxRefs, o.maxRefs),
    );
  }
  clearMin(): MinMaxSize {
    return new MinMaxSize(0, 0, this.maxBits, this.maxRefs);
  }
  repeat(count: number): MinMaxSize {
    if (count <= 0) return MinMaxSize.fixed(0);
    if (count === 1) return this.clone();
    const c = Math.min(count, 1024);
    return new MinMaxSize(
      Math.min(this.minBits * c, MAX_BITS),
      Math.min(this.minRefs * c, MAX_REFS),
      Math.min(this.maxBits * c, MAX_BITS),
      Math.min(this.maxRefs * c, MAX_REFS),
    );
  }
  repeatAtLeast(count: number): MinMaxSize {
    const c = Math.min(Math.max(count, 0), 1024);
    return new MinMaxSize(
      Math.min(this.minBits * c, MAX_BITS),
      Math.min(this.minRefs * c, MAX_REFS),
      this.maxBits ? MAX_BITS : 0,
      this.maxRefs ? MAX_REFS : 0,
    );
  }
}

// ---------------------------------------------------------------- abstract naturals (tlbc.cpp)
// a nat is abstracted to a set of {0, 1, even >= 2, odd >= 3}, bit i = class i

const ADD_BASE = [[0, 1, 2, 3], [1, 2, 3, 2], [2, 3, 2, 3], [3, 2, 3, 2]];
const MUL_BASE = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 2, 2], [0, 3, 2, 3]];
const GETBIT_B = [[1, 1, 1, 1], [2, 1, 1, 1], [1, 3, 3, 3], [2, 3, 3, 3]];

function semilat(base: number[][], asMask: boolean): number[][] {
  const t: number[][] = [];
  for (let x = 0; x < 16; x++) {
    t.push([]);
    for (let y = 0; y < 16; y++) {
      let r = 0;
      for (let i = 0; i < 4; i++) if ((x >> i) & 1) for (let j = 0; j < 4; j++) if ((y >> j) & 1) r |= asMask ? base[i][j] : 1 << base[i][j];
      t[x].push(r);
    }
  }
  return t;
}

const ADD = semilat(ADD_BASE, false);
const MUL = semilat(MUL_BASE, false);
const GETBIT = semilat(GETBIT_B, true);

export const abstractConst = (v: number): number => 1 << ((v & 1) + (v >= 2 ? 2 : 0));
export const abstractAdd = (x: number, y: number): number => ADD[x & 15][y & 15];
export const abstractMul = (x: number, y: number): number => MUL[x & 15][y & 15];
export const abstractGetBit = (x: number, y: number): number => GETBIT[x & 15][y & 15];
