/**
 * Apache SOAP's types (`http://xml.apache.org/xml-soap`: Map, Vector and DataHandler), which Axis 1 and Apache SOAP
 * services name in their contracts, often without declaring them (Axis 1's own WSDLs declare Map inline and name
 * DataHandler undeclared). A contract SOAP encoding speaks that names one and declares it nowhere is read with this
 * declaration, and served with it: a Map is a sequence of items of a key and a value, a Vector a sequence of items,
 * any type each; a DataHandler (a javax.activation value) its bytes inline, base64 (Axis 1 may send one as a SOAP
 * with Attachments part instead, which is not read: a reference to no id).
 */
import { findAll, namespaceOfQName, parseXmlText } from '../documents';
import type { LoadedSchema } from './facts';

export const APACHE_SOAP = 'http://xml.apache.org/xml-soap';

/** Each type's declaration, and the types it names. */
const DECLARATIONS: Record<string, { text: string; names: string[] }> = {
  mapItem: {
    text: `<xsd:complexType name="mapItem">
    <xsd:sequence>
      <xsd:element name="key" type="xsd:anyType" nillable="true" minOccurs="0"/>
      <xsd:element name="value" type="xsd:anyType" nillable="true" minOccurs="0"/>
    </xsd:sequence>
  </xsd:complexType>`,
    names: [],
  },
  Map: {
    text: `<xsd:complexType name="Map">
    <xsd:sequence>
      <xsd:element name="item" type="apachesoap:mapItem" minOccurs="0" maxOccurs="unbounded"/>
    </xsd:sequence>
  </xsd:complexType>`,
    names: ['mapItem'],
  },
  Vector: {
    text: `<xsd:complexType name="Vector">
    <xsd:sequence>
      <xsd:element name="item" type="xsd:anyType" nillable="true" minOccurs="0" maxOccurs="unbounded"/>
    </xsd:sequence>
  </xsd:complexType>`,
    names: [],
  },
  DataHandler: { text: '<xsd:simpleType name="DataHandler"><xsd:restriction base="xsd:base64Binary"/></xsd:simpleType>', names: [] },
};

/**
 * The declaration of Apache SOAP's types some schema (or part, `partTypes`: their namespaces) names and none declares
 * (all of them for a part's name), or undefined when there is none.
 */
export function apacheSoapTypes(schemas: readonly LoadedSchema[], partTypes: readonly string[]): LoadedSchema | undefined {
  const declared = new Set<string>();
  for (const { schema } of schemas) {
    if (schema.attrs.find((a) => a.name === 'targetNamespace')?.value !== APACHE_SOAP) continue;
    for (const component of findAll(schema, 's:complexType | s:simpleType')) {
      const name = component.attrs.find((a) => a.name === 'name' && !a.namespaceUri)?.value;
      if (name) declared.add(name);
    }
  }
  const named = new Set<string>(partTypes.includes(APACHE_SOAP) ? Object.keys(DECLARATIONS) : []);
  for (const { schema } of schemas) {
    for (const user of findAll(schema, '//*[@type or @base]')) {
      for (const attribute of ['type', 'base']) {
        const value = user.attrs.find((a) => a.name === attribute && !a.namespaceUri)?.value;
        if (value !== undefined && namespaceOfQName(user, value) === APACHE_SOAP) named.add(value.slice(value.indexOf(':') + 1));
      }
    }
  }
  // What the named types name in turn (a Map's items).
  for (const name of [...named]) for (const inner of DECLARATIONS[name]?.names ?? []) named.add(inner);
  const missing = Object.keys(DECLARATIONS).filter((name) => named.has(name) && !declared.has(name));
  if (missing.length === 0) return undefined;
  const text = `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:apachesoap="${APACHE_SOAP}" targetNamespace="${APACHE_SOAP}">
  ${missing.map((name) => DECLARATIONS[name].text).join('\n  ')}
</xsd:schema>`;
  const doc = parseXmlText(text, "Apache SOAP's types");
  return { schema: doc.root, file: "Apache SOAP's types (codegen/read/xsd/apache-soap.ts)", locations: [], inline: false };
}
