/**
 * What bindings/xml-tree.ts takes from libxml2-wasm beyond its public API —
 * functions and struct readers of its internal module, and the compiled
 * schema's pointer on an XsdValidator — is there, in the release it was
 * checked against. A new release (a libxml2 fix) fails here first, with the
 * way to take it: docs/runtime.md, *Taking a libxml2 fix*.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INTERNALS_CHECKED_FOR, loadXmlEngine, xml, xmlInternals } from '../../../src/runtime/xml/xml-engine';

const ROOT = join(__dirname, '..', '..', '..');
const PROCEDURE = 'follow docs/runtime.md, "Taking a libxml2 fix"';

/** The internal module's functions xml-tree.ts calls. */
const FUNCTIONS = [
  'addFunction',
  'xmlNewParserCtxt',
  'xmlFreeParserCtxt',
  'xmlCtxtSetErrorHandler',
  'xmlReadMemory',
  'xmlFreeDoc',
  'xmlGetIntSubset',
  'xmlDocGetRootElement',
  'xmlNodeGetContent',
  'xmlSchemaNewValidCtxt',
  'xmlSchemaSetValidStructuredErrors',
  'xmlSchemaValidateOneElement',
  'xmlSchemaFreeValidCtxt',
] as const;

/** The struct readers it reads libxml2's tree with: struct, then fields. */
const STRUCT_READERS = {
  XmlErrorStruct: ['level'],
  XmlDocStruct: ['encoding'],
  XmlTreeCommonStruct: ['children', 'next', 'type', 'name_'],
  XmlNamedNodeStruct: ['namespace'],
  XmlNsStruct: ['href'],
} as const;

test.before(() => loadXmlEngine());

test('the installed and pinned libxml2-wasm is the release the internals were checked against', (t) => {
  const pinned = (JSON.parse(readFileSync(join(ROOT, 'src', 'runtime', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[
    'libxml2-wasm'
  ];
  const installed = (JSON.parse(readFileSync(join(ROOT, 'node_modules/libxml2-wasm/package.json'), 'utf8')) as { version: string }).version;
  const advice = `src/runtime/xml/xml-engine.ts's INTERNALS_CHECKED_FOR is ${INTERNALS_CHECKED_FOR}: ${PROCEDURE}, then set it to the new release`;
  t.is(pinned, INTERNALS_CHECKED_FOR, `src/runtime/package.json pins libxml2-wasm ${pinned}; ${advice}`);
  t.is(installed, INTERNALS_CHECKED_FOR, `node_modules holds libxml2-wasm ${installed} (run npm ci?); ${advice}`);
});

test('every function and struct reader xml-tree.ts uses is in the internal module', (t) => {
  const internals = xmlInternals() as unknown as Record<string, unknown>;
  for (const name of FUNCTIONS) {
    t.is(typeof internals[name], 'function', `libxml2-wasm's lib/libxml2.mjs has no function ${name}: ${PROCEDURE}`);
  }
  for (const [struct, fields] of Object.entries(STRUCT_READERS)) {
    const readers = internals[struct] as Record<string, unknown> | undefined;
    for (const field of fields) {
      t.is(typeof readers?.[field], 'function', `libxml2-wasm's lib/libxml2.mjs has no reader ${struct}.${field}: ${PROCEDURE}`);
    }
  }
});

test("a compiled schema keeps its libxml2 pointer in the XsdValidator's _ptr", (t) => {
  const { XmlDocument, XsdValidator } = xml();
  const doc = XmlDocument.fromString(
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="a" type="xs:string"/></xs:schema>',
  );
  const validator = XsdValidator.fromDoc(doc);
  const pointer = (validator as unknown as { _ptr?: unknown })._ptr;
  t.true(typeof pointer === 'number' && pointer > 0, `XsdValidator has no numeric _ptr: ${PROCEDURE}`);
  validator.dispose();
  doc.dispose();
});
