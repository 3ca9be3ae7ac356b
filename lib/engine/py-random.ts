/**
 * CPython-compatible `random.Random`: MT19937 with Python's integer seeding, `getrandbits`, `random()`
 * and `shuffle`. Every shuffle of the original goes through `random.Random(seed).shuffle(list)`, so the
 * same seed gives the same batches, minibatches and samples as the Python SkillOpt (spec §3.6).
 */

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private mti = N + 1;

  /** Seeds like `random.Random(n)` for an integer n (Python uses |n|). */
  constructor(seed: number | bigint) {
    this.seed(seed);
  }

  seed(seed: number | bigint): void {
    let n = typeof seed === "bigint" ? seed : BigInt(Math.trunc(seed));
    if (typeof seed === "number" && !Number.isSafeInteger(Math.trunc(seed))) {
      throw new RangeError(`seed must be a safe integer, got ${seed}`);
    }
    if (n < 0n) n = -n;
    const key: number[] = [];
    while (n > 0n) {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    }
    if (key.length === 0) key.push(0);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      // 1812433253 * prev + i, in 32-bit arithmetic
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    const keyLength = key.length;
    for (let k = Math.max(N, keyLength); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= keyLength) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** Refills the state with the next 624 untempered words (MT19937's twist). */
  private twist(): void {
    const mt = this.mt;
    let kk = 0;
    for (; kk < N - M; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
      mt[kk] = mt[kk + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    for (; kk < N - 1; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
      mt[kk] = mt[kk + (M - N)]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    const y = (mt[N - 1]! & UPPER_MASK) | (mt[0]! & LOWER_MASK);
    mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    this.mti = 0;
  }

  /** One tempered 32-bit output of MT19937. */
  genrandUint32(): number {
    if (this.mti >= N) this.twist();
    return temper(this.mt[this.mti++]!);
  }

  /** `random.getrandbits(k)` for 1 ≤ k ≤ 32. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 1 || k > 32) throw new RangeError(`getrandbits supports 1..32 bits, got ${k}`);
    return this.genrandUint32() >>> (32 - k);
  }

  /** `random.random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.genrandUint32() >>> 5;
    const b = this.genrandUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** Python's `_randbelow_with_getrandbits(n)` for 1 ≤ n < 2³². */
  randbelow(n: number): number {
    checkBelow(n);
    // getrandbits(k) with k = n.bit_length() keeps the top k bits of one 32-bit output.
    const shift = Math.clz32(n);
    let r = this.genrandUint32() >>> shift;
    while (r >= n) r = this.genrandUint32() >>> shift;
    return r;
  }

  /**
   * Fills `out` with `out.length` draws of `randbelow(n)`, in order: the same numbers as that many calls,
   * without a call's checks per draw (the bootstrap of the gate evidence draws hundreds of thousands).
   */
  fillBelow(n: number, out: Uint32Array): void {
    checkBelow(n);
    const shift = Math.clz32(n);
    const mt = this.mt;
    const len = out.length;
    let mti = this.mti;
    // Each output is either accepted (below n) or thrown away, in order, as randbelow's retry loop does.
    for (let i = 0; i < len;) {
      if (mti >= N) {
        this.twist();
        mti = 0;
      }
      let y = mt[mti++]!;
      y ^= y >>> 11;
      y ^= (y << 7) & 0x9d2c5680;
      y ^= (y << 15) & 0xefc60000;
      y ^= y >>> 18;
      const r = (y >>> 0) >>> shift;
      if (r < n) out[i++] = r;
    }
    this.mti = mti;
  }

  /** `random.shuffle(x)` in place. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const t = x[i]!;
      x[i] = x[j]!;
      x[j] = t;
    }
  }
}

function temper(word: number): number {
  let y = word;
  y ^= y >>> 11;
  y ^= (y << 7) & 0x9d2c5680;
  y ^= (y << 15) & 0xefc60000;
  y ^= y >>> 18;
  return y >>> 0;
}

function checkBelow(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n >= 2 ** 32) throw new RangeError(`randbelow needs 1..2^32-1, got ${n}`);
}

/** A shuffled copy, as `random.Random(seed).shuffle(list(items))`. */
export function pyShuffled<T>(items: readonly T[], seed: number | bigint): T[] {
  const copy = items.slice();
  new PyRandom(seed).shuffle(copy);
  return copy;
}
