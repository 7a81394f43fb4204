'use strict';
// What an HMAC hasher holds on its key until it has a state of its own
// (hasher.js): an HmacKey's keyed states (keyLease, which destroy() marks
// dead), or, for createHmac, the key's bytes (rawLease): keyed only if the
// hasher needs a state, so that a one-part MAC costs one one-shot call.
// Contract: both shapes are { handle, live, algId, key }; a raw key's bytes
// of its own are wiped once keyed or used.
const binding = require('../binding');
const { ENC_BUFFER, isNativeText } = require('../args');
const { keyMac, macScratch, takeMac } = require('../results');

const keyLease = (handle) => ({ handle, live: true, algId: -1, key: undefined });

// `key`: a string, or a Uint8Array that only this lease holds.
const rawLease = (algId, key) => ({ handle: undefined, live: true, algId, key });

function forget(lease) {
  if (typeof lease.key !== 'string') lease.key.fill(0);
  lease.key = undefined;
}

// The binding's HmacKey handle for the lease, keyed now for a raw key.
function leaseHandle(lease) {
  if (lease.handle === undefined) {
    try {
      lease.handle = binding.hmacKeyNew(lease.algId, lease.key);
    } finally {
      forget(lease);
    }
  }
  return lease.handle;
}

// The MAC of `data` under the lease's key, as keyMac gives it (into `out`
// when given).
function leaseMac(lease, size, data, encoding, out) {
  if (lease.handle !== undefined) return keyMac(lease.handle, size, data, encoding, out);
  try {
    if (out !== undefined) return binding.hmac(lease.algId, ENC_BUFFER, lease.key, data, out);
    if (isNativeText(encoding)) return binding.hmac(lease.algId, encoding, lease.key, data);
    const scratch = macScratch(size);
    binding.hmac(lease.algId, ENC_BUFFER, lease.key, data, scratch);
    return takeMac(scratch, encoding);
  } finally {
    forget(lease);
  }
}

module.exports = { keyLease, rawLease, leaseHandle, leaseMac };
