import type { XmlDocument, XmlElement } from '../../src/runtime/xml/xml-engine';
import type { Variant } from '../model';
import { attr, findAll, findOne, localName, optionalAttr, refuseAt } from './documents';

export interface WsdlOperationFacts {
  name: string;
  documentation: string;
  soapAction: string;
  soapInputElement: string;
  soapOutputElement: string;
  /** From the HTTP GET binding, else the HTTP POST one; absent when neither has the operation. */
  http?: {
    location: string;
    inputParts: string[];
    /** Absent for a void operation (an output message without parts). */
    outputElement?: string;
  };
}

export interface WsdlFacts {
  targetNamespace: string;
  service: string;
  ports: { name: string; binding: string; variant: Variant }[];
  /** The path of the ports' address (`/Service.asmx` of `http://localhost/Service.asmx`): where the service answers. */
  endpointPath: string;
  operations: WsdlOperationFacts[];
}

const VARIANT_NAMES: Record<Variant, string> = { soap11: 'SOAP 1.1', soap12: 'SOAP 1.2', httpGet: 'HTTP GET', httpPost: 'HTTP POST' };

/**
 * Reads messages, port types, bindings and the service of a WSDL 1.1
 * document: any set of the four ports ASMX declares (SOAP 1.1, SOAP 1.2,
 * HTTP GET, HTTP POST), document/literal only. What generated code would not
 * speak as the WSDL says (rpc, encoded, headers, declared faults) is refused.
 */
export function readWsdl(wsdl: XmlDocument): WsdlFacts {
  const root = findOne(wsdl, '/wsdl:definitions');
  for (const imported of findAll(root, 'wsdl:import')) {
    refuseAt(imported, 'wsdl:import is not supported: put the imported definitions into one WSDL file');
  }
  const services = findAll(root, 'wsdl:service');
  if (services.length !== 1) refuseAt(services[1] ?? root, `a WSDL must declare one service, not ${services.length}`);
  const service = services[0];
  const bindings = new Map(findAll(root, 'wsdl:binding').map((b) => [attr(b, 'name'), b]));
  const ports = findAll(service, 'wsdl:port').flatMap((port) => {
    const binding = localName(attr(port, 'binding'));
    const element = bindings.get(binding);
    if (!element) refuseAt(port, `port ${attr(port, 'name')} names unknown binding ${binding}`);
    const variant = variantOf(element);
    // A port of another kind (e.g. a WCF binding beside ASMX's) is no variant of this service.
    return variant ? [{ name: attr(port, 'name'), binding, variant }] : [];
  });
  for (const variant of Object.keys(VARIANT_NAMES) as Variant[]) {
    const same = ports.filter((p) => p.variant === variant);
    if (same.length > 1) refuseAt(service, `the service has ${same.length} ${VARIANT_NAMES[variant]} ports; codegen serves one of each`);
  }
  const bindingOf = (variant: Variant) => {
    const port = ports.find((p) => p.variant === variant);
    return port ? bindings.get(port.binding) : undefined;
  };
  const portTypeOf = (binding: XmlElement) => findOne(root, `wsdl:portType[@name='${localName(attr(binding, 'type'))}']`);
  const message = (at: XmlElement, name: string) => {
    const found = findAll(root, `wsdl:message[@name='${localName(name)}']`);
    if (found.length !== 1) refuseAt(at, `message ${localName(name)} is not declared once`);
    return found[0];
  };
  const messageOf = (binding: XmlElement, operation: string, direction: 'input' | 'output') => {
    const declared = findOne(portTypeOf(binding), `wsdl:operation[@name='${operation}']/wsdl:${direction}`);
    return message(declared, attr(declared, 'message'));
  };

  const soap = bindingOf('soap11') ?? bindingOf('soap12');
  if (!soap) refuseAt(service, 'the service has no SOAP 1.1 or SOAP 1.2 port: codegen takes the operations from a SOAP binding');
  for (const variant of ['soap11', 'soap12'] as const) {
    const binding = bindingOf(variant);
    if (binding) checkDocumentLiteral(binding, portTypeOf(binding), variant === 'soap11' ? 'soap' : 'soap12');
  }
  const soap11 = bindingOf('soap11');
  const soap12 = bindingOf('soap12');
  if (soap11 && soap12) checkSameSoapOperations(soap11, soap12);
  const http = bindingOf('httpGet') ?? bindingOf('httpPost');
  const soapPrefix = bindingOf('soap11') ? 'soap' : 'soap12';

  const operations = findAll(soap, 'wsdl:operation').map((op): WsdlOperationFacts => {
    const name = attr(op, 'name');
    const documentation = findAll(portTypeOf(soap), `wsdl:operation[@name='${name}']/wsdl:documentation`);
    const soapPart = (direction: 'input' | 'output') => {
      const parts = findAll(messageOf(soap, name, direction), 'wsdl:part');
      if (parts.length !== 1 || optionalAttr(parts[0], 'element') === undefined) {
        refuseAt(
          parts[1] ?? parts[0] ?? op,
          `${name}: a SOAP ${direction} message must have one part naming an element (document/literal wrapped)`,
        );
      }
      return localName(attr(parts[0], 'element'));
    };
    const httpOperation = http ? findAll(http, `wsdl:operation[@name='${name}']`)[0] : undefined;
    return {
      name,
      documentation: documentation.map((d) => d.content.trim().replace(/\s+/g, ' ')).join(' '),
      soapAction: attr(findOne(op, `${soapPrefix}:operation`), 'soapAction'),
      soapInputElement: soapPart('input'),
      soapOutputElement: soapPart('output'),
      http: http && httpOperation ? httpFacts(http, httpOperation, name, messageOf) : undefined,
    };
  });
  return {
    targetNamespace: attr(root, 'targetNamespace'),
    service: attr(service, 'name'),
    ports,
    endpointPath: endpointPathOf(service, ports),
    operations,
  };
}

/**
 * The one path every port's address shares, as ASMX publishes them (the same
 * .asmx for all four): the service answers there, whatever host it runs on.
 */
function endpointPathOf(service: XmlElement, ports: WsdlFacts['ports']): string {
  const paths = new Map<string, XmlElement>();
  for (const port of ports) {
    const element = findOne(service, `wsdl:port[@name='${port.name}']`);
    const address = findAll(element, 'soap:address | soap12:address | http:address')[0];
    if (!address) refuseAt(element, `port ${port.name} has no address: codegen serves at the path of the ports' address`);
    const location = attr(address, 'location');
    let path: string;
    try {
      path = new URL(location).pathname;
    } catch {
      return refuseAt(address, `port ${port.name}: address ${location} is not an absolute URL`);
    }
    if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path) || path === '/' || path.endsWith('/')) {
      refuseAt(address, `port ${port.name}: address ${location} names no endpoint (a path such as /Service.asmx)`);
    }
    paths.set(path, address);
  }
  if (paths.size > 1) {
    const [, second] = [...paths.values()];
    refuseAt(second, `the ports have different address paths (${[...paths.keys()].join(', ')}); codegen serves all variants at one path`);
  }
  return [...paths.keys()][0];
}

/** The SOAP 1.1 and SOAP 1.2 bindings are one service's: generated code serves one operation table to both. */
function checkSameSoapOperations(soap11: XmlElement, soap12: XmlElement): void {
  const actions = (binding: XmlElement, prefix: string) =>
    new Map(findAll(binding, 'wsdl:operation').map((op) => [attr(op, 'name'), attr(findOne(op, `${prefix}:operation`), 'soapAction')]));
  const of11 = actions(soap11, 'soap');
  const of12 = actions(soap12, 'soap12');
  for (const [name, action] of of12) {
    if (of11.get(name) !== action) {
      refuseAt(
        findOne(soap12, `wsdl:operation[@name='${name}']`),
        `binding ${attr(soap12, 'name')}: operation ${name} ${of11.has(name) ? `has SOAPAction ${action}, the SOAP 1.1 binding ${of11.get(name)}` : 'is not in the SOAP 1.1 binding'}; both must offer the same operations`,
      );
    }
  }
  for (const name of of11.keys()) {
    if (!of12.has(name))
      refuseAt(
        soap12,
        `binding ${attr(soap12, 'name')} lacks operation ${name} of the SOAP 1.1 binding; both must offer the same operations`,
      );
  }
}

function httpFacts(
  binding: XmlElement,
  operation: XmlElement,
  name: string,
  messageOf: (binding: XmlElement, operation: string, direction: 'input' | 'output') => XmlElement,
): WsdlOperationFacts['http'] {
  const output = findAll(messageOf(binding, name, 'output'), 'wsdl:part');
  if (output.length > 1) refuseAt(output[1], `${name}: an HTTP output message has one part (the answer's root element) or none`);
  return {
    location: attr(findOne(operation, 'http:operation'), 'location'),
    inputParts: findAll(messageOf(binding, name, 'input'), 'wsdl:part').map((p) => attr(p, 'name')),
    outputElement: output[0] ? localName(attr(output[0], 'element')) : undefined,
  };
}

/**
 * Generated code speaks document/literal without headers and answers errors
 * with the standard faults only: a binding that says otherwise is refused,
 * never served as described yet spoken differently.
 */
function checkDocumentLiteral(binding: XmlElement, portType: XmlElement, prefix: 'soap' | 'soap12'): void {
  const name = attr(binding, 'name');
  const style = optionalAttr(findOne(binding, `${prefix}:binding`), 'style') ?? 'document';
  if (style !== 'document') {
    refuseAt(
      findOne(binding, `${prefix}:binding`),
      `binding ${name}: style="${style}" is not supported: codegen serves document/literal (ASMX's default); republish the service with [SoapDocumentService]`,
    );
  }
  for (const op of findAll(binding, `wsdl:operation/${prefix}:operation[@style and @style != 'document']`)) {
    refuseAt(
      op,
      `binding ${name}: style="${attr(op, 'style')}" is not supported: codegen serves document/literal (ASMX's default); use [SoapDocumentMethod]`,
    );
  }
  for (const body of findAll(binding, `wsdl:operation/*/${prefix}:body`)) {
    const use = optionalAttr(body, 'use') ?? 'literal';
    if (use !== 'literal')
      refuseAt(
        body,
        `binding ${name}: use="${use}" is not supported: codegen serves literal XML (SOAP encoding is not); republish with use literal`,
      );
    if (optionalAttr(body, 'parts') !== undefined)
      refuseAt(body, `binding ${name}: <${prefix}:body parts> is not supported: the body is the message's one part`);
  }
  for (const header of findAll(binding, `wsdl:operation/*/${prefix}:header | wsdl:operation/*/${prefix}:headerfault`)) {
    refuseAt(
      header,
      `binding ${name}: SOAP headers (<${header.prefix}:${header.name}>) are not supported: generated code would ignore them; remove the SoapHeader from the contract`,
    );
  }
  for (const op of [...findAll(portType, 'wsdl:operation[wsdl:fault]'), ...findAll(binding, 'wsdl:operation[wsdl:fault]')]) {
    refuseAt(
      findAll(op, 'wsdl:fault')[0],
      `operation ${attr(op, 'name')}: declared faults (<wsdl:fault>) are not supported: generated code answers the standard SOAP faults only; remove the fault from the contract`,
    );
  }
}

function variantOf(binding: XmlElement): Variant | undefined {
  if (findAll(binding, 'soap:binding').length) return 'soap11';
  if (findAll(binding, 'soap12:binding').length) return 'soap12';
  const verbs = findAll(binding, 'http:binding');
  if (verbs.length === 0) return undefined;
  const verb = attr(verbs[0], 'verb');
  if (verb === 'GET') return 'httpGet';
  if (verb === 'POST') return 'httpPost';
  return refuseAt(verbs[0], `binding ${attr(binding, 'name')}: HTTP verb ${verb} is not supported (GET, POST)`);
}
