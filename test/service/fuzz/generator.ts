/**
 * A deterministic, seeded generator of hostile requests (no dependency):
 * valid SOAP 1.1/1.2 envelopes mutated structurally (duplicated, removed and
 * reordered elements, wrong namespaces, renamed elements, huge attribute
 * counts, deep nesting, odd text, DOCTYPEs, headers) and then byte-wise
 * (truncation, bit flips, insertions, invalid UTF-8); random bytes; mutated
 * query strings and forms; every kind of Content-Type and Content-Encoding;
 * and raw, malformed HTTP on a socket of its own. Same seed, same cases.
 */
import { gzipSync } from 'node:zlib';
import type { OperationName as Operation } from '../../../generated/routes';
import { NS as CONTRACT_NS, SOAP11_NS, SOAP12_NS } from '../../support/requests';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** Secrets in the seeds: they must never come back in an error answer or a log line. */
export const SECRET_MARK = 'fzsecret';
export const SECRET_PATTERN = /fzsecret-[0-9a-z]{10}/;

export type CaseKind = 'soap11' | 'soap12' | 'random-bytes' | 'query' | 'form' | 'raw-http';

export interface FuzzCase {
  index: number;
  kind: CaseKind;
  /** What was done to the seed, for reports. */
  mutations: string[];
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** raw-http only: the bytes written on a fresh socket, as is. */
  raw?: Buffer;
}

/** mulberry32: small, fast, good enough to drive mutations reproducibly. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
  token(n: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
}

// ---------------------------------------------------------------- XML trees

interface El {
  prefix?: string;
  name: string;
  /** Namespace declarations: [prefix ('' = default), uri]. */
  ns: [string, string][];
  attrs: [string, string][];
  children: Node[];
}
type Node = El | { text: string; raw?: boolean };
const isEl = (n: Node): n is El => (n as El).name !== undefined;

function el(name: string, children: Node[] = [], extra: Partial<El> = {}): El {
  return { name, children, ns: [], attrs: [], ...extra };
}
const txt = (text: string): Node => ({ text });

// Unlike requests.ts's escapeXml, a CR stays raw: hostile clients send one, and the service must read it as XML does (as LF).
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

function serialize(node: Node): string {
  if (!isEl(node)) return node.raw ? node.text : escapeText(node.text);
  const qname = node.prefix ? `${node.prefix}:${node.name}` : node.name;
  const ns = node.ns.map(([p, uri]) => (p ? ` xmlns:${p}="${escapeAttr(uri)}"` : ` xmlns="${escapeAttr(uri)}"`)).join('');
  const attrs = node.attrs.map(([n, v]) => ` ${n}="${escapeAttr(v)}"`).join('');
  if (node.children.length === 0) return `<${qname}${ns}${attrs}/>`;
  return `<${qname}${ns}${attrs}>${node.children.map(serialize).join('')}</${qname}>`;
}

function clone(node: Node): Node {
  if (!isEl(node)) return { ...node };
  return {
    ...node,
    ns: node.ns.map((x) => [...x] as [string, string]),
    attrs: node.attrs.map((x) => [...x] as [string, string]),
    children: node.children.map(clone),
  };
}

/** Every element of the tree with its parent (undefined for the root). */
function elements(root: El): { node: El; parent?: El }[] {
  const out: { node: El; parent?: El }[] = [];
  const walk = (node: El, parent?: El) => {
    out.push({ node, parent });
    for (const c of node.children) if (isEl(c)) walk(c, node);
  };
  walk(root);
  return out;
}

interface Seed {
  version: '1.1' | '1.2';
  operation: Operation;
  tree: El;
  secret: string;
}

function seedEnvelope(rng: Rng, version: '1.1' | '1.2', operation: Operation, secret: string): El {
  const prefix = rng.pick(['soap', 'soap12', 's', 'env', 'SOAP-ENV']);
  const fields: [string, string][] =
    operation === 'Pair'
      ? [
          ['appName', rng.pick(['Example', 'Shop & Co', 'Ünïcödé', ''])],
          ['appInfo', rng.pick(['alice@example.com', 'bob', 'ação@example.org'])],
          ['secretCode', secret],
        ]
      : [
          ['pin', rng.pick(['123456', ' 654321 ', '000000', '12345678'])],
          ['secretCode', secret],
        ];
  const op = el(
    operation,
    fields.map(([n, v]) => el(n, v === '' ? [] : [txt(v)])),
    { ns: [['', CONTRACT_NS]] },
  );
  const body = el('Body', [op], { prefix });
  const children: El[] = [body];
  if (rng.chance(0.2)) children.unshift(el('Header', [], { prefix }));
  return el('Envelope', children, {
    prefix,
    ns: [
      [prefix, version === '1.1' ? SOAP11_NS : SOAP12_NS],
      ...(rng.chance(0.5)
        ? ([
            ['xsi', XSI],
            ['xsd', 'http://www.w3.org/2001/XMLSchema'],
          ] as [string, string][])
        : []),
    ],
  });
}

const NAMESPACES = [
  SOAP11_NS,
  SOAP12_NS,
  CONTRACT_NS,
  'http://authenticatorapi.com',
  'HTTP://AUTHENTICATORAPI.COM/',
  'http://tempuri.org/',
  '',
  'urn:x',
  'not a uri',
  'http://www.w3.org/2001/XMLSchema-instance',
];

const ODD_TEXT = [
  '',
  ' ',
  '\t\r\n',
  '123456',
  ' 123456 ',
  '１２３４５６',
  '12345',
  '1234567',
  '-123456',
  '0x1E240',
  '1e5',
  'true',
  'null',
  'x'.repeat(257),
  'y'.repeat(5000),
  '9'.repeat(400),
  '\u202e654321',
  '😀😀😀',
  'é\u0301',
  '%s%s%n',
  "'; DROP TABLE pins; --",
  '<script>alert(1)</script>',
];
const ODD_RAW = [
  '&amp;&lt;&gt;',
  '&#0;',
  '&#x1;',
  '&#xD800;',
  '&#x1F600;',
  '&nosuch;',
  '&lt;![CDATA[',
  '<![CDATA[123456]]>',
  '<![CDATA[]]]]><![CDATA[>]]>',
  '<!-- comment -->',
  '<?pi data?>',
  '\u0000',
  '\u0001',
  '\uFFFE',
  ']]>',
];

/** Elements and attributes in a subtree: keeps mutated trees (and the time to write them) bounded. */
function weight(node: Node): number {
  if (!isEl(node)) return 1;
  return 1 + node.attrs.length + node.children.reduce((sum, c) => sum + weight(c), 0);
}
const MAX_WEIGHT = 60_000;

/** Structural mutations of an envelope tree; returns the names of those applied. */
function mutateTree(rng: Rng, root: El, secret: string): string[] {
  const done: string[] = [];
  const count = rng.pick([1, 1, 1, 2, 2, 3, 5]);
  for (let i = 0; i < count; i++) {
    const all = elements(root);
    const { node, parent } = rng.pick(all);
    switch (rng.int(15)) {
      case 0: {
        if (!parent) break;
        const at = parent.children.indexOf(node);
        const copies = Math.max(1, Math.min(rng.pick([1, 1, 2, 50, 500]), Math.floor((MAX_WEIGHT - weight(root)) / weight(node))));
        parent.children.splice(at, 0, ...Array.from({ length: copies }, () => clone(node)));
        done.push(`duplicate<${node.name}>x${copies}`);
        break;
      }
      case 1: {
        if (!parent) break;
        parent.children.splice(parent.children.indexOf(node), 1);
        done.push(`remove<${node.name}>`);
        break;
      }
      case 2: {
        for (let j = node.children.length - 1; j > 0; j--) {
          const k = rng.int(j + 1);
          [node.children[j], node.children[k]] = [node.children[k], node.children[j]];
        }
        done.push(`reorder<${node.name}>`);
        break;
      }
      case 3: {
        const target = rng.pick(all.filter((e) => e.node.ns.length > 0)).node;
        const decl = rng.pick(target.ns);
        decl[1] = rng.pick(NAMESPACES);
        done.push(`namespace<${target.name}>`);
        break;
      }
      case 4: {
        node.name = rng.pick([
          node.name.toLowerCase(),
          node.name.toUpperCase(),
          `${node.name}x`,
          'Fault',
          'Body',
          'Envelope',
          'Pair',
          'ValidatePin',
          rng.token(6),
        ]);
        done.push('rename');
        break;
      }
      case 5: {
        const n = Math.max(0, Math.min(rng.pick([10, 100, 1000, 5000, 20000]), MAX_WEIGHT - weight(root)));
        for (let j = 0; j < n; j++) node.attrs.push([`a${j}`, rng.chance(0.5) ? 'v' : rng.token(3)]);
        done.push(`attributes x${n}`);
        break;
      }
      case 6: {
        const depth = rng.pick([10, 100, 255, 300, 1000, 5000]);
        // As markup text: a tree this deep would overflow the stack of the serializer.
        const inner = node.children.length ? serialize(node.children[0]) : 'x';
        node.children = [{ text: '<n>'.repeat(depth) + inner + '</n>'.repeat(depth), raw: true }];
        done.push(`nest x${depth}`);
        break;
      }
      case 7: {
        const leaves = all.filter((e) => e.node.children.length <= 1 && e.node.children.every((c) => !isEl(c)));
        const leaf = rng.pick(leaves.length ? leaves : all).node;
        leaf.children = rng.chance(0.6) ? [txt(rng.pick(ODD_TEXT))] : [{ text: rng.pick(ODD_RAW), raw: true }];
        done.push(`text<${leaf.name}>`);
        break;
      }
      case 8: {
        if (!root.ns.some(([p]) => p === 'xsi')) root.ns.push(['xsi', XSI]);
        node.attrs.push(
          rng.pick([
            ['xsi:nil', 'true'],
            ['xsi:type', 'xsd:int'],
            ['xsi:type', 's:base64Binary'],
            ['xsi:nil', 'maybe'],
            ['xsi:type', 'nosuch:Type'],
          ]),
        );
        done.push(`xsi<${node.name}>`);
        break;
      }
      case 9: {
        const prefix = root.prefix ?? 'soap';
        const header = el(
          'Header',
          [
            el('Auth', [txt('t')], {
              ns: [['h', 'urn:h']],
              prefix: 'h',
              attrs: [[`${prefix}:mustUnderstand`, rng.pick(['1', 'true', '0', 'false', 'yes', ''])]],
            }),
          ],
          { prefix },
        );
        root.children.unshift(header);
        done.push('header');
        break;
      }
      case 10: {
        node.prefix = rng.pick(['zz', 'xmlns', 'xml', '', undefined, '1bad']);
        done.push(`prefix<${node.name}>`);
        break;
      }
      case 11: {
        node.children.splice(rng.int(node.children.length + 1), 0, {
          text: rng.pick(['<!-- c -->', '<?php echo 1; ?>', ' ', 'stray text', '&#x20;']),
          raw: true,
        });
        done.push(`insert<${node.name}>`);
        break;
      }
      case 12: {
        node.attrs.push([
          rng.pick(['encodingStyle', 'soap:encodingStyle', 'id', 'xml:lang', 'xml:space', 'xmlns:q']),
          rng.pick(['x', '', 'urn:q', 'preserve']),
        ]);
        done.push(`attribute<${node.name}>`);
        break;
      }
      case 13: {
        // Another operation's body, or both at once.
        const body = all.find((e) => e.node.name === 'Body')?.node;
        if (!body) break;
        body.children.push(
          el(rng.pick(['Pair', 'ValidatePin', 'PairResponse']), [el('secretCode', [txt(secret)])], { ns: [['', CONTRACT_NS]] }),
        );
        done.push('second operation');
        break;
      }
      default: {
        node.children.push(el(rng.pick(['secretCode', 'pin', 'appName', 'extra', 'Body']), [txt(rng.pick(ODD_TEXT))]));
        done.push(`child<${node.name}>`);
      }
    }
  }
  return done;
}

const DOCTYPES = [
  '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>',
  '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
  '<!DOCTYPE x SYSTEM "http://127.0.0.1:9/x.dtd">',
  '<!DOCTYPE Envelope>',
];

const INVALID_UTF8 = [[0xc3, 0x28], [0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80]];

/** Byte-level mutations; returns the mutated bytes. */
function mutateBytes(rng: Rng, input: Buffer, done: string[]): Buffer {
  let b = Buffer.from(input);
  const count = rng.pick([1, 1, 2, 3, 8]);
  for (let i = 0; i < count; i++) {
    const at = b.length ? rng.int(b.length) : 0;
    switch (rng.int(8)) {
      case 0:
        b = b.subarray(0, at);
        done.push('truncate');
        break;
      case 1:
        for (let j = 0, n = rng.range(1, 8); j < n && b.length; j++) b[rng.int(b.length)] ^= 1 << rng.int(8);
        done.push('bit flips');
        break;
      case 2:
        b = Buffer.concat([b.subarray(0, at), rng.bytes(rng.range(1, 16)), b.subarray(at)]);
        done.push('insert bytes');
        break;
      case 3: {
        const len = rng.range(1, 64);
        b = Buffer.concat([b.subarray(0, at), b.subarray(at + len)]);
        done.push('delete range');
        break;
      }
      case 4: {
        const len = rng.range(1, 200);
        const piece = b.subarray(at, at + len);
        b = Buffer.concat([b.subarray(0, at), piece, piece, b.subarray(at)]);
        done.push('duplicate range');
        break;
      }
      case 5:
        b = Buffer.concat([b.subarray(0, at), Buffer.from(rng.pick(INVALID_UTF8)), b.subarray(at)]);
        done.push('invalid utf-8');
        break;
      case 6:
        b = Buffer.concat([Buffer.from(rng.pick([[0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff], [0x00], [0x20, 0x0a]])), b]);
        done.push('prefix bytes');
        break;
      default: {
        const chars = '<>&"\'=/:;![]?- \u0000';
        b[at] = chars.charCodeAt(rng.int(chars.length));
        done.push('markup byte');
      }
    }
  }
  return b;
}

// ---------------------------------------------------------------- headers

const SOAP11_TYPES = [
  'text/xml; charset=utf-8',
  'text/xml',
  'TEXT/XML; Charset=UTF-8',
  'text/xml; charset="utf-8"',
  'text/xml;charset=utf8',
];
const SOAP12_TYPES = [
  'application/soap+xml; charset=utf-8',
  'application/soap+xml',
  'application/soap+xml; charset=utf-8; action="ACTION"',
];
const OTHER_TYPES = [
  'text/xml; charset=utf-16',
  'text/xml; charset=iso-8859-1',
  'text/xml; charset=',
  'text/xml; charset=nosuch',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=latin1',
  'multipart/form-data; boundary=xyz',
  'application/json',
  'text/plain',
  'text/html',
  'application/octet-stream',
  '*/*',
  '',
  ';;;',
  'text/',
  '/xml',
  'application/soap+xml; action',
  'application/soap+xml; charset=utf-8; action="http://authenticatorapi.com/Nope"',
  `text/xml; ${'p=v; '.repeat(200)}`,
  'text/xml\t; charset=utf-8',
];
const FORM_TYPES = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'APPLICATION/X-WWW-FORM-URLENCODED',
];

function soapAction(rng: Rng, operation: Operation): string | undefined {
  return rng.pick([
    `"${CONTRACT_NS}${operation}"`,
    `"${CONTRACT_NS}${operation}"`,
    `${CONTRACT_NS}${operation}`,
    `"${CONTRACT_NS}${operation === 'Pair' ? 'ValidatePin' : 'Pair'}"`,
    '""',
    '',
    undefined,
    '"',
    `"urn:${rng.token(5)}"`,
    `"${'A'.repeat(2000)}"`,
  ]);
}

/** Optionally compresses (or pretends to) the body; returns the headers to add. */
function encodeBody(rng: Rng, body: Buffer, done: string[]): { body: Buffer; headers: Record<string, string> } {
  if (!rng.chance(0.06)) return { body, headers: {} };
  switch (rng.int(6)) {
    case 0:
      done.push('gzip');
      return { body: gzipSync(body), headers: { 'Content-Encoding': 'gzip' } };
    case 1:
      done.push('gzip bomb');
      return {
        body: gzipSync(Buffer.concat([body, Buffer.alloc(rng.pick([70_000, 1_000_000, 8_000_000]), 0x20)])),
        headers: { 'Content-Encoding': 'gzip' },
      };
    case 2: {
      done.push('corrupt gzip');
      const z = gzipSync(body);
      return { body: z.subarray(0, Math.max(1, z.length - rng.range(1, 20))), headers: { 'Content-Encoding': 'gzip' } };
    }
    case 3:
      done.push('not gzip');
      return { body, headers: { 'Content-Encoding': 'gzip' } };
    default:
      done.push('content-encoding');
      return { body, headers: { 'Content-Encoding': rng.pick(['br', 'deflate', 'identity', 'x-nosuch', 'gzip, gzip', 'compress']) } };
  }
}

// ---------------------------------------------------------------- cases

function newSecret(rng: Rng): string {
  return `${SECRET_MARK}-${rng.token(10)}`;
}

function soapCase(rng: Rng, index: number, version: '1.1' | '1.2'): FuzzCase {
  const operation: Operation = rng.chance(0.5) ? 'Pair' : 'ValidatePin';
  const secret = newSecret(rng);
  const seed: Seed = { version, operation, tree: seedEnvelope(rng, version, operation, secret), secret };
  const mutations: string[] = [];
  if (rng.chance(0.85)) mutations.push(...mutateTree(rng, seed.tree, secret));
  let text = serialize(seed.tree);
  if (rng.chance(0.8))
    text = `<?xml version="1.0" encoding="${rng.pick(['utf-8', 'utf-8', 'UTF-8', 'utf-16', 'iso-8859-1', 'nosuch'])}"?>${text}`;
  if (rng.chance(0.04)) {
    text = text.replace(/^(<\?xml[^>]*\?>)?/, (decl) => decl + rng.pick(DOCTYPES));
    mutations.push('doctype');
  }
  let body: Buffer = Buffer.from(text, 'utf8');
  if (rng.chance(0.45)) body = mutateBytes(rng, body, mutations);
  const headers: Record<string, string> = {};
  if (rng.chance(0.85)) {
    const ct = rng.pick(version === '1.1' ? SOAP11_TYPES : SOAP12_TYPES);
    headers['Content-Type'] = ct.replace('ACTION', `${CONTRACT_NS}${rng.chance(0.8) ? operation : 'Nope'}`);
  } else {
    headers['Content-Type'] = rng
      .pick([...OTHER_TYPES, ...(version === '1.1' ? SOAP12_TYPES : SOAP11_TYPES)])
      .replace('ACTION', `${CONTRACT_NS}${operation}`);
    mutations.push('content-type');
  }
  if (version === '1.1') {
    const action = soapAction(rng, operation);
    if (action !== undefined) headers.SOAPAction = action;
  }
  const encoded = encodeBody(rng, body, mutations);
  return {
    index,
    kind: version === '1.1' ? 'soap11' : 'soap12',
    mutations,
    method: 'POST',
    path: rng.chance(0.95) ? '/api.asmx' : rng.pick(['/API.ASMX', '/api.asmx/', '/api.asmx?WSDL', '/api.asmx/Pair', '/Api.Asmx?op=Pair']),
    headers: { ...headers, ...encoded.headers },
    body: encoded.body,
  };
}

const PERCENT_GARBAGE = [
  '%',
  '%Z',
  '%zz',
  '%C3%28',
  '%FF',
  '%00',
  '%0A%0D',
  '%E2%82',
  '%ED%A0%80',
  '%25',
  '%2525',
  '+',
  '%2B',
  '&',
  '=',
  ';',
  '%26',
  '%3D',
  '\u00e9',
  '%C0%AF',
];

/** A form or query string from the operation's fields, mutated. */
function fieldsText(rng: Rng, operation: Operation, secret: string, mutations: string[]): string {
  let pairs: [string, string][] =
    operation === 'Pair'
      ? [
          ['appName', 'Example'],
          ['appInfo', 'alice@example.com'],
          ['secretCode', secret],
        ]
      : [
          ['pin', '123456'],
          ['secretCode', secret],
        ];
  const count = rng.pick([0, 1, 1, 2, 3, 6]);
  for (let i = 0; i < count; i++) {
    const at = rng.int(pairs.length || 1);
    switch (rng.int(11)) {
      case 0:
        pairs.splice(at, 1);
        mutations.push('drop field');
        break;
      case 1:
        if (pairs[at]) pairs.splice(at, 0, [rng.chance(0.5) ? pairs[at][0] : pairs[at][0].toUpperCase(), pairs[at][1]]);
        mutations.push('duplicate field');
        break;
      case 2:
        pairs.push([
          rng.pick(['x', '', 'PIN', 'SecretCode', 'op', 'wsdl', '__proto__', 'constructor', 'pin[]', 'a'.repeat(300)]),
          rng.pick(['', '1', secret, 'x'.repeat(400)]),
        ]);
        mutations.push('extra field');
        break;
      case 3:
        if (pairs[at]) pairs[at] = [pairs[at][0], rng.pick(ODD_TEXT.slice(0, 14))];
        mutations.push('odd value');
        break;
      case 4:
        if (pairs[at]) pairs[at] = [pairs[at][0], pairs[at][1] + rng.pick(PERCENT_GARBAGE)];
        mutations.push('percent garbage');
        break;
      case 5:
        if (pairs[at]) pairs[at] = [pairs[at][0].toLowerCase(), pairs[at][1]];
        mutations.push('name case');
        break;
      case 6:
        for (let j = 0, n = rng.pick([50, 500, 1000]); j < n; j++) pairs.push([`f${j}`, 'v']);
        mutations.push('many fields');
        break;
      case 7:
        pairs = pairs.reverse();
        mutations.push('reorder');
        break;
      case 8:
        if (pairs[at]) pairs[at] = [pairs[at][0], rng.pick(['x'.repeat(257), '9'.repeat(3000), 'ü'.repeat(200)])];
        mutations.push('long value');
        break;
      case 9:
        if (pairs[at]) pairs[at] = [pairs[at][0] + rng.pick(PERCENT_GARBAGE), pairs[at][1]];
        mutations.push('name garbage');
        break;
      default:
        pairs.push([rng.pick(['', '=', '&', ';']), '']);
        mutations.push('empty pair');
    }
  }
  const sep = rng.chance(0.9) ? '&' : rng.pick([';', '&&', '&amp;']);
  return pairs
    .map(([n, v]) => {
      // Most values are encoded properly; some go as they are (garbage included).
      const enc = (s: string) => (/%|\+/.test(s) && rng.chance(0.6) ? s : encodeURIComponent(s));
      return v === '' && rng.chance(0.3) ? enc(n) : `${enc(n)}=${enc(v)}`;
    })
    .join(sep);
}

const OPERATION_PATHS = [
  '/api.asmx/Pair',
  '/api.asmx/ValidatePin',
  '/API.ASMX/validatepin',
  '/api.asmx/PAIR',
  '/api.asmx/Nope',
  '/api.asmx/Pair/',
  '/api.asmx/Pair/extra',
  '/api.asmx//Pair',
  '/api.asmx/%50air',
  '/api.asmx/..%2fPair',
  '/api.asmx/%',
  '/api.asmx/%E0%A4%A',
  '/api.asmx/Pair%00',
  '/api.asmx/',
];
const PAGE_PATHS = [
  '/pair.aspx',
  '/Validate.aspx',
  '/VALIDATE.ASPX',
  '/qr.aspx',
  '/api.asmx',
  '/healthz',
  '/readyz',
  '/metrics',
  '/',
  '/nope',
  '/%',
  '/%C0%AF',
];

/** Only what node:http lets a client send in a path: the rest is percent-encoded (raw-http sends anything). */
function safePath(path: string): string {
  return path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c).replace(/%25/g, '%'));
}

function queryCase(rng: Rng, index: number): FuzzCase {
  const mutations: string[] = [];
  const operation: Operation = rng.chance(0.5) ? 'Pair' : 'ValidatePin';
  const secret = newSecret(rng);
  let path: string;
  let query: string;
  if (rng.chance(0.75)) {
    path = rng.chance(0.8) ? `/api.asmx/${operation}` : rng.pick(OPERATION_PATHS);
    query = fieldsText(rng, operation, secret, mutations);
  } else {
    path = rng.pick(PAGE_PATHS);
    const page = rng.pick([
      `AppName=Example&AppInfo=a%40b.c&SecretCode=${secret}`,
      `Pin=123456&SecretCode=${secret}`,
      `size=${rng.pick(['300x300', '0x0', '1x1', '1000x1000', '1001x1001', '-5x-5', 'x', '99999999999999999999x1', '300', ''])}&data=${rng.pick(['hello', '', secret, 'x'.repeat(3000), '%FF'])}${rng.chance(0.3) ? `&format=${rng.pick(['svg', 'png', 'gif', ''])}` : ''}`,
      rng.pick(['WSDL', 'wsdl', 'disco', 'op=Pair', 'op=ValidatePin', 'op=Nope', 'op=', 'WSDL&WSDL', '%']),
    ]);
    query = page;
    mutations.push(`page ${path}`);
  }
  if (rng.chance(0.15)) {
    const bytes = mutateBytes(rng, Buffer.from(query, 'latin1'), mutations);
    query = bytes.toString('latin1');
  }
  if (query.length > 12_000) query = query.slice(0, 12_000); // under Node's 16 KiB header limit
  return {
    index,
    kind: 'query',
    mutations,
    method: 'GET',
    path: safePath(`${path}?${query}`),
    headers: rng.chance(0.1) ? { 'Content-Type': rng.pick(OTHER_TYPES) } : {},
  };
}

function formCase(rng: Rng, index: number): FuzzCase {
  const mutations: string[] = [];
  const operation: Operation = rng.chance(0.5) ? 'Pair' : 'ValidatePin';
  const secret = newSecret(rng);
  let body: Buffer = Buffer.from(fieldsText(rng, operation, secret, mutations), 'latin1');
  if (rng.chance(0.25)) body = mutateBytes(rng, body, mutations);
  if (rng.chance(0.03)) {
    body = Buffer.concat([body, Buffer.from(`&pad=${'x'.repeat(70_000)}`)]);
    mutations.push('over the limit');
  }
  const contentType = rng.chance(0.75)
    ? rng.pick(FORM_TYPES)
    : rng.pick([...OTHER_TYPES, ...SOAP11_TYPES, ...SOAP12_TYPES]).replace('ACTION', 'x');
  const encoded = encodeBody(rng, body, mutations);
  return {
    index,
    kind: 'form',
    mutations,
    method: 'POST',
    path: safePath(rng.chance(0.85) ? `/api.asmx/${operation}` : rng.pick([...OPERATION_PATHS, '/pair.aspx', '/api.asmx'])),
    headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...encoded.headers },
    body: encoded.body,
  };
}

function randomBytesCase(rng: Rng, index: number): FuzzCase {
  const size = rng.pick([0, 1, 2, 16, 100, 1000, 4096, 65_536, 65_537, 100_000]);
  const body = rng.bytes(size);
  const contentType = rng.pick([...SOAP11_TYPES, ...SOAP12_TYPES, ...FORM_TYPES, ...OTHER_TYPES]).replace('ACTION', 'x');
  const mutations = [`${size} random bytes`];
  const encoded = encodeBody(rng, body, mutations);
  return {
    index,
    kind: 'random-bytes',
    mutations,
    method: 'POST',
    path: rng.pick(['/api.asmx', '/api.asmx', '/api.asmx/Pair', '/api.asmx/ValidatePin', '/pair.aspx', '/nope']),
    headers: {
      ...(contentType ? { 'Content-Type': contentType } : {}),
      ...(rng.chance(0.3) ? { SOAPAction: `"${CONTRACT_NS}Pair"` } : {}),
      ...encoded.headers,
    },
    body: encoded.body,
  };
}

/** Malformed HTTP itself, on a socket of its own: the request line, headers and framing mutated. */
function rawCase(rng: Rng, index: number): FuzzCase {
  const mutations: string[] = [];
  const secret = newSecret(rng);
  const body = `pin=123456&secretCode=${secret}`;
  const templates = [
    () =>
      `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    () => `GET /api.asmx/ValidatePin?pin=1 23&secretCode=${secret} HTTP/1.1\r\nHost: x\r\n\r\n`,
    () =>
      `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    () => `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n${body}`,
    () => `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nContent-Length: 3\r\n\r\n${body}`,
    () => `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n${body}`,
    () => `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n${body}\r\n0\r\n\r\n`,
    () => `GET /api.asmx/Pair?appInfo=a&secretCode=${secret} HTTP/1.0\r\n\r\n`,
    () => `GET /healthz HTTP/9.9\r\n\r\n`,
    () => `\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`,
    () => `GET /healthz HTTP/1.1\r\nHost: x\r\nX: ${'y'.repeat(100)}\r\n Folded: header\r\n\r\n`,
    () => `BREW /api.asmx HTTP/1.1\r\nHost: x\r\n\r\n`,
    () => `GET /healthz HTTP/1.1\nHost: x\n\n`,
    () => `${rng.bytes(rng.range(1, 300)).toString('latin1')}\r\n\r\n`,
  ];
  const t = rng.int(templates.length);
  let raw: Buffer = Buffer.from(templates[t](), 'latin1');
  mutations.push(`template ${t}`);
  if (rng.chance(0.5)) raw = mutateBytes(rng, raw, mutations);
  return { index, kind: 'raw-http', mutations, method: 'POST', path: '', headers: {}, raw };
}

/** The `index`-th case of the run seeded with `seed` (each case has its own stream, so any one can be replayed alone). */
export function generateCase(seed: number, index: number): FuzzCase {
  const rng = new Rng((seed * 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
  const r = rng.next();
  if (r < 0.3) return soapCase(rng, index, '1.1');
  if (r < 0.55) return soapCase(rng, index, '1.2');
  if (r < 0.72) return queryCase(rng, index);
  if (r < 0.87) return formCase(rng, index);
  if (r < 0.96) return randomBytesCase(rng, index);
  return rawCase(rng, index);
}
