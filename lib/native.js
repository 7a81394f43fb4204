'use strict';
// The compiled addon: the local build (build/Release) if there is one, else
// the prebuild for this platform (prebuilds/<platform>-<arch>/), as
// node-gyp-build finds them. It throws when there is none for this platform
// or when the binary cannot be loaded here (it binds every OpenSSL symbol at
// load, so a runtime without Node's OpenSSL refuses it in dlopen).
const addon = require('node-gyp-build')(require('path').join(__dirname, '..'));

module.exports = { ...addon, implementation: 'native', fillsOutput: true };
