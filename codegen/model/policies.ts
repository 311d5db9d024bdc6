/**
 * The WS-Policy of each operation, per SOAP binding: the expressions its endpoint (service, port, binding), its bound
 * operation and its input attach, merged (their conjunction, normalised), of which the first alternative the
 * runtime enforces is kept, read into the SoapPolicy the runtime enforces; and the operation's WS-Addressing actions
 * wherever a binding's policy speaks of addressing. What the runtime does not enforce is never dropped silently:
 * each assertion so left out is named in one `codegen: warning:` line of the contract, as are the alternatives left
 * out and the optional assertions not asked of calls; a policy asking for HTTPS is said in a line.
 */
import type { SoapPolicy } from 'contract-runtime/codec';
import type { PolicyAlternative, PolicyAssertion, PolicyFacts, WsdlFacts, WsdlOperationFacts, WsdlOperationPolicies } from '../read/wsdl';
import { ADDRESSING } from '../read/wsdl/policy';
import type { OperationModel } from './model';

/** WS-SecurityPolicy 1.2 (OASIS, 200702) and 1.1 (2005/07). */
const SP = ['http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702', 'http://schemas.xmlsoap.org/ws/2005/07/securitypolicy'];
const WSOMA = 'http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization';

/** The prefixes assertions are named with in warnings, by namespace (another namespace's: `{namespace}name`). */
const PREFIXES: Record<string, string> = {
  [SP[0]]: 'sp',
  [SP[1]]: 'sp',
  [WSOMA]: 'wsoma',
  [ADDRESSING.wsam]: 'wsam',
  [ADDRESSING.wsaw]: 'wsaw',
  [ADDRESSING.wsaw200602]: 'wsaw',
  [ADDRESSING.wsap]: 'wsap',
  'http://docs.oasis-open.org/ws-rx/wsrmp/200702': 'wsrmp',
  'http://schemas.xmlsoap.org/ws/2005/02/rm/policy': 'wsrm',
  'http://docs.oasis-open.org/ws-rx/wsmc/200702': 'wsmc',
};

/** An assertion's name as a warning writes it: `sp:SymmetricBinding`. */
export function assertionName(assertion: Pick<PolicyAssertion, 'namespace' | 'name'>): string {
  const prefix = PREFIXES[assertion.namespace];
  return prefix ? `${prefix}:${assertion.name}` : `{${assertion.namespace}}${assertion.name}`;
}

const isSp = (a: PolicyAssertion, ...names: string[]) => SP.includes(a.namespace) && names.includes(a.name);

/** What one alternative asks, as the runtime enforces it, and what of it the runtime does not enforce. */
export interface PolicyReading {
  policy: SoapPolicy;
  /** The assertions the runtime does not enforce, by name (a nested one: its own name, `sp:EncryptSignature`). */
  unsupported: string[];
  /** The optional assertions (other than addressing) not asked of calls. */
  optional: string[];
  /** sp:TransportBinding: the policy asks for HTTPS. */
  https: boolean;
}

/** Reads one alternative (of assertions, as normalised) into the policy it asks for. */
export function readAlternative(alternative: PolicyAlternative): PolicyReading {
  const reading: PolicyReading = { policy: {}, unsupported: [], optional: [], https: false };
  const policy = reading.policy;
  const unsupported = (a: PolicyAssertion) => reading.unsupported.push(assertionName(a));
  // A nested policy's first alternative (none: it asks for nothing more).
  const nested = (a: PolicyAssertion): PolicyAlternative => a.nested?.[0] ?? [];
  let signedParts: { body: boolean; headers: { namespace: string; name?: string }[] } | undefined;
  for (const a of alternative) {
    const addressing =
      (a.namespace === ADDRESSING.wsam && a.name === 'Addressing') ||
      (a.name === 'UsingAddressing' && [ADDRESSING.wsaw, ADDRESSING.wsaw200602, ADDRESSING.wsap].some((ns) => ns === a.namespace));
    if (addressing) {
      for (const inner of nested(a)) if (inner.name !== 'AnonymousResponses') unsupported(inner);
      policy.addressing = a.optional && policy.addressing !== 'required' ? 'optional' : 'required';
    } else if (a.optional) {
      reading.optional.push(assertionName(a));
    } else if (isSp(a, 'SupportingTokens', 'SignedSupportingTokens')) {
      for (const token of nested(a)) {
        if (isSp(token, 'UsernameToken')) policy.usernameToken = { password: passwordOf(token, unsupported) };
        else if (!isSp(token, 'AlgorithmSuite')) unsupported(token);
      }
    } else if (isSp(a, 'TransportBinding')) {
      reading.https = true;
      for (const inner of nested(a)) {
        if (isSp(inner, 'IncludeTimestamp')) policy.timestamp = true;
        else if (isSp(inner, 'TransportToken')) for (const token of nested(inner)) httpsToken(token, unsupported);
        else if (!isSp(inner, 'AlgorithmSuite', 'Layout')) unsupported(inner);
      }
    } else if (isSp(a, 'AsymmetricBinding')) {
      policy.signature = { body: false, headers: [], digest: 'sha256', signAnswer: true };
      for (const inner of nested(a)) {
        if (isSp(inner, 'IncludeTimestamp')) policy.timestamp = true;
        else if (isSp(inner, 'InitiatorToken', 'RecipientToken', 'InitiatorSignatureToken', 'RecipientSignatureToken')) {
          for (const token of nested(inner)) if (!isSp(token, 'X509Token')) unsupported(token);
        } else if (isSp(inner, 'AlgorithmSuite')) {
          const digest = digestOf(nested(inner), unsupported);
          if (digest) policy.signature.digest = digest;
        } else if (!isSp(inner, 'Layout', 'OnlySignEntireHeadersAndBody', 'SignBeforeEncrypting')) unsupported(inner);
      }
    } else if (isSp(a, 'SignedParts')) {
      signedParts ??= { body: false, headers: [] };
      for (const part of a.parameters) {
        if (isSp(part, 'Body')) signedParts.body = true;
        else if (isSp(part, 'Header')) {
          const name = part.attributes.Name;
          signedParts.headers.push({ namespace: part.attributes.Namespace ?? '', ...(name !== undefined ? { name } : {}) });
        } else unsupported(part);
      }
    } else if (isSp(a, 'Wss10', 'Wss11')) {
      for (const inner of nested(a)) if (!isSp(inner, 'MustSupportRefKeyIdentifier', 'MustSupportRefIssuerSerial')) unsupported(inner);
    } else if (a.namespace === WSOMA && a.name === 'OptimizedMimeSerialization') {
      policy.mtom = true;
    } else {
      // A binding the runtime does not speak (sp:SymmetricBinding): named; its timestamp is still checked.
      if (isSp(a, 'SymmetricBinding') && nested(a).some((inner) => isSp(inner, 'IncludeTimestamp'))) policy.timestamp = true;
      unsupported(a);
    }
  }
  if (signedParts && policy.signature) Object.assign(policy.signature, signedParts);
  // Parts signed without a signature binding: over HTTPS, TLS protects them; otherwise nothing signs them.
  else if (signedParts && !reading.https) reading.unsupported.push('sp:SignedParts (without sp:AsymmetricBinding)');
  // The members in SoapPolicy's order, whatever the assertions' order.
  const { addressing, usernameToken, timestamp, signature, mtom } = policy;
  reading.policy = Object.fromEntries(
    Object.entries({ addressing, usernameToken, timestamp, signature, mtom }).filter(([, v]) => v !== undefined),
  ) as SoapPolicy;
  return reading;
}

/** sp:UsernameToken's password: sp:HashPassword a digest, sp:NoPassword any (none), otherwise text. */
function passwordOf(token: PolicyAssertion, unsupported: (a: PolicyAssertion) => void): 'text' | 'digest' | 'any' {
  let password: 'text' | 'digest' | 'any' = 'text';
  for (const inner of token.nested?.[0] ?? []) {
    if (isSp(inner, 'HashPassword')) password = 'digest';
    else if (isSp(inner, 'NoPassword')) password = 'any';
    else if (!isSp(inner, 'WssUsernameToken10', 'WssUsernameToken11')) unsupported(inner);
  }
  return password;
}

/** sp:HttpsToken (a client certificate, HTTP authentication asked of it are not enforced); another token is not either. */
function httpsToken(token: PolicyAssertion, unsupported: (a: PolicyAssertion) => void): void {
  if (!isSp(token, 'HttpsToken')) {
    unsupported(token);
    return;
  }
  if (token.attributes.RequireClientCertificate === 'true') unsupported({ ...token, name: 'HttpsToken RequireClientCertificate="true"' });
  for (const inner of token.nested?.[0] ?? []) unsupported(inner);
}

/** sp:AlgorithmSuite's digest: Basic256Sha256 (and the other Sha256 suites) SHA-256; Basic256, Basic192, Basic128, TripleDes SHA-1. */
function digestOf(suite: PolicyAlternative, unsupported: (a: PolicyAssertion) => void): 'sha1' | 'sha256' | undefined {
  let digest: 'sha1' | 'sha256' | undefined;
  for (const a of suite) {
    if (SP.includes(a.namespace) && /^(Basic(128|192|256)|TripleDes)Sha256(Rsa15)?$/.test(a.name)) digest = 'sha256';
    else if (SP.includes(a.namespace) && /^(Basic(128|192|256)|TripleDes)(Rsa15)?$/.test(a.name)) digest = 'sha1';
    else unsupported(a);
  }
  return digest;
}

/** The conjunction of policy expressions, normalised: each alternative of one with each of the others'. */
export function mergePolicies(expressions: readonly PolicyFacts[]): PolicyFacts {
  return expressions.reduce<PolicyFacts>((merged, next) => merged.flatMap((left) => next.map((right) => [...left, ...right])), [[]]);
}

/** The alternative kept: the first the runtime enforces whole, else the first; and how many there were. */
export function chooseAlternative(policy: PolicyFacts): { reading: PolicyReading; alternatives: number } {
  const readings = policy.map(readAlternative);
  const reading = readings.find((r) => r.unsupported.length === 0) ?? readings[0] ?? readAlternative([]);
  return { reading, alternatives: policy.length };
}

/** What the binding's policy asks of the operation's calls, and what was left out of it. */
export function operationPolicy(policies: WsdlOperationPolicies): { reading: PolicyReading; alternatives: number } {
  const { endpoint, operation, input, output } = policies;
  const chosen = chooseAlternative(mergePolicies([...endpoint, ...operation, ...input]));
  const signature = chosen.reading.policy.signature;
  // The answer is signed when the output's policy asks for a signature too.
  if (signature)
    signature.signAnswer = chooseAlternative(mergePolicies([...endpoint, ...operation, ...output])).reading.policy.signature !== undefined;
  return chosen;
}

/**
 * The pass: each operation's `policies` (per SOAP binding, those asking for something) and, where one asks for
 * addressing, its `addressingActions`; the warnings of the contract, each once.
 */
export function attachPolicies(
  operations: OperationModel[],
  wsdl: Pick<WsdlFacts, 'operations' | 'unreadPolicies'>,
  warn: (line: string) => void,
): void {
  const facts = new Map<string, WsdlOperationFacts>(wsdl.operations.map((op) => [op.name, op]));
  const said = new Lines();
  for (const op of operations) {
    const read = facts.get(op.name);
    if (!read?.policies) continue;
    const policies: NonNullable<OperationModel['policies']> = {};
    for (const variant of ['soap11', 'soap12'] as const) {
      const attached = read.policies[variant];
      if (!attached) continue;
      const { reading, alternatives } = operationPolicy(attached);
      const where = { binding: attached.binding, operation: op.name };
      for (const name of reading.unsupported)
        said.add(`WS-Policy assertion ${name}`, 'is not enforced: the runtime does not support it; calls are served without it', where);
      for (const name of reading.optional) said.add(`WS-Policy assertion ${name}`, 'is optional: it is not asked of calls', where);
      if (alternatives > 1)
        said.add('WS-Policy', 'offers several alternatives: the first the runtime enforces is served, the others left out', where);
      if (reading.https) said.add('WS-Policy', 'asks for HTTPS (sp:TransportBinding): serve it behind TLS', where, 'note');
      if (Object.keys(reading.policy).length > 0) policies[variant] = reading.policy;
    }
    if (Object.keys(policies).length === 0) continue;
    op.policies = policies;
    if (Object.values(policies).some((p) => p.addressing) && read.addressingActions) op.addressingActions = read.addressingActions;
  }
  for (const unread of wsdl.unreadPolicies ?? []) warn(`codegen: warning: ${unread} is not enforced: calls are served without it`);
  said.write(warn);
}

/** Names in a line: four at most, then how many more. */
const listed = (names: string[]) => (names.length <= 4 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`);

/** Lines said once per contract, each naming the bindings and operations it is said of. */
class Lines {
  private readonly lines = new Map<
    string,
    { subject: string; what: string; kind: 'warning' | 'note'; bindings: Set<string>; operations: Set<string> }
  >();

  add(subject: string, what: string, where: { binding: string; operation: string }, kind: 'warning' | 'note' = 'warning'): void {
    const key = `${kind} ${subject} ${what}`;
    const line = this.lines.get(key) ?? { subject, what, kind, bindings: new Set<string>(), operations: new Set<string>() };
    line.bindings.add(where.binding);
    line.operations.add(where.operation);
    this.lines.set(key, line);
  }

  write(warn: (line: string) => void): void {
    for (const { subject, what, kind, bindings, operations } of this.lines.values()) {
      const of = `binding${bindings.size > 1 ? 's' : ''} ${[...bindings].join(', ')}, operation${operations.size > 1 ? 's' : ''} ${listed([...operations])}`;
      warn(`codegen: ${kind === 'warning' ? 'warning: ' : ''}${subject} of ${of} ${what}`);
    }
  }
}
