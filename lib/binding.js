'use strict';
// The compiled addon: the local build (build/Release) if there is one, else
// the prebuild for this platform (prebuilds/<platform>-<arch>/), as
// node-gyp-build finds them. Kept apart so tests can reach the raw entry
// points.
module.exports = require('node-gyp-build')(require('path').join(__dirname, '..'));
