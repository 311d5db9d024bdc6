/**
 * 413 under load (docs/security.md, *Slow and oversized requests*): 200 bodies over
 * the limit, sent by Python's urllib.request — the whole body written before
 * the answer is read, with a Content-Length or chunked, plain, gzip or
 * deflate, over SOAP 1.1, SOAP 1.2, HTTP POST and JSON, 8 at a time — while
 * the service, a child process with default settings, answers a bounded
 * load of normal calls. Every upload reads its whole 413, and every normal
 * call its answer.
 */
import test from 'ava';
import { join } from 'node:path';
import { UNREAD_BODY_DRAIN_BYTES } from '../../src/runtime/bindings/body';
import { startChildService, type ChildService } from '../support/child-service';
import { loadReaders } from '../support/readers';
import { validatePin, readBoolean, type Variant } from '../support/requests';
import { CLIENTS_DIR, PYTHON, requireTool, runJsonClient } from './clients/harness';

const TOO_LARGE = 'The request body is larger than this service accepts.';
const LIMIT = 64 * 1024; // --max-body-bytes' default
const UPLOADS = 200;
/** Normal calls run on this many connections at once, for as long as the uploads do and at most this long. */
const LOAD_CONNECTIONS = 4;
const LOAD_MAX_MS = 100_000;

let service: ChildService | undefined;

test.before(async () => {
  requireTool(PYTHON, ['-c', 'import urllib.request, zlib, concurrent.futures'], 'python3');
  await loadReaders();
});

test.after.always(async () => {
  await service?.kill();
});

interface Upload {
  path: string;
  headers: Record<string, string>;
  size: number;
  encoding: 'identity' | 'gzip' | 'deflate';
  chunked: boolean;
  prefix: string;
  suffix: string;
}

interface UploadResult {
  status?: number;
  connection?: string | null;
  contentLength?: string | null;
  jsonerror?: string | null;
  body?: string;
  sent: number;
  error?: { type: string; message: string };
}

const SOAP11 = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"http://authenticatorapi.com/ValidatePin"' };
const SOAP12 = { 'Content-Type': 'application/soap+xml; charset=utf-8' };
const ENVELOPE = [
  '<?xml version="1.0" encoding="utf-8"?><Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body><ValidatePin xmlns="http://authenticatorapi.com/"><pin>',
  '</pin></ValidatePin></Body></Envelope>',
];
const KINDS = [
  { variant: 'SOAP 1.1', path: '/api.asmx', headers: SOAP11, prefix: ENVELOPE[0], suffix: ENVELOPE[1] },
  { variant: 'SOAP 1.2', path: '/api.asmx', headers: SOAP12, prefix: ENVELOPE[0], suffix: ENVELOPE[1] },
  {
    variant: 'HTTP POST',
    path: '/api.asmx/ValidatePin',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    prefix: 'pin=1&secretCode=',
    suffix: '',
  },
  {
    variant: 'JSON',
    path: '/api.asmx/ValidatePin',
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    prefix: '{"pin":"1","secretCode":"',
    suffix: '"}',
  },
] as const;
const ENCODINGS = ['identity', 'gzip', 'deflate'] as const;

/**
 * Sizes from just over the limit to just under the drain's bound (4 MiB), spread evenly over the kinds, framings
 * and encodings: loopback's socket buffers take a body of a few hundred KiB whole, so that only the larger ones are
 * still being sent when the answer comes.
 */
function uploads(): Array<Upload & { label: string; json: boolean }> {
  return Array.from({ length: UPLOADS }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    const encoding = ENCODINGS[Math.floor(i / KINDS.length) % ENCODINGS.length];
    const chunked = Math.floor(i / (KINDS.length * ENCODINGS.length)) % 2 === 1;
    const size = LIMIT + 1 + ((i * 104_729) % (UNREAD_BODY_DRAIN_BYTES - 1024 - LIMIT));
    const label = `#${i} ${kind.variant}, ${encoding}, ${chunked ? 'chunked' : 'Content-Length'}, ${size} bytes`;
    return {
      label,
      json: kind.variant === 'JSON',
      path: kind.path,
      headers: kind.headers,
      size,
      encoding,
      chunked,
      prefix: kind.prefix,
      suffix: kind.suffix,
    };
  });
}

test('413 under load: 200 urllib uploads over the limit, each written whole before it reads, all read their 413; the normal calls beside them are answered', async (t) => {
  service = await startChildService({ keepOutputChars: 100_000, args: ['--metrics-on-public-port'] });
  const target = service.url;
  const planned = uploads();
  let uploading = true;
  let duringUploads = 0;
  const failures: string[] = [];
  const deadline = Date.now() + LOAD_MAX_MS;
  const variants: Variant[] = ['soap11', 'soap12', 'httpGet', 'httpPost'];
  const load = Array.from({ length: LOAD_CONNECTIONS }, async (_, worker) => {
    for (let i = 0; (uploading || i === 0) && Date.now() < deadline; i++) {
      const variant = variants[(worker + i) % variants.length];
      const secret = `under-load-${worker}-${i}`;
      try {
        // A made-up PIN that is never the right one (letters): false, and one failure for a secret of its own.
        const answer = await validatePin(target, variant, 'abcdef', secret);
        if (readBoolean(variant, answer) !== false) failures.push(`${variant} ${secret}: not false`);
        if (uploading) duringUploads++;
      } catch (error) {
        failures.push(`${variant} ${secret}: ${(error as Error).message.slice(0, 200)}`);
      }
    }
  });
  let results: UploadResult[];
  try {
    results = (
      await runJsonClient<{ results: UploadResult[] }>(
        PYTHON,
        [join(CLIENTS_DIR, 'oversized_client.py')],
        { base: target, concurrency: 8, uploads: planned },
        LOAD_MAX_MS,
      )
    ).results;
  } finally {
    uploading = false;
    await Promise.all(load);
  }
  t.is(results.length, UPLOADS);
  const wrong = results.flatMap((result, i) => {
    const { label, json } = planned[i];
    const body = result.body ?? '';
    const whole = result.contentLength !== undefined && Number(result.contentLength) === Buffer.byteLength(body);
    const message = json
      ? (JSON.parse(body || '{}') as { Message?: string }).Message === TOO_LARGE && result.jsonerror === 'true'
      : body === `${TOO_LARGE}\n`;
    return result.status === 413 && result.connection === 'close' && whole && message
      ? []
      : [`${label}: ${JSON.stringify(result).slice(0, 300)}`];
  });
  t.deepEqual(wrong, [], `${wrong.length} of ${UPLOADS} uploads did not read the whole 413`);
  t.deepEqual(failures, [], 'every normal call was answered false');
  t.true(duringUploads > 0, `${duringUploads} normal calls answered while the uploads ran`);
  const metrics = await (await fetch(`${target}/metrics`)).text();
  const tooLarge = metrics
    .split('\n')
    .filter((line) => line.startsWith('pin_requests_total{') && line.includes('outcome="too-large"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  t.is(tooLarge, UPLOADS, 'the service counted one too-large answer per upload');
  t.true(service.alive(), 'the service is still running');
  t.log(
    `${UPLOADS} uploads of ${Math.round(results.reduce((sum, r) => sum + r.sent, 0) / 1024 / 1024)} MiB in all, each a whole 413; ${duringUploads} normal calls answered meanwhile`,
  );
});
