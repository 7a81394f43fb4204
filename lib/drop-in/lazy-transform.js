'use strict';
// A stream.Transform whose stream state is made the first time something
// reads it, as node:crypto's Hash and Hmac are made: an object that is only
// updated and digested never pays for the streams machinery. Contract:
// `instanceof stream.Transform` holds from the start; the first access of a
// stream state property runs Transform's constructor with the options the
// object was made with, and strings written then reach _transform with
// their encoding (decodeStrings is off, as for node:crypto's).

const { Transform } = require('stream');

// The options are kept only when given: one property less to make.
function LazyTransform(options) {
  if (options !== undefined) this._options = options;
}
Object.setPrototypeOf(LazyTransform.prototype, Transform.prototype);
Object.setPrototypeOf(LazyTransform, Transform);

// The properties through which Readable, Writable and Transform reach their
// state: reading one first makes them all. Transform's constructor assigns
// them, and the setter turns each into a plain own property.
for (const name of ['_readableState', '_writableState', '_transformState']) {
  Object.defineProperty(LazyTransform.prototype, name, {
    configurable: true,
    enumerable: true,
    get() {
      Transform.call(this, this._options);
      this._writableState.decodeStrings = false;
      return this[name];
    },
    set(value) {
      Object.defineProperty(this, name, { value, configurable: true, enumerable: true, writable: true });
    },
  });
}

module.exports = { LazyTransform };
