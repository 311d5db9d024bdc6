/**
 * The facts of a WSDL 1.1 contract and their reader. Each construct is read by its module of read/wsdl/: services
 * and ports (services.ts), bindings (bindings.ts), an operation's SOAP and HTTP sides (operations.ts, http.ts),
 * messages and port types (messages.ts), over the documents' lookups (definitions.ts).
 */
import type { XmlDocument, XmlElement } from 'contract-runtime/xml';
import { attr, findAll } from './documents';
import { boundOperations, type ServedBindings, servedBindings } from './wsdl/bindings';
import { WsdlDocuments } from './wsdl/definitions';
import type { WsdlFacts, WsdlOperationFacts, WsdlPort } from './wsdl/facts';
import { type EndpointPolicies, readOperation } from './wsdl/operations';
import { PolicyReader } from './wsdl/policy';
import { bindingOfPort, chooseService, servedPorts } from './wsdl/services';

export { pathOf } from './wsdl/services';
export type {
  PolicyAlternative,
  PolicyAssertion,
  PolicyFacts,
  WsdlFacts,
  WsdlOperationFacts,
  WsdlOperationPolicies,
  WsdlPart,
  WsdlPort,
  WsdlSoapMessage,
} from './wsdl/facts';

/**
 * Reads messages, port types, bindings and the service of a WSDL 1.1
 * contract (the main document and those it imports): the ports of one
 * service (the first, or `service`), SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST,
 * document/literal or rpc/literal, with headers and declared faults, and the
 * WS-Policy each SOAP binding attaches to each operation (read/wsdl/policy.ts). What
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
  const reader = new PolicyReader(wsdl);
  const policies = reader.any ? { reader, endpoints: endpointPolicies(reader, service, ports, bindings) } : undefined;
  const scope = { documents: wsdl, ports, bindings, namespace: wsdl.main.namespace, skipping, ...(policies ? { policies } : {}) };
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
    ...(reader.unread.length ? { unreadPolicies: [...new Set(reader.unread)] } : {}),
  };
}

/** Each SOAP binding's endpoint policies: the service's, the first served port's of its variant, the binding's. */
function endpointPolicies(
  reader: PolicyReader,
  service: XmlElement,
  ports: WsdlPort[],
  bindings: ServedBindings,
): Partial<Record<'soap11' | 'soap12', EndpointPolicies>> {
  const serviceName = attr(service, 'name');
  const endpoints: Partial<Record<'soap11' | 'soap12', EndpointPolicies>> = {};
  for (const variant of ['soap11', 'soap12'] as const) {
    const binding = bindings[variant];
    const port = ports.find((p) => p.variant === variant);
    if (!binding || !port) continue;
    const [portElement] = findAll(service, `wsdl:port[@name='${port.name}']`);
    endpoints[variant] = {
      binding,
      endpoint: [
        ...reader.attachedTo(service, 'service', serviceName),
        ...(portElement ? reader.attachedTo(portElement, 'port', `${serviceName}/${port.name}`) : []),
        ...reader.attachedTo(binding, 'binding', attr(binding, 'name')),
      ],
    };
  }
  return endpoints;
}
