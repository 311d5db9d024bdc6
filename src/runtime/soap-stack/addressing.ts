/**
 * WS-Addressing: W3C 1.0 (http://www.w3.org/2005/08/addressing) and the 2004/08 member submission, read in the
 * version the request speaks and answered in it. The request's Action must be the operation's input action; a
 * required-addressing operation called without the headers is refused; only anonymous ReplyTo and FaultTo are
 * served (the answer goes back on the HTTP connection). The answer carries wsa:Action (the output action, or a
 * fault's), its own wsa:MessageID, wsa:RelatesTo the request's MessageID, and wsa:To anonymous where the 2004/08
 * submission has every message name its destination. Faults as WS-Addressing 1.0 SOAP Binding §6 writes them.
 */
import { randomUUID } from 'node:crypto';
import type { AddressingActions, AddressingHeaders, AddressingVersion } from '../definition';
import { DeclaredFault, type FaultCode, HeaderFault, type ServiceError } from '../errors';
import { childElements } from '../xml/xml-codec';
import type { XmlElement } from '../xml/xml-engine';
import { escapeXmlAttribute, escapeXmlText } from '../xml/xml-escape';
import type { HeaderStep } from './step';

export interface AddressingWire {
  id: AddressingVersion;
  namespace: string;
  anonymous: string;
  /** The action of the faults WS-Addressing itself defines. */
  faultAction: string;
  /** The action of any other SOAP fault. */
  soapFaultAction: string;
  /** The subcode of a missing header, and of an invalid one. */
  required: string;
  invalid: string;
  /** The answer names its destination (wsa:To) even when it is anonymous. */
  toAlways: boolean;
}

export const WSA10: AddressingWire = {
  id: 'wsa10',
  namespace: 'http://www.w3.org/2005/08/addressing',
  anonymous: 'http://www.w3.org/2005/08/addressing/anonymous',
  faultAction: 'http://www.w3.org/2005/08/addressing/fault',
  soapFaultAction: 'http://www.w3.org/2005/08/addressing/soap/fault',
  required: 'MessageAddressingHeaderRequired',
  invalid: 'InvalidAddressingHeader',
  toAlways: false,
};

export const WSA200408: AddressingWire = {
  id: 'wsa200408',
  namespace: 'http://schemas.xmlsoap.org/ws/2004/08/addressing',
  anonymous: 'http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous',
  faultAction: 'http://schemas.xmlsoap.org/ws/2004/08/addressing/fault',
  soapFaultAction: 'http://schemas.xmlsoap.org/ws/2004/08/addressing/fault',
  required: 'MessageInformationHeaderRequired',
  invalid: 'InvalidMessageInformationHeader',
  toAlways: true,
};

const VERSIONS = [WSA10, WSA200408];
const HEADERS = ['Action', 'MessageID', 'To', 'ReplyTo', 'FaultTo', 'From', 'RelatesTo'] as const;
type HeaderName = (typeof HEADERS)[number];

/** A detail element: written with `declaration` (the wsa prefix's, where nothing around it declares it). */
type Detail = (declaration: string) => string;

/**
 * A fault of WS-Addressing's own, in `version`; SOAP 1.1 carries its detail in a wsa:FaultDetail header. The 2004/08
 * submission has neither the more specific subcodes nor the detail elements of 1.0: its faults have only the first.
 */
function addressingFault(version: AddressingWire, subcodes: readonly string[], reason: string, detail: Detail): HeaderFault {
  const w3c = version.id === WSA10.id;
  const codes = (w3c ? subcodes : subcodes.slice(0, 1)).map((local): FaultCode => ({ namespace: version.namespace, prefix: 'wsa', local }));
  const declaration = ` xmlns:wsa="${escapeXmlAttribute(version.namespace)}"`;
  return new HeaderFault(
    codes as [FaultCode, ...FaultCode[]],
    reason,
    `WS-Addressing ${codes[codes.length - 1].local}`,
    w3c ? detail(declaration) : '',
    w3c ? `<wsa:FaultDetail${declaration}>${detail('')}</wsa:FaultDetail>` : '',
  );
}

const problemHeader =
  (name: HeaderName): Detail =>
  (declaration) =>
    `<wsa:ProblemHeaderQName${declaration}>wsa:${name}</wsa:ProblemHeaderQName>`;

/** The step of an operation whose policy speaks of addressing. */
export function addressingStep(policy: 'required' | 'optional', actions: AddressingActions): HeaderStep {
  return {
    understands: VERSIONS.flatMap((v) => HEADERS.map((name) => `{${v.namespace}}${name}`)),
    read(blocks, exchange) {
      const version = VERSIONS.find((v) => blocks.some((block) => block.namespaceUri === v.namespace));
      if (!version) {
        if (policy === 'optional') return;
        exchange.addressingWire = WSA10.id;
        throw addressingFault(
          WSA10,
          [WSA10.required],
          'A required header representing a Message Addressing Property is not present',
          problemHeader('Action'),
        );
      }
      exchange.addressingWire = version.id;
      const found = new Map<HeaderName, XmlElement>();
      for (const block of blocks) {
        if (block.namespaceUri !== version.namespace) continue;
        const name = HEADERS.find((h) => h === block.name);
        if (!name) continue;
        if (found.has(name)) {
          throw addressingFault(
            version,
            [version.invalid, 'InvalidCardinality'],
            'A header representing a Message Addressing Property is not valid and the message cannot be processed',
            problemHeader(name),
          );
        }
        found.set(name, block);
      }
      const text = (name: HeaderName) => found.get(name)?.content.trim();
      const address = (name: HeaderName) => {
        const block = found.get(name);
        if (!block) return undefined;
        const child = childElements(block).find((c) => c.name === 'Address' && c.namespaceUri === version.namespace);
        return child?.content.trim() ?? '';
      };
      const headers: AddressingHeaders = {
        version: version.id,
        action: text('Action') ?? '',
        messageId: text('MessageID'),
        to: text('To'),
        replyTo: address('ReplyTo'),
        from: address('From'),
        relatesTo: text('RelatesTo'),
      };
      exchange.addressing = headers;
      if (!found.has('Action')) {
        throw addressingFault(
          version,
          [version.required],
          'A required header representing a Message Addressing Property is not present',
          problemHeader('Action'),
        );
      }
      for (const name of ['ReplyTo', 'FaultTo'] as const) {
        const to = address(name);
        if (to !== undefined && to !== version.anonymous) {
          throw addressingFault(
            version,
            [version.invalid, 'OnlyAnonymousAddressSupported'],
            `Only the anonymous address is supported for ${name}: the answer is sent back on the HTTP connection`,
            problemHeader(name),
          );
        }
      }
      if (actions.input !== '' && headers.action !== actions.input) {
        throw addressingFault(
          version,
          ['ActionNotSupported'],
          `The [action] cannot be processed at the receiver`,
          (declaration) => `<wsa:ProblemAction${declaration}><wsa:Action>${escapeXmlText(headers.action)}</wsa:Action></wsa:ProblemAction>`,
        );
      }
    },
    answer(exchange, fault) {
      const id = exchange.addressing?.version ?? exchange.addressingWire;
      const version = VERSIONS.find((v) => v.id === id);
      if (!version) return '';
      const action = fault === undefined ? actions.output : faultAction(version, actions, fault);
      const ns = escapeXmlAttribute(version.namespace);
      const relatesTo = exchange.addressing?.messageId;
      return (
        `<wsa:Action xmlns:wsa="${ns}">${escapeXmlText(action)}</wsa:Action>` +
        `<wsa:MessageID xmlns:wsa="${ns}">urn:uuid:${randomUUID()}</wsa:MessageID>` +
        (relatesTo === undefined ? '' : `<wsa:RelatesTo xmlns:wsa="${ns}">${escapeXmlText(relatesTo)}</wsa:RelatesTo>`) +
        (version.toAlways ? `<wsa:To xmlns:wsa="${ns}">${version.anonymous}</wsa:To>` : '')
      );
    },
  };
}

/**
 * A request's WS-Addressing 1.0 headers, as a client that the contract's policy asks for addressing sends them: the
 * action, a new message id, the address it is sent to, and an anonymous reply.
 */
export function requestAddressingHeaders(action: string, to: string): string {
  const ns = WSA10.namespace;
  return (
    `<wsa:Action xmlns:wsa="${ns}">${escapeXmlText(action)}</wsa:Action>` +
    `<wsa:MessageID xmlns:wsa="${ns}">urn:uuid:${randomUUID()}</wsa:MessageID>` +
    `<wsa:To xmlns:wsa="${ns}">${escapeXmlText(to)}</wsa:To>` +
    `<wsa:ReplyTo xmlns:wsa="${ns}"><wsa:Address>${WSA10.anonymous}</wsa:Address></wsa:ReplyTo>`
  );
}

/** The action of a fault answer: a declared fault's own, WS-Addressing's for its faults, the SOAP fault action otherwise. */
function faultAction(version: AddressingWire, actions: AddressingActions, fault: ServiceError): string {
  if (fault instanceof HeaderFault && fault.subcodes[0].namespace === version.namespace) return version.faultAction;
  if (fault instanceof DeclaredFault) {
    const declared = actions.faults?.[fault.faultName ?? fault.constructor.name];
    if (declared) return declared;
  }
  return version.soapFaultAction;
}
