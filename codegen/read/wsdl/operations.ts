/**
 * One bound operation: its documentation and HTTP side, and its SOAP side (style, each version's SOAPAction, the
 * body and header parts of each direction, the declared faults).
 */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, findOne, NS, optionalAttr, refuseAt } from '../documents';
import type { PolicyFacts, WsdlOperationFacts, WsdlPort, WsdlSoapMessage } from './facts';
import { bindingOperation, ENCODING_STYLES, isEncoded, type ServedBindings } from './bindings';
import type { WsdlDocuments } from './definitions';
import { httpFacts } from './http';
import { declaredOperation, documentationOf, messageNames, messageOf, partsOf } from './messages';
import { addressingActions, type PolicyReader } from './policy';

/**
 * What an operation is read with: the documents, the served ports and their bindings, the namespace of an rpc
 * wrapper without one of its own, and how a side that cannot be served is said.
 *
 * `policies`, when the contract attaches any WS-Policy: its reader, and each SOAP binding's endpoint policies (of
 * the service, the port and the binding), the bound operation's and its messages' being read with the operation.
 */
export interface OperationScope {
  readonly documents: WsdlDocuments;
  readonly ports: readonly WsdlPort[];
  readonly bindings: ServedBindings;
  readonly namespace: string;
  readonly skipping: (what: string, error: unknown) => void;
  readonly policies?: { reader: PolicyReader; endpoints: Partial<Record<'soap11' | 'soap12', EndpointPolicies>> };
  /** An overloaded operation's input and output names, which choose it among those of its name. */
  readonly overload?: { input?: string; output?: string };
}

/** A SOAP binding's element and the policy expressions of its endpoint. */
export interface EndpointPolicies {
  binding: XmlElement;
  endpoint: PolicyFacts[];
}

/** The facts of the operation `op` of the binding the operations are read from (SOAP's, else HTTP's). */
/**
 * The facts of the operation `op` of the binding the operations are read from (SOAP's, else HTTP's). `unique`, for
 * an overloaded operation, is the name generated code gives it (read/wsdl.ts names each).
 */
export function readOperation(scope: OperationScope, op: XmlElement, unique?: string): WsdlOperationFacts {
  const { documents, bindings } = scope;
  const name = attr(op, 'name');
  // The input and output names choose among overloaded operations of the name (the first of them too).
  const overload = messageNames(op);
  const declared = declaredOperation(documents, (bindings.soap ?? bindings.http)!, name, overload);
  const facts: WsdlOperationFacts = {
    name: unique ?? name,
    ...(unique !== undefined ? { overload: { wsdlName: name, ...overload } } : {}),
    documentation: documentationOf(declared),
    style: 'document',
    soapActions: {},
    faults: [],
    // An overloaded operation is SOAP's: an HTTP binding has one location per name.
    http: unique !== undefined && bindings.soap ? undefined : httpSide(scope, name),
  };
  if (!bindings.soap) return facts;
  const soap = soapSide({ ...scope, overload }, op, declared, name);
  // An rpc/literal call is validated by its wrapper's name, which an overload shares with the first of its name.
  if (unique !== undefined && soap.style === 'rpc' && !soap.input?.encoded)
    refuseAt(op, `operation ${name} (input ${overload.input ?? 'unnamed'}) overloads another of its name: served for rpc/encoded only`);
  return { ...facts, ...soap };
}

/** The HTTP side, when the HTTP binding has the operation; one it cannot serve is skipped when SOAP serves the operation. */
function httpSide(scope: OperationScope, name: string): WsdlOperationFacts['http'] {
  const { http, soap } = scope.bindings;
  const httpOperation = http ? bindingOperation(scope.documents, http, name) : undefined;
  try {
    const httpPath = scope.ports.find((p) => p.variant === 'httpGet' || p.variant === 'httpPost')?.path ?? '';
    return http && httpOperation ? httpFacts(scope.documents, http, httpOperation, name, httpPath) : undefined;
  } catch (error) {
    // The SOAP side is served all the same.
    const httpPorts = scope.ports.filter((p) => p.variant === 'httpGet' || p.variant === 'httpPost').map((p) => p.name);
    scope.skipping(`operation ${name} of port${httpPorts.length > 1 ? 's' : ''} ${httpPorts.join(', ')}`, error);
    if (!soap) throw error;
    return undefined;
  }
}

type SoapSide = Pick<WsdlOperationFacts, 'style' | 'soapActions' | 'input' | 'output' | 'faults' | 'policies' | 'addressingActions'>;

function soapSide(scope: OperationScope, op: XmlElement, declared: XmlElement, name: string): SoapSide {
  const { documents, bindings } = scope;
  const soap = bindings.soap!;
  const prefix = bindings.soapPrefix;
  // soap:operation may be left out (WSDL 1.1, 3.4): the binding's style, and an empty SOAPAction.
  const [operation] = findAll(op, `${prefix}:operation`);
  const bindingStyle = optionalAttr(findOne(soap, `${prefix}:binding`), 'style') ?? 'document';
  const style = (operation && optionalAttr(operation, 'style')) ?? bindingStyle;
  if (style !== 'document' && style !== 'rpc') refuseAt(operation ?? op, `operation ${name}: style="${style}" is neither document nor rpc`);
  const soapActions: WsdlOperationFacts['soapActions'] = {};
  for (const variant of ['soap11', 'soap12'] as const) {
    const binding = bindings[variant];
    if (!binding) continue;
    const first = bindingOperation(documents, binding, name, scope.overload);
    const [own] = first ? findAll(first, `${variant === 'soap11' ? 'soap' : 'soap12'}:operation`) : [];
    soapActions[variant] = own ? (optionalAttr(own, 'soapAction') ?? '') : '';
  }
  const input = soapMessage(scope, op, name, style, 'input');
  const output = soapMessage(scope, op, name, style, 'output');
  if (!input) refuseAt(declared, `operation ${name} has no input (a notification operation is not WS-I Basic Profile)`);
  const faults = findAll(declared, 'wsdl:fault').flatMap((fault): WsdlOperationFacts['faults'] => {
    const message = documents.lookup('message', fault, attr(fault, 'message'));
    const parts = partsOf(message);
    const [part] = parts;
    if (parts.length === 0) {
      // A fault message of no part (as Axis 1's tests publish one) declares no detail: the operation is served, and
      // the fault answered as any undeclared one.
      scope.skipping(
        `fault ${attr(fault, 'name')} of operation ${name}`,
        new Error(`its message ${attr(message, 'name')} has no part, so no detail to declare: answered as an undeclared fault`),
      );
      return [];
    }
    if (parts.length !== 1 || (!part.element && style !== 'rpc')) {
      refuseAt(message, `operation ${name}: fault ${attr(fault, 'name')} must be a message of one part naming an element (WS-I BP R2205)`);
    }
    if (part.element) return [{ name: attr(fault, 'name'), element: part.element }];
    // A part naming a type (outside WS-I BP, R2205), as Axis 1 writes an rpc/literal operation's faults: Axis 1 writes
    // the detail as an element named after the part, in the operation's namespace (its soap:body namespace), of the
    // part's type; soap:fault's own namespace, when written, is the one. A document-style one is refused.
    const [bound] = findAll(op, `wsdl:fault[@name='${attr(fault, 'name')}']/${prefix}:fault`);
    const namespace = (bound && optionalAttr(bound, 'namespace')) ?? input?.namespace ?? scope.namespace;
    return [{ name: attr(fault, 'name'), element: { namespace, name: part.name }, type: part.type }];
  });
  if (!scope.policies) return { style, soapActions, input, output, faults };
  return {
    style,
    soapActions,
    input,
    output,
    faults,
    policies: operationPolicies(scope, name),
    addressingActions: addressingActions(declared),
  };
}

/** The policy expressions each SOAP binding attaches to the operation: its endpoint's, the bound operation's, its messages'. */
function operationPolicies(scope: OperationScope, name: string): WsdlOperationFacts['policies'] {
  const { reader, endpoints } = scope.policies!;
  const policies: WsdlOperationFacts['policies'] = {};
  for (const variant of ['soap11', 'soap12'] as const) {
    const endpoint = endpoints[variant];
    if (!endpoint) continue;
    const binding = attr(endpoint.binding, 'name');
    const bound = bindingOperation(scope.documents, endpoint.binding, name, scope.overload);
    const of = (element: XmlElement | undefined, kind: string) => (element ? reader.attachedTo(element, kind, `${binding}/${name}`) : []);
    const message = (which: 'input' | 'output') => (bound ? findAll(bound, `wsdl:${which}`)[0] : undefined);
    policies[variant] = {
      binding,
      endpoint: endpoint.endpoint,
      operation: of(bound, 'bindingOperation'),
      input: of(message('input'), 'bindingOperation.input'),
      output: of(message('output'), 'bindingOperation.output'),
    };
  }
  return policies;
}

/** One direction of a SOAP operation: its body parts (those soap:body lists, less those bound as headers) and its header parts. */
function soapMessage(
  scope: OperationScope,
  op: XmlElement,
  name: string,
  style: 'document' | 'rpc',
  which: 'input' | 'output',
): WsdlSoapMessage | undefined {
  const { documents, bindings } = scope;
  const prefix = bindings.soapPrefix;
  const message = messageOf(documents, bindings.soap!, name, which, scope.overload);
  if (!message) return undefined;
  const parts = partsOf(message);
  const [bound] = findAll(op, `wsdl:${which}`);
  const [body] = bound ? findAll(bound, `${prefix}:body`) : [];
  const listed = body ? optionalAttr(body, 'parts') : undefined;
  const bodyParts = listed === undefined ? undefined : listed.split(/\s+/).filter(Boolean);
  const encoded = isEncoded(body);
  const headerParts = (bound ? findAll(bound, `${prefix}:header`) : []).map((header) => {
    const headerMessage = documents.lookup('message', header, attr(header, 'message'));
    const part = partsOf(headerMessage).find((p) => p.name === attr(header, 'part'));
    if (!part) refuseAt(header, `operation ${name}: header part ${attr(header, 'part')} is not a part of ${attr(header, 'message')}`);
    if (isEncoded(header)) {
      if (!encoded) refuseAt(header, `operation ${name}: header part ${part.name} is bound encoded in an operation whose body is literal`);
      // An encoded header block is an accessor named by its part, in the header's namespace (or the body's), of
      // the part's type (SOAP 1.1 section 5; Axis 1 and PHP write them so); one naming an element is that element.
      const namespace = optionalAttr(header, 'namespace') ?? (body && optionalAttr(body, 'namespace')) ?? scope.namespace;
      const element = part.element ?? { namespace, name: part.name };
      return { part: { ...part, element, encoded: true as const }, message: attr(headerMessage, 'name') };
    }
    if (!part.element) refuseAt(header, `operation ${name}: header part ${part.name} must name an element (WS-I BP R2205)`);
    return { part, message: attr(headerMessage, 'name') };
  });
  const headers = headerParts.map((h) => h.part);
  // A part of this message bound as a header is not in the body (UPS's security header).
  const asHeaders = new Set(headerParts.filter((h) => h.message === attr(message, 'name')).map((h) => h.part.name));
  const bodyOnly = bodyParts === undefined ? parts.filter((p) => !asHeaders.has(p.name)) : parts.filter((p) => bodyParts.includes(p.name));
  if (encoded && style !== 'rpc')
    refuseAt(body, `operation ${name}: a document-style encoded body (document/encoded) is not supported: only rpc/encoded`);
  for (const part of bodyOnly) {
    if (style === 'document' && !part.element) {
      refuseAt(message, `operation ${name}: part ${part.name} names a type: a document-style body part must name an element`);
    }
  }
  return {
    message: attr(message, 'name'),
    body: bodyOnly,
    headers,
    ...(style === 'rpc' ? { namespace: (body && optionalAttr(body, 'namespace')) ?? scope.namespace } : {}),
    ...(encoded ? { encoded: encodingOf(body!) } : {}),
  };
}

/** Which SOAP encoding an encoded body's encodingStyle names (SOAP 1.1's, when it lists both). */
const encodingOf = (body: XmlElement): 'soap11' | 'soap12' => {
  const style = optionalAttr(body, 'encodingStyle');
  if (style === undefined) return body.namespaceUri === NS.soap12 ? 'soap12' : 'soap11';
  return style.split(/\s+/).includes(ENCODING_STYLES.soap) ? 'soap11' : 'soap12';
};
