/**
 * The SOAP header stack: for each operation and SOAP variant whose Route.policies ask for something, an ordered
 * list of steps (as Apache CXF orders its interceptors in phases), built once at start-up. Each step names the
 * header blocks it understands (so a mustUnderstand flag on them is honoured), reads the request's Header while its
 * document is alive (refusing the call with a fault), checks what needs the host (authenticate) once the document is
 * freed, fills the call's addressing and principal, and writes header blocks into the answer, a fault answer too.
 * An operation with no policy has no stack: its calls take no step, and the binding does nothing more for them.
 */
import { type KeyObject, X509Certificate, createPrivateKey } from 'node:crypto';
import type { CallContext } from '../call-state';
import type { Contract } from '../contract';
import type { Authenticate, OperationName, OperationsOf, Route } from '../definition';
import type { ServiceError } from '../errors';
import type { SoapVersion } from '../wire/soap-envelope';
import type { XmlElement } from '../xml/xml-engine';
import { addressingStep } from './addressing';
import { NonceCache } from './nonce-cache';
import { securityStep } from './security';
import { type AnswerSigning, type SignatureSettings, signatureStep } from './signature';
import { Exchange, type HeaderStep } from './step';

export type { Exchange, HeaderStep } from './step';

/** The settings of WS-Security's checks (docs/soap-security.md). */
export interface SoapSecuritySettings {
  /** How far a Timestamp's or a UsernameToken's Created may be from this host's clock, in seconds (default 300). */
  clockSkewSeconds?: number;
  /** How many nonces are remembered at most (default 10000); a full cache refuses new nonces until some expire. */
  nonceCacheSize?: number;
  /** How long the wsu:Timestamp of an answer is valid, in seconds (default 300). */
  answerTimestampSeconds?: number;
  /** The clock, in milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** The certificates (PEM, or parsed) a signed request's may be, or be issued by; required where a policy asks for signatures. */
  trustedCertificates?: readonly (string | X509Certificate)[];
  /** The service's private key (PEM, or parsed; RSA), which signs the answers where a policy asks; with signingCertificate. */
  signingKey?: string | KeyObject;
  /** The service's certificate (PEM, or parsed) for signingKey, carried in a signed answer's BinarySecurityToken. */
  signingCertificate?: string | X509Certificate;
}

/** What a host gives the header stack: the authenticate hook, and WS-Security's settings. */
export interface HeaderStackOptions {
  /** Judges the WS-Security token of a call whose policy asks for one; required where a policy does. */
  authenticate?: Authenticate;
  soapSecurity?: SoapSecuritySettings;
}

/** The steps of one operation over one SOAP version, in order. */
export class HeaderStack {
  /** The header blocks its steps understand, as `{namespace}local`. */
  readonly understood: ReadonlySet<string>;
  /** The step that signs the whole answer envelope, where the policy asks for signed answers. */
  private readonly signer: HeaderStep | undefined;

  constructor(readonly steps: readonly HeaderStep[]) {
    this.understood = new Set(steps.flatMap((step) => step.understands));
    this.signer = steps.find((step) => step.sign !== undefined);
  }

  /**
   * Reads a call's header blocks (none: the envelope had no Header); from now on a fault answer carries the steps'
   * blocks, and is signed where the answer would be.
   */
  read(ctx: CallContext, version: SoapVersion, operation: string, blocks: readonly XmlElement[], body?: XmlElement): Exchange {
    const exchange = new Exchange(ctx, version, operation);
    ctx.state.faultHeaders = (error) => this.answer(exchange, error);
    if (this.signer) ctx.state.signAnswer = (envelope) => this.sign(exchange, envelope);
    for (const step of this.steps) step.read(blocks, exchange, body);
    return exchange;
  }

  async admit(exchange: Exchange): Promise<void> {
    for (const step of this.steps) await step.admit?.(exchange);
  }

  /** The answer's header blocks; undefined when the steps write none. */
  answer(exchange: Exchange, fault?: ServiceError): string | undefined {
    let blocks = '';
    for (const step of this.steps) blocks += step.answer?.(exchange, fault) ?? '';
    return blocks === '' ? undefined : blocks;
  }

  /** The answer envelope (written with answer()'s blocks), signed where the policy asks; as it is otherwise. */
  sign(exchange: Exchange, envelope: string): string {
    return this.signer ? this.signer.sign!(exchange, envelope) : envelope;
  }
}

/** The stacks of a contract's operations, by SOAP variant; built once. */
export class HeaderStacks {
  /** Every header block some stack understands: a mustUnderstand flag on another is refused before routing, as before. */
  readonly understoodAnywhere: ReadonlySet<string>;

  constructor(private readonly stacks: ReadonlyMap<string, Partial<Record<'soap11' | 'soap12', HeaderStack>>>) {
    const all = new Set<string>();
    for (const byVariant of stacks.values())
      for (const stack of Object.values(byVariant)) for (const name of stack.understood) all.add(name);
    this.understoodAnywhere = all;
  }

  of(operation: string, version: SoapVersion): HeaderStack | undefined {
    return this.stacks.get(operation)?.[version.variant];
  }
}

/**
 * The header stacks of a contract's operations, from their routes' policies; undefined when no operation has one
 * (then the SOAP binding reads calls exactly as it did before there were stacks).
 */
export function headerStacks<Ops extends OperationsOf<Ops>>(
  contract: Contract<Ops>,
  options: HeaderStackOptions = {},
): HeaderStacks | undefined {
  const settings = {
    skewMs: (options.soapSecurity?.clockSkewSeconds ?? 300) * 1000,
    answerTimestampMs: (options.soapSecurity?.answerTimestampSeconds ?? 300) * 1000,
    now: options.soapSecurity?.now ?? Date.now,
  };
  let nonces: NonceCache | undefined;
  let answerSigning: Pick<AnswerSigning, 'key' | 'certificate'> | undefined;
  const stacks = new Map<string, Partial<Record<'soap11' | 'soap12', HeaderStack>>>();
  for (const name of contract.definition.operationNames) {
    const route: Route<Ops, OperationName<Ops>> = contract.definition.routes[name];
    for (const variant of ['soap11', 'soap12'] as const) {
      const policy = route.policies?.[variant];
      if (!policy) continue;
      const steps: HeaderStep[] = [];
      if (policy.addressing)
        steps.push(addressingStep(policy.addressing, route.addressingActions ?? defaultActions(contract, name, variant)));
      if (policy.usernameToken || policy.timestamp) {
        if (policy.usernameToken && !options.authenticate) {
          throw new Error(`The policy of ${name} asks for a UsernameToken: the host needs an authenticate hook to judge it.`);
        }
        nonces ??= new NonceCache(options.soapSecurity?.nonceCacheSize ?? 10_000);
        // A signed answer's Security header (the signature step's) carries the Timestamp.
        const writesTimestamp = !policy.signature?.signAnswer;
        steps.push(securityStep(policy, { ...settings, nonces, authenticate: options.authenticate, writesTimestamp }));
      }
      if (policy.signature) {
        if (policy.signature.signAnswer) answerSigning ??= signingOf(name, options);
        const signing = policy.signature.signAnswer ? answerSigning : undefined;
        steps.push(
          signatureStep(
            policy.signature,
            signatureSettings(name, options, settings.now),
            signing && { ...signing, timestamp: policy.timestamp === true, answerTimestampMs: settings.answerTimestampMs },
          ),
        );
      }
      if (steps.length === 0) continue;
      stacks.set(name, { ...stacks.get(name), [variant]: new HeaderStack(steps) });
    }
  }
  return stacks.size === 0 ? undefined : new HeaderStacks(stacks);
}

/**
 * The service's key and certificate, which sign the answers where a policy asks: both required (the start stops
 * without them, rather than answering unsigned), an RSA key, and the certificate's.
 */
function signingOf(operation: string, options: HeaderStackOptions): Pick<AnswerSigning, 'key' | 'certificate'> {
  const { signingKey, signingCertificate } = options.soapSecurity ?? {};
  if (signingKey === undefined || signingCertificate === undefined) {
    throw new Error(
      `The policy of ${operation} asks for signed answers: the host needs soapSecurity.signingKey and signingCertificate (docs/soap-security.md).`,
    );
  }
  const key = typeof signingKey === 'string' ? createPrivateKey(signingKey) : signingKey;
  const certificate = typeof signingCertificate === 'string' ? new X509Certificate(signingCertificate) : signingCertificate;
  if (key.type !== 'private' || key.asymmetricKeyType !== 'rsa') throw new Error('soapSecurity.signingKey must be an RSA private key.');
  if (!certificate.checkPrivateKey(key)) throw new Error('soapSecurity.signingCertificate is not the certificate of signingKey.');
  return { key, certificate };
}

/** What the signature step needs of the host: the trust store and the hook, both required. */
function signatureSettings(operation: string, options: HeaderStackOptions, now: () => number): SignatureSettings {
  const trusted = (options.soapSecurity?.trustedCertificates ?? []).map((c) => (typeof c === 'string' ? new X509Certificate(c) : c));
  if (trusted.length === 0 || !options.authenticate) {
    throw new Error(`The policy of ${operation} asks for X.509 signatures: the host needs trustedCertificates and an authenticate hook.`);
  }
  return { trusted, authenticate: options.authenticate, now };
}

/**
 * An operation with addressing but no actions named: its SOAPAction in (none: any action is taken), that followed by
 * `Response` out (none: the contract's namespace and the operation's name, followed by `Response`).
 */
function defaultActions<Ops extends OperationsOf<Ops>>(contract: Contract<Ops>, name: OperationName<Ops>, variant: 'soap11' | 'soap12') {
  const input = contract.soapAction(name, variant);
  const base = input !== '' ? input : `${contract.namespace}${contract.namespace.endsWith('/') ? '' : '/'}${name}`;
  return { input, output: `${base}Response` };
}
