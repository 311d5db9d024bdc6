/**
 * Mutated SOAP envelopes of any contract, for the runtime's tests: a
 * well-formed call of one operation (its element in the contract's
 * namespace, one child per field), then a few mutations drawn from a seeded
 * generator — elements duplicated, removed, reordered, renamed or
 * re-prefixed, namespaces changed, odd texts, entities, CDATA, comments and
 * processing instructions, xsi attributes, a Header (mustUnderstand or not),
 * a second body element, other XML declarations and a DOCTYPE. The same seed
 * and index give the same case.
 */
import { SOAP11, SOAP12, type SoapVersion } from '../../src/runtime/wire/soap-envelope';

/** A small deterministic generator (mulberry32). */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

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
const el = (name: string, children: Node[] = [], extra: Partial<El> = {}): El => ({ name, children, ns: [], attrs: [], ...extra });
const text = (value: string): Node => ({ text: value });

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

function elements(root: El): { node: El; parent?: El }[] {
  const out: { node: El; parent?: El }[] = [];
  const walk = (node: El, parent?: El) => {
    out.push({ node, parent });
    for (const c of node.children) if (isEl(c)) walk(c, node);
  };
  walk(root);
  return out;
}

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const ODD_TEXT = ['', ' ', '\t\r\n', '42', ' 42 ', '４２', '-1', '1e5', '0x2A', 'NaN', 'true', 'x'.repeat(300), '😀', 'é\u0301', '<b>'];
const ODD_RAW = [
  '&amp;&lt;',
  '&#x1F600;',
  '&#233;',
  '<![CDATA[42]]>',
  '<![CDATA[]]]]><![CDATA[>]]>',
  '<!-- c -->',
  '<?pi x?>',
  '&nosuch;',
  '&#0;',
];
const DECLARATIONS = [
  '<?xml version="1.0" encoding="utf-8"?>',
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<?xml version="1.0"?>',
  '',
  '<?xml version="1.0" encoding="ISO-8859-1"?>',
  '<?xml version="1.0" encoding="utf-16"?>',
  '<?xml version="1.1" encoding="utf-8"?>',
];
const DOCTYPES = ['<!DOCTYPE Envelope>', '<!DOCTYPE x [<!ENTITY e "v">]>'];

/** One operation of a contract as a call sends it: its element's name and namespace, its fields (name, text). */
export interface CallShape {
  namespace: string;
  element: string;
  fields: readonly (readonly [string, string])[];
  /** Other element names of the contract, for renames and second body elements. */
  otherElements: readonly string[];
}

export interface MutatedEnvelope {
  version: SoapVersion;
  body: Buffer;
  mutations: string[];
}

/** Case `index` of seed `seed`: `shape`'s call in a SOAP 1.1 or 1.2 envelope, mutated (case 0 of each seed: not at all). */
export function mutatedEnvelope(seed: number, index: number, shape: CallShape): MutatedEnvelope {
  const rng = new Rng(seed * 1_000_003 + index);
  const version = rng.chance(0.5) ? SOAP11 : SOAP12;
  const prefix = rng.pick(['soap', 's', 'env', 'SOAP-ENV']);
  const operation = el(
    shape.element,
    shape.fields.map(([name, value]) => el(name, value === '' ? [] : [text(value)])),
    { ns: [['', shape.namespace]] },
  );
  const root = el('Envelope', [el('Body', [operation], { prefix })], { prefix, ns: [[prefix, version.envelopeNamespace]] });
  const mutations: string[] = [];
  const count = index === 0 ? 0 : rng.pick([0, 1, 1, 1, 2, 3]);
  for (let i = 0; i < count; i++) mutations.push(mutate(rng, root, shape, version));
  let declaration = DECLARATIONS[0];
  if (rng.chance(0.1)) {
    declaration = rng.pick(DECLARATIONS);
    mutations.push(`declaration ${declaration || '(none)'}`);
  }
  let doctype = '';
  if (rng.chance(0.03)) {
    doctype = rng.pick(DOCTYPES);
    mutations.push('doctype');
  }
  return { version, body: Buffer.from(`${declaration}${doctype}${serialize(root)}`, 'utf8'), mutations };
}

function mutate(rng: Rng, root: El, shape: CallShape, version: SoapVersion): string {
  const all = elements(root);
  const { node, parent } = rng.pick(all);
  switch (rng.int(13)) {
    case 0:
      if (!parent) return 'none';
      parent.children.splice(parent.children.indexOf(node), 0, clone(node));
      return `duplicate<${node.name}>`;
    case 1:
      if (!parent) return 'none';
      parent.children.splice(parent.children.indexOf(node), 1);
      return `remove<${node.name}>`;
    case 2:
      node.children.reverse();
      return `reorder<${node.name}>`;
    case 3: {
      const target = rng.pick(all.filter((e) => e.node.ns.length > 0)).node;
      rng.pick(target.ns)[1] = rng.pick([
        SOAP11.envelopeNamespace,
        SOAP12.envelopeNamespace,
        shape.namespace,
        `${shape.namespace}x`,
        '',
        'urn:x',
      ]);
      return `namespace<${target.name}>`;
    }
    case 4:
      node.name = rng.pick([node.name.toLowerCase(), node.name.toUpperCase(), `${node.name}x`, 'Body', 'Header', ...shape.otherElements]);
      return 'rename';
    case 5: {
      const leaves = all.filter((e) => e.node.children.every((c) => !isEl(c)));
      const leaf = rng.pick(leaves.length ? leaves : all).node;
      leaf.children = rng.chance(0.6) ? [text(rng.pick(ODD_TEXT))] : [{ text: rng.pick(ODD_RAW), raw: true }];
      return `text<${leaf.name}>`;
    }
    case 6:
      if (!root.ns.some(([p]) => p === 'xsi')) root.ns.push(['xsi', XSI]);
      node.attrs.push(
        rng.pick([
          ['xsi:nil', 'true'],
          ['xsi:type', 'xsd:int'],
          ['xsi:nil', 'maybe'],
        ] as [string, string][]),
      );
      return `xsi<${node.name}>`;
    case 7: {
      const prefix = root.prefix ?? 'soap';
      const flag: [string, string][] = rng.chance(0.5)
        ? [[`${prefix}:mustUnderstand`, rng.pick(version === SOAP11 ? ['1', '0'] : ['true', 'false', '1'])]]
        : [];
      root.children.unshift(el('Header', [el('Token', [text('t')], { ns: [['h', 'urn:h']], prefix: 'h', attrs: flag })], { prefix }));
      return 'header';
    }
    case 8:
      node.prefix = rng.pick(['zz', '', undefined]);
      return `prefix<${node.name}>`;
    case 9:
      node.children.splice(rng.int(node.children.length + 1), 0, {
        text: rng.pick(['<!-- c -->', '<?pi x?>', ' ', 'stray', '&#x20;']),
        raw: true,
      });
      return `insert<${node.name}>`;
    case 10:
      node.attrs.push([rng.pick(['id', 'xml:lang', `${root.prefix}:encodingStyle`]), rng.pick(['x', '', 'urn:q'])]);
      return `attribute<${node.name}>`;
    case 11: {
      const body = all.find((e) => e.node.name === 'Body')?.node;
      if (!body) return 'none';
      body.children.push(
        el(rng.pick(shape.otherElements.length ? shape.otherElements : [shape.element]), [], { ns: [['', shape.namespace]] }),
      );
      return 'second body element';
    }
    default:
      node.children.push(el(rng.pick([...shape.fields.map(([name]) => name), 'extra']), [text(rng.pick(ODD_TEXT))]));
      return `child<${node.name}>`;
  }
}
