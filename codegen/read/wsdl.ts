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
import { bindingGroups, bindingOfPort, chooseServices, otherTransport, portTypeKey, servedPorts } from './wsdl/services';

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
 * contract (the main document and those it imports): the ports of every
 * service (or of `service` alone), SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST,
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
  const services = chooseServices(wsdl, options.service, notes);
  const reader = new PolicyReader(wsdl);
  const ports: WsdlPort[] = [];
  const operations: WsdlOperationFacts[] = [];
  const served: { name: string; ports: string[] }[] = [];
  /** The port types whose operations were read, and whether HTTP ports were served with them. */
  const portTypesRead = new Map<string, { http: boolean }>();
  /** The WSDL names several port types' operations share, each then named by its port type too. */
  const shared = new Set<string>();
  /** How many reasons the first service that gave any gave. */
  let firstReasons = 0;
  let allOperations = 0;
  let allPorts = 0;
  const servedGroups: WsdlPort[][] = [];
  for (const service of services) {
    const serviceName = attr(service, 'name');
    allPorts += findAll(service, 'wsdl:port').length;
    let candidates: WsdlPort[];
    try {
      candidates = servedPorts(wsdl, service, notes, reasons, skipping, warn);
    } catch (error) {
      // One service of several that cannot be served is skipped; a WSDL none of whose services can be, refused.
      if (services.length === 1) throw error;
      skipping(`service ${serviceName}`, error);
      served.push({ name: serviceName, ports: [] });
      if (firstReasons === 0) firstReasons = reasons.length;
      continue;
    }
    const taken = candidates.filter((port) => {
      const twin = ports.find((p) => p.name === port.name || (p.variant === port.variant && p.path === port.path));
      if (twin) {
        const why =
          twin.name === port.name
            ? 'has the name of a port of another service served'
            : `answers at ${port.path}, as port ${twin.name} does`;
        notes.push(`port ${port.name} of service ${serviceName} ${why}: not served`);
      }
      return !twin;
    });
    const before = ports.length;
    // Each port type's bindings are read together; the operations of all of them are served at every port.
    for (const group of taken.length ? bindingGroups(wsdl, service, taken, notes) : []) {
      const bindings = servedBindings(group, (port) => bindingOfPort(wsdl, service, port), skipping);
      const portType = portTypeKey((bindings.soap ?? bindings.http)!);
      const read = portTypesRead.get(portType);
      if (read) {
        // A port type already read (a second service of the same interface): its ports answer the same operations;
        // HTTP ones only where the first had none (an HTTP operation has one location).
        const more = group.filter((p) => (p.variant !== 'httpGet' && p.variant !== 'httpPost') || !read.http);
        ports.push(...more);
        continue;
      }
      const groupBefore = operations.length;
      const bound = boundOperations((bindings.soap ?? bindings.http)!);
      allOperations += bound.length;
      const policies = reader.any ? { reader, endpoints: endpointPolicies(reader, service, group, bindings) } : undefined;
      const scope = {
        documents: wsdl,
        ports: group,
        bindings,
        namespace: wsdl.main.namespace,
        skipping,
        ...(policies ? { policies } : {}),
      };
      const portNames = group.map((p) => p.name).join(', ');
      const of = `port${group.length > 1 ? 's' : ''} ${portNames}`;
      const unique = overloadNames(bound);
      for (const [i, op] of bound.entries()) {
        const name = unique[i] ?? attr(op, 'name');
        try {
          const read = { ...readOperation(scope, op, unique[i]), portType };
          const twin = operations.find((o) => sameEmptyCall(o, read));
          if (twin) {
            skipping(
              `operation ${name} of ${of}`,
              new Error(
                `codegen: its call is operation ${twin.name}'s on the wire (an empty body and the same action): the service could not tell them apart`,
              ),
            );
            continue;
          }
          const earlier = operations.find((o) => o.name === name);
          if (earlier || shared.has(name)) {
            // A name another port type's operation has: document-style operations are then each named by their
            // port type too (a call is told by its element, not its name); an rpc one, whose wrapper the name is,
            // is skipped.
            const document = (o: WsdlOperationFacts) => o.style === 'document' && o.overload === undefined;
            const renamed = byPortType(read, name);
            if (!document(read) || (earlier && !document(earlier)) || operations.some((o) => o.name === renamed)) {
              skipping(`operation ${name} of ${of}`, new Error(`codegen: an operation of another port type served here has its name`));
              continue;
            }
            if (earlier) Object.assign(earlier, { name: byPortType(earlier, name), wsdlName: name });
            shared.add(name);
            operations.push({ ...read, name: renamed, wsdlName: name });
            continue;
          }
          operations.push(read);
        } catch (error) {
          reasons.push((error as Error).message);
          skipping(`operation ${attr(op, 'name')} of ${of}`, error);
        }
      }
      // A port type none of whose operations is served leaves its ports unserved (each operation said above).
      if (operations.length > groupBefore || ports.length === 0) {
        ports.push(...group);
        portTypesRead.set(portType, { http: group.some((p) => p.variant === 'httpGet' || p.variant === 'httpPost') });
        servedGroups.push(group);
      }
    }
    served.push({ name: serviceName, ports: ports.slice(before).map((p) => p.name) });
    if (firstReasons === 0) firstReasons = reasons.length;
  }
  if (servedGroups.length > 1) {
    const who = served.length === 1 ? `service ${served[0].name} binds` : `the services bind`;
    notes.push(
      `${who} ${servedGroups.length} port types: the operations of each are served at every port (${servedGroups.map((g) => g.map((p) => p.name).join(', ')).join('; ')})`,
    );
  }
  // Nothing can be served: the last reason of the first service that gave one.
  if (operations.length === 0 && reasons.length > 0) throw new Error(reasons[Math.max(firstReasons, 1) - 1]);
  const first = served.find((s) => s.ports.length > 0);
  if (!first) throw new Error(reasons[Math.max(firstReasons, 1) - 1] ?? 'codegen: no service of the WSDL can be served');
  return {
    coverage: coverageOf(wsdl, served, ports, operations),
    targetNamespace: wsdl.main.namespace,
    service: first.name,
    ports,
    services: served,
    operations,
    allPorts,
    allOperations,
    ...(notes.length ? { choice: notes.join('; ') } : {}),
    ...(reader.unread.length ? { unreadPolicies: [...new Set(reader.unread)] } : {}),
  };
}

/** An operation's name where another port type's has its name: `{port type}_{name}`. */
function byPortType(op: WsdlOperationFacts, name: string): string {
  const portType = op.portType ?? '';
  return `${portType.slice(portType.indexOf('}') + 1)}_${name}`;
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
function coverageOf(
  wsdl: WsdlDocuments,
  served: { name: string; ports: string[] }[],
  ports: WsdlPort[],
  operations: WsdlOperationFacts[],
): WsdlCoverage {
  const seen: { soap: boolean; portType: string; names: string[]; served: boolean }[] = [];
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
      const isServed = served.some((s) => s.name === attr(service, 'name') && s.ports.includes(attr(port, 'name')));
      seen.push({ soap: variant === 'soap11' || variant === 'soap12', portType, names, served: isServed && ports.length > 0 });
    }
  }
  // An operation is its port type's (two port types may each have one of a name); an HTTP port's (ASMX publishes
  // port types of their own for HTTP) is the SOAP one of its name, where there is one.
  const soapNames = new Set(seen.filter((p) => p.soap).flatMap((p) => p.names));
  const all = new Set<string>();
  const servedKeys = new Set<string>();
  let complete = 0;
  for (const port of seen) {
    for (const name of port.names) all.add(port.soap ? `${port.portType} ${name}` : soapNames.has(name) ? '' : name);
    if (!port.served) continue;
    const at = operations.filter(
      // A SOAP port serves the operations of its port type; an HTTP one those with an HTTP side.
      (op) =>
        port.names.includes(op.wsdlName ?? op.name) &&
        (port.soap ? op.portType === port.portType && op.input !== undefined : op.http !== undefined),
    );
    for (const op of at) {
      const name = op.wsdlName ?? op.name;
      servedKeys.add(port.soap || soapNames.has(name) ? `${op.portType} ${name}` : name);
    }
    if (at.length === port.names.length) complete++;
  }
  all.delete('');
  return { operations: all.size, servedOperations: servedKeys.size, ports: seen.length, completePorts: complete };
}

/**
 * Whether two document-style operations are called alike: an empty body (every part bound as a header, or none) and
 * the same action for every SOAP version both are bound in (White Mesa's emptyBody and echoOk), so a call is either.
 */
function sameEmptyCall(a: WsdlOperationFacts, b: WsdlOperationFacts): boolean {
  if (a.style !== 'document' || b.style !== 'document' || !a.input || !b.input) return false;
  if (a.input.body.length > 0 || b.input.body.length > 0) return false;
  const variants = (['soap11', 'soap12'] as const).filter((v) => a.soapActions[v] !== undefined && b.soapActions[v] !== undefined);
  return variants.length > 0 && variants.every((v) => a.soapActions[v] === b.soapActions[v]);
}
