#!/usr/bin/env node
/**
 * Entry point. The runtime is checked before anything else is loaded: on an
 * older Node.js the service would fail later, and less clearly.
 */
const NEEDED_MAJOR = 24;

if (Number(process.versions.node.split('.')[0]) < NEEDED_MAJOR) {
  console.error(
    `pin-service: needs Node.js ${NEEDED_MAJOR} or later; this is Node.js ${process.versions.node}. ` +
      `Install Node.js ${NEEDED_MAJOR} (https://nodejs.org/), or start it with \`make run\`, which brings its own.`,
  );
  process.exit(2);
}
require('./cli/main');

export {};
