/**
 * WS-Policy as a WSDL attaches it (WS-Policy 1.2 and 1.5, WS-PolicyAttachment): the policy expressions of a service,
 * port, binding, bound operation or bound message, inline (wsp:Policy), by reference (wsp:PolicyReference,
 * wsp:PolicyURIs: `#id` of a wsu:Id or xml:id, or a policy's Name) or by a wsp:PolicyAttachment whose wsp:AppliesTo
 * is a WSDL 1.1 element identifier, each read into its normal form (alternatives of assertions); WS-Addressing's
 * UsingAddressing element (wsdl:required) read as the assertion it stands for; and an operation's WS-Addressing
 * actions (wsam:Action, wsaw:Action, the submission's wsa:Action, else the default action pattern).
 */
import type { AddressingActions } from 'contract-runtime/codec';
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, NS, optionalAttr } from '../documents';
import type { WsdlDocuments } from './definitions';
import type { PolicyAlternative, PolicyAssertion, PolicyFacts } from './facts';

/** WS-Policy 1.2's namespace and 1.5's. */
export const WSP = ['http://schemas.xmlsoap.org/ws/2004/09/policy', 'http://www.w3.org/ns/ws-policy'];
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** The namespaces of WS-Addressing's WSDL and metadata vocabularies (the elements and attributes read here). */
export const ADDRESSING = {
  wsam: 'http://www.w3.org/2007/05/addressing/metadata',
  wsaw: 'http://www.w3.org/2006/05/addressing/wsdl',
  wsaw200602: 'http://www.w3.org/2006/02/addressing/wsdl',
  /** The 2004/08 member submission: its policy assertion's namespace, and its own (of wsa:Action). */
  wsap: 'http://schemas.xmlsoap.org/ws/2004/08/addressing/policy',
  wsa200408: 'http://schemas.xmlsoap.org/ws/2004/08/addressing',
} as const;

/** The UsingAddressing elements' namespaces (2006/05, 2006/02, the submission's policy one). */
const USING_ADDRESSING: readonly string[] = [ADDRESSING.wsaw, ADDRESSING.wsaw200602, ADDRESSING.wsap];
/** The Action attributes' namespaces, in the order they are looked for. */
const ACTION: readonly string[] = [ADDRESSING.wsam, ADDRESSING.wsaw, ADDRESSING.wsaw200602, ADDRESSING.wsa200408];

const isPolicyNamespace = (namespace: string) => WSP.includes(namespace);
const children = (element: XmlElement) => findAll(element, '*');
const attributeOf = (element: XmlElement, namespace: string, name: string) =>
  element.attrs.find((a) => a.name === name && a.namespaceUri === namespace)?.value;
const policyAttribute = (element: XmlElement, name: string) =>
  WSP.map((ns) => attributeOf(element, ns, name)).find((value) => value !== undefined);

/**
 * Reads the policies of one contract's WSDL documents: the policies they name (by id and by Name) indexed once,
 * each element's attached expressions read once.
 */
export class PolicyReader {
  private readonly byId = new Map<string, XmlElement>();
  private readonly byName = new Map<string, XmlElement>();
  private readonly attachments: { kind: string; target: string; expression: XmlElement }[] = [];
  private readonly resolving = new Set<string>();
  /** What could not be read (a reference to a policy no document holds, an attachment not to a WSDL 1.1 element): by name. */
  readonly unread: string[] = [];

  constructor(private readonly documents: WsdlDocuments) {
    for (const { root } of documents.all) {
      for (const policy of findAll(root, `//*[local-name() = 'Policy']`)) {
        if (!isPolicyNamespace(policy.namespaceUri)) continue;
        const id = attributeOf(policy, WSU, 'Id') ?? attributeOf(policy, XML_NS, 'id');
        if (id !== undefined && !this.byId.has(id)) this.byId.set(id, policy);
        const name = optionalAttr(policy, 'Name');
        if (name !== undefined && !this.byName.has(name)) this.byName.set(name, policy);
      }
      for (const attachment of children(root).filter((e) => e.name === 'PolicyAttachment' && isPolicyNamespace(e.namespaceUri))) {
        this.readAttachment(attachment);
      }
    }
  }

  /** Whether any document holds a policy, a reference to one or an attachment: none, and nothing else is looked for. */
  get any(): boolean {
    return this.byId.size + this.byName.size + this.attachments.length > 0 || this.documents.all.some(({ root }) => hasPolicyMarkup(root));
  }

  /**
   * The policy expressions attached to `element` (its wsp:Policy and wsp:PolicyReference children, its
   * wsp:PolicyURIs, a UsingAddressing child, the wsp:PolicyAttachments naming it as `wsdl11.kind(target)`), each normalised.
   */
  attachedTo(element: XmlElement, kind: string, target: string): PolicyFacts[] {
    const expressions: PolicyFacts[] = [];
    for (const child of children(element)) {
      if (isPolicyNamespace(child.namespaceUri) && child.name === 'Policy') expressions.push(this.normalise(child));
      else if (isPolicyNamespace(child.namespaceUri) && child.name === 'PolicyReference')
        expressions.push(this.reference(attr(child, 'URI')));
      else if (USING_ADDRESSING.includes(child.namespaceUri) && child.name === 'UsingAddressing') {
        // wsdl:required="true": addressing is required; otherwise the endpoint reads it when sent.
        const required = attributeOf(child, NS.wsdl, 'required') === 'true';
        expressions.push([[{ ...assertionOf(child, []), ...(required ? {} : { optional: true as const }) }]]);
      }
    }
    for (const uri of policyAttribute(element, 'PolicyURIs')?.split(/\s+/).filter(Boolean) ?? []) expressions.push(this.reference(uri));
    for (const attachment of this.attachments) {
      if (attachment.kind === kind && attachment.target === target) expressions.push(this.normalise(attachment.expression));
    }
    return expressions;
  }

  /**
   * A policy named by its URI: `#id` (wsu:Id, xml:id) or its Name; one no document holds asks for what cannot be
   * known, and one that references itself (through others) is read once.
   */
  private reference(uri: string): PolicyFacts {
    const policy = uri.startsWith('#') ? this.byId.get(uri.slice(1)) : this.byName.get(uri);
    if (!policy) {
      this.unread.push(`wsp:PolicyReference URI="${uri}" (no document of the contract holds it)`);
      return [[]];
    }
    if (this.resolving.has(uri)) {
      this.unread.push(`wsp:PolicyReference URI="${uri}" (the policy references itself)`);
      return [[]];
    }
    this.resolving.add(uri);
    try {
      return this.normalise(policy);
    } finally {
      this.resolving.delete(uri);
    }
  }

  /** wsp:PolicyAttachment whose wsp:AppliesTo is a WSDL 1.1 element identifier (`…#wsdl11.binding(Name)`, `…#wsdl11.bindingOperation.input(Binding/Op)`); another is named. */
  private readAttachment(attachment: XmlElement): void {
    const uris = findAll(attachment, `*[local-name() = 'AppliesTo']/*[local-name() = 'URI']`).map((u) => u.content.trim());
    const expressions = children(attachment).filter(
      (e) => isPolicyNamespace(e.namespaceUri) && (e.name === 'Policy' || e.name === 'PolicyReference'),
    );
    const targets = uris.flatMap((uri) => {
      const match = /#wsdl11\.(service|port|binding|bindingOperation|bindingOperation\.input|bindingOperation\.output)\(([^)]*)\)$/.exec(
        uri,
      );
      return match ? [{ kind: match[1], target: match[2] }] : [];
    });
    if (targets.length === 0 || targets.length < uris.length) {
      this.unread.push('wsp:PolicyAttachment (its wsp:AppliesTo names no WSDL 1.1 element by its identifier)');
      return;
    }
    for (const target of targets) {
      for (const expression of expressions) this.attachments.push({ ...target, expression });
    }
  }

  /** An expression's normal form: wsp:Policy and wsp:All the cross product of their members', wsp:ExactlyOne the union. */
  normalise(element: XmlElement): PolicyFacts {
    if (isPolicyNamespace(element.namespaceUri)) {
      if (element.name === 'PolicyReference') return this.reference(attr(element, 'URI'));
      if (element.name === 'ExactlyOne') return children(element).flatMap((child) => this.normalise(child));
      if (element.name === 'Policy' || element.name === 'All') {
        return children(element).reduce<PolicyFacts>((alternatives, child) => crossProduct(alternatives, this.normalise(child)), [[]]);
      }
      // Another element of WS-Policy's (wsp:PolicyAttachment inside a policy) asks for nothing of its own.
      return [[]];
    }
    if (policyAttribute(element, 'Ignorable') === 'true') return [[]];
    const nested = children(element).filter((c) => isPolicyNamespace(c.namespaceUri) && c.name === 'Policy');
    const parameters = children(element).filter((c) => !isPolicyNamespace(c.namespaceUri));
    const assertion: PolicyAssertion = {
      ...assertionOf(
        element,
        parameters.map((p) => assertionOf(p, [])),
      ),
      ...(nested.length ? { nested: nested.flatMap((policy) => this.normalise(policy)) } : {}),
    };
    return [[assertion]];
  }
}

/** Every alternative of `a` with every one of `b`. */
function crossProduct(a: PolicyFacts, b: PolicyFacts): PolicyFacts {
  return a.flatMap((left) => b.map((right): PolicyAlternative => [...left, ...right]));
}

/** An assertion's element: its name, wsp:Optional, its attributes (other than WS-Policy's) and its parameters. */
function assertionOf(element: XmlElement, parameters: PolicyAssertion[]): PolicyAssertion {
  const attributes: Record<string, string> = {};
  for (const a of element.attrs) {
    if (isPolicyNamespace(a.namespaceUri)) continue;
    attributes[a.namespaceUri ? `{${a.namespaceUri}}${a.name}` : a.name] = a.value;
  }
  return {
    namespace: element.namespaceUri,
    name: element.name,
    ...(policyAttribute(element, 'Optional') === 'true' ? { optional: true as const } : {}),
    attributes,
    parameters,
  };
}

/** Whether a document holds any policy markup: WS-Policy's elements or attributes (wsp:PolicyURIs), or a UsingAddressing element. */
function hasPolicyMarkup(root: XmlElement): boolean {
  const policy = WSP.map((ns) => `namespace-uri() = '${ns}'`).join(' or ');
  const using = USING_ADDRESSING.map((ns) => `namespace-uri() = '${ns}'`).join(' or ');
  return (
    findAll(root, `//*[${policy} or (local-name() = 'UsingAddressing' and (${using}))]`).length > 0 ||
    root.find(`//@*[${policy}]`).length > 0
  );
}

/**
 * The WS-Addressing actions of a port type's operation (WS-Addressing 1.0 Metadata §4.4): each direction's Action
 * attribute, else the default action pattern: [target namespace][delimiter][port type name][delimiter][message
 * name], the message named as WSDL 1.1 §2.4.5 names it when it is not (`{operation}Request`, `{operation}Response`,
 * the operation's name for a one-way input), a fault's [...][operation name][delimiter]Fault[delimiter][fault name].
 * A one-way operation's output action is ''.
 */
export function addressingActions(declared: XmlElement): AddressingActions {
  const portType = declared.parent as XmlElement;
  const namespace = optionalAttr(declared.doc.root, 'targetNamespace') ?? '';
  const delimiter = /^urn:/i.test(namespace) ? ':' : '/';
  const base = `${namespace}${namespace.endsWith(delimiter) || namespace === '' ? '' : delimiter}${attr(portType, 'name')}${delimiter}`;
  const operation = attr(declared, 'name');
  const [input] = findAll(declared, 'wsdl:input');
  const [output] = findAll(declared, 'wsdl:output');
  const explicit = (element: XmlElement) => ACTION.map((ns) => attributeOf(element, ns, 'Action')).find((a) => a !== undefined);
  const action = (element: XmlElement | undefined, defaultName: string) =>
    element ? (explicit(element) ?? `${base}${optionalAttr(element, 'name') ?? defaultName}`) : '';
  const faults = Object.fromEntries(
    findAll(declared, 'wsdl:fault').map((fault) => {
      const name = attr(fault, 'name');
      return [name, explicit(fault) ?? `${base}${operation}${delimiter}Fault${delimiter}${name}`];
    }),
  );
  return {
    input: action(input, output ? `${operation}Request` : operation),
    output: action(output, `${operation}Response`),
    ...(Object.keys(faults).length ? { faults } : {}),
  };
}
