'use strict';
// Standard input, read whole. Read a second time (`fast-hash - -`) it is at
// end of file, as for coreutils.

const fs = require('fs');

let consumed = false;

async function readStdin() {
  if (consumed) return Buffer.alloc(0);
  consumed = true;
  // The stream reads a directory (`< /`) as empty; coreutils reports it.
  if (fs.fstatSync(0).isDirectory()) {
    throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR', syscall: 'read' });
  }
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

module.exports = { readStdin };
