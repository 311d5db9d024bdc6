/**
 * The served schemas of a contract SOAP encoding speaks, as the runtime validates an encoded call once read into
 * literal form (src/runtime/wire/soap-encoding.ts): each derivation of soapenc:Array a sequence of nillable items
 * (read/xsd/soap-arrays.ts reads them alike), each soapenc simple type XML Schema's built-in. The WSDL served keeps
 * the schemas as published.
 */
import type { XmlElement } from 'contract-runtime/xml';
import { findAll, localName, NS, namespaceOfQName, setPlainAttr } from '../read/documents';
import { ARRAY_ITEM, declaredArrayType, encodedBuiltin, isSoapArray, isSoapStruct } from '../read/xsd/soap-arrays';

/** Rewrites a schema document's SOAP encoding types in place. */
export function literalSoapEncoding(root: XmlElement): void {
  let prefixes = 0;
  const declare = (element: XmlElement, namespace: string) => {
    const prefix = `enc${prefixes++}`;
    element.addNsDeclaration(namespace, prefix);
    return prefix;
  };
  for (const derivation of findAll(root, '//s:complexType/s:complexContent/s:restriction | //s:complexType/s:complexContent/s:extension')) {
    const base = derivation.attrs.find((a) => a.name === 'base' && !a.namespaceUri)!.value;
    const ns = namespaceOfQName(derivation, base);
    if (ns === null || !isSoapArray({ namespace: ns, name: localName(base) })) continue;
    const complexContent = derivation.parent!;
    const type = complexContent.parent!;
    const { item, ranks, element } = arrayItemOf(derivation);
    const xs = type.prefix ?? '';
    // The item element: of the named item type, nested once per inner bracket and per dimension beyond the first.
    const sequence = type.addElement('sequence', xs || undefined);
    const depth = ranks.slice(1).length + (ranks[0] - 1);
    let holder = sequence;
    for (let level = 0; level <= depth; level++) {
      const itemElement = holder.addElement('element', xs || undefined);
      setPlainAttr(itemElement, 'name', level === 0 ? (element ?? ARRAY_ITEM) : ARRAY_ITEM);
      setPlainAttr(itemElement, 'form', 'unqualified');
      setPlainAttr(itemElement, 'minOccurs', '0');
      setPlainAttr(itemElement, 'maxOccurs', 'unbounded');
      setPlainAttr(itemElement, 'nillable', 'true');
      if (level === depth) {
        const prefix = declare(itemElement, item.namespace);
        setPlainAttr(itemElement, 'type', `${prefix}:${item.name}`);
      } else {
        holder = itemElement.addElement('complexType', xs || undefined).addElement('sequence', xs || undefined);
      }
    }
    complexContent.remove();
  }
  // A simple type derived from soapenc:string and its kin (soap4r's samples) derives from XML Schema's built-in:
  // soapenc's are complex types of simple content, which no simple type may restrict.
  for (const user of findAll(root, '//s:simpleType/s:restriction[@base] | //s:simpleType/s:list[@itemType]')) {
    const written = user.attrs.find((a) => (a.name === 'base' || a.name === 'itemType') && !a.namespaceUri)!;
    const ns = namespaceOfQName(user, written.value);
    const builtin = ns === null ? undefined : encodedBuiltin({ namespace: ns, name: localName(written.value) });
    if (builtin && ns !== NS.s) written.value = `${declare(user, NS.s)}:${builtin}`;
  }
  // soapenc:string and its kin are XML Schema's built-ins; soapenc:Struct is any content; soapenc:Array any items.
  for (const user of findAll(root, '//s:element[@type] | //s:attribute[@type]')) {
    const written = user.attrs.find((a) => a.name === 'type' && !a.namespaceUri)!;
    const ns = namespaceOfQName(user, written.value);
    if (ns === null) continue;
    const q = { namespace: ns, name: localName(written.value) };
    const builtin = encodedBuiltin(q) ?? (isSoapStruct(q) ? 'anyType' : undefined);
    if (builtin) written.value = `${declare(user, NS.s)}:${builtin}`;
    else if (isSoapArray(q) && user.name === 'element') {
      written.remove();
      const xs = user.prefix || undefined;
      const item = user.addElement('complexType', xs).addElement('sequence', xs).addElement('element', xs);
      for (const [name, value] of [
        ['name', ARRAY_ITEM],
        ['form', 'unqualified'],
        ['minOccurs', '0'],
        ['maxOccurs', 'unbounded'],
        ['nillable', 'true'],
      ])
        setPlainAttr(item, name, value);
      setPlainAttr(item, 'type', `${declare(item, NS.s)}:anyType`);
    }
  }
}

/** The item type a derivation of soapenc:Array names (XML Schema's built-in for soapenc's), its brackets' ranks, its element. */
function arrayItemOf(derivation: XmlElement): { item: { namespace: string; name: string }; ranks: number[]; element?: string } {
  const [declared] = findAll(derivation, 's:sequence/s:element[@type] | s:all/s:element[@type]');
  const element = declared?.attrs.find((a) => a.name === 'name' && !a.namespaceUri)?.value;
  const written = declaredArrayType(derivation);
  if (written) return { item: literalType(written.item), ranks: written.parsed.ranks, ...(element ? { element } : {}) };
  if (declared) {
    const type = declared.attrs.find((a) => a.name === 'type' && !a.namespaceUri)!.value;
    const ns = namespaceOfQName(declared, type);
    if (ns !== null) return { item: literalType({ namespace: ns, name: localName(type) }), ranks: [1], ...(element ? { element } : {}) };
  }
  return { item: { namespace: NS.s, name: 'anyType' }, ranks: [1] };
}

/** A type name as the literal schema names it: soapenc's simple types and the 1999 namespace's as XML Schema's built-ins. */
function literalType(q: { namespace: string; name: string }): { namespace: string; name: string } {
  const builtin = encodedBuiltin(q);
  if (builtin) return { namespace: NS.s, name: builtin };
  if (isSoapStruct(q) || isSoapArray(q)) return { namespace: NS.s, name: 'anyType' };
  return q;
}
