/**
 * The facts of a WSDL 1.1 contract and their reader. Each construct is read by its module of read/wsdl/: services
 * and ports (services.ts), bindings (bindings.ts), an operation's SOAP and HTTP sides (operations.ts, http.ts),
 * messages and port types (messages.ts), over the documents' lookups (definitions.ts).
 */
import type { Variant } from '../../src/runtime/definition';
import type { XmlDocument } from '../../src/runtime/xml/xml-engine';
import { attr, findAll } from './documents';
import { boundOperations, servedBindings } from './wsdl/bindings';
import { WsdlDocuments } from './wsdl/definitions';
import { readOperation } from './wsdl/operations';
import { bindingOfPort, chooseService, servedPorts } from './wsdl/services';
import type { QName } from './xsd';

export { pathOf } from './wsdl/services';

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

/**
 * Reads messages, port types, bindings and the service of a WSDL 1.1
 * contract (the main document and those it imports): the ports of one
 * service (the first, or `service`), SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST,
 * document/literal or rpc/literal, with headers and declared faults. What
 * generated code would not speak as the WSDL says (SOAP encoding, a SOAP 1.2
 * binding written with SOAP 1.1 elements) is refused; a port or an operation
 * that cannot be served is skipped with one line.
 */
export function readWsdl(documents: XmlDocument[], options: { service?: string; warn?: (line: string) => void } = {}): WsdlFacts {
  const warn = options.warn ?? (() => {});
  /** What cannot be served is skipped with one line: the port, the operation, the reason (the refusal it would have been). */
  const skipping = (what: string, error: unknown) => {
    const message = (error as Error).message.replace(/^codegen: /, '');
    warn(`codegen: warning: ${what} is not served: ${message}`);
  };
  const reasons: string[] = [];
  const notes: string[] = [];
  const wsdl = new WsdlDocuments(documents);
  const service = chooseService(wsdl, options.service, notes);
  const ports = servedPorts(wsdl, service, notes, reasons, skipping);
  const bindings = servedBindings(ports, (port) => bindingOfPort(wsdl, service, port), skipping);
  const bound = boundOperations((bindings.soap ?? bindings.http)!);
  const scope = { documents: wsdl, ports, bindings, namespace: wsdl.main.namespace, skipping };
  const portNames = ports.map((p) => p.name).join(', ');
  const operations = bound.flatMap((op): WsdlOperationFacts[] => {
    try {
      return [readOperation(scope, op)];
    } catch (error) {
      reasons.push((error as Error).message);
      skipping(`operation ${attr(op, 'name')} of port${ports.length > 1 ? 's' : ''} ${portNames}`, error);
      return [];
    }
  });
  if (operations.length === 0 && reasons.length > 0) throw new Error(reasons.at(-1)!);
  return {
    targetNamespace: wsdl.main.namespace,
    service: attr(service, 'name'),
    ports,
    operations,
    allPorts: findAll(service, 'wsdl:port').length,
    allOperations: bound.length,
    ...(notes.length ? { choice: notes.join('; ') } : {}),
  };
}
