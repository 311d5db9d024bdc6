/**
 * The facts of a WSDL 1.1 contract and their reader. Each construct is read by its module of read/wsdl/: services
 * and ports (services.ts), bindings (bindings.ts), an operation's SOAP and HTTP sides (operations.ts, http.ts),
 * messages and port types (messages.ts), over the documents' lookups (definitions.ts).
 */
import type { XmlDocument, XmlElement } from 'contract-runtime/xml';
import { attr, findAll } from './documents';
import { boundOperations, type ServedBindings, servedBindings, variantOf } from './wsdl/bindings';
import { WsdlDocuments } from './wsdl/definitions';
import type { WsdlCoverage, WsdlFacts, WsdlOperationFacts, WsdlPort } from './wsdl/facts';
import { messageNames } from './wsdl/messages';
import { type EndpointPolicies, readOperation } from './wsdl/operations';
import { PolicyReader } from './wsdl/policy';
import { bindingGroups, bindingOfPort, chooseService, otherTransport, portTypeKey, servedPorts } from './wsdl/services';

export { pathOf } from './wsdl/services';
export type {
  PolicyAlternative,
  PolicyAssertion,
  PolicyFacts,
  WsdlCoverage,
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
  const reader = new PolicyReader(wsdl);
  const ports: WsdlPort[] = [];
  const operations: WsdlOperationFacts[] = [];
  let allOperations = 0;
  const servedGroups: WsdlPort[][] = [];
  // Each port type's bindings are read together; the operations of all of them are served at every port.
  for (const group of bindingGroups(wsdl, service, servedPorts(wsdl, service, notes, reasons, skipping, warn), notes)) {
    const bindings = servedBindings(group, (port) => bindingOfPort(wsdl, service, port), skipping);
    const before = operations.length;
    const bound = boundOperations((bindings.soap ?? bindings.http)!);
    allOperations += bound.length;
    const policies = reader.any ? { reader, endpoints: endpointPolicies(reader, service, group, bindings) } : undefined;
    const scope = { documents: wsdl, ports: group, bindings, namespace: wsdl.main.namespace, skipping, ...(policies ? { policies } : {}) };
    const portNames = group.map((p) => p.name).join(', ');
    const of = `port${group.length > 1 ? 's' : ''} ${portNames}`;
    const unique = overloadNames(bound);
    for (const [i, op] of bound.entries()) {
      const name = unique[i] ?? attr(op, 'name');
      if (operations.some((o) => o.name === name)) {
        skipping(`operation ${name} of ${of}`, new Error(`codegen: an operation of another port type served here has its name`));
        continue;
      }
      try {
        operations.push({ ...readOperation(scope, op, unique[i]), portType: portTypeKey((bindings.soap ?? bindings.http)!) });
      } catch (error) {
        reasons.push((error as Error).message);
        skipping(`operation ${attr(op, 'name')} of ${of}`, error);
      }
    }
    // A port type none of whose operations is served leaves its ports unserved (each operation said above).
    if (operations.length > before || ports.length === 0) {
      ports.push(...group);
      servedGroups.push(group);
    }
  }
  if (servedGroups.length > 1) {
    notes.push(
      `service ${attr(service, 'name')} binds ${servedGroups.length} port types: the operations of each are served at every port (${servedGroups.map((g) => g.map((p) => p.name).join(', ')).join('; ')})`,
    );
  }
  if (operations.length === 0 && reasons.length > 0) throw new Error(reasons.at(-1)!);
  return {
    coverage: coverageOf(wsdl, service, ports, operations),
    targetNamespace: wsdl.main.namespace,
    service: attr(service, 'name'),
    ports,
    operations,
    allPorts: findAll(service, 'wsdl:port').length,
    allOperations,
    ...(notes.length ? { choice: notes.join('; ') } : {}),
    ...(reader.unread.length ? { unreadPolicies: [...new Set(reader.unread)] } : {}),
  };
}

/**
 * The name generated code gives each overloaded operation (one the binding binds under the name of another before
 * it, told apart by its input and output names), by its index; the first of a name keeps it. Axis 1 names the n-th
 * overload's input `{name}Request{n}`: that one is `{name}{n}`; another input name is taken as it is; else
 * `{name}{n}` with the operation's rank among those of its name.
 */
function overloadNames(bound: XmlElement[]): (string | undefined)[] {
  const taken = new Set(bound.map((op) => attr(op, 'name')));
  const seen = new Map<string, number>();
  return bound.map((op) => {
    const name = attr(op, 'name');
    const rank = (seen.get(name) ?? 0) + 1;
    seen.set(name, rank);
    if (rank === 1) return undefined;
    const input = messageNames(op).input;
    const numbered = input?.match(/^(.*)Request(\d+)$/);
    let wanted = numbered && numbered[1] === name ? `${name}${numbered[2]}` : input && input !== name ? input : `${name}${rank}`;
    for (let n = 2; taken.has(wanted); n++) wanted = `${name}${rank}_${n}`;
    taken.add(wanted);
    return wanted;
  });
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

/**
 * What is served of every SOAP or HTTP port of every service: the operations each port's binding binds against
 * those served at it (a SOAP port serves the operations read; an HTTP port those with an HTTP side).
 */
function coverageOf(wsdl: WsdlDocuments, served: XmlElement, ports: WsdlPort[], operations: WsdlOperationFacts[]): WsdlCoverage {
  const all = new Set<string>();
  const servedNames = new Set<string>();
  let portCount = 0;
  let complete = 0;
  for (const service of wsdl.all.flatMap((d) => findAll(d.root, 'wsdl:service'))) {
    for (const port of findAll(service, 'wsdl:port')) {
      let names: string[] = [];
      let portType = '';
      let variant: ReturnType<typeof variantOf> | 'unknown';
      try {
        const binding = wsdl.lookup('binding', port, attr(port, 'binding'));
        portType = portTypeKey(binding);
        const ops = boundOperations(binding);
        const unique = overloadNames(ops);
        names = ops.map((op, i) => unique[i] ?? attr(op, 'name'));
        try {
          variant = variantOf(binding);
        } catch {
          variant = 'unknown'; // an HTTP binding of another verb: a port not served
        }
      } catch {
        variant = 'unknown'; // a binding not declared: a port not served
      }
      // A port of another kind (WCF's net.tcp beside its HTTP ones, Axis 1's in-process java: one) is no port of the
      // service's SOAP or HTTP variants.
      if (variant === undefined || otherTransport(port)) continue;
      portCount++;
      for (const name of names) all.add(name);
      const isServed = service.isSameNode(served) && ports.some((p) => p.name === attr(port, 'name'));
      if (!isServed) continue;
      const soap = variant === 'soap11' || variant === 'soap12';
      const at = operations.filter(
        // A SOAP port serves the operations of its port type; an HTTP one (of a port type of its own, as ASMX
        // publishes) those with an HTTP side.
        (op) => names.includes(op.name) && (soap ? op.portType === portType && op.input !== undefined : op.http !== undefined),
      );
      for (const op of at) servedNames.add(op.name);
      if (at.length === names.length) complete++;
    }
  }
  return { operations: all.size, servedOperations: servedNames.size, ports: portCount, completePorts: complete };
}
