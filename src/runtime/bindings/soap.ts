/**
 * The SOAP 1.1 and SOAP 1.2 bindings: POST to the endpoint. The operation is chosen
 * by the body element; SOAPAction (1.1) or the `action` parameter (1.2) must
 * agree when present. The body element is validated against its operation's
 * schema (compiled once, at start-up) before it is decoded, and the document
 * is freed before the handler runs, whatever happens.
 *
 * A call is read in one of two ways with the same outcome. The usual
 * envelope — no DOCTYPE, UTF-8, an Envelope holding only a Body that holds
 * one valid operation element — is read straight from libxml2's tree
 * (bindings/xml-tree.ts). Anything else, and every call that is refused, is
 * read again in detail through libxml2-wasm's API, which names what is wrong.
 */
import type { CallContext } from '../call-state';
import type { Contract } from '../contract';
import type { Handlers, OperationName, OperationsOf, Route } from '../definition';
import { ServiceError, clientError } from '../errors';
import { childElements } from '../xml/xml-codec';
import type { XmlAttribute as Attribute, XmlElement as Element, XmlDocument, XsdValidator } from '../xml/xml-engine';
import { firstLibxmlMessage } from '../xml/xml-schema';
import * as tree from './xml-tree';
import { isUtf8Declaration, untrustedParseOptions, withUntrustedXml } from './untrusted-xml';
import { SOAP11, SOAP12, type SoapVersion, soapEnvelope, soapVersionOf } from '../wire/soap-envelope';
import { requestBytes } from './body';
import { byContentType } from './content-type';

/** An operation call read from a SOAP request: its route and its decoded request. */
interface SoapCall<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>> {
  route: Route<Ops, K>;
  request: Ops[K]['request'];
}

/** The SOAP version a request's media type names, worked out once per distinct Content-Type. */
const versionOf = byContentType((ctx) => soapVersionOf(ctx.request.type));

export function soapBinding<Ops extends OperationsOf<Ops>>(contract: Contract<Ops>, handlers: Handlers<Ops>) {
  return async function soap(ctx: CallContext): Promise<void> {
    const version = versionOf(ctx);
    if (!version) {
      throw new ServiceError('unsupported-media-type', 'POST a SOAP envelope as text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2).');
    }
    ctx.state.variant = version.variant;
    contract.refuseUndeclared(version.variant);
    const bytes = requestBytes(ctx);
    const call =
      readUsualCall(ctx, bytes, version, contract) ?? withUntrustedXml(bytes, (doc) => readCallInDetail(ctx, doc, version, contract));
    const result = await invoke(call, handlers);
    ctx.set('Content-Type', version.contentType);
    ctx.body = soapEnvelope(version, encode(call, result, contract.namespaceAttribute));
  };
}

/** The hop into the handler, typed by the operation K (no async frame of its own: the binding awaits it). */
function invoke<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  call: SoapCall<Ops, K>,
  handlers: Handlers<Ops>,
): Promise<Ops[K]['result']> {
  return handlers[call.route.operation](call.request);
}

/** The handler's result as the SOAP body's content. */
function encode<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  call: SoapCall<Ops, K>,
  result: Ops[K]['result'],
  namespaceAttribute: string,
): string {
  return call.route.encodeSoapBody(result, namespaceAttribute);
}

/**
 * The usual envelope, read from libxml2's tree; undefined for anything else
 * (then readCallInDetail reads it, and says what is wrong if anything is).
 * What it accepts, readCallInDetail accepts too, with the same result.
 */
export function readUsualCall<Ops extends OperationsOf<Ops>>(
  ctx: CallContext,
  bytes: Uint8Array,
  version: SoapVersion,
  contract: Contract<Ops>,
): SoapCall<Ops, OperationName<Ops>> | undefined {
  const doc = tree.parseDocument(bytes, untrustedParseOptions());
  if (doc === 0) return undefined;
  try {
    if (tree.hasDoctype(doc) || !isUtf8Declaration(tree.declaredEncoding(doc))) return undefined;
    const envelope = tree.rootElement(doc);
    if (tree.localName(envelope) !== 'Envelope' || tree.namespaceUri(envelope) !== version.envelopeNamespace) return undefined;
    const [body, ...afterBody] = tree.elementChildren(envelope);
    if (
      body === undefined ||
      afterBody.length > 0 ||
      tree.localName(body) !== 'Body' ||
      tree.namespaceUri(body) !== version.envelopeNamespace
    )
      return undefined;
    const [element, ...others] = tree.elementChildren(body);
    if (element === undefined || others.length > 0 || tree.namespaceUri(element) !== contract.namespace) return undefined;
    const route = contract.routeByRequestElement(tree.localName(element));
    // A request with complex or repeated members is read the detailed way, from libxml2's tree.
    if (!route?.fromFields) return undefined;
    ctx.state.operation = route.operation;
    if (!tree.isValidElement(contract.requestSchema(route.operation), element)) return undefined;
    checkAction(ctx, version, contract.soapAction(route.operation));
    // Valid, so its children are the request's members, each once, and every member is text (route.fromFields).
    const fields = new Map<string, string>();
    for (const child of tree.elementChildren(element)) fields.set(tree.localName(child), tree.textContent(child));
    return { route, request: route.decodeFields((name) => fields.get(name)) };
  } finally {
    tree.freeDocument(doc);
  }
}

/** Any envelope, checked step by step; the first thing wrong is the client error (or fault) the call gets. */
export function readCallInDetail<Ops extends OperationsOf<Ops>>(
  ctx: CallContext,
  doc: XmlDocument,
  version: SoapVersion,
  contract: Contract<Ops>,
): SoapCall<Ops, OperationName<Ops>> {
  const element = singleChild(envelopeBody(doc.root, version));
  const route = operationOf(element, contract);
  ctx.state.operation = route.operation;
  checkAction(ctx, version, contract.soapAction(route.operation));
  return decodeValidated(element, contract.requestSchema(route.operation), route);
}

function envelopeBody(envelope: Element, version: SoapVersion): Element {
  const ns = envelope.namespaceUri;
  if (envelope.name !== 'Envelope') throw clientError('The request is not a SOAP envelope.');
  if (ns !== version.envelopeNamespace) {
    const other = version === SOAP11 ? SOAP12 : SOAP11;
    throw new ServiceError(
      'version-mismatch',
      ns === other.envelopeNamespace
        ? `A SOAP ${other === SOAP11 ? '1.1' : '1.2'} envelope was sent with the Content-Type of SOAP ${version === SOAP11 ? '1.1' : '1.2'}.`
        : 'The envelope namespace is not a SOAP envelope namespace.',
    );
  }
  let header: Element | undefined;
  let body: Element | undefined;
  for (const child of childElements(envelope)) {
    const inEnvelope = child.namespaceUri === version.envelopeNamespace;
    if (inEnvelope && child.name === 'Header' && !header && !body) header = child;
    else if (inEnvelope && child.name === 'Body' && !body) body = child;
    else throw clientError('A SOAP envelope holds an optional Header and then one Body, nothing else.');
  }
  if (header) refuseMustUnderstand(header, version);
  if (!body) throw clientError('The SOAP envelope has no Body.');
  return body;
}

/** No header block is understood here, so any that must be understood is a fault. */
function refuseMustUnderstand(header: Element, version: SoapVersion): void {
  for (const block of childElements(header)) {
    const flag = block.attrs.find((a: Attribute) => a.name === 'mustUnderstand' && a.namespaceUri === version.envelopeNamespace);
    if (flag && version.mustUnderstandTrue.includes(flag.value.trim())) {
      throw new ServiceError('must-understand', `The header block ${block.name} is not understood by this service.`);
    }
  }
}

function singleChild(body: Element): Element {
  const children = childElements(body);
  if (children.length !== 1) throw clientError('The SOAP body must hold exactly one operation element.');
  return children[0];
}

function operationOf<Ops extends OperationsOf<Ops>>(element: Element, contract: Contract<Ops>): Route<Ops, OperationName<Ops>> {
  const ns = element.namespaceUri;
  const route = ns === contract.namespace ? contract.routeByRequestElement(element.name) : undefined;
  if (!route) {
    throw clientError(`The body element ${element.name} in namespace ${ns === '' ? '(none)' : ns} is not an operation of this service.`);
  }
  return route;
}

/** SOAPAction (1.1 header, quoted) or `action` (1.2 media-type parameter): optional, but must name the body's operation. */
function checkAction(ctx: CallContext, version: SoapVersion, expected: string): void {
  const raw = version === SOAP11 ? ctx.get('SOAPAction') : actionParameter(ctx.get('Content-Type'));
  let action = raw.trim();
  if (action.length >= 2 && action.startsWith('"') && action.endsWith('"')) action = action.slice(1, -1); // quoted, as SOAP 1.1 has it
  if (action !== '' && action !== expected) {
    const name = version === SOAP11 ? 'SOAPAction' : 'action';
    throw clientError(`The ${name} does not name the operation in the SOAP body (expected ${expected}).`);
  }
}

function actionParameter(contentType: string): string {
  for (const part of contentType.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim().toLowerCase() === 'action') return part.slice(eq + 1);
  }
  return '';
}

function decodeValidated<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  element: Element,
  schema: XsdValidator,
  route: Route<Ops, K>,
): SoapCall<Ops, K> {
  try {
    schema.validate(element);
  } catch (error) {
    const first = firstLibxmlMessage(error).replace(/^Element '\{[^}]*\}/, "Element '");
    throw clientError(`The ${route.requestElement} element does not match the schema: ${first.slice(0, 200)}`);
  }
  return { route, request: route.decodeXml(element) };
}
