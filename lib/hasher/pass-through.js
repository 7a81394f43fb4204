'use strict';
// hasher.passThrough(): a Transform that passes every chunk on and updates
// the hasher with it, on this thread as it passes (digest() may be called
// at any time, so no update can still be running elsewhere).
// Contract: its writable side takes any value, so a bad chunk is refused
// here with a coded error; it pushes the bytes it hashed (a string in
// another encoding as its bytes).
const { chunkBytes } = require('../chunks');

function passThrough(hasher) {
  const { Transform } = require('stream');
  return new Transform({
    writableObjectMode: true,
    transform(chunk, encoding, callback) {
      let bytes;
      try {
        bytes = chunkBytes(chunk, 'chunk', encoding);
        hasher.update(bytes);
      } catch (err) {
        callback(err);
        return;
      }
      callback(null, bytes);
    },
  });
}

module.exports = { passThrough };
