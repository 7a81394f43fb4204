'use strict';
// The command's flow: the command line read, the one action it asks for.

const { parseArgs, UsageError } = require('./args');
const { PROGRAM, writeOut, writeErr, warn, usageError } = require('./output');
const { rawArguments } = require('./names');

// The actions that print something and end the command.
const ACTIONS = {
  help: () => require('./usage')(PROGRAM),
  version: () => `${PROGRAM} ${require('../../package.json').version}\n`,
  list: () => require('../index.js').getHashes().join('\n') + '\n',
};

async function main(argv, defaultJobs) {
  let opts;
  try {
    opts = parseArgs(rawArguments(argv));
  } catch (err) {
    if (err instanceof UsageError) return usageError(err.message);
    throw err;
  }
  if (opts.action) {
    writeOut(ACTIONS[opts.action]());
    return 0;
  }
  if (opts.jobs === null) opts.jobs = defaultJobs;

  const { hexLength } = require('./algorithms');
  const hexLen = hexLength(opts.algorithm);
  if (hexLen === null) {
    warn(`unknown algorithm '${opts.algorithm}'`);
    writeErr(`Try '${PROGRAM} --list' to see the supported algorithms.\n`);
    return 1;
  }

  const files = opts.files.length > 0 ? opts.files : ['-'];
  if (!opts.check) return (await require('./digests').printDigests(opts, files)) ? 0 : 1;

  const { checkList } = require('./check');
  let ok = true;
  for (const list of files) {
    if (!(await checkList(opts, list, hexLen))) ok = false;
  }
  return ok ? 0 : 1;
}

module.exports = { main, parseArgs };
