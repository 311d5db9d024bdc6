/**
 * --namespace: a namespace libxml2 refuses as a schema target stops the
 * service's start with one line naming it (the runtime's own check of the
 * namespace, test/runtime/xml/xml-engine.test.ts, reaches the start-up message).
 */
import test from 'ava';
import { defaultConfig } from '../../src/service/config';
import { createLogger } from '../../src/service/observability/logger';
import { startService } from '../../src/service/server';

for (const namespace of ['urn:été/', 'http://exämple.com/ns/', 'urn:50%/']) {
  test(`a namespace libxml2 refuses as a schema target (${namespace}) is a one-line start-up error`, async (t) => {
    const config = { ...defaultConfig(), host: '127.0.0.1', port: 0, namespace, store: 'memory' };
    const error = await t.throwsAsync(startService(config, createLogger('silent')));
    t.true(error!.message.includes(JSON.stringify(namespace)), error!.message);
    t.regex(error!.message, /not a valid URI/);
    t.false(error!.message.includes('\n'), 'one line');
  });
}
