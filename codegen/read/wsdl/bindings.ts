/**
 * Bindings: each port's variant (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST), checked literal; the bindings the
 * served ports bind, and the operations they bind.
 */
import type { Variant } from 'contract-runtime/codec';
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, findOne, optionalAttr, refuseAt } from '../documents';
import type { WsdlPort } from './facts';
import type { WsdlDocuments } from './definitions';
import { isOverload, messageNames } from './messages';

/** The bindings of the served ports, one per variant, and what an operation is read from. */
export interface ServedBindings {
  soap11?: XmlElement;
  soap12?: XmlElement;
  /** The SOAP binding the operations' messages are read from: SOAP 1.1's, else SOAP 1.2's. */
  soap?: XmlElement;
  /** The HTTP binding the HTTP side is read from: HTTP GET's, else HTTP POST's. */
  http?: XmlElement;
  /** The prefix of the SOAP binding's elements (`soap` or `soap12`). */
  soapPrefix: 'soap' | 'soap12';
}

/**
 * The bindings the served ports bind. One operation table serves both SOAP versions: a SOAP 1.2 binding of other
 * operations than SOAP 1.1's is not served (its ports are taken out of `ports`, each said by `skipping`).
 */
export function servedBindings(
  ports: WsdlPort[],
  bindingOf: (port: WsdlPort) => XmlElement,
  skipping: (what: string, error: unknown) => void,
): ServedBindings {
  const of = (variant: Variant) => {
    const port = ports.find((p) => p.variant === variant);
    return port ? bindingOf(port) : undefined;
  };
  const soap11 = of('soap11');
  if (soap11 && of('soap12')) {
    try {
      checkSameSoapOperations(soap11, of('soap12')!);
    } catch (error) {
      for (const port of ports.filter((p) => p.variant === 'soap12')) skipping(`port ${port.name}`, error);
      ports.splice(0, ports.length, ...ports.filter((p) => p.variant !== 'soap12'));
    }
  }
  const soap12 = of('soap12');
  return {
    ...(soap11 ? { soap11 } : {}),
    ...(soap12 ? { soap12 } : {}),
    soap: soap11 ?? soap12,
    http: of('httpGet') ?? of('httpPost'),
    soapPrefix: soap11 ? 'soap' : 'soap12',
  };
}

/**
 * The operations a binding binds, each once: a binding that lists one twice (a copy-paste slip) binds the first.
 * Overloaded operations (one name, told apart by their input and output names, as Axis 1 writes a Java class's
 * overloaded methods) are each bound.
 */
export function boundOperations(binding: XmlElement): XmlElement[] {
  const keys = new Set<string>();
  return findAll(binding, 'wsdl:operation').filter((op) => {
    const names = messageNames(op);
    const key = `${attr(op, 'name')}\u0000${names.input ?? ''}\u0000${names.output ?? ''}`;
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  });
}

/**
 * The operation of a binding named `name` (the first, when it lists it twice); of overloaded ones, the one whose
 * input and output names are `overload`'s.
 */
export function bindingOperation(
  documents: WsdlDocuments,
  binding: XmlElement,
  name: string,
  overload?: { input?: string; output?: string },
): XmlElement | undefined {
  const found = documents.childrenNamed(binding, 'operation', name);
  return (overload && found.length > 1 ? found.find((op) => isOverload(op, overload)) : undefined) ?? found[0];
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

/** The encodingStyle URIs of SOAP encoding: SOAP 1.1's section 5, and SOAP 1.2's (Part 2, section 3). */
export const ENCODING_STYLES = {
  soap: 'http://schemas.xmlsoap.org/soap/encoding/',
  soap12: 'http://www.w3.org/2003/05/soap-encoding',
} as const;

/**
 * Generated code speaks literal XML and SOAP encoding (rpc/encoded bodies and faults, SOAP 1.1's section 5 or
 * SOAP 1.2's encoding, src/runtime/wire/soap-encoding.ts: bodies, faults and header blocks); another encoding is refused, never
 * served as described yet spoken differently; so is a SOAP 1.2 binding written with SOAP 1.1's elements, which no
 * toolkit reads alike.
 */
export function checkUse(binding: XmlElement, prefix: 'soap' | 'soap12'): void {
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
    if (use === 'literal') continue;
    if (use !== 'encoded') refuseAt(body, `binding ${name}: use="${use}" is neither literal nor encoded`);
    // No encodingStyle (Axis 1 leaves it off its faults): the SOAP version's own encoding.
    const styles = (optionalAttr(body, 'encodingStyle') ?? ENCODING_STYLES[prefix]).split(/\s+/).filter(Boolean);
    if (!styles.includes(ENCODING_STYLES.soap) && !styles.includes(ENCODING_STYLES.soap12)) {
      refuseAt(
        body,
        `binding ${name}: use="encoded" with encodingStyle="${styles.join(' ')}": only SOAP encoding (${ENCODING_STYLES.soap} or ${ENCODING_STYLES.soap12}) is supported`,
      );
    }
  }
}

/** The bound message's soap:body is use="encoded". */
export const isEncoded = (body: XmlElement | undefined) => body !== undefined && optionalAttr(body, 'use') === 'encoded';

export function variantOf(binding: XmlElement): Variant | undefined {
  if (findAll(binding, 'soap:binding').length) return 'soap11';
  if (findAll(binding, 'soap12:binding').length) return 'soap12';
  const verbs = findAll(binding, 'http:binding');
  if (verbs.length === 0) return undefined;
  const verb = attr(verbs[0], 'verb');
  if (verb === 'GET') return 'httpGet';
  if (verb === 'POST') return 'httpPost';
  return refuseAt(verbs[0], `binding ${attr(binding, 'name')}: HTTP verb ${verb} is not supported (GET, POST)`);
}
