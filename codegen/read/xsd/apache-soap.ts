/**
 * Apache SOAP's collection types (`http://xml.apache.org/xml-soap`: Map and Vector), which Axis 1 and Apache SOAP
 * services name in their contracts, often without declaring them (Axis 1's own WSDLs declare them inline, as
 * here). A contract SOAP encoding speaks that names them and declares them nowhere is read with this declaration,
 * and served with it: a Map is a sequence of items of a key and a value, a Vector a sequence of items, any type each.
 */
import { findAll, namespaceOfQName, parseXmlText } from '../documents';
import type { LoadedSchema } from './facts';

export const APACHE_SOAP = 'http://xml.apache.org/xml-soap';

const DECLARATION = `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:apachesoap="${APACHE_SOAP}" targetNamespace="${APACHE_SOAP}">
  <xsd:complexType name="mapItem">
    <xsd:sequence>
      <xsd:element name="key" type="xsd:anyType" nillable="true" minOccurs="0"/>
      <xsd:element name="value" type="xsd:anyType" nillable="true" minOccurs="0"/>
    </xsd:sequence>
  </xsd:complexType>
  <xsd:complexType name="Map">
    <xsd:sequence>
      <xsd:element name="item" type="apachesoap:mapItem" minOccurs="0" maxOccurs="unbounded"/>
    </xsd:sequence>
  </xsd:complexType>
  <xsd:complexType name="Vector">
    <xsd:sequence>
      <xsd:element name="item" type="xsd:anyType" nillable="true" minOccurs="0" maxOccurs="unbounded"/>
    </xsd:sequence>
  </xsd:complexType>
</xsd:schema>`;

/** The declaration of Apache SOAP's types, when some schema (or part, `partTypes`) names one that none declares. */
export function apacheSoapTypes(schemas: readonly LoadedSchema[], partTypes: readonly string[]): LoadedSchema | undefined {
  const declared = schemas.some((s) => s.schema.attrs.find((a) => a.name === 'targetNamespace')?.value === APACHE_SOAP);
  if (declared) return undefined;
  const named =
    partTypes.includes(APACHE_SOAP) ||
    schemas.some(({ schema }) =>
      findAll(schema, '//*[@type or @base]').some((user) =>
        ['type', 'base'].some((name) => {
          const value = user.attrs.find((a) => a.name === name && !a.namespaceUri)?.value;
          return value !== undefined && namespaceOfQName(user, value) === APACHE_SOAP;
        }),
      ),
    );
  if (!named) return undefined;
  const doc = parseXmlText(DECLARATION, "Apache SOAP's types");
  return { schema: doc.root, file: "Apache SOAP's types (codegen/read/xsd/apache-soap.ts)", locations: [], inline: false };
}
