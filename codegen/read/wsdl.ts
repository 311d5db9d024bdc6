import type { XmlDocument, XmlElement } from '../../src/xml/xml-engine';
import type { Variant } from '../model';
import { attr, findAll, findOne, localName, NS, optionalAttr } from './documents';

export interface WsdlFacts {
  targetNamespace: string;
  /** The one schema the WSDL's types import: its namespace and its file, next to the WSDL. */
  schemaImport: { namespace: string; location: string };
  service: string;
  ports: { name: string; binding: string; variant: Variant }[];
  operations: {
    name: string;
    documentation: string;
    soapAction: string;
    soapInputElement: string;
    soapOutputElement: string;
    httpLocation: string;
    httpInputParts: string[];
    httpOutputElement: string;
  }[];
}

/** Reads messages, port types, bindings and the service of a WSDL 1.1 document. */
export function readWsdl(wsdl: XmlDocument): WsdlFacts {
  const root = findOne(wsdl, '/wsdl:definitions');
  const service = findOne(root, 'wsdl:service');
  const bindings = new Map(findAll(root, 'wsdl:binding').map((b) => [attr(b, 'name'), b]));
  const ports = findAll(service, 'wsdl:port').map((port) => {
    const binding = localName(attr(port, 'binding'));
    const element = bindings.get(binding);
    if (!element) throw new Error(`codegen: port ${attr(port, 'name')} names unknown binding ${binding}`);
    return { name: attr(port, 'name'), binding, variant: variantOf(element) };
  });
  const bindingOf = (variant: Variant) => {
    const port = ports.find((p) => p.variant === variant);
    if (!port) throw new Error(`codegen: the service has no ${variant} port`);
    return bindings.get(port.binding)!;
  };
  const portTypeOf = (binding: XmlElement) => findOne(root, `wsdl:portType[@name='${localName(attr(binding, 'type'))}']`);
  const message = (name: string) => findOne(root, `wsdl:message[@name='${localName(name)}']`);
  const messageOf = (binding: XmlElement, operation: string, direction: 'input' | 'output') =>
    message(attr(findOne(portTypeOf(binding), `wsdl:operation[@name='${operation}']/wsdl:${direction}`), 'message'));

  const soap11 = bindingOf('soap11');
  const httpGet = bindingOf('httpGet');
  const operations = findAll(soap11, 'wsdl:operation').map((op) => {
    const name = attr(op, 'name');
    const getOperation = findOne(httpGet, `wsdl:operation[@name='${name}']`);
    const documentation = findAll(portTypeOf(soap11), `wsdl:operation[@name='${name}']/wsdl:documentation`);
    return {
      name,
      documentation: documentation.map((d) => d.content.trim().replace(/\s+/g, ' ')).join(' '),
      soapAction: attr(findOne(op, 'soap:operation'), 'soapAction'),
      soapInputElement: localName(attr(findOne(messageOf(soap11, name, 'input'), 'wsdl:part'), 'element')),
      soapOutputElement: localName(attr(findOne(messageOf(soap11, name, 'output'), 'wsdl:part'), 'element')),
      httpLocation: attr(findOne(getOperation, 'http:operation'), 'location'),
      httpInputParts: findAll(messageOf(httpGet, name, 'input'), 'wsdl:part').map((p) => attr(p, 'name')),
      httpOutputElement: localName(attr(findOne(messageOf(httpGet, name, 'output'), 'wsdl:part'), 'element')),
    };
  });
  return {
    targetNamespace: attr(root, 'targetNamespace'),
    schemaImport: schemaImport(root),
    service: attr(service, 'name'),
    ports,
    operations,
  };
}

/** The types' one import; an inline declaration would be lost when the served WSDL inlines the imported schema. */
function schemaImport(root: XmlElement): WsdlFacts['schemaImport'] {
  const declared = findAll(root, 'wsdl:types/s:schema/*');
  const location =
    declared.length === 1 && declared[0].namespaceUri === NS.s && declared[0].name === 'import'
      ? optionalAttr(declared[0], 'schemaLocation')
      : undefined;
  if (findAll(root, 'wsdl:types/s:schema').length !== 1 || !location) {
    throw new Error('codegen: the WSDL must import exactly one schema with a schemaLocation, and declare nothing in its types itself');
  }
  if (!/^[\w.-]+$/.test(location) || location.startsWith('.')) {
    throw new Error(`codegen: the WSDL imports ${location}: the schema must be a file next to the WSDL`);
  }
  return { namespace: attr(declared[0], 'namespace'), location };
}

function variantOf(binding: XmlElement): Variant {
  if (findAll(binding, 'soap:binding').length) return 'soap11';
  if (findAll(binding, 'soap12:binding').length) return 'soap12';
  const verb = findAll(binding, 'http:binding').map((b) => attr(b, 'verb'))[0];
  if (verb === 'GET') return 'httpGet';
  if (verb === 'POST') return 'httpPost';
  throw new Error(`codegen: binding ${attr(binding, 'name')} is neither SOAP 1.1, SOAP 1.2, HTTP GET nor HTTP POST`);
}
