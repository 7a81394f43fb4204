'use strict';
// The compiled addon. Kept apart so tests can reach the raw entry points.
module.exports = require('../build/Release/fast_hash.node');
