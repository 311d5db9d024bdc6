/**
 * Calls the encoded tracker contract (test/fixtures/encoded/tracker.wsdl) through node-soap (the `soap` npm package,
 * a devDependency of the project), built from the WSDL the server serves. node-soap reads the rpc binding; for
 * use="encoded" it writes the call's values with xsi:type where it knows them, but writes no SOAP-ENC:arrayType and
 * no item elements of its own: an array is given as {item: [...]}, the way node-soap users call such services.
 *
 * Reads {"wsdl": URL, "calls": [{"op": NAME, "args": {PART: VALUE, ...}}, ...]} on stdin, VALUES in the normalized
 * JSON form of test/system/encoded-clients.test.ts, and prints {"client": "node-soap VERSION", "results": [...]}:
 *   {"ok": VALUE, "sent": XML}   {"fault": {"code", "message", "detail"}, "sent": XML}   {"error": {"type", "message"}}
 */
const soap = require('soap');
const { version } = require('soap/package.json');

/** The contract's array-typed members and parts, and what each item is (an array of arrays: its rows). */
const ARRAYS = { notes: 'NoteData', tags: 'string', issues: 'IssueData', values: 'string', rows: 'ArrayOf_int' };

/** A normalized JSON value as node-soap takes it: an array as {item: [...]}, arrays nested likewise. */
function toNodeSoap(value, name) {
  if (Array.isArray(value)) {
    const items = value.map((item) => (Array.isArray(item) ? { item: item } : toNodeSoap(item)));
    return { item: items };
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === null ? { attributes: { 'xsi:nil': 'true' } } : toNodeSoap(v, k)]));
  }
  return value;
}

/** What node-soap decoded, normalized: {item: [...]} as a list (one item node-soap gives unwrapped), dates in UTC. */
function normalized(value, name) {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (Array.isArray(value)) return value.map((v) => normalized(v));
  if (value && typeof value === 'object') {
    if ('$value' in value) return normalized(value.$value, name);
    const { attributes, ...fields } = value;
    if (attributes && attributes['xsi:nil'] === 'true') return null;
    if (name in ARRAYS || attributes?.['SOAP-ENC:arrayType'] !== undefined) {
      const items = fields.item;
      if (items === undefined) return [];
      return (Array.isArray(items) ? items : [items]).map((v) => normalized(v, name === 'rows' ? 'row' : undefined));
    }
    if (name === 'row') {
      const items = fields.item;
      return items === undefined ? [] : (Array.isArray(items) ? items : [items]).map((v) => normalized(v));
    }
    return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, normalized(v, k)]));
  }
  return value;
}

async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const job = JSON.parse(input);
  const client = await soap.createClientAsync(job.wsdl, {});
  const results = [];
  for (const call of job.calls) {
    const result = {};
    try {
      const args = Object.fromEntries(Object.entries(call.args).map(([k, v]) => [k, toNodeSoap(v, k)]));
      const [answer] = await client[`${call.op}Async`](args);
      const value = answer && typeof answer === 'object' && 'return' in answer ? answer.return : null;
      result.ok = call.op === 'touchIssue' ? null : normalized(value, { echoIssues: 'issues', echoStrings: 'values', echoMatrix: 'rows' }[call.op]);
    } catch (error) {
      const fault = error?.root?.Envelope?.Body?.Fault;
      if (fault) {
        const detail = fault.detail ? Object.values(fault.detail).find((v) => v && typeof v === 'object') : null;
        result.fault = { code: fault.faultcode, message: fault.faultstring, detail: detail ? normalized(detail) : null };
      } else {
        result.error = { type: error?.constructor?.name ?? typeof error, message: String(error?.message ?? error) };
      }
    }
    result.sent = client.lastRequest ?? null;
    results.push(result);
  }
  process.stdout.write(JSON.stringify({ client: `node-soap ${version}`, results }));
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
