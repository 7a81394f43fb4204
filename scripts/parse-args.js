'use strict';
// util.parseArgs for the tooling scripts, with their shared conventions: an
// error is printed with the usage line (exit status 2), and --help / -h
// prints the usage (exit status 0). Returns parseArgs' { values,
// positionals }, or the exit status to end with.
const util = require('util');

function parseCommandLine(argv, options, usage, extra = {}) {
  let parsed;
  try {
    parsed = util.parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, ...extra });
  } catch (err) {
    console.error(`${err.message}\n${usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(usage);
    return 0;
  }
  return parsed;
}

module.exports = { parseCommandLine };
