// The CLI entry; implemented in src/node.
process.exitCode = 2;
