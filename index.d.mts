// Types of the ESM entry (lib/index.mjs): the same functions as the
// CommonJS entry, by name and as the default export.
export * from './index.js';
import * as fastHash from './index.js';
export default fastHash;
