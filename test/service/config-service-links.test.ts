/**
 * Settings under Kubernetes (docs/operations.md, *Kubernetes*): the variables
 * kubelet injects for the Services of a pod's namespace never stop the
 * service: they are left out and named on one start-up line; a setting that
 * holds a service link's value (`PIN_PORT=tcp://…`) is read as that link; a
 * misspelt setting or flag is still refused, with the nearest real one. The
 * runtime's part (any prefix) first, then the PIN service's table, then the
 * real process.
 */
import test from 'ava';
import { ConfigError, SETTINGS, parseConfig, readConfig } from '../../src/service/config';
import { serviceLinkTest } from '../../src/runtime/service-links';
import { integer, nearestName, setting, settingsTable } from '../../src/runtime/settings';
import { startChildService } from '../support/child-service';
import { pinServiceLinks, serviceLinkVariables } from '../support/service-links';

// ------------------------------------------------------------- the runtime: any prefix

test('every shape kubelet writes is a service link under its prefix, for IPv4 and IPv6 Services', (t) => {
  const isLink = serviceLinkTest('APP_');
  const services = [
    serviceLinkVariables('app', '10.0.0.1', [{ port: 8080 }]),
    serviceLinkVariables('app-web', '10.0.0.2', [
      { name: 'http', port: 80 },
      { name: 'metrics-port', port: 9090 },
      { port: 53, protocol: 'UDP' },
    ]),
    serviceLinkVariables('app-v6', 'fd00:10:96::1', [
      { name: 'https', port: 443 },
      { port: 5000, protocol: 'SCTP' },
    ]),
  ];
  for (const env of services) {
    for (const [name, value] of Object.entries(env)) t.true(isLink(name, value), `${name}=${value}`);
  }
  // The shapes are all there: a Service's host, its ports by name, and the link variables of a port.
  t.like(services[1], {
    APP_WEB_SERVICE_HOST: '10.0.0.2',
    APP_WEB_SERVICE_PORT: '80',
    APP_WEB_SERVICE_PORT_METRICS_PORT: '9090',
    APP_WEB_PORT: 'tcp://10.0.0.2:80',
    APP_WEB_PORT_53_UDP: 'udp://10.0.0.2:53',
    APP_WEB_PORT_53_UDP_PROTO: 'udp',
    APP_WEB_PORT_53_UDP_PORT: '53',
    APP_WEB_PORT_53_UDP_ADDR: '10.0.0.2',
  });
  t.is(services[2].APP_V6_PORT, 'tcp://[fd00:10:96::1]:443');
});

test('a name of a service link holding another kind of value is not one, nor a name of another prefix', (t) => {
  const isLink = serviceLinkTest('APP_');
  const notLinks: Array<[string, string]> = [
    ['APP_HTTPS_PORT', '8443'], // a misspelt setting, not tcp://
    ['APP_PORT', '8080'],
    ['APP_PORT', 'tcp://10.0.0.1'], // no port
    ['APP_PORT', 'tcp://10.0.0.1:99999'],
    ['APP_PORT', 'http://10.0.0.1:8080'],
    ['APP_PORT', 'tcp://app.example:8080'], // kubelet writes the cluster IP, never a name
    ['APP_PORT', 'tcp://fd00::1:8080'], // IPv6 is bracketed
    ['APP_SERVICE_HOST', 'app.example'],
    ['APP_SERVICE_PORT', 'http'],
    ['APP_SERVICE_PORT_HTTP', '0'],
    ['APP_PORT_8080_TCP_PROTO', 'http'],
    ['APP_PORT_8080_HTTP', 'tcp://10.0.0.1:8080'],
    ['APP_PORT_8080_TCP_ADDR', 'localhost'],
    ['APP_web_SERVICE_HOST', '10.0.0.1'], // kubelet writes capitals
    ['OTHER_SERVICE_HOST', '10.0.0.1'],
    ['APPX_SERVICE_HOST', '10.0.0.1'],
  ];
  for (const [name, value] of notLinks) t.false(isLink(name, value), `${name}=${value}`);
});

test('a settings table leaves service links out under its prefix and names them; a row holding a link keeps its default', (t) => {
  const table = settingsTable({
    port: setting({ flag: '--port', env: 'APP_PORT', default: 8080, type: integer(0, 65535), help: 'port' }),
    workers: setting({ flag: '--workers', env: 'APP_WORKERS', default: 1, type: integer(1, 8), help: 'workers' }),
  });
  const env = { ...serviceLinkVariables('app', '10.0.0.1', [{ port: 9999 }]), APP_WORKERS: '4', PATH: '/usr/bin' };
  t.deepEqual(table.parse([], env, 'APP_'), { port: 8080, workers: 4 });
  t.deepEqual(table.parse(['--port', '7000'], env, 'APP_'), { port: 7000, workers: 4 });
  t.deepEqual(table.serviceLinks(env, 'APP_'), [
    'APP_PORT',
    'APP_PORT_9999_TCP',
    'APP_PORT_9999_TCP_ADDR',
    'APP_PORT_9999_TCP_PORT',
    'APP_PORT_9999_TCP_PROTO',
    'APP_SERVICE_HOST',
    'APP_SERVICE_PORT',
  ]);
  // The same variables under another prefix are not this table's business at all.
  t.deepEqual(table.serviceLinks(env, 'OTHER_'), []);
  // A row's variable with its own kind of value is read, and a wrong one refused, as before.
  t.is(table.parse([], { APP_PORT: '7001' }, 'APP_').port, 7001);
  t.throws(() => table.parse([], { APP_PORT: 'tcp://nowhere' }, 'APP_'), {
    instanceOf: ConfigError,
    message: 'invalid APP_PORT: must be a whole number from 0 to 65535',
  });
});

test('nearestName: the known name a misspelling was meant as, or none when nothing is near', (t) => {
  const known = ['PIN_PORT', 'PIN_HOST', 'PIN_HTTP_PORT', 'PIN_STORE', 'PIN_STATE_DIR', 'PIN_STATE_KEY'];
  t.is(nearestName('PIN_PROT', known), 'PIN_PORT', 'two letters swapped');
  t.is(nearestName('PIN_POTR', known), 'PIN_PORT');
  t.is(nearestName('PIN_HTTPS_PORT', known), 'PIN_HTTP_PORT', 'a letter too many');
  t.is(nearestName('PIN_STATEDIR', known), 'PIN_STATE_DIR', 'a letter missing');
  t.is(nearestName('pin_host', known), 'PIN_HOST', 'case aside');
  t.is(nearestName('PIN_STATE_KYE', known), 'PIN_STATE_KEY');
  t.is(nearestName('PIN_NOPE', known), undefined, 'nothing near');
  t.is(nearestName('PIN_SERVICE_PORT', known), undefined);
  t.is(nearestName('--xy', ['--qr', '--port']), undefined, 'two edits in a name of four are too many to guess');
  t.is(nearestName('--qx', ['--qr', '--port']), '--qr');
  t.is(nearestName('--prot', ['--qr', '--port']), '--port');
});

// ------------------------------------------------------------- the PIN service's settings

test('the variables of Services named pin-service and pin leave every setting at its value, and are named', (t) => {
  const links = pinServiceLinks();
  // The ones that stopped the service: PIN_SERVICE_PORT (no setting; pin-service's tcp://… and pin's port number
  // share the name, and kubelet keeps one of them) and PIN_PORT (a setting holding pin's tcp://…).
  t.is(links.PIN_SERVICE_PORT, '8080');
  t.true(serviceLinkTest('PIN_')('PIN_SERVICE_PORT', 'tcp://10.96.12.34:443'));
  t.is(links.PIN_PORT, 'tcp://10.0.0.1:8080');
  const { config, serviceLinks } = readConfig([], { ...links, PIN_DIGITS: '8', HOME: '/root' });
  t.deepEqual(config, { ...parseConfig([], {}), digits: 8 }, 'the defaults, and the one real setting');
  t.deepEqual(serviceLinks, Object.keys(links).sort(), 'every link variable, and nothing else');
  t.false(serviceLinks.includes('PIN_DIGITS'));
  // With --port given, PIN_PORT's link is left out all the same and the flag is the port.
  t.is(readConfig(['--port', '8443'], links).config.port, 8443);
  t.true(readConfig(['--port', '8443'], links).serviceLinks.includes('PIN_PORT'));
  // A real setting whose name a Service could take (a Service named pin-http): PIN_HTTP_PORT=tcp://… is a link too.
  const http = serviceLinkVariables('pin-http', '10.0.0.7', [{ port: 80 }]);
  t.is(readConfig([], http).config.httpPort, undefined);
  t.true(readConfig([], http).serviceLinks.includes('PIN_HTTP_PORT'));
  // Without service links there is nothing to say.
  t.deepEqual(readConfig(['--port', '1'], { PIN_DIGITS: '8' }).serviceLinks, []);
});

function refusal(t: import('ava').ExecutionContext, run: () => unknown, message: string): void {
  const error = t.throws(run, { instanceOf: ConfigError });
  t.is(error?.message, message);
}

test('a misspelt setting is still refused, with the nearest real one; a flag too', (t) => {
  refusal(t, () => parseConfig([], { PIN_PROT: '8080' }), 'unknown setting PIN_PROT; did you mean PIN_PORT?');
  refusal(t, () => parseConfig([], { PIN_STATE_DIRECTORY: '/x' }), 'unknown setting PIN_STATE_DIRECTORY (see --help)');
  refusal(t, () => parseConfig([], { PIN_TLS_CRT: '/x' }), 'unknown setting PIN_TLS_CRT; did you mean PIN_TLS_CERT?');
  // Shaped like a link, but not holding one: a mistake, refused as any.
  refusal(t, () => parseConfig([], { PIN_HTTPS_PORT: '8443' }), 'unknown setting PIN_HTTPS_PORT; did you mean PIN_HTTP_PORT?');
  refusal(t, () => parseConfig([], { PIN_SERVICE_PORT: 'https' }), 'unknown setting PIN_SERVICE_PORT (see --help)');
  // Among real service links, a misspelt setting still stops start-up.
  refusal(
    t,
    () => parseConfig([], { ...pinServiceLinks(), PIN_LOG_LEVLE: 'warn' }),
    'unknown setting PIN_LOG_LEVLE; did you mean PIN_LOG_LEVEL?',
  );
  refusal(t, () => parseConfig(['--prot', '8080'], {}), 'unknown argument --prot; did you mean --port?');
  refusal(t, () => parseConfig(['--store-max-entrie=5'], {}), 'unknown argument --store-max-entrie; did you mean --store-max-entries?');
  refusal(t, () => parseConfig(['--nope'], {}), 'unknown argument --nope (see --help)');
  // Every suggestion is a real setting, of the same kind (a flag for a flag).
  for (const row of SETTINGS) {
    refusal(t, () => parseConfig([`${row.flag}x`, '1'], {}), `unknown argument ${row.flag}x; did you mean ${row.flag}?`);
    refusal(t, () => parseConfig([], { [`${row.env}X`]: '1' }), `unknown setting ${row.env}X; did you mean ${row.env}?`);
  }
});

// ------------------------------------------------------------- the process

test('the service starts among the variables of Services named pin-service and pin, and says once which it ignored', async (t) => {
  const links = pinServiceLinks();
  const service = await startChildService({ env: links });
  try {
    const health = await fetch(`${service.url}/healthz`);
    t.is(health.status, 200);
    const lines = service
      .output()
      .split('\n')
      .filter((line) => line.includes('"event":"service-links-ignored"'));
    t.is(lines.length, 1, service.output());
    const line = JSON.parse(lines[0]) as { level: number; variables: string[]; msg: string };
    t.is(line.level, 40, 'a warning: the pod spec can leave them out');
    t.deepEqual(line.variables, Object.keys(links).sort());
    t.true(line.msg.includes('enableServiceLinks: false'), line.msg);
    t.true(line.msg.includes('PIN_SERVICE_SERVICE_HOST') && line.msg.includes('PIN_PORT,'), line.msg);
    // Names only: no address or port a variable held.
    t.false(/10\.96\.12\.34|10\.0\.0\.1|tcp:\/\//.test(lines[0]), lines[0]);
  } finally {
    await service.kill();
  }
});
