'use strict';
// hashFile() and hashFileSync(): the digest of a file, read by the binding
// a slice at a time (on the thread pool for hashFile, which an AbortSignal
// can stop between slices: file-abort.js). Loads nothing of the stream
// machinery, so that the command, which needs only these, starts sooner.
// Contract: errors are node:crypto's and the file system's, with codes.

const binding = require('./binding');
const { isNativeText, checkAlgorithm, toPath, digestSpec } = require('./args');
const { fromBuffer, filledBy, jobEncoding, settle } = require('./results');
const { signalOption } = require('./signal');
const { abortable } = require('./file-abort');

function hashFile(algorithm, path, options) {
  try {
    checkAlgorithm(algorithm, hashFile);
    path = toPath(path, hashFile);
    const { alg, encoding, length } = digestSpec(algorithm, options, hashFile);
    // An options object may hold a signal (file-abort.js).
    const signal = options !== null && typeof options === 'object' ? signalOption(options, hashFile) : undefined;
    const job = (cancel) => binding.hashFile(alg.id, jobEncoding(encoding), path, length, cancel);
    return settle(abortable(job, signal), encoding);
  } catch (err) {
    return Promise.reject(err);
  }
}

function hashFileSync(algorithm, path, options) {
  checkAlgorithm(algorithm, hashFileSync);
  path = toPath(path, hashFileSync);
  const { alg, encoding, length } = digestSpec(algorithm, options, hashFileSync);
  if (isNativeText(encoding)) return binding.hashFileSync(alg.id, encoding, path, length);
  return fromBuffer(filledBy(binding.hashFileSync, alg.id, path, length, length), encoding);
}

module.exports = { hashFile, hashFileSync };
