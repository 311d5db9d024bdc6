/**
 * Overloaded operations (one WSDL operation name, several operations told apart by their input and output names,
 * as Axis 1 writes a Java class's overloaded methods), on test/fixtures/contracts/overloads/Library.wsdl: each is
 * its own handler (`find`, `find1`: the n-th overload's input `findRequest{n}` names it), and a call is routed to the
 * one whose parts its wrapper's children are — by their names, then, of the same names, by their xsi:types. The
 * typed client calls each; a call that fits none, or several, is a client fault naming the overloads.
 */
import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import pino from 'pino';
import { generate } from '../../../codegen/main';
import { loadContract, type LoadedContract } from '../../../codegen/harness/load-generated';
import { createContractApp } from '../../../src/runtime/host';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

const WSDL = join(__dirname, '..', '..', 'fixtures', 'contracts', 'overloads', 'Library.wsdl');
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

let loaded: LoadedContract;
let server: Server;
let base: string;
const seen: string[] = [];
// biome-ignore lint/suspicious/noExplicitAny: the generated module of a contract loaded at run time
let types: any;

type Request = Record<string, unknown>;
type Book = { id: bigint; key?: string; title?: string };
const handlers = {
  find: async (r: Request) => {
    seen.push(`find(${r.in0}, ${r.in1})`);
    return new types.Book({ id: r.in1 as bigint, key: 'by-id', title: `book ${r.in1}` });
  },
  find1: async (r: Request) => {
    seen.push(`find1(${r.in0}, ${r.in1}, ${r.in2})`);
    return new types.Book({ id: 0n, key: r.in1 as string, title: r.in2 as string });
  },
  count: async (r: Request) => {
    seen.push(`count(${r.in0})`);
    return (r.in0 as string).length;
  },
  count1: async (r: Request) => {
    const books = (r.in0 as { item?: Book[] }).item ?? [];
    seen.push(`count1(${books.length} books)`);
    return books.length;
  },
  shelf: async () => new types.ArrayOf_tns1_Book({ item: [] }),
};

test.before(async () => {
  await loadXmlEngine();
  loaded = await loadContract(WSDL);
  types = require(join(loaded.folder, 'types.js'));
  const app = createContractApp(
    loaded.definition,
    handlers as never,
    { namespace: undefined, publicUrl: undefined, trustProxy: false, maxBodyBytes: 1 << 20 },
    pino({ level: 'silent' }),
  );
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after.always(async () => {
  await new Promise((resolve) => server?.close(resolve));
  loaded?.remove();
});

async function call(body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}/axis/services/Library`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""' },
    body:
      `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${ENV}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ` +
      `xmlns:xsi="${XSI}" xmlns:soapenc="${ENC}"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`,
  });
  return { status: response.status, text: await response.text() };
}

const wrapper = (name: string, content: string) =>
  `<ns1:${name} soapenv:encodingStyle="${ENC}" xmlns:ns1="urn:library">${content}</ns1:${name}>`;

test.serial('each overload is a handler of its own: the wrapper’s children choose it by their names', async (t) => {
  seen.length = 0;
  const byId = await call(wrapper('find', '<in0 xsi:type="xsd:string">tok</in0><in1 xsi:type="xsd:long">42</in1>'));
  t.is(byId.status, 200, byId.text);
  t.regex(byId.text, /<title xsi:type="[^"]*:string">book 42<\/title>/);
  const byTitle = await call(
    wrapper('find', '<in0 xsi:type="xsd:string">tok</in0><in1 xsi:type="xsd:string">K</in1><in2 xsi:type="xsd:string">Dune</in2>'),
  );
  t.is(byTitle.status, 200, byTitle.text);
  t.regex(byTitle.text, /<ns1:findResponse|:findResponse /);
  t.regex(byTitle.text, /<title xsi:type="[^"]*:string">Dune<\/title>/);
  t.deepEqual(seen, ['find(tok, 42)', 'find1(tok, K, Dune)']);
});

test.serial('overloads of the same parts’ names are told apart by the xsi:type each part is sent with', async (t) => {
  seen.length = 0;
  const text = await call(wrapper('count', '<in0 xsi:type="xsd:string">abcd</in0>'));
  t.is(text.status, 200, text.text);
  t.regex(text.text, /<countReturn xsi:type="[^"]*:int">4<\/countReturn>/);
  const books = await call(
    wrapper(
      'count',
      `<in0 xsi:type="soapenc:Array" soapenc:arrayType="ns2:Book[2]" xmlns:ns2="http://beans.library">` +
        '<item><id xsi:type="xsd:long">1</id><key xsi:nil="true"/><title xsi:nil="true"/></item>' +
        '<item><id xsi:type="xsd:long">2</id><key xsi:nil="true"/><title xsi:nil="true"/></item></in0>',
    ),
  );
  t.is(books.status, 200, books.text);
  t.regex(books.text, /<countReturn xsi:type="[^"]*:int">2<\/countReturn>/);
  t.deepEqual(seen, ['count(abcd)', 'count1(2 books)']);
});

test.serial('a call no overload takes, or several take alike, is a client fault naming the overloads', async (t) => {
  const none = await call(wrapper('find', '<in0 xsi:type="xsd:string">tok</in0><in9 xsi:type="xsd:string">x</in9>'));
  t.is(none.status, 500);
  t.regex(none.text, /<faultcode>[^<]*:Client<\/faultcode>/);
  t.regex(none.text, /fit none of them: find\(in0, in1\), find1\(in0, in1, in2\)/);
  t.notRegex(none.text, /at \w+ \(|\.ts:\d+/);
  // Without an xsi:type, a count(in0) fits both: the call cannot say which.
  const both = await call(wrapper('count', '<in0>abcd</in0>'));
  t.is(both.status, 500);
  t.regex(both.text, /fit 2 of them: count\(in0\), count1\(in0\)/);
});

test.serial('the typed client calls each overload by its own name, and reads each answer', async (t) => {
  seen.length = 0;
  // biome-ignore lint/suspicious/noExplicitAny: the generated client is loaded at run time
  const generated: any = require(join(loaded.folder, 'client.js'));
  const client = new generated.LibraryServiceClient({ baseUrl: base });
  const byId = await client.find({ in0: 'tok', in1: 7n });
  t.is(byId.title, 'book 7');
  const byTitle = await client.find1({ in0: 'tok', in1: 'K', in2: 'Emma' });
  t.is(byTitle.title, 'Emma');
  t.is(await client.count({ in0: 'xyz' }), 3);
  t.deepEqual(seen, ['find(tok, 7)', 'find1(tok, K, Emma)', 'count(xyz)']);
});

test('the WSDL served is the published one, each overload bound under the one name', async (t) => {
  const wsdl = await (await fetch(`${base}/axis/services/Library?wsdl`)).text();
  t.is((wsdl.match(/<wsdl:operation name="find"/g) ?? []).length, 4, 'two in the port type, two in the binding, as published');
  t.regex(wsdl, /name="findRequest1"/);
});

test('an rpc/literal overload is not served, said in one line; the first of its name is, and the coverage counts both', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'overloads-'));
  try {
    const literal = readFileSync(WSDL, 'utf8')
      .replace(/ encodingStyle="[^"]*"/g, '')
      .replace(/use="encoded"/g, 'use="literal"');
    const wsdl = join(folder, 'Library.wsdl');
    writeFileSync(wsdl, literal);
    const lines: string[] = [];
    let coverage: { operations: number; servedOperations: number } | undefined;
    await generate(wsdl, join(folder, 'out'), { note: (line) => lines.push(line), coverage: (c) => (coverage = c) });
    const overloads = lines.filter((l) => l.includes('overloads another'));
    t.is(overloads.length, 2, lines.join('\n'));
    t.regex(
      overloads[0],
      /operation find of port Library is not served: .*operation find \(input findRequest1\) overloads another of its name: served for rpc\/encoded only/,
    );
    t.deepEqual(coverage && [coverage.servedOperations, coverage.operations], [3, 5]);
    const routes = readFileSync(join(folder, 'out', 'routes.ts'), 'utf8');
    t.regex(routes, /operation: 'find',/);
    t.notRegex(routes, /operation: 'find1',/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
