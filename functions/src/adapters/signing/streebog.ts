// Streebog, the hash of GOST R 34.11-2012 (RFC 6986), with 256 and 512 bit digests, in plain
// TypeScript: node:crypto's OpenSSL has no GOST. The structure follows the gost-engine's portable code
// (gosthash2012.c, gosthash2012_ref.h). A 512-bit block is eight 64-bit words, each held here as two
// 32-bit halves (lo at 2k, hi at 2k + 1) of a Uint32Array: JavaScript does 32-bit integer operations
// fast and BigInt ones slowly. The LPS step (substitution by Pi, transposition of the 8×8 bytes,
// multiplication of each word by the matrix A) is eight lookups per output word in a table computed
// once at module load from the standard's Pi and A (the engine ships that table precomputed,
// gosthash2012_precalc.h; streebog.test.ts compares the two). Bytes are read as little-endian words,
// and the digest is the state's bytes in memory order, as `openssl dgst -md_gost12_256` prints it
// (RFC 6986 prints the same bytes reversed).

/** Pi, the byte substitution of GOST R 34.11-2012 (the same S-box as Kuznyechik's). */
const PI = Buffer.from(
  "fceedd11cf6e3116fbc4fada23c5044de977f0db932e99ba1736f1bb14cd5fc1f918655ae25cef21811c3c428b018e4f058402aee36a8fa0060bed987fd4d31f" +
    "eb342c51eac848abf22a68a2fd3aceccb5700e56080c7612bf7213479cb75d8715a19629107b9ac7f391786f9d9eb2b13275193dff358a7e6d54c680c3bd0d57" +
    "dff524a93ea843c9d779d6f67c22b903e00fecde7a94b0bcdce828504e330a4aa79760731e0062441ab83882649f2641ad454692275e552f8ca3a57d69d5953b" +
    "0758b34086ac1df730376be488d9e789e11b83494c3ff8fe8d53aa90cad88561207167a42d2b095bcb9b25d0bee56c5259a674d2e6f4b4c0d166afc2394b63b6",
  "hex",
);

/** The rows of the matrix A of the linear transformation l (GOST R 34.11-2012, 5.4): bit 63 − j of a
 *  word selects A[j]. */
const A = [
  "8e20faa72ba0b470 47107ddd9b505a38 ad08b0e0c3282d1c d8045870ef14980e",
  "6c022c38f90a4c07 3601161cf205268d 1b8e0b0e798c13c8 83478b07b2468764",
  "a011d380818e8f40 5086e740ce47c920 2843fd2067adea10 14aff010bdd87508",
  "0ad97808d06cb404 05e23c0468365a02 8c711e02341b2d01 46b60f011a83988e",
  "90dab52a387ae76f 486dd4151c3dfdb9 24b86a840e90f0d2 125c354207487869",
  "092e94218d243cba 8a174a9ec8121e5d 4585254f64090fa0 accc9ca9328a8950",
  "9d4df05d5f661451 c0a878a0a1330aa6 60543c50de970553 302a1e286fc58ca7",
  "18150f14b9ec46dd 0c84890ad27623e0 0642ca05693b9f70 0321658cba93c138",
  "86275df09ce8aaa8 439da0784e745554 afc0503c273aa42a d960281e9d1d5215",
  "e230140fc0802984 71180a8960409a42 b60c05ca30204d21 5b068c651810a89e",
  "456c34887a3805b9 ac361a443d1c8cd2 561b0d22900e4669 2b838811480723ba",
  "9bcf4486248d9f5d c3e9224312c8c1a0 effa11af0964ee50 f97d86d98a327728",
  "e4fa2054a80b329c 727d102a548b194e 39b008152acb8227 9258048415eb419d",
  "492c024284fbaec0 aa16012142f35760 550b8e9e21f7a530 a48b474f9ef5dc18",
  "70a6a56e2440598e 3853dc371220a247 1ca76e95091051ad 0edd37c48a08a6d8",
  "07e095624504536c 8d70c431ac02a736 c83862965601dd1b 641c314b2b8ee083",
]
  .join(" ")
  .split(" ");

/** The iteration constants C1…C12 of the key schedule, each eight 64-bit words, least significant
 *  first (copied from the standard, as gost-engine's gosthash2012_const.h gives them). */
const C = [
  "dd806559f2a64507 05767436cc744d23 a2422a08a460d315 4b7ce09192676901 714eb88d7585c4fc 2f6a76432e45d016 ebcb2f81c0657c1f b1085bda1ecadae9",
  "e679047021b19bb7 55dda21bd7cbcd56 5cb561c2db0aa7ca 9ab5176b12d69958 61d55e0f16b50131 f3feea720a232b98 4fe39d460f70b5d7 6fa3b58aa99d2f1a",
  "991e96f50aba0ab2 c2b6f443867adb31 c1c93a376062db09 d3e20fe490359eb1 f2ea7514b1297b7b 06f15e5f529c1f8b 0a39fc286a3d8435 f574dcac2bce2fc7",
  "220cbebc84e3d12e 3453eaa193e837f1 d8b71333935203be a9d72c82ed03d675 9d721cad685e353f 488e857e335c3c7d f948e1a05d71e4dd ef1fdfb3e81566d2",
  "601758fd7c6cfe57 7a56a27ea9ea63f5 dfff00b723271a16 bfcd1747253af5a3 359e35d7800fffbd 7f151c1f1686104a 9a3f410c6ca92363 4bea6bacad474799",
  "fa68407a46647d6e bf71c57236904f35 0af21f66c2bec6b6 cffaa6b71c9ab7b4 187f9ab49af08ec6 2d66c4f95142a46c 6fa4c33b7a3039c0 ae4faeae1d3ad3d9",
  "8886564d3a14d493 3517454ca23c4af3 06476983284a0504 0992abc52d822c37 d3473e33197a93c9 399ec6c7e6bf87c9 51ac86febf240954 f4c70e16eeaac5ec",
  "a47f0dd4bf02e71e 36acc2355951a8d9 69d18d2bd1a5c42f f4892bcb929b0690 89b4443b4ddbc49a 4eb7f8719c36de1e 03e7aa020c6e4141 9b1f5b424d93c9a7",
  "7261445183235adb 0e38dc92cb1f2a60 7b2b8a9aa6079c54 800a440bdbb2ceb1 3cd955b7e00d0984 3a7d3a1b25894224 944c9ad8ec165fde 378f5a541631229b",
  "74b4c7fb98459ced 3698fad1153bb6c3 7a1e6c303b7652f4 9fe76702af69334b 1fffe18a1b336103 8941e71cff8a78db 382ae548b2e4f3f3 abbedea680056f52",
  "6bcaa4cd81f32d1b dea2594ac06fd85d efbacd1d7d476e98 8a1d71efea48b9ca 2001802114846679 d8fa6bbbebab0761 3002c6cd635afe94 7bcd9ed0efc889fb",
  "48bc924af11bd720 faf417d5d9b21b99 e71da4aa88e12852 5d80ef9d1891cc86 f82012d430219f9b cda43c32bcdf1d77 d21380b00449b17a 378ee767f11631ba",
];

/** A list of 64-bit words in hex to 32-bit halves, lo first. */
function words(hex: readonly string[]): Uint32Array {
  const out = new Uint32Array(hex.length * 2);
  hex.forEach((word, k) => {
    out[2 * k] = Number.parseInt(word.slice(8), 16);
    out[2 * k + 1] = Number.parseInt(word.slice(0, 8), 16);
  });
  return out;
}

const A_WORDS = words(A);
const C_WORDS = C.map((row) => words(row.split(" ")));

/** The LPS table: for the input word i and its byte b (after the transposition, the byte i of output
 *  word k comes from byte k of input word i), L(Pi[b] << 8i), its lo and hi halves side by side at
 *  2(256i + b) (one cache line holds both). */
const TABLE = new Uint32Array(2 * 8 * 256);
for (let i = 0; i < 8; i++) {
  for (let b = 0; b < 256; b++) {
    let lo = 0;
    let hi = 0;
    for (let t = 0; t < 8; t++) {
      if ((PI[b] >> t) & 1) {
        const row = 63 - (8 * i + t);
        lo ^= A_WORDS[2 * row];
        hi ^= A_WORDS[2 * row + 1];
      }
    }
    TABLE[2 * (i * 256 + b)] = lo >>> 0;
    TABLE[2 * (i * 256 + b) + 1] = hi >>> 0;
  }
}

/** The LPS table as 64-bit words (for the test against gost-engine's precomputed one). */
export function lpsTable(): bigint[] {
  return Array.from({ length: 8 * 256 }, (_, k) => (BigInt(TABLE[2 * k + 1]) << 32n) | BigInt(TABLE[2 * k]));
}

/** out = LPS(x ⊕ y); out may be x or y (unrolled: eight table lookups per output half). */
function xlps(x: Uint32Array, y: Uint32Array, out: Uint32Array): void {
  const l0 = x[0] ^ y[0];
  const h0 = x[1] ^ y[1];
  const l1 = x[2] ^ y[2];
  const h1 = x[3] ^ y[3];
  const l2 = x[4] ^ y[4];
  const h2 = x[5] ^ y[5];
  const l3 = x[6] ^ y[6];
  const h3 = x[7] ^ y[7];
  const l4 = x[8] ^ y[8];
  const h4 = x[9] ^ y[9];
  const l5 = x[10] ^ y[10];
  const h5 = x[11] ^ y[11];
  const l6 = x[12] ^ y[12];
  const h6 = x[13] ^ y[13];
  const l7 = x[14] ^ y[14];
  const h7 = x[15] ^ y[15];
  const i00 = (l0 & 255) << 1;
  const i01 = (256 | (l1 & 255)) << 1;
  const i02 = (512 | (l2 & 255)) << 1;
  const i03 = (768 | (l3 & 255)) << 1;
  const i04 = (1024 | (l4 & 255)) << 1;
  const i05 = (1280 | (l5 & 255)) << 1;
  const i06 = (1536 | (l6 & 255)) << 1;
  const i07 = (1792 | (l7 & 255)) << 1;
  out[0] = TABLE[i00] ^ TABLE[i01] ^ TABLE[i02] ^ TABLE[i03] ^ TABLE[i04] ^ TABLE[i05] ^ TABLE[i06] ^ TABLE[i07];
  out[1] =
    TABLE[i00 + 1] ^ TABLE[i01 + 1] ^ TABLE[i02 + 1] ^ TABLE[i03 + 1] ^ TABLE[i04 + 1] ^ TABLE[i05 + 1] ^ TABLE[i06 + 1] ^ TABLE[i07 + 1];
  const i10 = ((l0 >>> 8) & 255) << 1;
  const i11 = (256 | ((l1 >>> 8) & 255)) << 1;
  const i12 = (512 | ((l2 >>> 8) & 255)) << 1;
  const i13 = (768 | ((l3 >>> 8) & 255)) << 1;
  const i14 = (1024 | ((l4 >>> 8) & 255)) << 1;
  const i15 = (1280 | ((l5 >>> 8) & 255)) << 1;
  const i16 = (1536 | ((l6 >>> 8) & 255)) << 1;
  const i17 = (1792 | ((l7 >>> 8) & 255)) << 1;
  out[2] = TABLE[i10] ^ TABLE[i11] ^ TABLE[i12] ^ TABLE[i13] ^ TABLE[i14] ^ TABLE[i15] ^ TABLE[i16] ^ TABLE[i17];
  out[3] =
    TABLE[i10 + 1] ^ TABLE[i11 + 1] ^ TABLE[i12 + 1] ^ TABLE[i13 + 1] ^ TABLE[i14 + 1] ^ TABLE[i15 + 1] ^ TABLE[i16 + 1] ^ TABLE[i17 + 1];
  const i20 = ((l0 >>> 16) & 255) << 1;
  const i21 = (256 | ((l1 >>> 16) & 255)) << 1;
  const i22 = (512 | ((l2 >>> 16) & 255)) << 1;
  const i23 = (768 | ((l3 >>> 16) & 255)) << 1;
  const i24 = (1024 | ((l4 >>> 16) & 255)) << 1;
  const i25 = (1280 | ((l5 >>> 16) & 255)) << 1;
  const i26 = (1536 | ((l6 >>> 16) & 255)) << 1;
  const i27 = (1792 | ((l7 >>> 16) & 255)) << 1;
  out[4] = TABLE[i20] ^ TABLE[i21] ^ TABLE[i22] ^ TABLE[i23] ^ TABLE[i24] ^ TABLE[i25] ^ TABLE[i26] ^ TABLE[i27];
  out[5] =
    TABLE[i20 + 1] ^ TABLE[i21 + 1] ^ TABLE[i22 + 1] ^ TABLE[i23 + 1] ^ TABLE[i24 + 1] ^ TABLE[i25 + 1] ^ TABLE[i26 + 1] ^ TABLE[i27 + 1];
  const i30 = (l0 >>> 24) << 1;
  const i31 = (256 | (l1 >>> 24)) << 1;
  const i32 = (512 | (l2 >>> 24)) << 1;
  const i33 = (768 | (l3 >>> 24)) << 1;
  const i34 = (1024 | (l4 >>> 24)) << 1;
  const i35 = (1280 | (l5 >>> 24)) << 1;
  const i36 = (1536 | (l6 >>> 24)) << 1;
  const i37 = (1792 | (l7 >>> 24)) << 1;
  out[6] = TABLE[i30] ^ TABLE[i31] ^ TABLE[i32] ^ TABLE[i33] ^ TABLE[i34] ^ TABLE[i35] ^ TABLE[i36] ^ TABLE[i37];
  out[7] =
    TABLE[i30 + 1] ^ TABLE[i31 + 1] ^ TABLE[i32 + 1] ^ TABLE[i33 + 1] ^ TABLE[i34 + 1] ^ TABLE[i35 + 1] ^ TABLE[i36 + 1] ^ TABLE[i37 + 1];
  const i40 = (h0 & 255) << 1;
  const i41 = (256 | (h1 & 255)) << 1;
  const i42 = (512 | (h2 & 255)) << 1;
  const i43 = (768 | (h3 & 255)) << 1;
  const i44 = (1024 | (h4 & 255)) << 1;
  const i45 = (1280 | (h5 & 255)) << 1;
  const i46 = (1536 | (h6 & 255)) << 1;
  const i47 = (1792 | (h7 & 255)) << 1;
  out[8] = TABLE[i40] ^ TABLE[i41] ^ TABLE[i42] ^ TABLE[i43] ^ TABLE[i44] ^ TABLE[i45] ^ TABLE[i46] ^ TABLE[i47];
  out[9] =
    TABLE[i40 + 1] ^ TABLE[i41 + 1] ^ TABLE[i42 + 1] ^ TABLE[i43 + 1] ^ TABLE[i44 + 1] ^ TABLE[i45 + 1] ^ TABLE[i46 + 1] ^ TABLE[i47 + 1];
  const i50 = ((h0 >>> 8) & 255) << 1;
  const i51 = (256 | ((h1 >>> 8) & 255)) << 1;
  const i52 = (512 | ((h2 >>> 8) & 255)) << 1;
  const i53 = (768 | ((h3 >>> 8) & 255)) << 1;
  const i54 = (1024 | ((h4 >>> 8) & 255)) << 1;
  const i55 = (1280 | ((h5 >>> 8) & 255)) << 1;
  const i56 = (1536 | ((h6 >>> 8) & 255)) << 1;
  const i57 = (1792 | ((h7 >>> 8) & 255)) << 1;
  out[10] = TABLE[i50] ^ TABLE[i51] ^ TABLE[i52] ^ TABLE[i53] ^ TABLE[i54] ^ TABLE[i55] ^ TABLE[i56] ^ TABLE[i57];
  out[11] =
    TABLE[i50 + 1] ^ TABLE[i51 + 1] ^ TABLE[i52 + 1] ^ TABLE[i53 + 1] ^ TABLE[i54 + 1] ^ TABLE[i55 + 1] ^ TABLE[i56 + 1] ^ TABLE[i57 + 1];
  const i60 = ((h0 >>> 16) & 255) << 1;
  const i61 = (256 | ((h1 >>> 16) & 255)) << 1;
  const i62 = (512 | ((h2 >>> 16) & 255)) << 1;
  const i63 = (768 | ((h3 >>> 16) & 255)) << 1;
  const i64 = (1024 | ((h4 >>> 16) & 255)) << 1;
  const i65 = (1280 | ((h5 >>> 16) & 255)) << 1;
  const i66 = (1536 | ((h6 >>> 16) & 255)) << 1;
  const i67 = (1792 | ((h7 >>> 16) & 255)) << 1;
  out[12] = TABLE[i60] ^ TABLE[i61] ^ TABLE[i62] ^ TABLE[i63] ^ TABLE[i64] ^ TABLE[i65] ^ TABLE[i66] ^ TABLE[i67];
  out[13] =
    TABLE[i60 + 1] ^ TABLE[i61 + 1] ^ TABLE[i62 + 1] ^ TABLE[i63 + 1] ^ TABLE[i64 + 1] ^ TABLE[i65 + 1] ^ TABLE[i66 + 1] ^ TABLE[i67 + 1];
  const i70 = (h0 >>> 24) << 1;
  const i71 = (256 | (h1 >>> 24)) << 1;
  const i72 = (512 | (h2 >>> 24)) << 1;
  const i73 = (768 | (h3 >>> 24)) << 1;
  const i74 = (1024 | (h4 >>> 24)) << 1;
  const i75 = (1280 | (h5 >>> 24)) << 1;
  const i76 = (1536 | (h6 >>> 24)) << 1;
  const i77 = (1792 | (h7 >>> 24)) << 1;
  out[14] = TABLE[i70] ^ TABLE[i71] ^ TABLE[i72] ^ TABLE[i73] ^ TABLE[i74] ^ TABLE[i75] ^ TABLE[i76] ^ TABLE[i77];
  out[15] =
    TABLE[i70 + 1] ^ TABLE[i71 + 1] ^ TABLE[i72 + 1] ^ TABLE[i73 + 1] ^ TABLE[i74 + 1] ^ TABLE[i75 + 1] ^ TABLE[i76 + 1] ^ TABLE[i77 + 1];
}

/** x += y modulo 2^512. */
function add512(x: Uint32Array, y: Uint32Array): void {
  let carry = 0;
  for (let j = 0; j < 16; j++) {
    const sum = x[j] + y[j] + carry;
    x[j] = sum >>> 0;
    carry = sum > 0xffffffff ? 1 : 0;
  }
}

/** x += n modulo 2^512, n < 2^32. */
function addSmall(x: Uint32Array, n: number): void {
  let carry = n;
  for (let j = 0; j < 16 && carry; j++) {
    const sum = x[j] + carry;
    x[j] = sum >>> 0;
    carry = sum > 0xffffffff ? 1 : 0;
  }
}

const ZERO = new Uint32Array(16);

export type StreebogBits = 256 | 512;

/** An incremental Streebog hash: update() any number of times, then digest() once. */
export class Streebog {
  private readonly h = new Uint32Array(16);
  private readonly n = new Uint32Array(16);
  private readonly sigma = new Uint32Array(16);
  private readonly key = new Uint32Array(16);
  private readonly state = new Uint32Array(16);
  private readonly block = new Uint32Array(16);
  private readonly buffer = new Uint8Array(64);
  private buffered = 0;
  private done = false;

  constructor(readonly bits: StreebogBits) {
    // The initial vector: 0^512 for the 512-bit digest, (00000001)^64 for the 256-bit one.
    if (bits === 256) this.h.fill(0x01010101);
  }

  /** The compression g_N(h, m): h = E(LPS(h ⊕ N), m) ⊕ h ⊕ m. */
  private g(n: Uint32Array, m: Uint32Array): void {
    const { h, key, state } = this;
    xlps(h, n, key);
    xlps(key, m, state);
    for (let i = 0; i < 11; i++) {
      xlps(key, C_WORDS[i], key);
      xlps(key, state, state);
    }
    xlps(key, C_WORDS[11], key);
    for (let j = 0; j < 16; j++) h[j] ^= key[j] ^ state[j] ^ m[j];
  }

  /** One full 64-byte block (stage 2 of the standard). */
  private compress(bytes: Uint8Array, offset: number): void {
    const { block } = this;
    for (let j = 0; j < 16; j++) {
      const o = offset + 4 * j;
      block[j] = (bytes[o] | (bytes[o + 1] << 8) | (bytes[o + 2] << 16) | (bytes[o + 3] << 24)) >>> 0;
    }
    this.g(this.n, block);
    addSmall(this.n, 512);
    add512(this.sigma, block);
  }

  update(bytes: Uint8Array): this {
    if (this.done) throw new Error("Streebog: digest() was called already");
    let offset = 0;
    if (this.buffered > 0) {
      const take = Math.min(64 - this.buffered, bytes.length);
      this.buffer.set(bytes.subarray(0, take), this.buffered);
      this.buffered += take;
      offset = take;
      if (this.buffered < 64) return this;
      this.compress(this.buffer, 0);
      this.buffered = 0;
    }
    for (; offset + 64 <= bytes.length; offset += 64) this.compress(bytes, offset);
    if (offset < bytes.length) {
      this.buffer.set(bytes.subarray(offset), 0);
      this.buffered = bytes.length - offset;
    }
    return this;
  }

  /** The digest (32 or 64 bytes), in the byte order OpenSSL prints. */
  digest(): Uint8Array {
    if (this.done) throw new Error("Streebog: digest() was called already");
    this.done = true;
    // Stage 3: the last, partial block padded with a 1 byte and zeros.
    const { buffer, block } = this;
    buffer.fill(0, this.buffered);
    buffer[this.buffered] = 1;
    for (let j = 0; j < 16; j++) {
      const o = 4 * j;
      block[j] = (buffer[o] | (buffer[o + 1] << 8) | (buffer[o + 2] << 16) | (buffer[o + 3] << 24)) >>> 0;
    }
    this.g(this.n, block);
    add512(this.sigma, block);
    addSmall(this.n, this.buffered * 8);
    this.g(ZERO, this.n);
    this.g(ZERO, this.sigma);
    const out = new Uint8Array(64);
    const view = new DataView(out.buffer);
    for (let j = 0; j < 16; j++) view.setUint32(4 * j, this.h[j], true);
    return this.bits === 256 ? out.slice(32) : out;
  }
}

/** The Streebog digest of bytes, 256 or 512 bits. */
export function streebog(bits: StreebogBits, ...parts: Uint8Array[]): Uint8Array {
  const hash = new Streebog(bits);
  for (const part of parts) hash.update(part);
  return hash.digest();
}
