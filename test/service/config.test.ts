/**
 * Settings (docs/operations.md, *Settings*): defaults, flags in both forms, PIN_* variables, a flag
 * winning over a variable, one-line ConfigErrors naming the setting, unknown
 * settings refused, --help; and the real command line.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { helpText } from '../../src/service/cli/help';
import { ConfigError, SETTINGS, parseConfig, type Config } from '../../src/service/config';
import { stateDirectoryPath } from '../../src/service/state/state-directory';

const ROOT = path.join(__dirname, '..', '..');

/** The flags and variables the docs promise (the table may hold more). */
const PROMISED: Array<[flag: string, env: string]> = [
  ['--port', 'PIN_PORT'],
  ['--host', 'PIN_HOST'],
  ['--namespace', 'PIN_NAMESPACE'],
  ['--public-url', 'PIN_PUBLIC_URL'],
  ['--trust-proxy', 'PIN_TRUST_PROXY'],
  ['--secret-encoding', 'PIN_SECRET_ENCODING'],
  ['--algorithm', 'PIN_ALGORITHM'],
  ['--digits', 'PIN_DIGITS'],
  ['--period', 'PIN_PERIOD'],
  ['--drift-window', 'PIN_DRIFT_WINDOW'],
  ['--min-secret-bytes', 'PIN_MIN_SECRET_BYTES'],
  ['--max-body-bytes', 'PIN_MAX_BODY_BYTES'],
];

function configError(t: import('ava').ExecutionContext, run: () => unknown, names: string, label: string): void {
  const error = t.throws(run, { instanceOf: ConfigError }, label);
  if (!error) return;
  t.false(/[\r\n]/.test(error.message), `${label}: one line: ${JSON.stringify(error.message)}`);
  t.true(error.message.includes(names), `${label}: ${JSON.stringify(error.message)} names ${names}`);
  t.false(error.message.includes('    at '), `${label}: no stack`);
}

test('defaults', (t) => {
  const c = parseConfig([], {});
  t.is(c.port, 8080);
  t.is(c.namespace, undefined, "the WSDL's targetNamespace (contractNamespace)");
  t.is(c.publicUrl, undefined);
  t.false(c.trustProxy);
  t.is(c.secretEncoding, 'utf8');
  t.is(c.algorithm, 'SHA1');
  t.is(c.digits, 6);
  t.is(c.period, 30);
  t.is(c.driftWindow, 1);
  t.is(c.minSecretBytes, 10);
  t.is(c.maxBodyBytes, 64 * 1024);
  // §2: replay protection on, 5 failures / 5 minutes, the embedded store kept in a state directory.
  t.true(c.replayProtection);
  t.is(c.throttleAttempts, 5);
  t.is(c.throttleWindowSeconds, 300);
  t.is(c.store, 'embedded');
  t.is(c.stateDir, undefined);
});

test("the state directory: --state-dir, else PIN_STATE_DIR, else systemd's $STATE_DIRECTORY, else ./state", (t) => {
  t.is(stateDirectoryPath(parseConfig(['--state-dir', '/var/lib/a'], { PIN_STATE_DIR: '/var/lib/b' }).stateDir, {}), '/var/lib/a');
  t.is(stateDirectoryPath(parseConfig([], { PIN_STATE_DIR: '/var/lib/b' }).stateDir, { STATE_DIRECTORY: '/var/lib/c' }), '/var/lib/b');
  t.is(stateDirectoryPath(undefined, { STATE_DIRECTORY: '/var/lib/c:/var/lib/d' }), '/var/lib/c');
  t.is(stateDirectoryPath(undefined, {}), path.resolve('state'));
});

test('--store names the kept embedded store, the volatile one, or a Redis URL; --store-replicas needs Redis', (t) => {
  t.is(parseConfig(['--store', 'memory'], {}).store, 'memory');
  t.is(parseConfig(['--store', 'embedded'], {}).store, 'embedded');
  t.throws(() => parseConfig(['--store', 'disk'], {}), { instanceOf: ConfigError, message: /invalid --store/ });
  for (const store of ['embedded', 'memory']) {
    t.throws(() => parseConfig(['--store', store, '--store-replicas', '1'], {}), {
      instanceOf: ConfigError,
      message: /--store-replicas needs a Redis store/,
    });
  }
});

test('environment variables that are not PIN_* are ignored; an empty PIN_* variable means the default', (t) => {
  const c = parseConfig([], { PATH: '/usr/bin', HOME: '/root', PORT: '1', DIGITS: '7', PIN_PORT: '' });
  t.is(c.port, 8080);
  t.is(c.digits, 6);
});

/** Each setting set to a non-default value: [flag, env, text, key, expected]. */
const VALUES: Array<[string, string, string, keyof Config, unknown]> = [
  ['--port', 'PIN_PORT', '9090', 'port', 9090],
  ['--host', 'PIN_HOST', '127.0.0.1', 'host', '127.0.0.1'],
  ['--namespace', 'PIN_NAMESPACE', 'urn:example:pins/', 'namespace', 'urn:example:pins/'],
  ['--namespace', 'PIN_NAMESPACE', 'https://pins.example.com/api/', 'namespace', 'https://pins.example.com/api/'],
  ['--public-url', 'PIN_PUBLIC_URL', 'https://pins.example.com', 'publicUrl', 'https://pins.example.com'],
  ['--trust-proxy', 'PIN_TRUST_PROXY', 'true', 'trustProxy', true],
  ['--secret-encoding', 'PIN_SECRET_ENCODING', 'base32', 'secretEncoding', 'base32'],
  ['--algorithm', 'PIN_ALGORITHM', 'SHA256', 'algorithm', 'SHA256'],
  ['--algorithm', 'PIN_ALGORITHM', 'sha512', 'algorithm', 'SHA512'],
  ['--digits', 'PIN_DIGITS', '8', 'digits', 8],
  ['--period', 'PIN_PERIOD', '60', 'period', 60],
  ['--drift-window', 'PIN_DRIFT_WINDOW', '10', 'driftWindow', 10],
  ['--drift-window', 'PIN_DRIFT_WINDOW', '0', 'driftWindow', 0],
  ['--min-secret-bytes', 'PIN_MIN_SECRET_BYTES', '16', 'minSecretBytes', 16],
  ['--max-body-bytes', 'PIN_MAX_BODY_BYTES', '131072', 'maxBodyBytes', 131072],
  ['--replay-protection', 'PIN_REPLAY_PROTECTION', 'false', 'replayProtection', false],
  ['--throttle-attempts', 'PIN_THROTTLE_ATTEMPTS', '0', 'throttleAttempts', 0],
];

test('flags, as `--name value` and as `--name=value`', (t) => {
  for (const [flag, , text, key, expected] of VALUES) {
    t.deepEqual(parseConfig([flag, text], {})[key], expected, `${flag} ${text}`);
    t.deepEqual(parseConfig([`${flag}=${text}`], {})[key], expected, `${flag}=${text}`);
  }
  // Several at once, in both forms, leave the others at their defaults.
  const c = parseConfig(['--port', '1234', '--digits=8', '--secret-encoding', 'base32', '--period=45'], {});
  t.like(c, { port: 1234, digits: 8, secretEncoding: 'base32', period: 45, algorithm: 'SHA1', driftWindow: 1 });
  // A value holding `=` is kept whole in the `=` form.
  t.is(parseConfig(['--namespace=urn:x=y/'], {}).namespace, 'urn:x=y/');
  // `serve` is the default command; main.ts strips it, parseConfig sees only settings.
  t.is(parseConfig(['--port', '0'], {}).port, 0);
});

test('a true|false flag alone means true', (t) => {
  t.true(parseConfig(['--trust-proxy'], {}).trustProxy);
  t.true(parseConfig(['--trust-proxy', '--port', '1'], {}).trustProxy);
  t.false(parseConfig(['--trust-proxy', 'false'], {}).trustProxy);
  t.false(parseConfig(['--replay-protection=off'], {}).replayProtection);
});

test('PIN_* environment variables', (t) => {
  for (const [, env, text, key, expected] of VALUES) {
    t.deepEqual(parseConfig([], { [env]: text })[key], expected, `${env}=${text}`);
  }
  const c = parseConfig([], { PIN_PORT: '7000', PIN_DIGITS: '8', PIN_ALGORITHM: 'SHA256' });
  t.like(c, { port: 7000, digits: 8, algorithm: 'SHA256', period: 30 });
});

test('a flag wins over the environment variable, whichever form it takes', (t) => {
  const env = { PIN_PORT: '7000', PIN_DIGITS: '8', PIN_NAMESPACE: 'urn:from-env/' };
  t.is(parseConfig(['--port', '9000'], env).port, 9000);
  t.is(parseConfig(['--port=9001'], env).port, 9001);
  t.is(parseConfig(['--digits', '6'], env).digits, 6);
  t.is(parseConfig(['--namespace=urn:from-flag/'], env).namespace, 'urn:from-flag/');
  // The variables not overridden still apply.
  t.like(parseConfig(['--port', '9000'], env), { digits: 8, namespace: 'urn:from-env/' });
});

/** Invalid values: [flag, env, text]. */
const INVALID: Array<[string, string, string, string]> = [
  ['--namespace', 'PIN_NAMESPACE', 'authenticatorapi.com/', 'not absolute'],
  ['--namespace', 'PIN_NAMESPACE', '/relative/', 'not absolute'],
  ['--namespace', 'PIN_NAMESPACE', 'http://authenticatorapi.com', 'not ending in /'],
  ['--namespace', 'PIN_NAMESPACE', 'urn:example:pins', 'not ending in /'],
  ['--digits', 'PIN_DIGITS', '7', 'digits 7'],
  ['--digits', 'PIN_DIGITS', 'six', 'digits not a number'],
  ['--algorithm', 'PIN_ALGORITHM', 'MD5', 'unknown algorithm'],
  ['--algorithm', 'PIN_ALGORITHM', 'SHA384', 'unknown algorithm'],
  ['--period', 'PIN_PERIOD', '0', 'period 0'],
  ['--period', 'PIN_PERIOD', '-30', 'negative period'],
  ['--period', 'PIN_PERIOD', '30.5', 'fractional period'],
  ['--drift-window', 'PIN_DRIFT_WINDOW', '11', 'drift 11'],
  ['--port', 'PIN_PORT', '70000', 'port 70000'],
  ['--port', 'PIN_PORT', '80a', 'port not a number'],
  ['--public-url', 'PIN_PUBLIC_URL', 'ftp://pins.example.com', 'public URL ftp://'],
  ['--public-url', 'PIN_PUBLIC_URL', 'pins.example.com', 'public URL not absolute'],
  ['--secret-encoding', 'PIN_SECRET_ENCODING', 'hex', 'unknown encoding'],
  ['--min-secret-bytes', 'PIN_MIN_SECRET_BYTES', '0', 'minimum 0'],
  ['--max-body-bytes', 'PIN_MAX_BODY_BYTES', '10', 'body limit too small'],
  ['--trust-proxy', 'PIN_TRUST_PROXY', 'maybe', 'not a boolean'],
];

test('each invalid value throws a ConfigError of one line naming the setting (flag or variable)', (t) => {
  for (const [flag, env, text, what] of INVALID) {
    configError(t, () => parseConfig([flag, text], {}), flag, `${flag} ${text} (${what})`);
    configError(t, () => parseConfig([`${flag}=${text}`], {}), flag, `${flag}=${text} (${what})`);
    configError(t, () => parseConfig([], { [env]: text }), env, `${env}=${text} (${what})`);
  }
});

test('an unknown flag, a flag without its value, or an unknown PIN_ variable throws', (t) => {
  configError(t, () => parseConfig(['--nope', '1'], {}), '--nope', 'unknown flag');
  configError(t, () => parseConfig(['--digit=8'], {}), '--digit', 'misspelt flag');
  configError(t, () => parseConfig(['8080'], {}), '8080', 'a bare value');
  configError(t, () => parseConfig(['--port'], {}), '--port', 'flag without a value');
  configError(t, () => parseConfig([], { PIN_NOPE: '1' }), 'PIN_NOPE', 'unknown variable');
  configError(t, () => parseConfig([], { PIN_DIGIT: '8' }), 'PIN_DIGIT', 'misspelt variable');
  // An unknown variable stops start-up even when it is empty.
  configError(t, () => parseConfig([], { PIN_NOPE: '' }), 'PIN_NOPE', 'unknown empty variable');
});

test('helpText lists every flag and variable of the settings table, with its default', (t) => {
  const help = helpText();
  for (const [flag, env] of PROMISED) {
    t.true(help.includes(flag), `help names ${flag}`);
    t.true(help.includes(env), `help names ${env}`);
  }
  for (const s of SETTINGS) {
    t.true(help.includes(s.flag), `help names ${s.flag}`);
    t.truthy(s.env, `${s.flag} has its PIN_ variable`);
    t.true(help.includes(s.env!), `help names ${s.env}`);
    if (s.default !== undefined) t.true(help.includes(`default: ${String(s.default)}`), `help gives the default of ${s.flag}`);
    // Every flag the help lists is one parseConfig accepts.
    t.true(SETTINGS.some((x) => x.flag === s.flag));
  }
  t.true(help.includes('--help'));
  // Flags and variables are unique.
  t.is(new Set(SETTINGS.map((s) => s.flag)).size, SETTINGS.length);
  t.is(new Set(SETTINGS.map((s) => s.env)).size, SETTINGS.length);
});

// --------------------------------------------------------------- command line

/** The environment without any PIN_* variable of whoever runs the tests. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIN_')));
  // A state directory of its own: never the repository's ./state.
  return { ...env, PIN_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'pin-state-')), ...extra };
}

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import=tsx', 'src/service/main.ts', ...args], {
    cwd: ROOT,
    env: cleanEnv(env),
    encoding: 'utf8',
    timeout: 30_000,
  });
}

test('command line: --help exits 0 and prints the settings table', (t) => {
  for (const args of [['--help'], ['serve', '--help']]) {
    const r = run(args);
    t.is(r.error, undefined, `${args.join(' ')}: ${String(r.error)}`);
    t.is(r.status, 0, `${args.join(' ')}: exit status; stderr ${r.stderr}`);
    for (const [flag, env] of PROMISED) {
      t.true(r.stdout.includes(flag), `${args.join(' ')}: prints ${flag}`);
      t.true(r.stdout.includes(env), `${args.join(' ')}: prints ${env}`);
    }
    t.true(r.stdout.includes(helpText()), `${args.join(' ')}: prints the whole settings table`);
  }
});

test('command line: an invalid setting exits non-zero with one line on stderr naming it', (t) => {
  const cases: Array<[string[], Record<string, string>, string]> = [
    [['--digits', '7'], {}, '--digits'],
    [['--digits=7'], {}, '--digits'],
    [['serve', '--port', '70000'], {}, '--port'],
    [[], { PIN_DIGITS: '7' }, 'PIN_DIGITS'],
    [['--nope'], {}, '--nope'],
    [[], { PIN_NOPE: 'x' }, 'PIN_NOPE'],
  ];
  for (const [args, env, names] of cases) {
    const label = `${JSON.stringify(env)} ${args.join(' ')}`;
    const r = run(args, env);
    t.is(r.error, undefined, `${label}: did not exit in time (${String(r.error)})`);
    t.true(r.status !== null && r.status !== 0, `${label}: exit status ${r.status}`);
    const stderr = r.stderr.replace(/\n$/, '');
    t.true(stderr.length > 0, `${label}: says why`);
    t.false(stderr.includes('\n'), `${label}: one line on stderr: ${JSON.stringify(r.stderr)}`);
    t.true(stderr.includes(names), `${label}: ${JSON.stringify(stderr)} names ${names}`);
    t.false(stderr.includes('    at '), `${label}: no stack`);
    t.is(r.stdout, '', `${label}: nothing on stdout`);
  }
});
