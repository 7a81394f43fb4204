'use strict';
// The inputs every question (and the Bun child) builds the same way.

function bytes(size, mul = 31, add = 7) {
  const b = Buffer.alloc(size); // its own memory, not a slice of the shared pool
  for (let i = 0; i < size; i++) b[i] = (i * mul + add) & 255;
  return b;
}
// Strings go through a Buffer so V8 holds them flat (not as cons strings,
// which would add a one-off flattening to the first call).
const ascii = (size) => bytes(size).map((_, i) => 97 + (i % 26)).toString('latin1');
// Mixed 2- and 3-byte characters (V8 stores it two-byte, so it takes the full
// UTF-8 conversion), padded with ASCII to exactly `size` UTF-8 bytes.
function nonAscii(size) {
  const chars = ['é', '€', 'a', 'ß', 'ü', '✓'];
  let s = '';
  for (let i = 0, n = 0; ; i++) {
    const c = chars[i % chars.length], len = Buffer.byteLength(c);
    if (n + len > size) { s += 'a'.repeat(size - n); break; }
    s += c; n += len;
  }
  return Buffer.from(s, 'utf8').toString('utf8');
}

module.exports = { bytes, ascii, nonAscii };
