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
import { Readable } from 'node:stream';
import { parse as parseContentType } from 'content-type';
import { type CallContext, callOf, noHeaders } from '../call-state';
import type { Contract } from '../contract';
import type { Handlers, HeadersOf, OperationName, OperationsOf, Route, SoapEncoding } from '../definition';
import { DeclaredFault, ServiceError, clientError } from '../errors';
import { childElements } from '../xml/xml-codec';
import type { XmlAttribute as Attribute, XmlElement as Element, XmlDocument, XsdValidator } from '../xml/xml-engine';
import { firstLibxmlMessage } from '../xml/xml-schema';
import * as tree from './xml-tree';
import { isUtf8Declaration, untrustedParseOptions, withUntrustedXml } from './untrusted-xml';
import { SOAP11, SOAP12, type SoapVersion, soapEnvelope, soapVersionOf } from '../wire/soap-envelope';
import { requestBytes } from './body';
import { byContentType } from './content-type';
import { type Exchange, type HeaderStackOptions, type HeaderStacks, headerStacks } from '../soap-stack/stack';
import {
  MTOM_DEFAULTS,
  attachmentMarker,
  type MtomPackage,
  type MtomSettings,
  checkInlinedDecoded,
  inlineIncludes,
  mtomMessage,
  mtomPackageOf,
  readMtomMessage,
} from '../wire/mtom';
import { decodingInlined, encodingAttachable } from '../xml/xsd-values';
import {
  encodedAnswer,
  encodedFaultDetail,
  encodedHeaders,
  literalCall,
  literalHeader,
  sentAsType,
  withLiteralForm,
} from '../wire/soap-encoding';

/** An operation call read from a SOAP request: its route and its decoded request. */
interface SoapCall<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>> {
  route: Route<Ops, K>;
  request: Ops[K]['request'];
  /** The header blocks it read; the handler sets those it writes. */
  headers: HeadersOf<Ops[K]>;
  /** What the header stack of its operation read (none: the operation has no policy). */
  exchange?: Exchange;
}

/**
 * The SOAP version a request's media type names, worked out once per distinct Content-Type. Only SOAP's are kept: an
 * MTOM call's Content-Type is new with each call (its boundary), and would flush the usual ones out.
 */
const versionOf = byContentType(
  (ctx) => soapVersionOf(ctx.request.type),
  (version) => version !== undefined,
);

/** An MTOM call's Content-Type names its boundary, new with each call: not kept. */
const notMultipart = (_: unknown, header: string) => !/^\s*multipart\//i.test(header);

/** SOAP 1.2's `action` parameter of the media type (quoted or not, as clients send it), once per distinct Content-Type. */
const actionParameterOf = byContentType((ctx) => {
  const parameters = parseContentType(ctx.get('Content-Type')).parameters;
  // An MTOM call's: the multipart type's, or its start-info's (JAX-WS).
  if (parameters['start-info'] !== undefined) return mtomPackageOf(ctx.get('Content-Type'))?.action ?? '';
  return (parameters.action ?? '').trim();
}, notMultipart);

/** What the SOAP binding takes from its host: the header stack's options, and MTOM's limits. */
export interface SoapBindingOptions extends HeaderStackOptions {
  mtom?: MtomSettings;
}

export function soapBinding<Ops extends OperationsOf<Ops>>(
  contract: Contract<Ops>,
  handlers: Handlers<Ops>,
  options: SoapBindingOptions = {},
) {
  // The header blocks some operation reads: those a call may mark mustUnderstand.
  const understood = new Set<string>();
  for (const name of contract.definition.operationNames) {
    for (const header of contract.definition.routes[name].headers?.in ?? []) {
      understood.add(`{${header.namespace ?? contract.namespace}}${header.element}`);
    }
  }
  // The header stacks of the operations whose policies ask for something; none at all: calls are read as ever.
  const stacks = headerStacks(contract, options);
  // The operations whose policy asks for MTOM answers, by SOAP variant; none: no answer is MTOM unless its call was.
  const mtomAnswers = mtomPolicies(contract);
  const mtom = { ...MTOM_DEFAULTS, ...options.mtom };
  // MTOM calls are read where a policy asks for MTOM (or the host says so); a contract that declares none keeps its wire.
  const readsMtom = mtomAnswers !== undefined || mtom.acceptUnasked;
  return async function soap(ctx: CallContext): Promise<void> {
    let version = versionOf(ctx);
    let pkg: MtomPackage | undefined;
    if (!version) {
      pkg = mtomPackage(ctx, readsMtom);
      version = pkg.version;
    }
    ctx.state.variant = version.variant;
    contract.refuseUndeclared(version.variant);
    let call: SoapCall<Ops, OperationName<Ops>>;
    if (pkg === undefined) {
      const bytes = requestBytes(ctx);
      const soapVersion = version;
      call =
        readUsualCall(ctx, bytes, version, contract) ??
        withUntrustedXml(bytes, (doc) => readCallInDetail(ctx, doc, soapVersion, contract, understood, stacks));
    } else {
      call = readMtomCall(ctx, pkg, version, contract, understood, stacks, mtom);
    }
    if (stacks !== undefined) await admitted(ctx, call, version, stacks);
    let result: unknown;
    try {
      result = await invoke(ctx, call, version, handlers);
    } catch (error) {
      if (error instanceof DeclaredFault) {
        error.namespaceAttribute = contract.namespaceAttribute;
        const encoding = call.route.soapEncoding;
        if (encoding) error.encodeDetail = (literal) => encodedFaultDetail(literal, encoding);
      }
      throw error;
    }
    if (call.route.oneWay) {
      // A one-way operation is answered with no envelope (WS-I BP R2714).
      ctx.status = 202;
      ctx.body = '';
      return;
    }
    if (pkg !== undefined || mtomAnswers?.has(`${version.variant} ${call.route.operation}`)) {
      answerMtom(ctx, call, result, version, contract.namespaceAttribute, stacks, mtom.attachmentThreshold);
      return;
    }
    ctx.set('Content-Type', version.contentType);
    const body = encode(call, result, contract.namespaceAttribute, version);
    const headers = encodeHeaders(call, contract.namespaceAttribute, version);
    if (!call.exchange) {
      ctx.body = soapEnvelope(version, body, headers);
      return;
    }
    // A call its operation's header stack read: the answer carries the stack's blocks, and is signed where it asks.
    const stack = stacks!.of(call.route.operation, version)!;
    ctx.body = stack.sign(call.exchange, soapEnvelope(version, body, joinHeaders(headers, stack.answer(call.exchange))));
  };
}

/** The MTOM package of a call whose media type is not SOAP's, or why it is refused (415 for any but multipart/related). */
function mtomPackage(ctx: CallContext, readsMtom: boolean): MtomPackage {
  const pkg = readsMtom ? mtomPackageOf(ctx.get('Content-Type')) : undefined;
  if (pkg === undefined) {
    throw new ServiceError('unsupported-media-type', 'POST a SOAP envelope as text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2).');
  }
  return pkg;
}

/** `variant operation` of each operation whose policy asks for MTOM; undefined when none does. */
function mtomPolicies<Ops extends OperationsOf<Ops>>(contract: Contract<Ops>): ReadonlySet<string> | undefined {
  const found = new Set<string>();
  for (const name of contract.definition.operationNames) {
    const policies = contract.definition.routes[name].policies;
    for (const variant of ['soap11', 'soap12'] as const) if (policies?.[variant]?.mtom) found.add(`${variant} ${name}`);
  }
  return found.size === 0 ? undefined : found;
}

/**
 * An MTOM call (wire/mtom.ts): its parts split, the root part's xop:Include elements replaced by their parts' base64
 * text, then read in detail as any envelope; each Include must have been decoded as a base64Binary.
 */
function readMtomCall<Ops extends OperationsOf<Ops>>(
  ctx: CallContext,
  pkg: MtomPackage,
  version: SoapVersion,
  contract: Contract<Ops>,
  understood: ReadonlySet<string>,
  stacks: HeaderStacks | undefined,
  settings: MtomSettings,
): SoapCall<Ops, OperationName<Ops>> {
  const body = ctx.request.body;
  if (!Buffer.isBuffer(body)) throw clientError('The request has no body.');
  const message = readMtomMessage(body, pkg, settings);
  return withUntrustedXml(message.root, (doc) => {
    const inlined = inlineIncludes(doc, message.parts);
    const call = decodingInlined(inlined, () => readCallInDetail(ctx, doc, version, contract, understood, stacks));
    checkInlinedDecoded(inlined);
    return call;
  });
}

/** The answer as an MTOM message: each base64Binary value of at least `threshold` bytes an attachment. */
function answerMtom<Ops extends OperationsOf<Ops>>(
  ctx: CallContext,
  call: SoapCall<Ops, OperationName<Ops>>,
  result: unknown,
  version: SoapVersion,
  namespaceAttribute: string,
  stacks: HeaderStacks | undefined,
  threshold: number,
): void {
  const { result: envelope, found } = encodingAttachable(threshold, attachmentMarker(), () => {
    const body = encode(call, result, namespaceAttribute, version);
    const headers = encodeHeaders(call, namespaceAttribute, version);
    return soapEnvelope(
      version,
      body,
      call.exchange ? joinHeaders(headers, stacks!.of(call.route.operation, version)!.answer(call.exchange)) : headers,
    );
  });
  const message = mtomMessage(version, envelope, found);
  ctx.set('Content-Type', message.contentType);
  ctx.body = Readable.from(message.chunks, { objectMode: false });
  ctx.length = message.length;
}

/**
 * A call whose operation has a header stack: read by it (with no header blocks, when the usual envelope had no
 * Header), then admitted by its steps (the authenticate hook) before the handler runs.
 */
async function admitted<Ops extends OperationsOf<Ops>>(
  ctx: CallContext,
  call: SoapCall<Ops, OperationName<Ops>>,
  version: SoapVersion,
  stacks: HeaderStacks,
): Promise<void> {
  const stack = stacks.of(call.route.operation, version);
  if (!stack) return;
  call.exchange ??= stack.read(ctx, version, call.route.operation, []);
  await stack.admit(call.exchange);
}

const joinHeaders = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined ? a : a + b);

/** The header blocks the handler set, for the envelope's Header; undefined when the operation writes none. */
function encodeHeaders<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  call: SoapCall<Ops, K>,
  namespaceAttribute: string,
  version: SoapVersion,
): string | undefined {
  const encode = call.route.encodeSoapHeaders;
  if (!encode) return undefined;
  const text = encode(call.headers.out as HeadersOf<Ops[K]>['out'], namespaceAttribute);
  if (text === '') return undefined;
  // Blocks bound encoded are written SOAP-encoded, as the answer's body is.
  const encoding = call.route.soapEncoding;
  return encoding?.headers ? encodedHeaders(text, encoding, version.envelopeNamespace) : text;
}

/** The hop into the handler, typed by the operation K (no async frame of its own: the binding awaits it). */
function invoke<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  ctx: CallContext,
  call: SoapCall<Ops, K>,
  version: SoapVersion,
  handlers: Handlers<Ops>,
): Promise<Ops[K]['result']> {
  return handlers[call.route.operation](call.request, callOf(ctx, call.route.operation, version.variant, call.headers, call.exchange));
}

/** The handler's result as the SOAP body's content (SOAP-encoded, for an rpc/encoded operation). */
function encode<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  call: SoapCall<Ops, K>,
  result: Ops[K]['result'],
  namespaceAttribute: string,
  version: SoapVersion,
): string {
  const literal = call.route.encodeSoapBody(result, namespaceAttribute);
  const encoding = call.route.soapEncoding;
  return encoding ? encodedAnswer(literal, encoding, version.envelopeNamespace) : literal;
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
    // A request with complex or repeated members is read the detailed way, from libxml2's tree; so is an encoded one.
    if (!route?.fromFields || route.soapEncoding) return undefined;
    ctx.state.operation = route.operation;
    if (!tree.isValidElement(contract.requestSchema(route.operation), element)) return undefined;
    checkAction(ctx, version, contract.soapAction(route.operation, version.variant));
    // Valid, so its children are the request's members, each once, and every member is text (route.fromFields).
    const fields = new Map<string, string>();
    for (const child of tree.elementChildren(element)) fields.set(tree.localName(child), tree.textContent(child));
    return { route, request: route.decodeFields((name) => fields.get(name)), headers: noHeaders(route) };
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
  understood: ReadonlySet<string> = new Set(),
  stacks?: HeaderStacks,
): SoapCall<Ops, OperationName<Ops>> {
  const { header, body, flagged } = envelopeParts(doc.root, version, understood, stacks?.understoodAnywhere);
  const children = childElements(body);
  const route = operationOf(children[0], contract, ctx, version);
  ctx.state.operation = route.operation;
  const stack = stacks?.of(route.operation, version);
  // A block marked mustUnderstand that only some operation's stack understands: this operation's must.
  const notUnderstood = flagged.find((block) => !stack?.understood.has(`{${block.namespaceUri}}${block.name}`));
  if (notUnderstood) throw new ServiceError('must-understand', `The header block ${notUnderstood.name} is not understood by this service.`);
  // The stack reads before the body is decoded: a fault from here on carries its header blocks (wsa:RelatesTo).
  const exchange = stack?.read(ctx, version, route.operation, header ? childElements(header) : [], body);
  checkAction(ctx, version, contract.soapAction(route.operation, version.variant));
  let call: SoapCall<Ops, OperationName<Ops>>;
  if (route.soapEncoding) {
    // An encoded call: its operation element read into the literal form, which is validated and decoded as any.
    const literal = literalCall(children[0], body, route.soapEncoding);
    call = withLiteralForm(literal, (element) => decodeValidated(element, contract.requestSchema(route.operation), route));
  } else if (route.requestParts || route.requestElement === '') {
    // The body's elements are the parts, each validated against the contract's schemas.
    for (const part of children) validated(part, contract.schemas(), route.operation);
    call = { route, request: route.decodeXml(body), headers: noHeaders(route) };
  } else {
    const element = singleChild(body);
    call = decodeValidated(element, contract.requestSchema(route.operation), route);
  }
  if (header && route.headers) readHeaders(header, doc.root, route, contract, call);
  if (exchange) call.exchange = exchange;
  return call;
}

/** The header blocks the operation reads, validated and decoded into the call's `in` headers. */
function readHeaders<Ops extends OperationsOf<Ops>>(
  header: Element,
  envelope: Element,
  route: Route<Ops, OperationName<Ops>>,
  contract: Contract<Ops>,
  call: SoapCall<Ops, OperationName<Ops>>,
): void {
  const into = call.headers.in as Record<string, unknown>;
  for (const block of childElements(header)) {
    const known = route.headers!.in.find((h) => h.element === block.name && (h.namespace ?? contract.namespace) === block.namespaceUri);
    if (!known) continue;
    // The envelope's own attributes on a block (mustUnderstand, actor, role) are SOAP's, not the block's type's.
    for (const attribute of block.attrs)
      if (attribute.namespaceUri === SOAP11.envelopeNamespace || attribute.namespaceUri === SOAP12.envelopeNamespace) attribute.remove();
    // A block bound encoded: its literal form (references resolved, xsi:types checked) validated and decoded.
    const literal = route.soapEncoding?.headers ? literalHeader(block, envelope, route.soapEncoding) : undefined;
    if (literal !== undefined) {
      into[known.name] = withLiteralForm(literal, (element) => {
        validated(element, contract.schemas(), known.element);
        return known.decode(element);
      });
      continue;
    }
    validated(block, contract.schemas(), known.element);
    into[known.name] = known.decode(block);
  }
}

/** Validates an element against a schema; a mismatch is the caller's mistake, said in one line. */
function validated(element: Element, schema: XsdValidator, what: string): void {
  try {
    schema.validate(element);
  } catch (error) {
    const first = firstLibxmlMessage(error).replace(/^Element '\{[^}]*\}/, "Element '");
    throw clientError(`The ${element.name} element of ${what} does not match the schema: ${first.slice(0, 200)}`);
  }
}

/**
 * The envelope's Header (if any) and Body; a header block marked mustUnderstand that no operation reads is a fault,
 * and those only a header stack understands are `flagged`, for the operation's stack to understand.
 */
function envelopeParts(
  envelope: Element,
  version: SoapVersion,
  understood: ReadonlySet<string>,
  understoodByStacks: ReadonlySet<string> | undefined,
): { header?: Element; body: Element; flagged: Element[] } {
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
  const flagged = header ? refuseMustUnderstand(header, version, understood, understoodByStacks) : [];
  if (!body) throw clientError('The SOAP envelope has no Body.');
  return { header, body, flagged };
}

/**
 * A header block no operation reads cannot be understood here: one marked mustUnderstand is a fault, unless some
 * header stack understands it (returned: the operation's own stack decides).
 */
function refuseMustUnderstand(
  header: Element,
  version: SoapVersion,
  understood: ReadonlySet<string>,
  understoodByStacks: ReadonlySet<string> | undefined,
): Element[] {
  const flagged: Element[] = [];
  for (const block of childElements(header)) {
    const flag = block.attrs.find((a: Attribute) => a.name === 'mustUnderstand' && a.namespaceUri === version.envelopeNamespace);
    const name = `{${block.namespaceUri}}${block.name}`;
    if (flag && version.mustUnderstandTrue.includes(flag.value.trim()) && !understood.has(name)) {
      if (!understoodByStacks?.has(name))
        throw new ServiceError('must-understand', `The header block ${block.name} is not understood by this service.`);
      flagged.push(block);
    }
  }
  return flagged;
}

function singleChild(body: Element): Element {
  const children = childElements(body);
  if (children.length !== 1) throw clientError('The SOAP body must hold exactly one operation element.');
  return children[0];
}

/**
 * The operation a body names by its (first) element, or an empty body; when several operations take the same
 * body, the SOAPAction (`action`) chooses.
 */
function operationOf<Ops extends OperationsOf<Ops>>(
  element: Element | undefined,
  contract: Contract<Ops>,
  ctx: CallContext,
  version: SoapVersion,
): Route<Ops, OperationName<Ops>> {
  const ns = element?.namespaceUri ?? '';
  const routes = contract.routesByBody(ns, element?.name ?? '');
  if (routes.length === 0) {
    if (!element) throw clientError('The SOAP body must hold exactly one operation element.');
    throw clientError(`The body element ${element.name} in namespace ${ns === '' ? '(none)' : ns} is not an operation of this service.`);
  }
  if (routes.length === 1) return routes[0];
  const action = sentAction(ctx, version);
  const named = routes.filter((r) => contract.soapAction(r.operation, version.variant) === action);
  if (named.length === 0) {
    throw clientError(
      `The body ${element ? `element ${element.name}` : ''} is taken by ${routes.length} operations: the ${version === SOAP11 ? 'SOAPAction' : 'action'} must name one (${routes.map((r) => contract.soapAction(r.operation, version.variant)).join(', ')}).`,
    );
  }
  if (named.length === 1) return named[0];
  if (!element) {
    throw clientError(`The empty body is taken by ${named.length} operations of one action: ${named.map((r) => r.operation).join(', ')}.`);
  }
  return overloadOf(named, element);
}

/**
 * Of overloaded rpc operations (one body element, one action), the one whose parts the element's children are: by
 * their names, then, for SOAP-encoded ones of the same names, by the xsi:type each child is sent with.
 */
function overloadOf<Ops extends OperationsOf<Ops>>(
  routes: readonly Route<Ops, OperationName<Ops>>[],
  element: Element,
): Route<Ops, OperationName<Ops>> {
  const children = childElements(element);
  const names = children.map((c) => c.name);
  const exact = routes.filter((r) => r.bodyMembers?.length === names.length && names.every((n) => r.bodyMembers!.includes(n)));
  // Parts left out (a null parameter some clients do not write): the one whose parts hold every child.
  const candidates = exact.length ? exact : routes.filter((r) => r.bodyMembers && names.every((n) => r.bodyMembers!.includes(n)));
  if (candidates.length === 1) return candidates[0];
  const typed = candidates.filter((r) => r.soapEncoding && sentTypesFit(r.soapEncoding, children));
  if (typed.length === 1) return typed[0];
  const which = candidates.length ? candidates : routes;
  throw clientError(
    `The body element ${element.name} is taken by ${routes.length} operations of one action, and its children (${names.join(', ') || 'none'}) ${candidates.length ? `fit ${candidates.length} of them` : 'fit none of them'}: ${which.map((r) => `${r.operation}(${(r.bodyMembers ?? []).join(', ')})`).join(', ')}.`,
  );
}

/** Whether each child sent with an xsi:type is of the type its part declares (a child without one fits). */
function sentTypesFit(encoding: SoapEncoding, children: readonly Element[]): boolean {
  return children.every((child) => {
    const part = encoding.input.find(([accessor]) => accessor === child.name);
    return part !== undefined && sentAsType(child, part[1], encoding.types);
  });
}

/** SOAPAction (1.1 header, quoted) or `action` (1.2 media-type parameter): optional, but must name the body's operation. */
function checkAction(ctx: CallContext, version: SoapVersion, expected: string): void {
  const action = sentAction(ctx, version);
  // An action declared empty names no operation: any the caller sends is taken.
  if (action !== '' && expected !== '' && action !== expected) {
    const name = version === SOAP11 ? 'SOAPAction' : 'action';
    throw clientError(`The ${name} does not name the operation in the SOAP body (expected ${expected}).`);
  }
}

/** The action the call names: the SOAPAction header (1.1, unquoted) or the media type's action parameter (1.2). */
function sentAction(ctx: CallContext, version: SoapVersion): string {
  if (version !== SOAP11) return actionParameterOf(ctx);
  let action = ctx.get('SOAPAction').trim();
  if (action.length >= 2 && action.startsWith('"') && action.endsWith('"')) action = action.slice(1, -1); // quoted, as SOAP 1.1 has it
  return action;
}

export function decodeValidated<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
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
  return { route, request: route.decodeXml(element), headers: noHeaders(route) };
}
