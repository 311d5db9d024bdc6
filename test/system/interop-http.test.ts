/**
 * The HTTP GET and HTTP POST variants from plain HTTP clients of two
 * ecosystems, each reading the XML answer itself: Python's standard library
 * (urllib.request + xml.etree) and curl (its answer read here with
 * libxml2-wasm). The reference ManualSetupCodes, PINs true once and false when
 * wrong or replayed, and every client error as the client's normal HTTP
 * error: urllib.error.HTTPError, curl's exit status 22 (--fail-with-body),
 * with status 400 (429 and Retry-After when throttled) and our one line.
 */
import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { DEFAULT_NAMESPACE } from '../support/xml-assertions';
import { elementAt, loadReaders, namespaceOf, readXml, textOf } from '../support/readers';
import {
  CLIENTS_DIR,
  PYTHON,
  THROTTLED_FAULT,
  requireTool,
  runJsonClient,
  runScenario,
  type Call,
  type CallResult,
} from './clients/harness';

const VERBS = [
  { verb: 'GET', variant: 'httpGet' },
  { verb: 'POST', variant: 'httpPost' },
] as const;

/** A client error is 400; the throttled call is 429 with Retry-After. */
const expectedStatus = (message: string | undefined) => (THROTTLED_FAULT.test(message ?? '') ? 429 : 400);

/** How both plain HTTP clients' failures are read: an HTTP error of `faultType`, with the status the fault calls for. */
function httpFault(t: ExecutionContext, faultType: string) {
  return (result: CallResult, what: string) => {
    t.is(result.fault?.type, faultType, `${what}: ${JSON.stringify(result)}`);
    const status = expectedStatus(result.fault?.message);
    t.is(result.fault?.code, status, what);
    if (status === 429) t.regex(result.fault?.retryAfter ?? '', /^\d+$/, `${what}: Retry-After`);
    return result.fault?.message;
  };
}

test.before(async () => {
  await loadReaders();
  requireTool(PYTHON, ['-c', 'import urllib.request, xml.etree.ElementTree'], 'python3');
  requireTool('curl', ['--version'], 'curl');
});

for (const { verb, variant } of VERBS) {
  test.serial(`Python urllib, HTTP ${verb}: Pair, ValidatePin and HTTP errors`, (t) =>
    runScenario(
      t,
      `urllib-${variant}`,
      variant,
      async (service, calls) =>
        (
          await runJsonClient<{ results: CallResult[] }>(PYTHON, [join(CLIENTS_DIR, 'urllib_client.py')], {
            endpoint: `${service.url}/api.asmx`,
            verb,
            namespace: DEFAULT_NAMESPACE,
            calls,
          })
        ).results,
      httpFault(t, 'urllib.error.HTTPError'),
    ),
  );

  test.serial(`curl, HTTP ${verb}: Pair, ValidatePin and HTTP errors`, (t) =>
    runScenario(
      t,
      `curl-${variant}`,
      variant,
      async (service, calls) => {
        const results: CallResult[] = [];
        for (const call of calls) results.push(await curl(`${service.url}/api.asmx`, verb, call));
        return results;
      },
      httpFault(t, 'curl exit 22'),
    ),
  );
}

/**
 * One call with curl: fields URL-encoded by curl itself (-G puts them in the
 * query). With --fail-with-body an HTTP error is exit status 22 and the body
 * is still printed. The write-out appends the status and Retry-After.
 */
function curl(endpoint: string, verb: 'GET' | 'POST', call: Call): Promise<CallResult> {
  const fields = Object.entries(call.args).flatMap(([name, value]) => ['--data-urlencode', `${name}=${value}`]);
  const args = ['-sS', '--fail-with-body', '--max-time', '30', ...(verb === 'GET' ? ['-G'] : []), ...fields];
  args.push('-w', '\n%{http_code} %header{retry-after}', `${endpoint}/${call.op}`);
  return new Promise((resolve, reject) => {
    execFile('curl', args, { timeout: 60_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      const exit = error ? (error as { code?: number | string }).code : 0;
      if (exit !== 0 && exit !== 22) {
        reject(new Error(`curl failed (${exit}): ${stderr}`));
        return;
      }
      const cut = stdout.lastIndexOf('\n');
      const body = stdout.slice(0, cut);
      const [status, retryAfter] = stdout.slice(cut + 1).split(' ');
      if (exit === 22) {
        resolve({ fault: { type: 'curl exit 22', code: Number(status), message: body.trim(), retryAfter: retryAfter || null } });
        return;
      }
      resolve({ ok: readAnswer(call.op, body) });
    });
  });
}

/** The XML answer of the HTTP variants: PairingInfo's fields, or the boolean's value. */
function readAnswer(op: Call['op'], body: string): unknown {
  return readXml(body, ({ root }) => {
    const ns = { ns: DEFAULT_NAMESPACE };
    const textAt = (xpath: string) => {
      const element = elementAt(root, xpath, ns);
      return element ? textOf(element) : undefined;
    };
    if (op === 'Pair') {
      if (root.name !== 'PairingInfo' || namespaceOf(root) !== DEFAULT_NAMESPACE) throw new Error(`unexpected answer ${body}`);
      return { ManualSetupCode: textAt('ns:ManualSetupCode'), Html: textAt('ns:Html') };
    }
    if (root.name !== 'boolean' || namespaceOf(root) !== DEFAULT_NAMESPACE) throw new Error(`unexpected answer ${body}`);
    const value = textOf(root).trim();
    if (!['true', 'false', '1', '0'].includes(value)) throw new Error(`not an xsd:boolean: ${body}`);
    return value === 'true' || value === '1';
  });
}
