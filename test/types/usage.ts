// Type-checked by test/types.test.js: the overloads of index.d.ts.
import { hash, getHashes } from '../..';

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

export { asString, hex, b64, fromAb, fromSab, fromView, buf, bufUpper, bufOpt, names, wrong1, wrong2 };
