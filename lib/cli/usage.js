'use strict';
// The --help text, loaded only for --help.

module.exports = (program) => `Usage: ${program} [OPTION]... [FILE]...
Print or check message digests (SHA-256 by default), as sha256sum does.

With no FILE, or when FILE is -, read standard input.
  -a, --algorithm=NAME  use the digest algorithm NAME (default: sha256)
  -b, --binary          read in binary mode
  -c, --check           read checksums from the FILEs and check them
  -j, --jobs=N          hash up to N files at once (default: the number of CPUs)
      --list            list the supported algorithms and exit
      --tag             create a BSD-style checksum
  -t, --text            read in text mode (default)
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet           don't print OK for each successfully verified file
      --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines

  -h, --help            display this help and exit
      --version         output version information and exit

Each output line is the digest in hex, a space, a character for the mode
('*' for binary, ' ' for text), and the file name; with --tag it is
'ALGORITHM (name) = digest'. A name holding a backslash, newline or carriage
return is written with \\\\, \\n and \\r, and its line then starts with a
backslash. Lines come in the order of the FILEs, whatever -j is.

There is no difference between binary mode and text mode.

Exit status is 0 on success, 1 if a file could not be read, a digest did not
match, or the command line was wrong.
`;
