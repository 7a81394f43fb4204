// ESM entry: the same function objects as the CommonJS one (one instance,
// no dual-package hazard).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const fastHash = require('./index.js');

export const {
  hash, hashInto, hmac, createHmacKey, createHasher, verifyHmac, hashMany, hashAsync, hmacAsync,
  hashFile, hashFileSync, hashStream, hmacStream, getHashes, implementation,
  createHash, createHmac, Hash, Hmac,
} = fastHash;
export default fastHash;
