'use strict';
const assert = require('assert');
const crypto = require('crypto');
const { verifyHmac } = require('..');
const { throwsWith, bytes, hmacAlgorithms, keyInputs } = require('./common');

const ALGORITHMS = hmacAlgorithms();
const mac = (alg, key, data) => crypto.createHmac(alg, key).update(data).digest();
const flip = (buf, i) => {
  const out = Buffer.from(buf);
  out[i] ^= 0x80;
  return out;
};

describe('verifyHmac()', function () {
  it('is true for the right MAC and false for any flipped bit, for every algorithm', function () {
    for (const alg of ALGORITHMS) {
      for (const size of [0, 64, 1000]) {
        const data = bytes(size);
        const right = mac(alg, 'key', data);
        assert.strictEqual(verifyHmac(alg, 'key', data, right), true, alg);
        assert.strictEqual(verifyHmac(alg, 'key', data, right.toString('hex')), true, alg);
        for (const i of [0, right.length >> 1, right.length - 1]) {
          assert.strictEqual(verifyHmac(alg, 'key', data, flip(right, i)), false, `${alg} byte ${i}`);
        }
        assert.strictEqual(verifyHmac(alg, 'other key', data, right), false, alg);
      }
    }
  });

  it('takes the MAC as bytes of any kind, or as a string in macEncoding', function () {
    const right = mac('sha256', 'k', 'm');
    const padded = Buffer.concat([Buffer.alloc(3), right]);
    const forms = [
      [right], [new Uint8Array(right)], [Uint8Array.from(right).buffer],
      [new DataView(padded.buffer, padded.byteOffset + 3, 32)],
      [right.toString('hex')], [right.toString('hex').toUpperCase()], [right.toString('hex'), 'hex'],
      [right.toString('base64'), 'base64'], [right.toString('base64').replace(/=+$/, ''), 'base64'],
      [right.toString('base64url'), 'base64url'], [right.toString('base64url') + '=', 'base64url'],
      [right.toString('latin1'), 'latin1'], [right.toString('latin1'), 'binary'], [right.toString('hex'), 'HEX'],
    ];
    for (const [form, enc] of forms) assert.strictEqual(verifyHmac('sha256', 'k', 'm', form, enc), true, `${enc} ${form}`);
  });

  it('is false (never a throw) for a wrong length or an undecodable string', function () {
    // A message whose MAC's base64 has both '+' and '/', so that the wrong
    // alphabet is a real difference.
    let m = 0;
    while (!/\+.*\/|\/.*\+/.test(mac('sha256', 'k', `m${m}`).toString('base64'))) m++;
    const message = `m${m}`;
    const right = mac('sha256', 'k', message);
    const hex = right.toString('hex');
    const wrong = [
      [right.subarray(0, 31)], [Buffer.concat([right, Buffer.alloc(1)])], [Buffer.alloc(0)], [''],
      [hex.slice(0, -1)], [`${hex}0`], [`${hex.slice(0, -2)}zz`], [` ${hex}`], ['garbage'], ['\u{1F600}'],
      [right.toString('base64'), 'hex'], [right.toString('base64').replace('=', '=='), 'base64'],
      [` ${right.toString('base64')}`, 'base64'], [right.toString('base64url'), 'base64'],
      [right.toString('base64').replace(/\//g, '_'), 'base64'], [right.toString('latin1') + '\u0100', 'latin1'],
      [right.toString('latin1').slice(1) + '\u0100', 'latin1'],
    ];
    assert.strictEqual(verifyHmac('sha256', 'k', message, right.toString('base64'), 'base64'), true);
    // Stray bits: the last character's unused low bits set. Lenient decoders
    // (Buffer.from) read the same bytes; the canonical text is different.
    const b64 = right.toString('base64');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const stray = b64.slice(0, -2) + alphabet[alphabet.indexOf(b64[b64.length - 2]) ^ 1] + '=';
    assert.ok(Buffer.from(stray, 'base64').equals(right));
    wrong.push([stray, 'base64'], [stray.slice(0, -1), 'base64']);
    for (const [form, enc] of wrong) {
      assert.strictEqual(verifyHmac('sha256', 'k', message, form, enc), false, `${enc} ${JSON.stringify(form)}`);
    }
  });

  it('takes every key type', function () {
    for (const [label, key, source] of keyInputs(70)) {
      assert.strictEqual(verifyHmac('sha512', key, 'm', mac('sha512', source, 'm')), true, label);
    }
  });

  describe('errors', function () {
    it('argument type errors still throw', function () {
      throwsWith(() => verifyHmac(1, 'k', 'm', 'aa'), TypeError, 'ERR_INVALID_ARG_TYPE', /"algorithm"/);
      throwsWith(() => verifyHmac('sha256', 1, 'm', 'aa'), TypeError, 'ERR_INVALID_ARG_TYPE', /"key"/);
      throwsWith(() => verifyHmac('sha256', 'k', 1, 'aa'), TypeError, 'ERR_INVALID_ARG_TYPE', /"data"/);
      for (const m of [1, null, undefined, {}, [1], true]) {
        throwsWith(() => verifyHmac('sha256', 'k', 'm', m), TypeError, 'ERR_INVALID_ARG_TYPE', /"mac"/);
      }
      throwsWith(() => verifyHmac('sha256', 'k', 'm', 'aa', 5), TypeError, 'ERR_INVALID_ARG_TYPE', /"macEncoding"/);
    });

    it('a macEncoding that is not one: TypeError ERR_INVALID_ARG_VALUE', function () {
      for (const enc of ['nope', 'buffer', 'BUFFER']) {
        throwsWith(() => verifyHmac('sha256', 'k', 'm', 'aa', enc), TypeError, 'ERR_INVALID_ARG_VALUE');
      }
    });

    it('XOF and unknown digests: TypeError ERR_CRYPTO_INVALID_DIGEST', function () {
      throwsWith(() => verifyHmac('shake128', 'k', 'm', 'aa'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
      throwsWith(() => verifyHmac('nope', 'k', 'm', 'aa'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    });
  });

  // The longest MAC text is sha512's hex (128 characters): text that starts
  // with the right MAC and goes on is not the MAC, however long.
  it('is false for MAC text that starts right and goes on', function () {
    const mac = crypto.createHmac('sha512', 'k').update('m').digest('hex');
    assert.strictEqual(verifyHmac('sha512', 'k', 'm', mac), true);
    for (const tail of ['0', '00', '0'.repeat(1000), 'x', '\u20ac']) {
      assert.strictEqual(verifyHmac('sha512', 'k', 'm', mac + tail), false, `tail of ${tail.length}`);
    }
    const short = crypto.createHmac('sha256', 'k').update('m').digest('hex');
    assert.strictEqual(verifyHmac('sha256', 'k', 'm', short + '0'.repeat(128 - short.length)), false);
  });

  // Canonical padding only: the right number of characters with something
  // other than '=' where the padding belongs is not the MAC.
  it("is false for base64/base64url text whose padding is not '='", function () {
    for (const alg of ['md5', 'sha1', 'sha256']) {
      for (const enc of ['base64', 'base64url']) {
        const bare = crypto.createHmac(alg, 'k').update('m').digest(enc).replace(/=+$/, '');
        const padded = bare.padEnd(Math.ceil(bare.length / 4) * 4, '=');
        assert.strictEqual(verifyHmac(alg, 'k', 'm', padded, enc), true, `${alg} ${enc}`);
        assert.strictEqual(verifyHmac(alg, 'k', 'm', bare, enc), true, `${alg} ${enc} unpadded`);
        for (const pad of ['A', '.', '-', '\u0000', ' ']) {
          const wrong = bare + pad.repeat(padded.length - bare.length);
          assert.strictEqual(verifyHmac(alg, 'k', 'm', wrong, enc), false, `${alg} ${enc} pad ${JSON.stringify(pad)}`);
        }
      }
    }
  });

  // Hex is compared as text, a character against the MAC's digit: a unit is
  // right only when it is that digit in either case. The changes are units a
  // case fold or a cut to one byte could confuse with a hex digit.
  it('is true for hex text exactly when every character is its digit, in either case', function () {
    const right = crypto.createHmac('sha256', 'k').update('m').digest('hex');
    const changes = [0x20, -0x20, 0x100, 0x10000 - 0x100, 0x80, 1, -1, 7, -7, 0x30];
    const isDigit = (ch, digit) => /^[0-9a-fA-F]$/.test(ch) && ch.toLowerCase() === digit;
    for (let i = 0; i < right.length; i++) {
      for (const change of changes) {
        const unit = (right.charCodeAt(i) + change + 0x10000) % 0x10000;
        const ch = String.fromCharCode(unit);
        const text = right.slice(0, i) + ch + right.slice(i + 1);
        assert.strictEqual(verifyHmac('sha256', 'k', 'm', text), isDigit(ch, right[i]),
          `position ${i}: ${JSON.stringify(right[i])} as U+${unit.toString(16).padStart(4, '0')}`);
      }
    }
  });
});
