'use strict';
// One line of a checksum list, read the way coreutils' split_3() reads it:
// `<hex>  <name>`, `<hex> *<name>`, BSD-style `TAG (<name>) = <hex>`, each
// optionally escaped (a leading backslash, then \\, \n and \r in the name).

const isBlank = (ch) => ch === ' ' || ch === '\t';
const isHex = (s, length) => s.length === length && /^[0-9a-fA-F]*$/.test(s);
const UNESCAPES = { '\\': '\\', n: '\n', r: '\r' };

// Undoes the escaping; null for a lone backslash or an unknown escape, which
// make the line improperly formatted.
function unescapeName(s) {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\0') return null;
    if (s[i] !== '\\') {
      out += s[i];
      continue;
    }
    const next = UNESCAPES[s[++i]];
    if (next === undefined) return null;
    out += next;
  }
  return out;
}

// Returns { hex, name } or null when improperly formatted. `state.reversed`
// follows split_3's "BSD reversed" mode (`<hex> <name>`, one space): the
// first line decides, so a name with a leading space or * cannot be misread
// later.
function parseCheckLine(line, hexLen, tag, state) {
  let i = 0;
  while (isBlank(line[i])) i++;
  const escaped = line[i] === '\\';
  if (escaped) i++;

  if (line.startsWith(tag, i)) return parseTaggedLine(line, i + tag.length, hexLen, escaped);

  if (line.length - i < hexLen + 2 + (line[i] === '\\' ? 1 : 0)) return null;
  const hex = line.slice(i, i + hexLen);
  i += hexLen;
  if (!isBlank(line[i])) return null;
  i++;
  if (!isHex(hex, hexLen)) return null;

  if (line.length - i === 1 || (line[i] !== ' ' && line[i] !== '*')) {
    if (state.reversed === false) return null;
    state.reversed = true;
  } else if (state.reversed !== true) {
    state.reversed = false;
    i++; // the ' ' (text) or '*' (binary) mode mark, which makes no difference here
  }
  return withName(hex, line.slice(i), escaped);
}

// 'SHA256 (name) = <hex>', as `sha256sum --tag` writes; the name ends at the
// last ')'.
function parseTaggedLine(line, i, hexLen, escaped) {
  if (line[i] === ' ') i++;
  if (line[i] !== '(') return null;
  const close = line.lastIndexOf(')');
  if (close <= i) return null;
  const rest = /^[ \t]*=[ \t]*(.*)$/s.exec(line.slice(close + 1));
  if (rest === null || !isHex(rest[1], hexLen)) return null;
  return withName(rest[1], line.slice(i + 1, close), escaped);
}

function withName(hex, name, escaped) {
  if (escaped) {
    name = unescapeName(name);
    if (name === null) return null;
  } else if (name.includes('\0')) {
    name = name.slice(0, name.indexOf('\0')); // where C's string would end
  }
  return { hex: hex.toLowerCase(), name };
}

module.exports = { parseCheckLine };
