// Type-checked by test/types.test.js: the overloads of index.d.ts.
import { createSecretKey } from 'crypto';
import {
  hash, getHashes, hmac, verifyHmac, createHmacKey, HmacKey, createHasher, Hasher,
  hashMany, hashAsync, hmacAsync, hashFile, hashFileSync, hashStream, hmacStream, implementation, hashInto,
  createHash, createHmac, Hash, Hmac,
} from '../..';
import dropIn from '../../index.mjs';
import { createReadStream } from 'fs';
import { Readable, Transform } from 'stream';

const asString: string = hash('sha256', 'abc');
const hex: string = hash('sha256', Buffer.from('abc'), 'hex');
const b64: string = hash('sha256', new Uint8Array(4), { outputEncoding: 'base64' });
const fromAb: string = hash('sha256', new ArrayBuffer(8));
const fromSab: string = hash('sha256', new SharedArrayBuffer(8), 'UTF8');
const fromView: string = hash('md5', new DataView(new ArrayBuffer(8)), { outputLength: 16 });
const buf: Buffer = hash('sha256', 'abc', 'buffer');
const bufUpper: Buffer = hash('sha256', 'abc', 'BUFFER');
const bufOpt: Buffer = hash('shake256', 'abc', { outputEncoding: 'buffer', outputLength: 64 });
const names: string[] = getHashes();
const which: 'native' | 'js' = implementation;
// @ts-expect-error implementation is one of two names
const whichWrong: 'wasm' = implementation;

// @ts-expect-error a Buffer is not a string
const wrong1: string = hash('sha256', 'abc', 'buffer');
// @ts-expect-error a string is not a Buffer
const wrong2: Buffer = hash('sha256', 'abc');
// @ts-expect-error numbers are not data
hash('sha256', 42);
// @ts-expect-error the algorithm is a string
hash(256, 'abc');
// @ts-expect-error not an encoding
hash('sha256', 'abc', 'base32');
// @ts-expect-error outputLength is a number
hash('shake128', 'abc', { outputLength: '16' });

const mac: string = hmac('sha256', 'key', 'data');
const macBuf: Buffer = hmac('sha256', createSecretKey(Buffer.alloc(8)), 'data', 'buffer');
const macOpt: Buffer = hmac('sha512', new Uint8Array(4), 'data', { outputEncoding: 'buffer' });
const macB64: string = hmac('sha512', new ArrayBuffer(4), 'data', { outputEncoding: 'base64' });
const ok: boolean = verifyHmac('sha256', 'key', 'data', mac);
const ok2: boolean = verifyHmac('sha256', 'key', 'data', macB64, 'base64');
const hk: HmacKey = createHmacKey('sha256', 'key');
const hkHex: string = hk.digest('data');
const hkBuf: Buffer = hk.digest('data', 'buffer');
const hkOk: boolean = hk.verify('data', hkBuf);
const hkAlg: string = hk.algorithm;
hk.destroy();
// @ts-expect-error a Buffer is not a string
const wrong3: string = hmac('sha256', 'k', 'd', 'buffer');
// @ts-expect-error keys are not numbers
hmac('sha256', 42, 'data');
// @ts-expect-error verify returns a boolean
const wrong4: string = verifyHmac('sha256', 'k', 'd', 'aa');
// @ts-expect-error algorithm is read-only
hk.algorithm = 'md5';
// @ts-expect-error digest of a Buffer encoding is a Buffer
const wrong5: string = hk.digest('d', { outputEncoding: 'buffer' });

const hs: Hasher = createHasher('sha256');
const hsBuf: Buffer = hs.update('a').update(Buffer.from('b')).update('6263', 'hex').update(new ArrayBuffer(2)).digest();
const hsHex: string = createHasher('SHA256').update('a', 'utf8').digest('hex');
const hsOpt: string = createHasher('shake256', { outputLength: 64 }).digest({ outputEncoding: 'base64' });
const hsOptBuf: Buffer = createHasher('shake128').digest({ outputLength: 100 });
const hsCopy: Hasher = hs.copy({ outputLength: 32 });
const hsAlg: string = hs.algorithm;
const hsMac: string = createHmacKey('sha256', 'key').createHasher().update('m').digest('hex');
const chained: Hasher = hs.update('x');
// @ts-expect-error digest() with no encoding is a Buffer
const wrong7: string = createHasher('sha256').digest();
// @ts-expect-error a text encoding gives a string
const wrong8: Buffer = createHasher('sha256').digest({ outputEncoding: 'hex' });
// @ts-expect-error not an input encoding
createHasher('sha256').update('a', 'nope');
// @ts-expect-error options are an object
createHasher('sha256', 'hex');
// @ts-expect-error algorithm is read-only
hs.algorithm = 'md5';

async function later(): Promise<void> {
  const many: string[] = hashMany('sha256', ['a', Buffer.from('b'), new ArrayBuffer(1)]);
  const manyBuf: Buffer[] = hashMany('sha256', ['a'], 'buffer');
  const a: string = await hashAsync('sha256', 'a');
  const ab: Buffer = await hashAsync('sha256', 'a', { outputEncoding: 'buffer' });
  const m: string = await hmacAsync('sha256', 'k', 'a', 'base64');
  const f: string = await hashFile('sha256', new URL('file:///etc/hosts'));
  const fb: Buffer = hashFileSync('md5', Buffer.from('/etc/hosts'), 'buffer');
  // @ts-expect-error hashMany takes an array
  hashMany('sha256', 'abc');
  // @ts-expect-error a Promise of a Buffer
  const wrong6: string = await hashAsync('sha256', 'a', 'buffer');
  // @ts-expect-error paths are strings, Buffers or URLs
  hashFileSync('sha256', 42);
  void [many, manyBuf, a, ab, m, f, fb, wrong6];
}

async function streams(): Promise<void> {
  const s1: string = await hashStream('sha256', createReadStream('/etc/hosts'));
  const s2: Buffer = await hashStream('sha256', Readable.from(['a']), 'buffer');
  const s3: string = await hashStream('sha256', [Buffer.from('a'), 'b', new Uint16Array(2)], 'base64');
  const s4: string = await hashStream('shake128', new Blob(['a']), { outputLength: 64, signal: AbortSignal.timeout(9) });
  const s5: Buffer = await hashStream('sha1', new ReadableStream<Uint8Array>(), { outputEncoding: 'buffer' });
  const s6: string = await hashStream('md5', (async function* () { yield 'a'; })());
  const s7: string = await hmacStream('sha256', 'key', ['m']);
  const s8: Buffer = await hmacStream('sha256', Buffer.from('key'), ['m'], 'buffer');
  const s9: string = await createHmacKey('sha256', 'k').digestStream(['m'], { signal: new AbortController().signal });
  const s10: Buffer = await createHmacKey('sha256', 'k').digestStream(['m'], 'buffer');
  const pass: Transform = createHasher('sha256').passThrough();
  // @ts-expect-error a Promise of a Buffer
  const wrong9: string = await hashStream('sha256', ['a'], 'buffer');
  // @ts-expect-error a number is not a source
  await hashStream('sha256', 42);
  // @ts-expect-error the signal is an AbortSignal
  await hashStream('sha256', ['a'], { signal: true });
  void [s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, pass, wrong9];
}

async function into(): Promise<void> {
  const n1: number = hashInto('sha256', 'a', Buffer.alloc(32));
  const n2: number = hashInto('sha256', 'a', new Uint32Array(10), 4);
  const n3: number = hashInto('shake128', 'a', new ArrayBuffer(8), 0, { outputLength: 8 });
  const n4: number = hashInto('shake256', 'a', new DataView(new ArrayBuffer(8)), { outputLength: 8 });
  const n5: number = createHasher('sha1').update('a').digestInto(new SharedArrayBuffer(20));
  const h: Hasher = await createHasher('sha256').update('n').updateFrom(['a'], { signal: new AbortController().signal });
  const f: string = await hashFile('sha256', '/etc/hosts', { signal: AbortSignal.timeout(9) });
  // @ts-expect-error the target is memory, not a string
  hashInto('sha256', 'a', 'target');
  // @ts-expect-error digestInto returns a count
  const wrong10: string = createHasher('sha1').digestInto(Buffer.alloc(20));
  // @ts-expect-error the signal is an AbortSignal
  await hashFile('sha256', '/etc/hosts', { signal: 1 });
  void [n1, n2, n3, n4, n5, h, f, wrong10];
}

export { into, later, streams, mac, macBuf, macOpt, macB64, ok, ok2, hkHex, hkAlg, hkOk, wrong3, wrong4, wrong5 };
export { hsBuf, hsHex, hsOpt, hsOptBuf, hsCopy, hsAlg, hsMac, chained, wrong7, wrong8 };
export { asString, hex, b64, fromAb, fromSab, fromView, buf, bufUpper, bufOpt, names, wrong1, wrong2 };

// createHash/createHmac: node:crypto's Hash and Hmac, streams included.
const h: Hash = createHash('sha256');
const hHex: string = h.update('a', 'utf8').update(Buffer.from('b'), null).copy().digest('hex');
const hBuf: Buffer = createHash('shake256', { outputLength: 8 }).digest('');
const hAsStream: Transform = createHash('md5').setEncoding('hex');
const m: Hmac = createHmac('sha256', '6b6579', { encoding: 'hex' });
const mBuf: Buffer = m.update('x').digest();
createReadStream(__filename).pipe(createHmac('sha1', createSecretKey(Buffer.from('k'))));
const viaDefault: string = dropIn.createHash('sha1').update('x').digest('base64');
// @ts-expect-error Hmac has no copy()
m.copy();
const fromHasher: Buffer = createHasher('sha256').update('a', null).digest(null);
const viaClass: Hash = new Hash('sha256');
const viaCall: Hmac = Hmac('sha256', 'k');
const isHash: boolean = createHash('md5') instanceof Hash;
void [h, hHex, hBuf, hAsStream, mBuf, viaDefault, fromHasher, viaClass, viaCall, isHash];
