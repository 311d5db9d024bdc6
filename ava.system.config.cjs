// `make test-all`: the suites that need Debian packages (installed by .ci/run).
const base = require('./package.json').ava;
module.exports = { ...base, files: ['test/system/**/*.test.ts'], concurrency: 1, timeout: '120s' };
