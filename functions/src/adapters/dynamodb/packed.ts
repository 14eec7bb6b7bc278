// the readings' arrays as their items store them, packed so that a facility's minute of 150
// sensors is about 3 KB, not 7,6, and a sensor's day of minute readings about 3 KB, not 17
// (docs/architecture.md, «The mine's readings»). Every array reads back to the bit: a value the packing
// cannot hold exactly is kept as its raw 8 bytes.

/** Unsigned integers (safe, ≥ 0) as LEB128 varints: 7 bits a byte, low first. */
class VarintWriter {
  private bytes = new Uint8Array(64);
  length = 0;

  private room(n: number) {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  uint(n: number) {
    this.room(8);
    while (n >= 0x80) {
      this.bytes[this.length++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.bytes[this.length++] = n;
  }

  raw(bytes: Uint8Array) {
    this.room(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  done() {
    return this.bytes.slice(0, this.length);
  }
}

class VarintReader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get more() {
    return this.at < this.bytes.length;
  }

  uint() {
    let n = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) throw new Error("packed readings end inside a number");
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 0x80;
    }
  }

  raw(n: number) {
    if (this.at + n > this.bytes.length) throw new Error("packed readings end inside a value");
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
}

const zigzag = (n: number) => (n < 0 ? -2 * n - 1 : 2 * n);
const unzigzag = (n: number) => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);

/** The sorted offsets (ms into the day) of a sensor's day: the first, then each step's change from the
 *  step before (a reading a minute: one byte each). */
export function packOffsets(offsets: Uint32Array): Uint8Array {
  const out = new VarintWriter();
  let previous = 0;
  let step = 0;
  for (const offset of offsets) {
    out.uint(zigzag(offset - previous - step));
    step = offset - previous;
    previous = offset;
  }
  return out.done();
}

export function unpackOffsets(bytes: Uint8Array): Uint32Array {
  const read = new VarintReader(bytes);
  const offsets: number[] = [];
  let previous = 0;
  let step = 0;
  while (read.more) {
    step += unzigzag(read.uint());
    previous += step;
    offsets.push(previous);
  }
  return Uint32Array.from(offsets);
}

/** Integers (safe) as each one's step from the one before, zigzag varints: a push's instants (one
 *  instant: a byte a reading after the first) or its readings' sensor indices. */
export function packSteps(numbers: ArrayLike<number>): Uint8Array {
  const out = new VarintWriter();
  let previous = 0;
  for (let i = 0; i < numbers.length; i++) {
    out.uint(zigzag(numbers[i] - previous));
    previous = numbers[i];
  }
  return out.done();
}

export function unpackSteps(bytes: Uint8Array): number[] {
  const read = new VarintReader(bytes);
  const numbers: number[] = [];
  let previous = 0;
  while (read.more) {
    previous += unzigzag(read.uint());
    numbers.push(previous);
  }
  return numbers;
}

/** The decimal places a packing of values may keep (a gas analyser's reading has 2 to 4). */
const MAX_DECIMALS = 6;
/** The largest scaled integer packed as such: its steps and their tags stay safe integers. */
const MAX_SCALED = 2 ** 48;
/** How far (in units of the last place) a value may lie from its decimal to be packed as that decimal
 *  and the distance (0,1 + 0,2 is 0,30000000000000004, one unit from 0,3). */
const MAX_ULPS = 2 ** 20;

/** The values' packing, a first byte saying which: 0…6 the decimal places of the tokens after it,
 *  RAW_VALUES the raw little-endian Float64 bytes. */
const RAW_VALUES = 0xff;
/** A token's low two bits: the value is its decimal; its decimal and a distance in units of the last
 *  place follow; its raw 8 bytes follow. The bits above are the step of the decimal's integer from the
 *  previous one's (zigzag). */
const EXACT = 0;
const NEAR = 1;
const RAW = 2;

const scaled = (value: number, scale: number) => {
  const n = Math.round(value * scale);
  return Math.abs(n) <= MAX_SCALED ? n : undefined;
};

/** The fewest decimal places (≤ MAX_DECIMALS) at which the value is its decimal to the bit, if any. */
function decimalsOf(value: number): number | undefined {
  for (let k = 0, scale = 1; k <= MAX_DECIMALS; k++, scale *= 10) {
    const n = scaled(value, scale);
    if (n !== undefined && Object.is(n / scale, value)) return k;
  }
  return undefined;
}

/** Values as scaled decimals: each its integer's step from the one before (a sensor's readings change
 *  little from one to the next), one byte or two a value; a value no decimal of the chosen places holds
 *  is its decimal and its distance from it in units of the last place, or failing that its raw bytes.
 *  Raw Float64 when that is not larger. Reads back to the bit (NaN, −0, huge and tiny values included). */
export function packValues(values: Float64Array): Uint8Array {
  const raw = new Uint8Array(values.length * 8 + 1);
  raw[0] = RAW_VALUES;
  raw.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), 1);
  let decimals = 0;
  for (const value of values) decimals = Math.max(decimals, decimalsOf(value) ?? 0);
  const scale = 10 ** decimals;
  const bits = new BigInt64Array(values.buffer, values.byteOffset, values.length);
  const candidate = new Float64Array(1);
  const candidateBits = new BigInt64Array(candidate.buffer);
  const out = new VarintWriter();
  out.uint(decimals);
  let previous = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const n = Number.isFinite(value) ? scaled(value, scale) : undefined;
    if (n !== undefined && Object.is(n / scale, value)) {
      out.uint(zigzag(n - previous) * 4 + EXACT);
      previous = n;
      continue;
    }
    candidate[0] = n === undefined ? Number.NaN : n / scale;
    const ulps = n === undefined ? undefined : Number(bits[i] - candidateBits[0]);
    if (n !== undefined && ulps !== undefined && Math.abs(ulps) <= MAX_ULPS) {
      out.uint(zigzag(n - previous) * 4 + NEAR);
      out.uint(zigzag(ulps));
      previous = n;
      continue;
    }
    out.uint(RAW);
    out.raw(new Uint8Array(values.buffer, values.byteOffset + i * 8, 8));
  }
  if (out.length >= raw.length) return raw;
  const packed = out.done();
  // Belt and braces: what does not read back to the bit is kept raw.
  const back = new Uint8Array(unpackValues(packed).buffer);
  const same = back.length === raw.length - 1 && back.every((b, i) => b === raw[i + 1]);
  return same ? packed : raw;
}

export function unpackValues(bytes: Uint8Array): Float64Array {
  if (bytes.length === 0) return new Float64Array(0);
  if (bytes[0] === RAW_VALUES) {
    const out = new Uint8Array(bytes.length - 1);
    out.set(bytes.subarray(1));
    return new Float64Array(out.buffer);
  }
  const read = new VarintReader(bytes);
  const scale = 10 ** read.uint();
  const values: number[] = [];
  const rawAt: { index: number; bytes: Uint8Array }[] = [];
  const nearAt: { index: number; ulps: number }[] = [];
  let previous = 0;
  while (read.more) {
    const token = read.uint();
    const tag = token % 4;
    if (tag === RAW) {
      rawAt.push({ index: values.length, bytes: read.raw(8) });
      values.push(0);
      continue;
    }
    previous += unzigzag((token - tag) / 4);
    if (tag === NEAR) nearAt.push({ index: values.length, ulps: unzigzag(read.uint()) });
    values.push(previous / scale);
  }
  const out = Float64Array.from(values);
  const outBytes = new Uint8Array(out.buffer);
  for (const { index, bytes: raw } of rawAt) outBytes.set(raw, index * 8);
  const outBits = new BigInt64Array(out.buffer);
  for (const { index, ulps } of nearAt) outBits[index] = BigInt.asIntN(64, outBits[index] + BigInt(ulps));
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Sensors' ids as 16 bytes each when every one is a UUID as the platform writes them (lower-case
 *  hex), undefined otherwise (the caller keeps the strings). */
export function packIds(ids: readonly string[]): Uint8Array | undefined {
  if (!ids.every((id) => UUID.test(id))) return undefined;
  return new Uint8Array(Buffer.from(ids.join("").replaceAll("-", ""), "hex"));
}

export function unpackIds(bytes: Uint8Array): string[] {
  // One hex string of them all, cut: a minute's 150 ids are read often (the detector's window reads
  // hundreds of minutes), and a string a byte took ten times as long.
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
  const ids: string[] = [];
  for (let i = 0; i + 32 <= hex.length; i += 32)
    ids.push(
      `${hex.slice(i, i + 8)}-${hex.slice(i + 8, i + 12)}-${hex.slice(i + 12, i + 16)}-${hex.slice(i + 16, i + 20)}-${hex.slice(i + 20, i + 32)}`,
    );
  return ids;
}
