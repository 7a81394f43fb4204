'use strict';
// Errors shaped as node:crypto throws them: the right class, a `code`, and
// Node's wording, with the stack starting at the public function called.

const { inspect, types: { isProxy } } = require('util');

function makeError(Base, code, message, caller) {
  const err = new Base(message);
  Object.defineProperty(err, 'code', {
    value: code, enumerable: true, writable: true, configurable: true,
  });
  if (caller !== undefined) Error.captureStackTrace(err, caller);
  return err;
}

// "Received ..." as Node's ERR_INVALID_ARG_TYPE words it. Never throws, even
// for a Proxy or an object whose getters throw.
function describe(value) {
  if (value === null) return 'Received null';
  if (value === undefined) return 'Received undefined';
  // inspect() shows a Proxy without running its traps; reading
  // .constructor would run them.
  if (isProxy(value)) return `Received ${show(value)}`;
  try {
    if (typeof value === 'function') {
      return value.name ? `Received function ${value.name}` : 'Received function';
    }
    if (typeof value === 'object') {
      const ctor = value.constructor;
      if (ctor && typeof ctor.name === 'string' && ctor.name !== '') {
        return `Received an instance of ${ctor.name}`;
      }
      return `Received ${inspect(value, { depth: -1 })}`;
    }
    let shown = inspect(value, { colors: false });
    if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
    return `Received type ${typeof value} (${shown})`;
  } catch {
    return `Received type ${typeof value}`;
  }
}

function invalidArgType(name, expected, value, caller) {
  const what = name.includes('.') ? 'property' : 'argument';
  return makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
    `The "${name}" ${what} must be ${expected}. ${describe(value)}`, caller);
}

// A value as messages show it; never throws.
function show(value) {
  try {
    return inspect(value);
  } catch {
    return typeof value;
  }
}

function invalidArgValue(name, value, caller) {
  return makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
    `The argument '${name}' is invalid. Received ${show(value)}`, caller);
}

function outOfRange(name, range, value, caller) {
  return makeError(RangeError, 'ERR_OUT_OF_RANGE',
    `The value of "${name}" is out of range. It must be ${range}. Received ${show(value)}`,
    caller);
}

function invalidDigest(name, caller) {
  return makeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST',
    `Invalid digest: ${name}`, caller);
}

// What a destroyed HmacKey, and a hasher that still needs its states,
// throw: the binding's own words for a destroyed key.
function keyDestroyed(caller) {
  return makeError(Error, 'ERR_INVALID_STATE', 'Invalid state: the HmacKey has been destroyed', caller);
}

// A call on a finished Hasher, Hash or Hmac.
function finalized(caller) {
  return makeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called', caller);
}

// A call on a Hasher while updateFrom() reads into it.
function pending(caller) {
  return makeError(Error, 'ERR_INVALID_STATE', 'Invalid state: updateFrom() is still feeding this hasher', caller);
}

// A method called on something that is not a `type`.
function invalidThis(type, what) {
  return makeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type ${type} (${what})`);
}

module.exports = {
  pending,
  finalized,
  invalidThis,
  makeError, invalidArgType, invalidArgValue, outOfRange, invalidDigest, keyDestroyed,
};
