/**
 * The Redis forms of --store (src/service/state/redis-url.ts) and the settings that
 * go with them (--store-replicas, --store-tls-ca): what each form is read
 * as, a one-line error for each malformed one that never repeats a
 * password, and the checks between settings.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helpText } from '../../src/service/cli/help';
import { ConfigError, parseConfig, SETTINGS } from '../../src/service/config';
import { parseStoreUrl, StoreUrlError } from '../../src/service/state/redis-url';

test('redis:// and rediss://: one server, its database, TLS for rediss', (t) => {
  t.deepEqual(parseStoreUrl('redis://127.0.0.1:6379/0'), {
    topology: 'single',
    tls: false,
    endpoint: { host: '127.0.0.1', port: 6379 },
    db: 0,
  });
  t.deepEqual(parseStoreUrl('redis://redis.internal'), {
    topology: 'single',
    tls: false,
    endpoint: { host: 'redis.internal', port: 6379 },
    db: 0,
  });
  t.deepEqual(parseStoreUrl('rediss://redis.example.com:6380/3'), {
    topology: 'single',
    tls: true,
    endpoint: { host: 'redis.example.com', port: 6380 },
    db: 3,
  });
  t.deepEqual(parseStoreUrl('REDIS://[::1]:7000/'), { topology: 'single', tls: false, endpoint: { host: '::1', port: 7000 }, db: 0 });
});

test('credentials as ioredis reads them: user:pass, :pass, or a user alone; percent-decoded', (t) => {
  t.like(parseStoreUrl('redis://pins:s%40cret%3A1@h:1/0'), { username: 'pins', password: 's@cret:1' });
  t.like(parseStoreUrl('redis://:only-a-password@h:1'), { password: 'only-a-password' });
  t.false('username' in parseStoreUrl('redis://:only-a-password@h:1'));
  t.like(parseStoreUrl('redis://pins@h:1'), { username: 'pins' });
  t.false('password' in parseStoreUrl('redis://pins@h:1'));
  // An @ in an unencoded password: the last @ ends the user information.
  t.like(parseStoreUrl('redis://:p@ss@h:1'), { password: 'p@ss', endpoint: { host: 'h', port: 1 } });
});

test('redis+sentinel://: every Sentinel, then the master name', (t) => {
  t.deepEqual(parseStoreUrl('redis+sentinel://10.0.0.1:26379,10.0.0.2:26379,[fd00::3]:26380/pins'), {
    topology: 'sentinel',
    sentinels: [
      { host: '10.0.0.1', port: 26379 },
      { host: '10.0.0.2', port: 26379 },
      { host: 'fd00::3', port: 26380 },
    ],
    masterName: 'pins',
  });
  t.deepEqual(parseStoreUrl('redis+sentinel://u:p@s1:1/my-master.1'), {
    topology: 'sentinel',
    sentinels: [{ host: 's1', port: 1 }],
    masterName: 'my-master.1',
    username: 'u',
    password: 'p',
  });
});

test('redis+cluster://: any number of nodes, no path', (t) => {
  t.deepEqual(parseStoreUrl('redis+cluster://n1:7000,n2:7001'), {
    topology: 'cluster',
    nodes: [
      { host: 'n1', port: 7000 },
      { host: 'n2', port: 7001 },
    ],
  });
  t.like(parseStoreUrl('redis+cluster://:pw@n1:7000/'), { topology: 'cluster', password: 'pw' });
});

/** Malformed forms, and what the error must say. */
const MALFORMED: Array<[url: string, says: RegExp]> = [
  ['http://h:1', /must be redis:\/\/.*redis\+sentinel:\/\/.*redis\+cluster:\/\//],
  ['rediss+sentinel://h:1/m', /must be redis:\/\//],
  ['redis+sentinal://h:1/m', /must be redis:\/\//],
  ['redis://', /needs a host/],
  ['redis://h:1/x', /database must be a whole number/],
  ['redis://h:1/0?family=6', /takes no query/],
  ['redis://h:1,h2:2', /takes one host/],
  ['redis://h:0', /port must be 1 to 65535/],
  ['redis://h:65536', /port must be 1 to 65535/],
  ['redis://h:', /port must be 1 to 65535/],
  ['redis://bad_host!:1', /not a host name or IP address/],
  ['redis+sentinel://s1:26379,s2:26379', /needs the master's name/],
  ['redis+sentinel://s1:26379/', /needs the master's name/],
  ['redis+sentinel://s1:26379/a/b', /needs the master's name/],
  ['redis+sentinel://s1,s2:2/m', /host 1 of 2 has no port/],
  ['redis+sentinel://s1:1,,s2:2/m', /empty host/],
  ['redis+cluster://n1:7000/0', /takes no path/],
  ['redis+cluster://n1:7000,n2', /host 2 of 2 has no port/],
  ['redis+cluster://n1:7000,n2:x', /host 2 of 2 is not host:port/],
  ['redis://h:1 /0', /white space/],
];

test('a malformed Redis URL: StoreUrlError saying what is wrong', (t) => {
  for (const [url, says] of MALFORMED) {
    const error = t.throws(() => parseStoreUrl(url), { instanceOf: StoreUrlError }, url);
    if (error) t.regex(error.message, says, url);
  }
});

test('through the settings, a value no backend takes is told every form --store takes, from the registry of backends', (t) => {
  for (const url of ['http://h:1', 'rediss+sentinel://h:1/m', 'redis+sentinal://h:1/m', 'Embedded', 'redis:6379']) {
    const error = t.throws(() => parseConfig(['--store', url], {}), { instanceOf: ConfigError }, url);
    t.is(
      error?.message,
      'invalid --store: must be embedded, memory, redis://host:port/db, rediss://host:port/db, redis+sentinel://host:port[,host:port…]/mastername or redis+cluster://host:port[,host:port…]',
      url,
    );
  }
  const store = SETTINGS.find((row) => row.key === 'store');
  t.is(store?.values, 'embedded|memory|redis://…');
  t.true(
    store?.help.startsWith('where replay and throttle state lives: embedded (in memory, kept in --state-dir across restarts), memory ('),
  );
  t.true(store?.help.includes(', or a shared Redis: redis://host:port/db, rediss://… (TLS), redis+sentinel://'));
});

test('through the settings: one line naming the flag or variable, never the password', (t) => {
  for (const [url] of MALFORMED) {
    for (const [argv, env, names] of [
      [['--store', url], {}, '--store'],
      [[], { PIN_STORE: url }, 'PIN_STORE'],
    ] as const) {
      const error = t.throws(() => parseConfig(argv, env), { instanceOf: ConfigError }, url);
      if (!error) continue;
      t.true(error.message.startsWith(`invalid ${names}: `), error.message);
      t.false(/[\r\n]/.test(error.message), error.message);
    }
  }
  // A password in a malformed URL (unencoded / or @, a wrong port) is not repeated, whichever part it ends up in.
  for (const url of [
    'redis://:pa/ss-word-1@h:1',
    'redis+cluster://:pass-word-2@n1:1,pass-word-3',
    'redis+sentinel://u:pass-word-4@s1:99999/m',
  ]) {
    const error = t.throws(() => parseConfig(['--store', url], {}), { instanceOf: ConfigError });
    t.notRegex(error?.message ?? '', /pass-word|ss-word/, url);
  }
  for (const url of ['memory', 'redis://127.0.0.1:6379/0', 'rediss://h:1', 'redis+sentinel://a:1,b:2/m', 'redis+cluster://a:1,b:2,c:3']) {
    t.is(parseConfig(['--store', url], {}).store, url);
  }
});

test('--store-replicas: 0 by default, 0 to 16, and only with a Redis store', (t) => {
  t.is(parseConfig([], {}).storeReplicas, 0);
  t.is(parseConfig(['--store', 'redis+sentinel://a:1/m', '--store-replicas', '1'], {}).storeReplicas, 1);
  t.is(parseConfig([], { PIN_STORE: 'redis+cluster://a:1', PIN_STORE_REPLICAS: '2' }).storeReplicas, 2);
  for (const bad of ['-1', '17', 'one', '1.5']) {
    const error = t.throws(() => parseConfig(['--store', 'redis://h:1', '--store-replicas', bad], {}), { instanceOf: ConfigError });
    t.regex(error?.message ?? '', /^invalid --store-replicas: must be a whole number from 0 to 16$/);
  }
  const error = t.throws(() => parseConfig(['--store-replicas', '1'], {}), { instanceOf: ConfigError });
  t.regex(error?.message ?? '', /--store-replicas needs a Redis store/);
});

test('--store-tls-ca: a readable file of PEM certificates, and only with rediss://', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pin-ca-'));
  try {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const notPem = join(dir, 'ca.txt');
    writeFileSync(notPem, 'not a certificate');
    t.is(parseConfig([], {}).storeTlsCa, undefined);
    t.is(parseConfig(['--store', 'rediss://h:1', '--store-tls-ca', ca], {}).storeTlsCa, ca);
    t.is(parseConfig([], { PIN_STORE: 'rediss://h:1', PIN_STORE_TLS_CA: ca }).storeTlsCa, ca);
    const missing = t.throws(() => parseConfig(['--store', 'rediss://h:1', '--store-tls-ca', join(dir, 'none.pem')], {}), {
      instanceOf: ConfigError,
    });
    t.regex(missing?.message ?? '', /^invalid --store-tls-ca: cannot read .*none\.pem \(ENOENT\)$/);
    const wrong = t.throws(() => parseConfig(['--store', 'rediss://h:1', '--store-tls-ca', notPem], {}), { instanceOf: ConfigError });
    t.regex(wrong?.message ?? '', /holds no PEM certificate/);
    const plain = t.throws(() => parseConfig(['--store', 'redis://h:1', '--store-tls-ca', ca], {}), { instanceOf: ConfigError });
    t.regex(plain?.message ?? '', /--store-tls-ca needs a rediss:\/\/ store/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--help names the new settings and the four Redis forms', (t) => {
  const help = helpText();
  for (const text of [
    '--store-replicas',
    'PIN_STORE_REPLICAS',
    '--store-tls-ca',
    'PIN_STORE_TLS_CA',
    'redis+sentinel://',
    'redis+cluster://',
    'rediss://',
  ]) {
    t.true(help.includes(text), text);
  }
});
