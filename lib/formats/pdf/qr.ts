/**
 * QR Code encoder (ISO/IEC 18004:2015): byte mode, error correction level M, the smallest of
 * versions 1-40 that holds the data, Reed-Solomon blocks, mask chosen by the §7.8.3 penalty.
 * Produces the module matrix only; drawing is the caller's. No other modes (numeric, kanji,
 * ECI) and no other levels: the KSeF link is short ASCII and level M is what the visualisation uses.
 * @module
 */

/** A QR symbol: `size` × `size` modules, row-major, 1 = dark. */
export interface QrCode {
  version: number;
  size: number;
  modules: Uint8Array;
}

// ISO 18004 Table 9, level M: error correction codewords per block and number of blocks, by version.
const _ECC_PER_BLOCK_M = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28];
const _BLOCKS_M = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
/** Mode indicator of byte mode (Table 2). */
const _MODE_BYTE = 0b0100;
/** Format information bits of level M (Table 12). */
const _FORMAT_LEVEL_M = 0b00;
/** Pad codewords (§7.4.10). */
const _PAD = [0xec, 0x11];
/** Penalty weights N1-N4 (§7.8.3.1). */
const _N1 = 3;
const _N2 = 3;
const _N3 = 40;
const _N4 = 10;

/** Whether bytes (or a string as UTF-8) fit in a QR symbol at level M (version 40 holds 2,331 bytes). */
export function fitsInQr(input: Uint8Array | string): boolean {
  return _version(_bytes(input).length) !== null;
}

/** Encodes bytes (or a string as UTF-8) into the smallest QR symbol at level M; RangeError when they do not fit. */
export function encodeQr(input: Uint8Array | string): QrCode {
  const data = _bytes(input);
  const version = _version(data.length);
  if (version === null) throw new RangeError(`Cannot encode ${data.length} bytes in a QR code at level M`);
  const codewords = _addEcc(_dataBits(data, version), version);
  const size = version * 4 + 17;
  const modules = new Uint8Array(size * size);
  const fixed = new Uint8Array(size * size);
  _drawFunctionPatterns(modules, fixed, size, version);
  _placeData(modules, fixed, size, codewords);
  let best = 0;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    _applyMask(modules, fixed, size, mask);
    _drawFormat(modules, size, mask);
    const p = _penalty(modules, size);
    if (p < bestPenalty) {
      bestPenalty = p;
      best = mask;
    }
    _applyMask(modules, fixed, size, mask); // XOR again undoes it
  }
  _applyMask(modules, fixed, size, best);
  _drawFormat(modules, size, best);
  return { version, size, modules };
}

function _rawModules(ver: number): number {
  let n = (16 * ver + 128) * ver + 64;
  if (ver >= 2) {
    const align = Math.floor(ver / 7) + 2;
    n -= (25 * align - 10) * align - 55;
    if (ver >= 7) n -= 36;
  }
  return n;
}

function _dataCodewords(ver: number): number {
  return Math.floor(_rawModules(ver) / 8) - (_ECC_PER_BLOCK_M[ver] ?? 0) * (_BLOCKS_M[ver] ?? 0);
}

function _dataBits(data: Uint8Array, ver: number): Uint8Array {
  const capacity = _dataCodewords(ver);
  const out = new Uint8Array(capacity);
  let bit = 0;
  const put = (value: number, len: number) => {
    for (let i = len - 1; i >= 0; i--, bit++) if ((value >>> i) & 1) out[bit >>> 3]! |= 0x80 >>> (bit & 7);
  };
  put(_MODE_BYTE, 4);
  put(data.length, ver < 10 ? 8 : 16);
  for (const b of data) put(b, 8);
  bit += Math.min(4, capacity * 8 - bit); // terminator: up to four zero bits
  for (let i = (bit + 7) >>> 3, p = 0; i < capacity; i++, p ^= 1) out[i] = _PAD[p] ?? 0;
  return out;
}

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1 (§7.5.2).
const _EXP = new Uint8Array(512);
const _LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  _EXP[i] = x;
  _LOG[x] = i;
  x = (x << 1) ^ (x & 0x80 ? 0x11d : 0);
}
for (let i = 255; i < 512; i++) _EXP[i] = _EXP[i - 255] ?? 0;

function _gfMul(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : (_EXP[(_LOG[a] ?? 0) + (_LOG[b] ?? 0)] ?? 0);
}

/** Generator polynomial of the given degree, highest coefficient (1) omitted. */
function _rsDivisor(degree: number): Uint8Array {
  const d = new Uint8Array(degree);
  d[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      d[j] = _gfMul(d[j] ?? 0, root) ^ (j + 1 < degree ? (d[j + 1] ?? 0) : 0);
    }
    root = _gfMul(root, 2);
  }
  return d;
}

function _rsRemainder(data: Uint8Array, divisor: Uint8Array): Uint8Array {
  const n = divisor.length;
  const r = new Uint8Array(n);
  for (const b of data) {
    const factor = b ^ (r[0] ?? 0);
    r.copyWithin(0, 1);
    r[n - 1] = 0;
    for (let i = 0; i < n; i++) r[i]! ^= _gfMul(divisor[i] ?? 0, factor);
  }
  return r;
}

/** Splits data into blocks, appends each block's ECC and interleaves (§7.6). */
function _addEcc(data: Uint8Array, ver: number): Uint8Array {
  const blocks = _BLOCKS_M[ver] ?? 1;
  const eccLen = _ECC_PER_BLOCK_M[ver] ?? 0;
  const raw = Math.floor(_rawModules(ver) / 8);
  const shortBlocks = blocks - (raw % blocks);
  const shortLen = Math.floor(raw / blocks);
  const divisor = _rsDivisor(eccLen);
  const dat: Uint8Array[] = [];
  const ecc: Uint8Array[] = [];
  for (let i = 0, k = 0; i < blocks; i++) {
    const len = shortLen - eccLen + (i < shortBlocks ? 0 : 1);
    const d = data.subarray(k, k + len);
    k += len;
    dat.push(d);
    ecc.push(_rsRemainder(d, divisor));
  }
  const out = new Uint8Array(raw);
  let o = 0;
  for (let i = 0; i <= shortLen - eccLen; i++) for (const d of dat) if (i < d.length) out[o++] = d[i] ?? 0;
  for (let i = 0; i < eccLen; i++) for (const e of ecc) out[o++] = e[i] ?? 0;
  return out;
}

function _set(m: Uint8Array, fixed: Uint8Array, size: number, x: number, y: number, dark: boolean): void {
  m[y * size + x] = dark ? 1 : 0;
  fixed[y * size + x] = 1;
}

function _drawFunctionPatterns(m: Uint8Array, fixed: Uint8Array, size: number, ver: number): void {
  for (let i = 0; i < size; i++) {
    _set(m, fixed, size, 6, i, i % 2 === 0);
    _set(m, fixed, size, i, 6, i % 2 === 0);
  }
  // Finder patterns with their separators (§6.3.3).
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]] as const) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        const dist = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && x < size && y >= 0 && y < size) _set(m, fixed, size, x, y, dist !== 2 && dist !== 4);
      }
    }
  }
  // Alignment patterns (§6.3.6, Annex E).
  const pos = _alignmentPositions(ver, size);
  const last = pos.length - 1;
  for (let i = 0; i <= last; i++) {
    for (let j = 0; j <= last; j++) {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          _set(m, fixed, size, (pos[i] ?? 0) + dx, (pos[j] ?? 0) + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
        }
      }
    }
  }
  // Reserve the format areas (drawn per mask) and the dark module.
  _drawFormat(m, size, 0);
  for (let i = 0; i < 9; i++) {
    fixed[8 * size + i] = 1;
    fixed[i * size + 8] = 1;
  }
  for (let i = 0; i < 8; i++) {
    fixed[8 * size + size - 1 - i] = 1;
    fixed[(size - 1 - i) * size + 8] = 1;
  }
  // Version information (§7.10), versions 7 and up.
  if (ver >= 7) {
    let rem = ver;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (ver << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      _set(m, fixed, size, a, b, dark);
      _set(m, fixed, size, b, a, dark);
    }
  }
}

function _alignmentPositions(ver: number, size: number): number[] {
  if (ver === 1) return [];
  const n = Math.floor(ver / 7) + 2;
  const step = ver === 32 ? 26 : Math.ceil((ver * 4 + 4) / (n * 2 - 2)) * 2;
  const out = [6];
  for (let p = size - 7; out.length < n; p -= step) out.splice(1, 0, p);
  return out;
}

/** Writes the 15 format bits (level M + mask, BCH-coded, masked with 0x5412) in both copies. */
function _drawFormat(m: Uint8Array, size: number, mask: number): void {
  const data = (_FORMAT_LEVEL_M << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const bit = (i: number) => (bits >>> i) & 1;
  for (let i = 0; i <= 5; i++) m[i * size + 8] = bit(i);
  m[7 * size + 8] = bit(6);
  m[8 * size + 8] = bit(7);
  m[8 * size + 7] = bit(8);
  for (let i = 9; i < 15; i++) m[8 * size + 14 - i] = bit(i);
  for (let i = 0; i < 8; i++) m[8 * size + size - 1 - i] = bit(i);
  for (let i = 8; i < 15; i++) m[(size - 15 + i) * size + 8] = bit(i);
  m[(size - 8) * size + 8] = 1;
}

/** Places codewords in the two-column zigzag from the bottom right (§7.7.3). */
function _placeData(m: Uint8Array, fixed: Uint8Array, size: number, cw: Uint8Array): void {
  const total = cw.length * 8;
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let v = 0; v < size; v++) {
      const y = upward ? size - 1 - v : v;
      for (let j = 0; j < 2; j++) {
        const k = y * size + right - j;
        if (fixed[k] === 1) continue;
        if (i < total) m[k] = ((cw[i >>> 3] ?? 0) >>> (7 - (i & 7))) & 1;
        i++;
      }
    }
  }
}

function _applyMask(m: Uint8Array, fixed: Uint8Array, size: number, mask: number): void {
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const k = y * size + x;
      if (fixed[k] === 1) continue;
      let flip: boolean;
      switch (mask) {
        case 0: flip = (x + y) % 2 === 0; break;
        case 1: flip = y % 2 === 0; break;
        case 2: flip = x % 3 === 0; break;
        case 3: flip = (x + y) % 3 === 0; break;
        case 4: flip = (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0; break;
        case 5: flip = ((x * y) % 2) + ((x * y) % 3) === 0; break;
        case 6: flip = (((x * y) % 2) + ((x * y) % 3)) % 2 === 0; break;
        default: flip = (((x + y) % 2) + ((x * y) % 3)) % 2 === 0;
      }
      if (flip) m[k]! ^= 1;
    }
  }
}

/** The §7.8.3 penalty score: runs, 2×2 blocks, finder-like patterns, dark balance. */
function _penalty(m: Uint8Array, size: number): number {
  let score = 0;
  // Rows and columns are copied into a line padded with four light modules on each side, so
  // the finder-like check needs no bounds tests.
  const line = new Uint8Array(size + 8);
  for (let y = 0; y < size; y++) {
    line.set(m.subarray(y * size, y * size + size), 4);
    score += _linePenalty(line, size);
  }
  for (let x = 0; x < size; x++) {
    for (let y = 0, k = x; y < size; y++, k += size) line[y + 4] = m[k]!;
    score += _linePenalty(line, size);
  }
  let dark = 0;
  for (let y = 0; y < size; y++) {
    const r = y * size;
    for (let x = 0; x < size; x++) {
      const c = m[r + x]!;
      dark += c;
      if (x + 1 < size && y + 1 < size && c === m[r + x + 1] && c === m[r + size + x] && c === m[r + size + x + 1]) score += _N2;
    }
  }
  const total = size * size;
  score += Math.floor(Math.abs(dark * 20 - total * 10) / total) * _N4;
  return score;
}

/** Rule 1 (runs of five or more) and rule 3 (1:1:3:1:1 with four light modules on one side) for one padded line. */
function _linePenalty(line: Uint8Array, size: number): number {
  let score = 0;
  const end = size + 4;
  let run = 1;
  for (let b = 5; b < end; b++) {
    if (line[b] === line[b - 1]) run++;
    else {
      if (run >= 5) score += _N1 + run - 5;
      run = 1;
    }
  }
  if (run >= 5) score += _N1 + run - 5;
  for (let b = 4; b + 7 <= end; b++) {
    if (line[b] === 1 && line[b + 1] === 0 && line[b + 2] === 1 && line[b + 3] === 1 && line[b + 4] === 1 && line[b + 5] === 0 && line[b + 6] === 1) {
      const before = (line[b - 1]! | line[b - 2]! | line[b - 3]! | line[b - 4]!) === 0;
      const after = (line[b + 7]! | line[b + 8]! | line[b + 9]! | line[b + 10]!) === 0;
      if (before || after) score += _N3;
    }
  }
  return score;
}

function _bytes(input: Uint8Array | string): Uint8Array {
  return typeof input === "string" ? new TextEncoder().encode(input) : input;
}

/** The smallest version at level M that holds `length` bytes in byte mode, or null. */
function _version(length: number): number | null {
  for (let version = 1; version <= 40; version++) {
    const countBits = version < 10 ? 8 : 16;
    if (4 + countBits + length * 8 <= _dataCodewords(version) * 8) return version;
  }
  return null;
}
