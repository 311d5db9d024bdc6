/**
 * Services and ports: the services served (every one, or the one named; one added for a WSDL of bindings and no
 * service), their ports of each variant, and each port's path.
 */
import type { Variant } from 'contract-runtime/codec';
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, findOne, localName, locationOf, NS, namespaceOfQName, optionalAttr, refuseAt, setPlainAttr } from '../documents';
import type { WsdlPort } from './facts';
import { checkUse, variantOf } from './bindings';
import type { Definitions, WsdlDocuments } from './definitions';

export const VARIANT_NAMES: Record<Variant, string> = {
  soap11: 'SOAP 1.1',
  soap12: 'SOAP 1.2',
  httpGet: 'HTTP GET',
  httpPost: 'HTTP POST',
};

/**
 * The services served: `wanted`, else every one the WSDL declares (said in `notes` when there are several), each
 * port at the path its address names.
 */
export function chooseServices(documents: WsdlDocuments, wanted: string | undefined, notes: string[]): XmlElement[] {
  let services = documents.all.flatMap((d) => findAll(d.root, 'wsdl:service'));
  if (services.length === 0) {
    const added = addServiceOfBindings(documents.all);
    if (!added) refuseAt(documents.main.root, 'the WSDL declares no service, and no SOAP 1.1, SOAP 1.2, HTTP GET or HTTP POST binding');
    notes.push(
      `the WSDL declares no service: its bindings are served each at /{its name} (${added.ports.join(', ')}), the ports of a service ${added.name} added to the served WSDL`,
    );
    services = [added.service];
  }
  if (wanted) {
    const service = services.find((s) => attr(s, 'name') === wanted);
    if (!service) {
      throw new Error(`codegen: the WSDL has no service ${wanted} (it has ${services.map((s) => attr(s, 'name')).join(', ')})`);
    }
    return [service];
  }
  if (services.length > 1) {
    notes.push(
      `the WSDL declares ${services.length} services (${services.map((s) => attr(s, 'name')).join(', ')}): each is served, every port at its address's path; serve one alone with --service NAME`,
    );
  }
  return services;
}

/**
 * The ports served: a port that cannot be served (another encoding, another HTTP verb, no address a path can be
 * served at) is skipped (`skipping`, its reason in `reasons`); the others are grouped by bindingGroups. None left is
 * refused.
 */
export function servedPorts(
  documents: WsdlDocuments,
  service: XmlElement,
  notes: string[],
  reasons: string[],
  skipping: (what: string, error: unknown) => void,
  warn: (line: string) => void,
): WsdlPort[] {
  const allPorts = findAll(service, 'wsdl:port').flatMap((port): WsdlPort[] => {
    try {
      const binding = documents.lookup('binding', port, attr(port, 'binding'));
      const variant = variantOf(binding);
      // A port of another kind (e.g. a WCF binding beside ASMX's) is no variant of this service.
      if (!variant) return [];
      if (variant === 'soap11' || variant === 'soap12') checkUse(binding, variant === 'soap11' ? 'soap' : 'soap12');
      const transport = otherTransport(port);
      if (transport) {
        warn(`codegen: warning: port ${attr(port, 'name')}: its address is one of another transport (${transport}), not HTTP: not served`);
        return [];
      }
      const path = pathOf(port);
      const [address] = findAll(port, 'soap:address | soap12:address | http:address');
      const placeholders = placeholdersOf(attr(address, 'location'));
      if (placeholders.length) {
        warn(
          `codegen: warning: ${locationOf(address)}: port ${attr(port, 'name')}: address ${attr(address, 'location').trim()} holds a placeholder a deployment fills in (${placeholders.join(', ')}): served at ${path}`,
        );
      }
      return [{ name: attr(port, 'name'), binding: attr(binding, 'name'), variant, path }];
    } catch (error) {
      reasons.push((error as Error).message);
      skipping(`port ${attr(port, 'name')}`, error);
      return [];
    }
  });
  if (allPorts.length === 0 && reasons.length > 0) throw new Error(reasons[0]);
  if (allPorts.length === 0) refuseAt(service, 'the service has no SOAP 1.1, SOAP 1.2, HTTP GET or HTTP POST port');
  return allPorts;
}

/**
 * The served ports in groups, each of the bindings of one port type (a SOAP 1.1 binding and a SOAP 1.2 one, as
 * WCF publishes an interface), whose operations are read together: a service whose SOAP ports bind several port
 * types (PayPal's PayPalAPI and PayPalAPIAA, the SOAPBuilders' interop groups) serves the operations of each, every
 * port answering them all. HTTP ports go with the first group. Of several bindings of one port type and variant, the
 * first one's ports are served, and those of a binding that says the same (bindingSignature); the others (other
 * policies, other actions) are said in `notes`.
 */
export function bindingGroups(documents: WsdlDocuments, service: XmlElement, ports: readonly WsdlPort[], notes: string[]): WsdlPort[][] {
  const portTypeOf = (port: WsdlPort) => portTypeKey(bindingOfPort(documents, service, port));
  const byPortType = new Map<string, WsdlPort[]>();
  const http: WsdlPort[] = [];
  for (const port of ports) {
    if (port.variant === 'httpGet' || port.variant === 'httpPost') http.push(port);
    else byPortType.set(portTypeOf(port), [...(byPortType.get(portTypeOf(port)) ?? []), port]);
  }
  const firstBindings = (same: WsdlPort[], ofPortType: boolean): WsdlPort[] =>
    (Object.keys(VARIANT_NAMES) as Variant[]).flatMap((variant) => {
      const ofVariant = same.filter((p) => p.variant === variant);
      // Another binding that says what the first says, operation by operation (Axis 1's import test: the same
      // binding in two documents), is served too: its ports answer as the first binding's, each at its path.
      const signature = ofVariant[0] && bindingSignature(bindingOfPort(documents, service, ofVariant[0]));
      const first = ofVariant
        .filter(
          (p) =>
            p.binding === ofVariant[0].binding ||
            (signature !== undefined && bindingSignature(bindingOfPort(documents, service, p)) === signature),
        )
        .map((p) => ({ ...p, binding: ofVariant[0].binding }));
      if (first.length < ofVariant.length) {
        notes.push(
          `service ${attr(service, 'name')} has ${ofVariant.length} ${VARIANT_NAMES[variant]} ports of different bindings${ofPortType ? ' of one port type' : ''}: serving ${first.map((p) => p.name).join(', ')}`,
        );
      }
      return first;
    });
  const groups = [...byPortType.values()].map((same) => firstBindings(same, true));
  // The HTTP ports join the first group (their operations are read beside its SOAP ones), or are the only one.
  const httpPorts = firstBindings(http, false);
  if (groups.length === 0) groups.push(httpPorts);
  else groups[0].push(...httpPorts);
  return groups;
}

/**
 * What a binding says, as text that is the same for two bindings that say the same: its elements and attributes
 * below it (QNames resolved, the binding's own name left out), in order; undefined for one that names a policy,
 * which may ask for more than its operations say.
 */
function bindingSignature(binding: XmlElement): string | undefined {
  if (binding.find('.//*[local-name()="Policy" or local-name()="PolicyReference"] | .//@*[local-name()="PolicyURIs"]', NS).length > 0)
    return undefined;
  const QNAME_ATTRIBUTES = new Set(['type', 'message', 'element']);
  const text = (element: XmlElement): string => {
    const attributes = element.attrs
      .filter((a) => !(element === binding && a.name === 'name' && !a.namespaceUri))
      .map((a) => {
        const value =
          QNAME_ATTRIBUTES.has(a.name) && !a.namespaceUri ? `{${namespaceOfQName(element, a.value) ?? ''}}${localName(a.value)}` : a.value;
        return `${a.namespaceUri ? `{${a.namespaceUri}}` : ''}${a.name}=${JSON.stringify(value)}`;
      })
      .sort();
    return `<{${element.namespaceUri ?? ''}}${element.name} ${attributes.join(' ')}>${findAll(element, '*').map(text).join('')}</>`;
  };
  return text(binding);
}

/** The port type a binding binds, as `{namespace}name`. */
export function portTypeKey(binding: XmlElement): string {
  const type = attr(binding, 'type');
  return `{${namespaceOfQName(binding, type) ?? ''}}${localName(type)}`;
}

/** The binding element of a served port. */
export function bindingOfPort(documents: WsdlDocuments, service: XmlElement, port: WsdlPort): XmlElement {
  const element = findOne(service, `wsdl:port[@name='${port.name}']`);
  return documents.lookup('binding', element, attr(element, 'binding'));
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
        // A binding of another HTTP verb gets no port, as one of another kind does not.
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

/**
 * A build tool's or a deployment's placeholder in an address, filled in when the service was deployed:
 * `${host}`, `{partner_Service_EndPoint}`, `@HOST@`, `$URL$`, `%URL%`, a template's `{{var wsdl.url}}` (Magento's).
 */
const PLACEHOLDER = /\{\{[^{}]*\}\}|\$\{[^}]*\}|\{[A-Za-z_][A-Za-z0-9_.-]*\}|@[A-Za-z_][A-Za-z0-9_.-]*@|\$[A-Za-z_][A-Za-z0-9_.-]*\$/;
/** `%URL%` is a placeholder only as the whole address: within one, `%C3%` is a character's escape. */
const WHOLE_PLACEHOLDER = /^%[A-Za-z_][A-Za-z0-9_.-]*%$/;

/** The placeholders an address holds (none for an address as deployed). */
export function placeholdersOf(location: string): string[] {
  if (WHOLE_PLACEHOLDER.test(location.trim())) return [location.trim()];
  return location.match(new RegExp(PLACEHOLDER.source, 'g')) ?? [];
}

/**
 * The path of a port's address: the service answers there, whatever host it runs on. A placeholder stands for what
 * the deployment fills in: one standing first (for the scheme, host or base address) or in the host names no path;
 * one in the path is left out of it (`http://${host}/ws/${name}/Items` is served at /ws/Items).
 */
/** The URL schemes of addresses no HTTP server answers: Axis 1's in-process `java:`, JMS, mail, WCF's other transports. */
const OTHER_TRANSPORTS = new Set(
  'java jms mailto smtp tcp udp net.tcp net.pipe net.msmq msmq.formatname soap.tcp sb vm local xmpp ftp'.split(' '),
);

/**
 * The scheme of a port's address when it names another transport than HTTP (`java:samples.stock.StockQuoteService`,
 * as Axis 1 publishes an in-process port beside its HTTP one): such a port is no port of the HTTP service.
 */
export function otherTransport(port: XmlElement): string | undefined {
  const address = findAll(port, 'soap:address | soap12:address | http:address')[0];
  const scheme = address && /^\s*([A-Za-z][A-Za-z0-9+.-]*):/.exec(optionalAttr(address, 'location') ?? '')?.[1]?.toLowerCase();
  return scheme && OTHER_TRANSPORTS.has(scheme) ? `${scheme}:` : undefined;
}

export function pathOf(port: XmlElement): string {
  const address = findAll(port, 'soap:address | soap12:address | http:address')[0];
  if (!address) refuseAt(port, `port ${attr(port, 'name')} has no address: codegen serves at the path of the port's address`);
  const written = attr(address, 'location').trim();
  // The placeholders taken out: what stood for the scheme and host (`{Base}/Items`, `@HOST@/Items`) leaves a path.
  const location = WHOLE_PLACEHOLDER.test(written)
    ? ''
    : placeholdersOf(written).length
      ? written
          .replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)?[^/?#]*/, (authority) => (PLACEHOLDER.test(authority) ? '' : authority))
          .replace(new RegExp(PLACEHOLDER.source, 'g'), '')
          .replace(/([^:/])\/{2,}/g, '$1/')
      : written;
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
  const trimmed = path.replace(/\/+$/, '').replace(/\/{2,}/g, '/');
  return trimmed === '' ? '/service' : trimmed;
}
