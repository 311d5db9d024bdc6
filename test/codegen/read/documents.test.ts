/**
 * codegen/read/documents.ts's setPlainAttr reaches past libxml2-wasm's public
 * API (the wrapper's private `_nodePtr`, the internal module's
 * `xmlSetNsProp`): the public `setAttr` puts an unprefixed attribute into the
 * default namespace in scope, and a WSDL or schema written with its own
 * namespace as the default one would get a namespaced attribute instead of
 * `targetNamespace` or `location`. These tests hold what the reach-in keeps,
 * and say when the library's own call would do (docs/performance.md,
 * "Reaching into a library").
 */
import test from 'ava';
import { parseXmlText, setPlainAttr, withDocument } from '../../../codegen/read/documents';
import { loadXmlEngine, xmlInternals } from '../../../src/runtime/xml/xml-engine';

const SCHEMA = '<schema xmlns="http://www.w3.org/2001/XMLSchema"><element name="e"/></schema>';

test.before(async () => {
  await loadXmlEngine();
});

test('setPlainAttr adds an attribute in no namespace where a default namespace is in scope, and replaces one that is there', (t) => {
  withDocument(parseXmlText(SCHEMA, 'a schema'), (doc) => {
    setPlainAttr(doc.root, 'targetNamespace', 'urn:chameleon');
    const added = doc.root.attrs.filter((a) => a.name === 'targetNamespace');
    t.deepEqual(
      added.map((a) => [a.namespaceUri ?? '', a.value]),
      [['', 'urn:chameleon']],
    );
    setPlainAttr(doc.root, 'targetNamespace', 'urn:other');
    t.deepEqual(
      doc.root.attrs.filter((a) => a.name === 'targetNamespace').map((a) => a.value),
      ['urn:other'],
    );
    t.regex(doc.root.toString({ format: false }), /^<schema xmlns="http:\/\/www\.w3\.org\/2001\/XMLSchema" targetNamespace="urn:other">/);
  });
});

test("the reach-in is still needed: libxml2-wasm's public setAttr puts an unprefixed attribute in the default namespace", (t) => {
  t.is(typeof (xmlInternals() as unknown as Record<string, unknown>).xmlSetNsProp, 'function');
  withDocument(parseXmlText(SCHEMA, 'a schema'), (doc) => {
    t.is(typeof (doc.root as unknown as { _nodePtr?: unknown })._nodePtr, 'number', "the wrapper's node pointer");
    doc.root.setAttr('targetNamespace', 'urn:chameleon');
    const set = doc.root.attrs.find((a) => a.name === 'targetNamespace');
    // When this fails, the library sets such an attribute in no namespace: use setAttr and drop the reach-in.
    t.is(set?.namespaceUri, 'http://www.w3.org/2001/XMLSchema');
  });
});
