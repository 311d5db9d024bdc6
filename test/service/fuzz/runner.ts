/**
 * Drives the fuzz cases of generator.ts at the service running as a child
 * process, `concurrency` at a time, each with a time limit, and checks every
 * answer:
 * - its status is one the design gives (200/400/404/413/415/429/500, and
 *   405 for a method a path does not take);
 * - a 500 from the SOAP endpoint is a SOAP Fault envelope, and no 500 is an
 *   internal failure (soap:Server / soap:Receiver or a plain 500);
 * - no answer holds a stack trace, and no error answer a secret;
 * - raw, malformed HTTP gets a designed status or a closed connection, and
 *   so may a body over the limit (413, closed while the client still writes);
 * and after the run: the child is alive, logged no internal error and no
 * secret, and a valid Pair and ValidatePin still succeed.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { totp } from '../../../src/service/otp/totp';
import { startChildService, type ChildService } from '../../support/child-service';
import { elementAt, loadReaders, readXml, textOf } from '../../support/readers';
import { DEFAULT_TOTP, SOAP11_NS, SOAP12_NS, call } from '../../support/requests';
import { SECRET_PATTERN, generateCase, type CaseKind, type FuzzCase } from './generator';

/** The Errors table of docs/clients.md, 405 (with Allow) from the router for a method a known path does not take, and 302 for GET / (to the service page). */
export const DESIGNED_STATUSES = new Set([200, 302, 400, 404, 405, 413, 415, 429, 500]);
const STACK_FRAME = /^ {4}at |\n {4}at |\bat [\w.<>]+ \([^)]*:\d+:\d+\)/;
const MAX_BODY = 2 * 1024 * 1024;
/** The service's default body limit. */
const LIMIT = 65_536;

export interface FuzzOptions {
  cases: number;
  seed: number;
  concurrency?: number;
  /** Per request; an answer slower than this is a hang. */
  timeoutMs?: number;
  /** Stop starting new cases after this long (the report says how many ran). */
  maxSeconds?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface Failure {
  index: number;
  kind: CaseKind;
  mutations: string[];
  problem: string;
}

export interface FuzzReport {
  seed: number;
  requested: number;
  ran: number;
  elapsedMs: number;
  /** Answers by status ("closed": raw HTTP answered by closing the connection). */
  byStatus: Record<string, number>;
  byKind: Record<string, Record<string, number>>;
  /** SOAP Fault envelopes checked, by fault code. */
  faults: Record<string, number>;
  failures: Failure[];
  childAlive: boolean;
  /** What the valid calls after the run got ("ok" or the problem). */
  afterRun: string;
}

interface Answer {
  status: number | 'closed';
  contentType: string;
  body: Buffer;
}

function httpCase(port: number, agent: Agent, c: FuzzCase, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...c.headers };
    if (c.body) headers['Content-Length'] = String(c.body.length);
    const req = request({ host: '127.0.0.1', port, method: c.method, path: c.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (d: Buffer) => {
        size += d.length;
        if (size <= MAX_BODY) chunks.push(d);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'HANG' })));
    req.on('error', reject);
    req.end(c.body);
  });
}

function rawCase(port: number, c: FuzzCase, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(Object.assign(new Error(`no answer or close within ${timeoutMs} ms`), { code: 'HANG' }));
    });
    socket.on('connect', () => socket.end(c.raw ?? Buffer.alloc(0)));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => {
      /* a reset after the server's answer (or instead of one) is the server closing: judged on 'close' */
    });
    socket.on('close', () => {
      const data = Buffer.concat(chunks);
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(data.toString('latin1'));
      const headerEnd = data.indexOf('\r\n\r\n');
      const head = data.subarray(0, headerEnd < 0 ? data.length : headerEnd).toString('latin1');
      resolve({
        status: m ? Number(m[1]) : data.length === 0 ? 'closed' : -1,
        contentType: /\r\ncontent-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '',
        body: headerEnd < 0 ? Buffer.alloc(0) : data.subarray(headerEnd + 4),
      });
    });
  });
}

/** The problems of one answer; empty when it is as designed. */
export function judge(c: FuzzCase, answer: Answer, faults: Record<string, number>): string[] {
  const problems: string[] = [];
  const { status } = answer;
  if (status === 'closed') {
    if (c.kind !== 'raw-http' && (c.body?.length ?? 0) <= LIMIT) problems.push('connection closed without an answer');
    return problems;
  }
  if (!DESIGNED_STATUSES.has(status)) problems.push(`status ${status} is not a designed one`);
  const text = answer.body.toString('utf8');
  if (STACK_FRAME.test(text)) problems.push('the answer holds a stack trace');
  if (status !== 200 && SECRET_PATTERN.test(text)) problems.push('an error answer holds the secret');
  const soapEndpoint = c.method === 'POST' && c.path.toLowerCase().split('?')[0] === '/api.asmx';
  if (status === 500) {
    if (soapEndpoint || /xml/.test(answer.contentType)) {
      const code = faultCode(answer);
      if (!code) problems.push(`a 500 without a SOAP Fault envelope (${answer.contentType})`);
      else {
        faults[code] = (faults[code] ?? 0) + 1;
        if (/:(Server|Receiver)$/.test(code)) problems.push(`internal failure (${code}): ${text.slice(0, 200)}`);
      }
    } else problems.push(`a plain 500 (internal failure): ${text.slice(0, 200)}`);
  }
  return problems;
}

/** "1.1 soap:Client" or "1.2 soap:Sender", or undefined when the answer is not a SOAP Fault. */
function faultCode(answer: Answer): string | undefined {
  const version = answer.contentType.startsWith('text/xml')
    ? '1.1'
    : answer.contentType.startsWith('application/soap+xml')
      ? '1.2'
      : undefined;
  if (!version) return undefined;
  try {
    return readXml(answer.body.toString('utf8'), (doc) => {
      const ns = { env: version === '1.1' ? SOAP11_NS : SOAP12_NS };
      const fault = elementAt(doc, '/env:Envelope/env:Body/env:Fault', ns);
      const code = fault && (version === '1.1' ? elementAt(fault, 'faultcode') : elementAt(fault, 'env:Code/env:Value', ns));
      const reason = fault && (version === '1.1' ? elementAt(fault, 'faultstring') : elementAt(fault, 'env:Reason/env:Text', ns));
      if (!code || !reason || textOf(reason).trim() === '') return undefined;
      return `${version} ${textOf(code).trim()}`;
    });
  } catch {
    return undefined;
  }
}

async function validCallsWork(service: ChildService): Promise<string> {
  const secret = 'after-the-fuzz-run-secret-1';
  try {
    const pair = await call(service, 'httpGet', 'Pair', { appName: 'After', appInfo: 'a@b.c', secretCode: secret });
    if (pair.status !== 200 || !pair.body.includes('<ManualSetupCode>'))
      return `Pair after the run: ${pair.status} ${pair.body.slice(0, 200)}`;
    const pin = totp(Buffer.from(secret), DEFAULT_TOTP, Math.floor(Date.now() / 1000));
    const soap = await call(service, 'soap11', 'ValidatePin', { pin, secretCode: secret });
    if (soap.status !== 200 || !soap.body.includes('<ValidatePinResult>true</ValidatePinResult>'))
      return `ValidatePin after the run: ${soap.status} ${soap.body.slice(0, 200)}`;
    return 'ok';
  } catch (error) {
    return `valid calls after the run failed: ${(error as Error).message}`;
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const { cases, seed, concurrency = 8, timeoutMs = 5000, maxSeconds = 600, log = () => {} } = options;
  await loadReaders(); // judge() reads SOAP faults; the service runs in a child process, so nothing here has loaded the XML engine
  const started = Date.now();
  const report: FuzzReport = {
    seed,
    requested: cases,
    ran: 0,
    elapsedMs: 0,
    byStatus: {},
    byKind: {},
    faults: {},
    failures: [],
    childAlive: false,
    afterRun: 'not run',
  };
  const service = await startChildService({ args: ['--log-level', 'info'] });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    let next = 0;
    let crashed = false;
    const deadline = started + maxSeconds * 1000;
    const fail = (c: FuzzCase, problem: string) => {
      if (report.failures.length < 200) report.failures.push({ index: c.index, kind: c.kind, mutations: c.mutations, problem });
    };
    const worker = async () => {
      while (next < cases && !crashed && Date.now() < deadline) {
        const c = generateCase(seed, next++);
        let answer: Answer | undefined;
        try {
          answer = c.raw ? await rawCase(service.port, c, timeoutMs) : await httpCase(service.port, agent, c, timeoutMs);
        } catch (error) {
          const e = error as NodeJS.ErrnoException;
          // A body over the limit is answered 413 and the connection closed without reading the rest:
          // a client still writing may see the close (EPIPE/ECONNRESET) before it reads the 413.
          const overLimit = (c.body?.length ?? 0) > LIMIT && (e.code === 'EPIPE' || e.code === 'ECONNRESET');
          if (overLimit) answer = { status: 'closed', contentType: '', body: Buffer.alloc(0) };
          else fail(c, `${e.code ?? 'error'}: ${e.message}`);
        }
        report.ran++;
        const key = answer ? String(answer.status) : 'failed';
        report.byStatus[key] = (report.byStatus[key] ?? 0) + 1;
        report.byKind[c.kind] ??= {};
        report.byKind[c.kind][key] = (report.byKind[c.kind][key] ?? 0) + 1;
        if (answer) for (const problem of judge(c, answer, report.faults)) fail(c, problem);
        if (!service.alive()) {
          crashed = true;
          const last = service
            .output()
            .trimEnd()
            .split('\n')
            .filter((l) => !l.includes('"event":"request"'))
            .slice(-12)
            .join('\n');
          fail(c, `the service died (${JSON.stringify(await service.exited)}); its last words:\n${last}`);
        }
        if (report.ran % 2000 === 0)
          log(`${report.ran}/${cases} cases, ${report.failures.length} failures, ${Math.round((Date.now() - started) / 1000)} s`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    report.childAlive = service.alive();
    if (report.childAlive) report.afterRun = await validCallsWork(service);
    // The logs: no internal error, no secret (the request lines carry no query string).
    const output = service.output();
    const leaked = output.split('\n').filter((l) => SECRET_PATTERN.test(l));
    if (leaked.length)
      report.failures.push({
        index: -1,
        kind: 'query',
        mutations: [],
        problem: `${leaked.length} log lines hold a secret, e.g. ${leaked[0].slice(0, 300)}`,
      });
    const errors = output.split('\n').filter((l) => /"level":(50|60)/.test(l) || /Uncaught|FATAL|Segmentation/.test(l));
    if (errors.length)
      report.failures.push({
        index: -1,
        kind: 'query',
        mutations: [],
        problem: `${errors.length} error log lines, e.g. ${errors[0].slice(0, 400)}`,
      });
  } finally {
    agent.destroy();
    await service.kill();
    report.elapsedMs = Date.now() - started;
  }
  return report;
}

/** The report as a few lines of text: counts by status and by kind, then the first failures. */
export function formatReport(r: FuzzReport): string {
  const statuses = Object.entries(r.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  const kinds = Object.entries(r.byKind)
    .map(
      ([k, by]) =>
        `  ${k.padEnd(13)} ${Object.entries(by)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')}`,
    )
    .join('\n');
  const faults = Object.entries(r.faults)
    .map(([c, n]) => `${c}: ${n}`)
    .join(', ');
  const failures = r.failures
    .slice(0, 20)
    .map((f) => `  #${f.index} ${f.kind} [${f.mutations.join(', ')}]: ${f.problem}`)
    .join('\n');
  return [
    `fuzz: seed ${r.seed}, ${r.ran}/${r.requested} cases in ${(r.elapsedMs / 1000).toFixed(1)} s`,
    `by status: ${statuses}`,
    `by kind:\n${kinds}`,
    `SOAP faults checked: ${faults || 'none'}`,
    `service alive after the run: ${r.childAlive}; valid calls after the run: ${r.afterRun}`,
    `failures: ${r.failures.length}${failures ? `\n${failures}` : ''}`,
  ].join('\n');
}
