import type { XmlDocument, XmlElement } from '../../src/runtime/xml/xml-engine';
import type { Variant } from '../model/model';
import { attr, findAll, findOne, localName, namespaceOfQName, NS, optionalAttr, refuseAt, setPlainAttr } from './documents';
import type { QName } from './xsd';

/** A message part: it names a global element (document style) or a type (rpc style, HTTP bindings). */
export interface WsdlPart {
  name: string;
  element?: QName;
  type?: QName;
}

/** One direction of a SOAP operation: the parts in the body, in order, and the parts sent as header blocks. */
export interface WsdlSoapMessage {
  /** The message's name, for messages. */
  message: string;
  body: WsdlPart[];
  headers: WsdlPart[];
  /** rpc: the namespace of the wrapper element (`soap:body namespace`). */
  namespace?: string;
}

export interface WsdlOperationFacts {
  name: string;
  documentation: string;
  style: 'document' | 'rpc';
  /** The SOAPAction each SOAP binding declares (absent: no binding of that version). */
  soapActions: Partial<Record<'soap11' | 'soap12', string>>;
  /** Absent when the service has no SOAP port (HTTP GET/POST bindings only). */
  input?: WsdlSoapMessage;
  /** Absent for a one-way operation (or without a SOAP port). */
  output?: WsdlSoapMessage;
  /** Declared faults: each a message of one part naming an element, the fault's detail. */
  faults: { name: string; element: QName }[];
  /** From the HTTP GET binding, else the HTTP POST one; absent when neither has the operation. */
  http?: {
    location: string;
    /** The path under the endpoint the operation is served at ({endpoint}/{segment}), without the slash. */
    segment: string;
    inputParts: WsdlPart[];
    /** Absent for a void operation (an output message without parts). */
    outputElement?: QName;
    /**
     * The request is its one part's element as the POST body (`mime:content type="text/xml"` or `application/xml`,
     * `mime:mimeXml`: Axis2's HTTP binding), not query or form fields; the media type the answer is written as.
     */
    xmlBody?: { mediaType: string };
  };
}

export interface WsdlPort {
  name: string;
  binding: string;
  variant: Variant;
  /** The path of the port's address (`/Service.asmx` of `http://localhost/Service.asmx`): where it answers. */
  path: string;
}

export interface WsdlFacts {
  targetNamespace: string;
  service: string;
  ports: WsdlPort[];
  operations: WsdlOperationFacts[];
  /** What was chosen among several services or bindings, in a line for the user; absent when nothing was. */
  choice?: string;
  /** How many ports of the service and operations of its bindings there are, served or not. */
  allPorts: number;
  allOperations: number;
}

const VARIANT_NAMES: Record<Variant, string> = { soap11: 'SOAP 1.1', soap12: 'SOAP 1.2', httpGet: 'HTTP GET', httpPost: 'HTTP POST' };

/** A WSDL document and the namespace its definitions are in. */
interface Definitions {
  root: XmlElement;
  namespace: string;
}

/**
 * Reads messages, port types, bindings and the service of a WSDL 1.1
 * contract (the main document and those it imports): the ports of one
 * service (the first, or `service`), SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST,
 * document/literal or rpc/literal, with headers and declared faults. What
 * generated code would not speak as the WSDL says (SOAP encoding, a SOAP 1.2
 * binding written with SOAP 1.1 elements) is refused.
 */
export function readWsdl(documents: XmlDocument[], options: { service?: string; warn?: (line: string) => void } = {}): WsdlFacts {
  const warn = options.warn ?? (() => {});
  /** What cannot be served is skipped with one line: the port, the operation, the reason (the refusal it would have been). */
  const skipping = (what: string, error: unknown) => {
    const message = (error as Error).message.replace(/^codegen: /, '');
    warn(`codegen: warning: ${what} is not served: ${message}`);
  };
  const reasons: string[] = [];
  const all: Definitions[] = documents.map((doc) => {
    const root = findOne(doc, '/wsdl:definitions');
    return { root, namespace: optionalAttr(root, 'targetNamespace') ?? '' };
  });
  const main = all[0];
  // Children by name, indexed once per parent: a contract of a thousand operations is read in linear time.
  const indexes: { parent: XmlElement; kind: string; byName: Map<string, XmlElement[]> }[] = [];
  const childrenNamed = (parent: XmlElement, kind: string, name: string): XmlElement[] => {
    let index = indexes.find((i) => i.kind === kind && i.parent.isSameNode(parent));
    if (!index) {
      const byName = new Map<string, XmlElement[]>();
      for (const child of findAll(parent, `wsdl:${kind}`)) {
        const key = optionalAttr(child, 'name') ?? '';
        byName.set(key, [...(byName.get(key) ?? []), child]);
      }
      index = { parent, kind, byName };
      indexes.push(index);
    }
    return index.byName.get(name) ?? [];
  };
  const lookup = (kind: 'message' | 'portType' | 'binding', at: XmlElement, qname: string): XmlElement => {
    const namespace = namespaceOfQName(at, qname);
    const name = localName(qname);
    const found = all.flatMap((d) => (namespace === null || d.namespace === namespace ? childrenNamed(d.root, kind, name) : []));
    if (found.length !== 1) refuseAt(at, `${kind} ${name} is ${found.length ? 'declared more than once' : 'not declared'}`);
    return found[0];
  };

  const notes: string[] = [];
  let services = all.flatMap((d) => findAll(d.root, 'wsdl:service'));
  if (services.length === 0) {
    const added = addServiceOfBindings(all);
    if (!added) refuseAt(main.root, 'the WSDL declares no service, and no SOAP 1.1, SOAP 1.2, HTTP GET or HTTP POST binding');
    notes.push(
      `the WSDL declares no service: its bindings are served each at /{its name} (${added.ports.join(', ')}), the ports of a service ${added.name} added to the served WSDL`,
    );
    services = [added.service];
  }
  const service = options.service ? services.find((s) => attr(s, 'name') === options.service) : services[0];
  if (!service) {
    throw new Error(`codegen: the WSDL has no service ${options.service} (it has ${services.map((s) => attr(s, 'name')).join(', ')})`);
  }
  if (services.length > 1 && !options.service) {
    notes.push(
      `the WSDL declares ${services.length} services (${services.map((s) => attr(s, 'name')).join(', ')}): serving ${attr(service, 'name')}; choose another with --service NAME`,
    );
  }

  // A port that cannot be served (SOAP encoding, another HTTP verb, no address a path can be served at) is skipped.
  const allPorts = findAll(service, 'wsdl:port').flatMap((port): WsdlPort[] => {
    try {
      const binding = lookup('binding', port, attr(port, 'binding'));
      const variant = variantOf(binding);
      // A port of another kind (e.g. a WCF binding beside ASMX's) is no variant of this service.
      if (!variant) return [];
      if (variant === 'soap11' || variant === 'soap12') checkLiteral(binding, variant === 'soap11' ? 'soap' : 'soap12');
      return [{ name: attr(port, 'name'), binding: attr(binding, 'name'), variant, path: pathOf(port) }];
    } catch (error) {
      reasons.push((error as Error).message);
      skipping(`port ${attr(port, 'name')}`, error);
      return [];
    }
  });
  const bindingElement = (port: WsdlPort) =>
    lookup('binding', findOne(service, `wsdl:port[@name='${port.name}']`), bindingQName(service, port));
  // Several ports of one variant: those of the first one's binding are served (at each of their paths).
  const ports: WsdlPort[] = [];
  for (const variant of Object.keys(VARIANT_NAMES) as Variant[]) {
    const same = allPorts.filter((p) => p.variant === variant);
    if (same.length === 0) continue;
    const kept = same.filter((p) => p.binding === same[0].binding);
    if (kept.length < same.length) {
      notes.push(
        `service ${attr(service, 'name')} has ${same.length} ${VARIANT_NAMES[variant]} ports of different bindings: serving ${kept.map((p) => p.name).join(', ')}`,
      );
    }
    ports.push(...kept);
  }
  const bindingOf = (variant: Variant) => {
    const port = ports.find((p) => p.variant === variant);
    return port ? bindingElement(port) : undefined;
  };
  if (ports.length === 0 && reasons.length > 0) throw new Error(reasons[0]);
  if (ports.length === 0) refuseAt(service, 'the service has no SOAP 1.1, SOAP 1.2, HTTP GET or HTTP POST port');

  const portTypeOf = (binding: XmlElement) => lookup('portType', binding, attr(binding, 'type'));
  const declaredOperation = (binding: XmlElement, name: string) => {
    const portType = portTypeOf(binding);
    const found = childrenNamed(portType, 'operation', name);
    return found.length === 1 ? found[0] : findOne(portType, `wsdl:operation[@name='${name}']`);
  };
  const messageOf = (binding: XmlElement, operation: string, direction: 'input' | 'output'): XmlElement | undefined => {
    const [declared] = findAll(declaredOperation(binding, operation), `wsdl:${direction}`);
    return declared ? lookup('message', declared, attr(declared, 'message')) : undefined;
  };
  const partsOf = (message: XmlElement): WsdlPart[] =>
    findAll(message, 'wsdl:part').map((part) => {
      const element = optionalAttr(part, 'element');
      const type = optionalAttr(part, 'type');
      const qname = (value: string) => {
        const namespace = namespaceOfQName(part, value);
        if (namespace === null) refuseAt(part, `part ${attr(part, 'name')}: ${value} has a prefix that is not declared`);
        return { namespace, name: localName(value) };
      };
      if ((element === undefined) === (type === undefined)) refuseAt(part, `part ${attr(part, 'name')} must name an element or a type`);
      return { name: attr(part, 'name'), ...(element ? { element: qname(element) } : { type: qname(type!) }) };
    });

  const soap11 = bindingOf('soap11');
  if (soap11 && bindingOf('soap12')) {
    // One operation table serves both SOAP versions: a SOAP 1.2 binding of other operations is not served.
    try {
      checkSameSoapOperations(soap11, bindingOf('soap12')!);
    } catch (error) {
      for (const port of ports.filter((p) => p.variant === 'soap12')) skipping(`port ${port.name}`, error);
      ports.splice(0, ports.length, ...ports.filter((p) => p.variant !== 'soap12'));
    }
  }
  const soap = bindingOf('soap11') ?? bindingOf('soap12');
  const http = bindingOf('httpGet') ?? bindingOf('httpPost');
  const operationSource = soap ?? http!;
  const soapPrefix = soap11 ? 'soap' : 'soap12';

  // A binding that lists an operation twice (a copy-paste slip) binds it once: the first is read.
  const boundNames = new Set<string>();
  const bound = findAll(operationSource, 'wsdl:operation').filter((op) => {
    const name = attr(op, 'name');
    if (boundNames.has(name)) return false;
    boundNames.add(name);
    return true;
  });
  const portNames = ports.map((p) => p.name).join(', ');
  const operations = bound.flatMap((op): WsdlOperationFacts[] => {
    try {
      return [readOperation(op)];
    } catch (error) {
      reasons.push((error as Error).message);
      skipping(`operation ${attr(op, 'name')} of port${ports.length > 1 ? 's' : ''} ${portNames}`, error);
      return [];
    }
  });
  if (operations.length === 0 && reasons.length > 0) throw new Error(reasons.at(-1)!);
  return {
    targetNamespace: main.namespace,
    service: attr(service, 'name'),
    ports,
    operations,
    allPorts: findAll(service, 'wsdl:port').length,
    allOperations: bound.length,
    ...(notes.length ? { choice: notes.join('; ') } : {}),
  };

  function readOperation(op: XmlElement): WsdlOperationFacts {
    const name = attr(op, 'name');
    const declared = declaredOperation(operationSource, name);
    const documentation = findAll(declared, 'wsdl:documentation')
      .map((d) => d.content.trim().replace(/\s+/g, ' '))
      .join(' ');
    const httpOperation = http ? childrenNamed(http, 'operation', name)[0] : undefined;
    let httpSide: WsdlOperationFacts['http'];
    try {
      const httpPath = ports.find((p) => p.variant === 'httpGet' || p.variant === 'httpPost')?.path ?? '';
      httpSide = http && httpOperation ? httpFacts(http, httpOperation, name, httpPath, messageOf, partsOf) : undefined;
    } catch (error) {
      // The SOAP side is served all the same.
      const httpPorts = ports.filter((p) => p.variant === 'httpGet' || p.variant === 'httpPost').map((p) => p.name);
      skipping(`operation ${name} of port${httpPorts.length > 1 ? 's' : ''} ${httpPorts.join(', ')}`, error);
      if (!soap) throw error;
    }
    const facts: WsdlOperationFacts = {
      name,
      documentation,
      style: 'document',
      soapActions: {},
      faults: [],
      http: httpSide,
    };
    if (!soap) return facts;
    // soap:operation may be left out (WSDL 1.1, 3.4): the binding's style, and an empty SOAPAction.
    const [operation] = findAll(op, `${soapPrefix}:operation`);
    const bindingStyle = optionalAttr(findOne(soap, `${soapPrefix}:binding`), 'style') ?? 'document';
    const style = (operation && optionalAttr(operation, 'style')) ?? bindingStyle;
    if (style !== 'document' && style !== 'rpc')
      refuseAt(operation ?? op, `operation ${name}: style="${style}" is neither document nor rpc`);
    facts.style = style;
    for (const variant of ['soap11', 'soap12'] as const) {
      const binding = bindingOf(variant);
      if (!binding) continue;
      const prefix = variant === 'soap11' ? 'soap' : 'soap12';
      const [first] = childrenNamed(binding, 'operation', name);
      const [own] = first ? findAll(first, `${prefix}:operation`) : [];
      facts.soapActions[variant] = own ? (optionalAttr(own, 'soapAction') ?? '') : '';
    }
    const direction = (which: 'input' | 'output'): WsdlSoapMessage | undefined => {
      const message = messageOf(soap, name, which);
      if (!message) return undefined;
      const parts = partsOf(message);
      const [bound] = findAll(op, `wsdl:${which}`);
      const [body] = bound ? findAll(bound, `${soapPrefix}:body`) : [];
      const listed = body ? optionalAttr(body, 'parts') : undefined;
      const bodyParts = listed === undefined ? undefined : listed.split(/\s+/).filter(Boolean);
      const headerParts = (bound ? findAll(bound, `${soapPrefix}:header`) : []).map((header) => {
        const headerMessage = lookup('message', header, attr(header, 'message'));
        const part = partsOf(headerMessage).find((p) => p.name === attr(header, 'part'));
        if (!part) refuseAt(header, `operation ${name}: header part ${attr(header, 'part')} is not a part of ${attr(header, 'message')}`);
        if (!part.element) refuseAt(header, `operation ${name}: header part ${part.name} must name an element (WS-I BP R2205)`);
        return { part, message: attr(headerMessage, 'name') };
      });
      const headers = headerParts.map((h) => h.part);
      // A part of this message bound as a header is not in the body (UPS's security header).
      const asHeaders = new Set(headerParts.filter((h) => h.message === attr(message, 'name')).map((h) => h.part.name));
      const bodyOnly =
        bodyParts === undefined ? parts.filter((p) => !asHeaders.has(p.name)) : parts.filter((p) => bodyParts.includes(p.name));
      for (const part of bodyOnly) {
        if (style === 'document' && !part.element) {
          refuseAt(message, `operation ${name}: part ${part.name} names a type: a document-style body part must name an element`);
        }
      }
      return {
        message: attr(message, 'name'),
        body: bodyOnly,
        headers,
        ...(style === 'rpc' ? { namespace: (body && optionalAttr(body, 'namespace')) ?? main.namespace } : {}),
      };
    };
    facts.input = direction('input');
    facts.output = direction('output');
    if (!facts.input) refuseAt(declared, `operation ${name} has no input (a notification operation is not WS-I Basic Profile)`);
    facts.faults = findAll(declared, 'wsdl:fault').map((fault) => {
      const message = lookup('message', fault, attr(fault, 'message'));
      const parts = partsOf(message);
      if (parts.length !== 1 || !parts[0].element) {
        refuseAt(
          message,
          `operation ${name}: fault ${attr(fault, 'name')} must be a message of one part naming an element (WS-I BP R2205)`,
        );
      }
      return { name: attr(fault, 'name'), element: parts[0].element };
    });
    return facts;
  }
}

/**
 * A WSDL of bindings and no service (an interface WSDL: ONVIF's, OASIS WS-Notification's) is served as if it
 * declared one: a service of one port per SOAP or HTTP binding, each at /{binding name}, added to the main
 * document, and so to the served WSDL, where clients find the ports a service would have named.
 */
function addServiceOfBindings(all: Definitions[]): { service: XmlElement; name: string; ports: string[] } | undefined {
  const bindings = all.flatMap((d) =>
    findAll(d.root, 'wsdl:binding').flatMap((binding) => {
      let variant: Variant | undefined;
      try {
        variant = variantOf(binding);
      } catch {
        variant = undefined;
      }
      return variant ? [{ binding, namespace: d.namespace, variant }] : [];
    }),
  );
  if (bindings.length === 0) return undefined;
  const root = all[0].root;
  const prefixFor = (uri: string, wanted: string): string => {
    const inScope = Object.entries(root.namespaces as Record<string, string>).find(([prefix, u]) => u === uri && prefix !== '');
    if (inScope) return inScope[0];
    let prefix = wanted;
    for (let i = 1; root.namespaceForPrefix(prefix) !== null; i++) prefix = `${wanted}${i}`;
    root.addNsDeclaration(uri, prefix);
    return prefix;
  };
  const name = optionalAttr(root, 'name') ?? `${attr(bindings[0].binding, 'name')}Service`;
  const service = root.addElement('service', prefixFor(NS.wsdl, 'wsdl'));
  setPlainAttr(service, 'name', name);
  const ports: string[] = [];
  for (const { binding, namespace, variant } of bindings) {
    const bindingName = attr(binding, 'name');
    const port = service.addElement('port', prefixFor(NS.wsdl, 'wsdl'));
    setPlainAttr(port, 'name', bindingName);
    setPlainAttr(port, 'binding', namespace === '' ? bindingName : `${prefixFor(namespace, 'tns')}:${bindingName}`);
    const kind = variant === 'soap11' ? 'soap' : variant === 'soap12' ? 'soap12' : 'http';
    // Attributes in no namespace, whatever the document's default one (vSphere's is WSDL's).
    setPlainAttr(port.addElement('address', prefixFor(NS[kind], kind)), 'location', `http://localhost/${bindingName}`);
    ports.push(`${bindingName} at /${bindingName}`);
  }
  return { service, name, ports };
}

function bindingQName(service: XmlElement, port: WsdlPort): string {
  return attr(findOne(service, `wsdl:port[@name='${port.name}']`), 'binding');
}

/** The path of a port's address: the service answers there, whatever host it runs on. */
export function pathOf(port: XmlElement): string {
  const address = findAll(port, 'soap:address | soap12:address | http:address')[0];
  if (!address) refuseAt(port, `port ${attr(port, 'name')} has no address: codegen serves at the path of the port's address`);
  // A build tool's placeholder standing for the whole address (`${url.query}`, `@ENDPOINT@`), filled in when the
  // service was deployed, names no path: served as no address would be.
  const written = attr(address, 'location').trim();
  const location = /^(\$\{[^}]*\}|@[A-Za-z0-9_.-]+@|%[A-Za-z0-9_.-]+%)$/.test(written) ? '' : written;
  let path: string;
  try {
    path = new URL(location).pathname;
  } catch {
    // A placeholder host (`http://server:port/…`), a relative location (`Revenue_Management`) or none: the path as written.
    const written = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/.exec(location)?.[1] ?? location.replace(/[?#].*$/, '');
    path = written === '' || written.startsWith('/') ? written : `/${written}`;
  }
  if (path !== '' && !/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path)) {
    refuseAt(address, `port ${attr(port, 'name')}: address ${location} has a path codegen cannot serve`);
  }
  // A path ending in a slash (`/v5/adgroups/`) is served without it; the root is served at /service.
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/service' : trimmed;
}

/** The SOAP 1.1 and SOAP 1.2 bindings are one service's: generated code serves one operation table to both. */
function checkSameSoapOperations(soap11: XmlElement, soap12: XmlElement): void {
  const names = (binding: XmlElement) => new Set(findAll(binding, 'wsdl:operation').map((op) => attr(op, 'name')));
  const of11 = names(soap11);
  const of12 = names(soap12);
  for (const name of of12) {
    if (!of11.has(name)) {
      refuseAt(
        findOne(soap12, `wsdl:operation[@name='${name}']`),
        `binding ${attr(soap12, 'name')}: operation ${name} is not in the SOAP 1.1 binding; both must offer the same operations`,
      );
    }
  }
  for (const name of of11) {
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
  portPath: string,
  messageOf: (binding: XmlElement, operation: string, direction: 'input' | 'output') => XmlElement | undefined,
  partsOf: (message: XmlElement) => WsdlPart[],
): WsdlOperationFacts['http'] {
  const outputMessage = messageOf(binding, name, 'output');
  const output = outputMessage ? partsOf(outputMessage) : [];
  if (output.length > 1) refuseAt(outputMessage!, `${name}: an HTTP output message has one part (the answer's root element) or none`);
  if (output[0] && !output[0].element) refuseAt(outputMessage!, `${name}: an HTTP output part must name the answer's element`);
  const inputMessage = messageOf(binding, name, 'input');
  const inputParts = inputMessage ? partsOf(inputMessage) : [];
  const [replacement] = findAll(operation, 'wsdl:input/http:urlReplacement');
  if (replacement) refuseAt(replacement, `${name}: http:urlReplacement (fields in the path) is not served; http:urlEncoded is`);
  const xmlIn = xmlContent(operation, 'input');
  let xmlBody: { mediaType: string } | undefined;
  if (xmlIn) {
    if (attr(findOne(binding, 'http:binding'), 'verb') !== 'POST') {
      refuseAt(
        xmlIn.element,
        `${name}: an XML request body is sent with POST, not with HTTP ${attr(findOne(binding, 'http:binding'), 'verb')}`,
      );
    }
    const parts = xmlIn.part === undefined ? inputParts : inputParts.filter((p) => p.name === xmlIn.part);
    // No part at all: the body is empty, as the SOAP body is.
    if (inputParts.length > 0 && (parts.length !== 1 || !parts[0].element)) {
      refuseAt(xmlIn.element, `${name}: an XML request body is one part naming an element`);
    }
    xmlBody = { mediaType: xmlContent(operation, 'output')?.mediaType ?? xmlIn.mediaType };
  }
  const location = attr(findOne(operation, 'http:operation'), 'location');
  return {
    location,
    segment: segmentOf(location, portPath),
    inputParts,
    outputElement: output[0]?.element,
    ...(xmlBody ? { xmlBody } : {}),
  };
}

/**
 * Where under its port's address an operation's location puts it. ASMX writes `/Add` under `/Service.asmx` and
 * means `/Service.asmx/Add`: the location is appended. Axis2 writes `Version/getVersion` under
 * `/axis2/services/Version`, a relative reference that resolves (RFC 3986) to `/axis2/services/Version/getVersion`:
 * a location that resolves under the address is taken so.
 */
export function segmentOf(location: string, portPath: string): string {
  const trimmed = location.trim();
  if (!trimmed.startsWith('/') && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed)) {
    const resolved = new URL(trimmed, `http://host${portPath}`).pathname;
    if (resolved.startsWith(`${portPath}/`) && resolved.length > portPath.length + 1) return resolved.slice(portPath.length + 1);
  }
  return trimmed.replace(/^\//, '');
}

/** An HTTP operation's direction written as an XML document: `mime:mimeXml`, or `mime:content` of an XML media type. */
function xmlContent(
  operation: XmlElement,
  direction: 'input' | 'output',
): { element: XmlElement; part?: string; mediaType: string } | undefined {
  for (const element of findAll(operation, `wsdl:${direction}/mime:mimeXml | wsdl:${direction}/mime:content`)) {
    const type = element.name === 'mimeXml' ? 'text/xml' : (optionalAttr(element, 'type') ?? '').trim().toLowerCase();
    if (type === 'text/xml' || type === 'application/xml') {
      return { element, part: optionalAttr(element, 'part'), mediaType: type };
    }
  }
  return undefined;
}

/**
 * Generated code speaks literal XML: SOAP encoding is refused, never served
 * as described yet spoken differently; so is a SOAP 1.2 binding written with
 * SOAP 1.1's elements, which no toolkit reads alike.
 */
function checkLiteral(binding: XmlElement, prefix: 'soap' | 'soap12'): void {
  const name = attr(binding, 'name');
  const other = prefix === 'soap' ? 'soap12' : 'soap';
  const [mixed] = findAll(binding, `wsdl:operation/${other}:operation | wsdl:operation/*/${other}:body`);
  if (mixed) {
    refuseAt(
      mixed,
      `binding ${name} is a ${prefix === 'soap' ? 'SOAP 1.1' : 'SOAP 1.2'} binding whose operations use <${mixed.prefix}:${mixed.name}> of ${prefix === 'soap' ? 'SOAP 1.2' : 'SOAP 1.1'}: outside WS-I Basic Profile; write each binding with its own version's elements`,
    );
  }
  for (const body of findAll(
    binding,
    `wsdl:operation/*/${prefix}:body | wsdl:operation/*/${prefix}:header | wsdl:operation/*/${prefix}:fault`,
  )) {
    const use = optionalAttr(body, 'use') ?? 'literal';
    if (use !== 'literal')
      refuseAt(
        body,
        `binding ${name}: use="${use}" (SOAP encoding, rpc/encoded) is not supported: outside WS-I Basic Profile, which allows literal only; republish the service with use="literal"`,
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

export { NS };
