'use strict';
// The client cases of test/clients.test.js, as a data table: each row calls
// one public function of etag, ssri, md5-file, hasha or folder-hash (the
// packages themselves, from node_modules) and returns what it gave. Run by
// test/clients/child.js once with their `crypto` left alone and once with it
// pointed at fast-hash; the test compares the two results row by row.
//
// makeFixtures(dir) writes the files and folders the rows read (once, by the
// test, so that both children see the same bytes and the same fs.Stats).
const fs = require('fs');
const path = require('path');
const { Readable } = require('stream');

// Deterministic bytes, n of them.
function bytes(n, seed = 7) {
  const b = Buffer.alloc(n);
  for (let i = 0, x = seed; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

const FILES = {
  'empty.bin': 0, 'one.bin': 1, 'small.txt': 100, 'block.bin': 8192, 'block1.bin': 8193,
  'big.bin': (1 << 20) + 3, 'huge.bin': (3 << 20) + 17,
};

function makeFixtures(dir) {
  for (const [name, n] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), bytes(n, n));
  const tree = path.join(dir, 'tree');
  const put = (rel, data) => {
    fs.mkdirSync(path.dirname(path.join(tree, rel)), { recursive: true });
    fs.writeFileSync(path.join(tree, rel), data);
  };
  put('a.txt', 'alpha\n');
  put('b.log', 'a log line\n');
  put('sub/c.txt', 'gamma ünïcödé\n');
  put('sub/d.bin', bytes(70000, 3));
  put('sub/deep/e.txt', '');
  put('node_modules/x/index.js', 'module.exports = 1;\n');
  put('big/f.bin', bytes((1 << 20) + 5, 5));
  const dangling = path.join(dir, 'dangling');
  fs.mkdirSync(dangling);
  fs.writeFileSync(path.join(dangling, 'f.txt'), 'f');
  try {
    fs.symlinkSync('a.txt', path.join(tree, 'link-to-a'));
    fs.symlinkSync('missing.txt', path.join(dangling, 'link'));
  } catch { /* no symbolic links here (Windows without the right): the trees have none */ }
  return { dir, tree };
}

const f = (fx, name) => path.join(fx.dir, name);
// The chunks `chunks` as a stream, one at a time.
const streamOf = (chunks, options) => Readable.from(chunks, options);
const fileStream = (fx, name, highWaterMark) => fs.createReadStream(f(fx, name), { highWaterMark });

// All a stream gives, and the events `names` it emits (with their values).
function drain(stream, names = []) {
  return new Promise((resolve, reject) => {
    const out = [];
    const events = {};
    for (const n of names) stream.on(n, (v) => { events[n] = v === undefined ? true : v; });
    stream.on('data', (c) => out.push(typeof c === 'string' ? c : Buffer.from(c).toString('hex')));
    stream.on('error', reject);
    stream.on('end', () => resolve({ out: out.join('|'), events }));
  });
}

const STRINGS = { empty: '', ascii: 'hello world', unicode: 'ünïcödé €𝄞', surrogate: 'a\ud800b', long: 'xyz'.repeat(40000) };
const BUFFERS = { empty: Buffer.alloc(0), all: Buffer.from(Array.from({ length: 256 }, (_, i) => i)), big: bytes(300001) };
const ALGOS = ['md5', 'sha1', 'sha256', 'sha512', 'sha3-256', 'blake2b512', 'SHA384', 'RSA-SHA256'];
const ENCODINGS = ['hex', 'base64', 'latin1', 'buffer'];

const rows = [];
const add = (pkg, name, fn) => rows.push({ pkg, name: `${pkg}: ${name}`, fn });

// etag: sha1 of strings and buffers (base64, cut to 27 characters); fs.Stats
// (no hash: mtime and size).
for (const [k, s] of Object.entries(STRINGS)) add('etag', `string ${k}`, (m) => m.etag(s));
for (const [k, b] of Object.entries(BUFFERS)) add('etag', `buffer ${k}`, (m) => m.etag(b));
add('etag', 'weak string', (m) => m.etag('hello', { weak: true }));
add('etag', 'strong buffer', (m) => m.etag(BUFFERS.all, { weak: false }));
add('etag', 'fs.Stats', (m, fx) => m.etag(fs.statSync(f(fx, 'small.txt'))));
add('etag', 'not a string', (m) => m.etag(42));

// md5-file: sync (8 KiB reads, hex digest) and async (a file piped into the
// Hash, read on its first 'readable').
for (const name of Object.keys(FILES)) {
  add('md5-file', `sync ${name}`, (m, fx) => m.md5File.sync(f(fx, name)));
  add('md5-file', `async ${name}`, (m, fx) => m.md5File(f(fx, name)));
}
add('md5-file', 'sync missing file', (m, fx) => m.md5File.sync(f(fx, 'nope')));
add('md5-file', 'async missing file', (m, fx) => m.md5File(f(fx, 'nope')));

// hasha: hash (a worker thread's createHash), hashSync, hashFile (a file
// piped into a Hash in the worker), hashFileSync, hash of a stream (piped,
// read on 'finish'), hashingStream (a Hash with setEncoding).
for (const algorithm of ALGOS) {
  add('hasha', `hashSync ${algorithm}`, (m) => m.hasha.hashSync(STRINGS.unicode, { algorithm }));
  add('hasha', `hash ${algorithm}`, (m) => m.hasha.hash(BUFFERS.big, { algorithm }));
  add('hasha', `hashFile ${algorithm}`, (m, fx) => m.hasha.hashFile(f(fx, 'big.bin'), { algorithm }));
}
for (const encoding of ENCODINGS) {
  add('hasha', `hashSync ${encoding}`, (m) => m.hasha.hashSync('abc', { encoding }));
  add('hasha', `hash ${encoding}`, (m) => m.hasha.hash('abc', { encoding, algorithm: 'sha256' }));
  add('hasha', `hashFileSync ${encoding}`, (m, fx) => m.hasha.hashFileSync(f(fx, 'huge.bin'), { encoding }));
  add('hasha', `hashFile ${encoding}`, (m, fx) => m.hasha.hashFile(f(fx, 'block1.bin'), { encoding, algorithm: 'md5' }));
  add('hasha', `hashingStream ${encoding}`, (m, fx) => drain(fileStream(fx, 'big.bin', 1000).pipe(m.hasha.hashingStream({ encoding }))));
}
add('hasha', 'hashSync array of parts', (m) => m.hasha.hashSync(['a', Buffer.from('b'), new Uint8Array([99]), 'ü'], { algorithm: 'sha1' }));
add('hasha', 'hash array with an ArrayBuffer', (m) => m.hasha.hash(['a', new Uint8Array([1, 2, 3]).buffer, 'z']));
for (const [k, s] of Object.entries(STRINGS)) add('hasha', `hashSync string ${k}`, (m) => m.hasha.hashSync(s, { algorithm: 'sha256' }));
for (const name of Object.keys(FILES)) {
  add('hasha', `hashFileSync ${name}`, (m, fx) => m.hasha.hashFileSync(f(fx, name), { algorithm: 'sha1' }));
  add('hasha', `hash of a file stream ${name}`, (m, fx) => m.hasha.hash(fileStream(fx, name, 4096), { algorithm: 'sha256', encoding: 'base64' }));
}
add('hasha', 'hash of a stream of strings', (m) => m.hasha.hash(streamOf(['ab', 'ü', '', 'c'.repeat(5000)])));
add('hasha', 'hash of an empty stream', (m) => m.hasha.hash(streamOf([])));
add('hasha', 'hashingStream written to', (m) => {
  const s = m.hasha.hashingStream({ algorithm: 'md5', encoding: 'base64' });
  const done = drain(s);
  s.write('one');
  s.write(Buffer.from('two'));
  s.end('three');
  return done;
});
add('hasha', 'hashSync unknown algorithm', (m) => m.hasha.hashSync('x', { algorithm: 'nope' }));
add('hasha', 'hashFileSync missing file', (m, fx) => m.hasha.hashFileSync(f(fx, 'nope')));
add('hasha', 'hashFile missing file', (m, fx) => m.hasha.hashFile(f(fx, 'nope')));
add('hasha', 'hashSync of a stream (refused)', (m) => m.hasha.hashSync(streamOf(['a'])));

// ssri: fromData, checkData, fromStream, checkStream, integrityStream,
// create; several algorithms, options, strict/single, matches and misses.
const SRI_ALGOS = [['sha512'], ['sha256'], ['sha1', 'sha384'], ['md5', 'sha256', 'sha512']];
for (const algorithms of SRI_ALGOS) {
  const a = algorithms.join('+');
  add('ssri', `fromData string ${a}`, (m) => m.ssri.fromData(STRINGS.unicode, { algorithms }));
  add('ssri', `fromData buffer ${a}`, (m) => m.ssri.fromData(BUFFERS.big, { algorithms, options: ['foo', 'bar'] }));
  add('ssri', `fromStream ${a}`, (m, fx) => m.ssri.fromStream(fileStream(fx, 'big.bin', 7777), { algorithms }));
  add('ssri', `integrityStream ${a}`, (m, fx) => drain(fileStream(fx, 'block1.bin').pipe(m.ssri.integrityStream({ algorithms })), ['integrity', 'size']));
  add('ssri', `create ${a}`, (m) => m.ssri.create({ algorithms }).update('ab').update('cdef', 'hex').update(BUFFERS.all).digest());
}
add('ssri', 'fromData strict single sha1', (m) => m.ssri.fromData('x', { algorithms: ['sha1', 'sha512'], strict: true, single: true }));
add('ssri', 'fromData sep', (m) => m.ssri.fromData('x', { algorithms: ['sha256', 'sha512'] }).toString({ sep: '\n' }));
add('ssri', 'fromData default', (m) => m.ssri.fromData(''));
const SRI = (m, data, algorithms = ['sha512']) => m.ssri.fromData(data, { algorithms });
add('ssri', 'checkData match', (m) => m.ssri.checkData('hello', SRI(m, 'hello')));
add('ssri', 'checkData match sha256 string', (m) => m.ssri.checkData(BUFFERS.big, SRI(m, BUFFERS.big, ['sha256']).toString()));
add('ssri', 'checkData miss', (m) => m.ssri.checkData('hello', SRI(m, 'hellp')));
add('ssri', 'checkData miss {error}', (m) => m.ssri.checkData('hello', SRI(m, 'hellp'), { error: true }));
add('ssri', 'checkData size miss {error}', (m) => m.ssri.checkData('hello', SRI(m, 'hello'), { error: true, size: 4 }));
add('ssri', 'checkData two algorithms', (m) => m.ssri.checkData('hi', SRI(m, 'hi', ['sha1', 'sha256'])));
add('ssri', 'checkData pickAlgorithm', (m) => m.ssri.checkData('hi', SRI(m, 'hi', ['sha1', 'sha256', 'sha512']), { pickAlgorithm: () => 'sha1' }));
add('ssri', 'checkStream match', (m, fx) => m.ssri.checkStream(fileStream(fx, 'big.bin', 5000), SRI(m, fs.readFileSync(f(fx, 'big.bin')))));
add('ssri', 'checkStream miss', (m, fx) => m.ssri.checkStream(fileStream(fx, 'big.bin'), SRI(m, 'x')));
add('ssri', 'checkStream size', (m, fx) => m.ssri.checkStream(fileStream(fx, 'small.txt'), SRI(m, fs.readFileSync(f(fx, 'small.txt')), ['sha256']), { size: 100 }));
add('ssri', 'integrityStream verified', (m, fx) => drain(fileStream(fx, 'small.txt').pipe(m.ssri.integrityStream({ integrity: SRI(m, fs.readFileSync(f(fx, 'small.txt'))) })), ['integrity', 'size', 'verified']));
add('ssri', 'integrityStream miss', (m, fx) => drain(fileStream(fx, 'small.txt').pipe(m.ssri.integrityStream({ integrity: SRI(m, 'other') })), ['integrity', 'verified']));
add('ssri', 'integrityStream of strings', (m) => drain(streamOf(['a', 'ü', 'b']).pipe(m.ssri.integrityStream({ algorithms: ['sha256'] })), ['integrity']));
add('ssri', 'parse + match', (m) => m.ssri.parse(SRI(m, 'q').toString()).match(SRI(m, 'q')));

// folder-hash: a tree (files and folders piped into Hash objects, the
// digests of the children hashed again), algorithms, encodings, algoOptions,
// include/exclude rules, names left out, symbolic links.
const FH = [
  ['defaults', {}],
  ['sha256 hex', { algo: 'sha256', encoding: 'hex' }],
  ['md5 base64url', { algo: 'md5', encoding: 'base64url' }],
  ['sha512 binary', { algo: 'sha512', encoding: 'binary' }],
  ['sha3-512 latin1', { algo: 'sha3-512', encoding: 'latin1' }],
  ['shake256 outputLength 64', { algo: 'shake256', algoOptions: { outputLength: 64 }, encoding: 'hex' }],
  ['shake128 default length', { algo: 'shake128', encoding: 'hex' }],
  ['excludes', { files: { exclude: ['*.log'] }, folders: { exclude: ['node_modules', 'big'] } }],
  ['includes by path', { files: { include: ['**/*.txt'], matchBasename: false, matchPath: true } }],
  ['basenames ignored', { files: { ignoreBasename: true }, folders: { ignoreBasename: true } }],
  ['root names ignored', { files: { ignoreRootName: true }, folders: { ignoreRootName: true } }],
  ['links: target path, no content', { symbolicLinks: { ignoreTargetContent: true, ignoreTargetPath: false } }],
  // Not with symbolicLinks.ignoreBasename: folder-hash then sets
  // options.ignoreBasenameOnce, which whichever element is hashed next takes
  // (a race between its concurrent reads: 5 runs in 25 differ on node:crypto).
  ['links: target path and content', { symbolicLinks: { ignoreTargetPath: false } }],
  ['links left out', { symbolicLinks: { include: false } }],
];
for (const [name, options] of FH) add('folder-hash', `tree ${name}`, (m, fx) => m.folderHash.hashElement(fx.tree, options));
add('folder-hash', 'dangling link, errors ignored', (m, fx) => m.folderHash.hashElement(f(fx, 'dangling'), { algo: 'sha256', symbolicLinks: { ignoreTargetPath: false, ignoreTargetContentAfterError: true } }));
add('folder-hash', 'dangling link', (m, fx) => m.folderHash.hashElement(f(fx, 'dangling')));
add('folder-hash', 'name, dir form', (m, fx) => m.folderHash.hashElement('tree', fx.dir, { algo: 'sha1', encoding: 'hex' }));
add('folder-hash', 'callback form', (m, fx) => new Promise((resolve, reject) => m.folderHash.hashElement(fx.tree, { folders: { exclude: ['big'] } }, (e, h) => (e ? reject(e) : resolve(h)))));
add('folder-hash', 'one file', (m, fx) => m.folderHash.hashElement(f(fx, 'huge.bin'), { algo: 'sha256' }));
add('folder-hash', 'one empty file', (m, fx) => m.folderHash.hashElement(f(fx, 'empty.bin')));
add('folder-hash', 'missing path', (m, fx) => m.folderHash.hashElement(f(fx, 'nope')));
add('folder-hash', 'unknown algorithm', (m, fx) => m.folderHash.hashElement(f(fx, 'small.txt'), { algo: 'nope' }));

module.exports = { rows, makeFixtures };
