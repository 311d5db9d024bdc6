/** What a step of the SOAP header stack is, and the call it reads into (src/runtime/soap-stack/stack.ts orders them). */
import type { X509Certificate } from 'node:crypto';
import type { CallContext, CallIdentity } from '../call-state';
import type { AddressingHeaders, AddressingVersion } from '../definition';
import type { ServiceError } from '../errors';
import type { SoapVersion } from '../wire/soap-envelope';
import type { XmlElement } from '../xml/xml-engine';

/** A UsernameToken as read from the header, before the hook judged it. */
export interface ReadToken {
  username: string;
  passwordType: 'text' | 'digest' | 'none';
  password?: string;
  nonce?: Buffer;
  /** The nonce as sent (Base64), the cache's key. */
  nonceText?: string;
  created?: string;
}

/** One call's passage through the stack: what its steps read, for the handler's Call and the answer. */
export class Exchange implements CallIdentity {
  addressing?: AddressingHeaders;
  principal?: unknown;
  /** The WS-Addressing version the answer speaks (the request's, or 1.0 for a call that spoke none and had to). */
  addressingWire?: AddressingVersion;
  /** The UsernameToken read, until authenticate judged it. */
  token?: ReadToken;
  /** The certificate whose key signed the request, checked against the trust store, until authenticate judged it. */
  certificate?: X509Certificate;
  constructor(
    readonly ctx: CallContext,
    readonly version: SoapVersion,
    readonly operation: string,
  ) {}
}

export interface HeaderStep {
  /** The header blocks it understands, as `{namespace}local`. */
  readonly understands: readonly string[];
  /**
   * Reads the blocks of the request's Header (none: it had no Header) while its document is alive, and its Body
   * (undefined for the usual envelope, which has no Header); throws a fault to refuse.
   */
  read(header: readonly XmlElement[], exchange: Exchange, body: XmlElement | undefined): void;
  /** What needs the host or the clock once the document is freed, before the handler runs; throws a fault to refuse. */
  admit?(exchange: Exchange): Promise<void> | void;
  /** Header blocks for the answer (escaped XML); `fault` is set when the answer is a fault. */
  answer?(exchange: Exchange, fault: ServiceError | undefined): string;
  /** The whole answer envelope, its fault's too, signed (one step of a stack at most signs). */
  sign?(exchange: Exchange, envelope: string): string;
}
