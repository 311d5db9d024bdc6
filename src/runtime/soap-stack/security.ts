/**
 * WS-Security (OASIS WSS 1.0 and 1.1) as a step of the header stack: the wsse:Security header's wsu:Timestamp
 * (Created no later than the clock allows, Expires not past) and its UsernameToken (Username Token Profile 1.0/1.1:
 * PasswordText, or PasswordDigest = Base64(SHA-1(nonce + created + password)); its Created within the clock skew, its
 * nonce never accepted twice while it could be replayed), judged by the host's authenticate hook, whose principal the
 * handler sees. Every refusal of the token is the one wsse:FailedAuthentication fault, with no detail: the log line
 * alone tells why (never the password, the nonce or the username).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Authenticate, Credential, SoapPolicy } from '../definition';
import { type FaultCode, HeaderFault } from '../errors';
import { childElements } from '../xml/xml-codec';
import type { XmlElement } from '../xml/xml-engine';
import { escapeXmlAttribute } from '../xml/xml-escape';
import type { NonceCache } from './nonce-cache';
import type { Exchange, HeaderStep, ReadToken } from './step';

export const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const TOKEN_PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0';
export const PASSWORD_TEXT = `${TOKEN_PROFILE}#PasswordText`;
export const PASSWORD_DIGEST = `${TOKEN_PROFILE}#PasswordDigest`;
const BASE64_BINARY = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';

/** The reasons WSS 1.1 §12 gives its fault codes. */
export const FAILED_AUTHENTICATION = 'The security token could not be authenticated or authorized';
export const INVALID_SECURITY = 'An error was discovered processing the <wsse:Security> header';
export const MESSAGE_EXPIRED = 'The message has expired';

export const fault = (local: string, reason: string, cause: string) =>
  new HeaderFault([{ namespace: WSSE, prefix: 'wsse', local } satisfies FaultCode], reason, cause);
export const failed = (cause: string) => fault('FailedAuthentication', FAILED_AUTHENTICATION, `WS-Security: ${cause}`);
export const invalid = (cause: string) => fault('InvalidSecurity', INVALID_SECURITY, `WS-Security: ${cause}`);
const expired = (cause: string) => fault('MessageExpired', MESSAGE_EXPIRED, `WS-Security: ${cause}`);

export interface SecuritySettings {
  skewMs: number;
  answerTimestampMs: number;
  now: () => number;
  nonces: NonceCache;
  authenticate?: Authenticate;
  /** The answer's Timestamp is this step's to write (not where the signature step writes the answer's Security header). */
  writesTimestamp: boolean;
}

/** The step of an operation whose policy asks for a UsernameToken or a Timestamp. */
export function securityStep(policy: SoapPolicy, settings: SecuritySettings): HeaderStep {
  const { skewMs, now, nonces } = settings;
  return {
    understands: [`{${WSSE}}Security`],
    read(blocks, exchange) {
      const headers = blocks.filter((block) => block.namespaceUri === WSSE && block.name === 'Security');
      if (headers.length > 1) throw invalid('more than one Security header');
      const security = headers[0];
      if (!security) throw policy.usernameToken ? failed('no Security header') : invalid('no Security header');
      const children = childElements(security);
      if (children.some((c) => c.name === 'EncryptedKey' || c.name === 'EncryptedData')) throw invalid('encryption is not supported');
      const timestamp = only(children, WSU, 'Timestamp');
      if (timestamp) checkTimestamp(timestamp, now(), skewMs);
      else if (policy.timestamp) throw invalid('no Timestamp');
      if (!policy.usernameToken) return;
      const element = only(children, WSSE, 'UsernameToken');
      if (!element) throw failed('no UsernameToken');
      const token = readToken(element);
      const allowed = policy.usernameToken.password;
      if (token.passwordType === 'none' || (allowed !== 'any' && allowed !== token.passwordType))
        throw failed('a password form the policy does not allow');
      if (token.passwordType === 'digest' && (token.nonce === undefined || token.created === undefined))
        throw failed('a digest without its nonce and created');
      const at = now();
      if (token.created !== undefined) {
        const created = dateTime(token.created, 'the token');
        if (Math.abs(created - at) > skewMs) throw failed('the token was created outside the clock skew');
      }
      if (token.nonceText !== undefined && nonces.has(token.nonceText, at)) throw failed('a nonce seen before');
      exchange.token = token;
    },
    async admit(exchange) {
      const token = exchange.token;
      if (!token) return;
      exchange.token = undefined;
      const principal = await judged(settings.authenticate!, credentialOf(token), exchange);
      if (principal === undefined) throw failed('the authenticate hook refused the token');
      if (token.nonceText !== undefined) {
        // Remembered once the token is accepted (an unauthenticated caller fills no cache), and checked again: a
        // concurrent call with the same nonce may have been accepted while the hook ran.
        const at = now();
        const added = nonces.add(token.nonceText, at, at + 2 * skewMs);
        if (added === 'replayed') throw failed('a nonce seen before');
        if (added === 'full') throw failed('the nonce cache is full');
      }
      exchange.principal = principal;
    },
    answer(_exchange, refused) {
      if (!policy.timestamp || refused || !settings.writesTimestamp) return '';
      const created = now();
      return (
        `<wsse:Security xmlns:wsse="${escapeXmlAttribute(WSSE)}" xmlns:wsu="${escapeXmlAttribute(WSU)}"><wsu:Timestamp>` +
        `<wsu:Created>${new Date(created).toISOString()}</wsu:Created><wsu:Expires>${new Date(created + settings.answerTimestampMs).toISOString()}</wsu:Expires>` +
        '</wsu:Timestamp></wsse:Security>'
      );
    },
  };
}

/** The one child of `parent` named {namespace}name (undefined: none); two are a malformed header. */
/** What the host's hook says of a credential: its principal, or undefined where it refuses (undefined, null, false, a throw). */
export async function judged(authenticate: Authenticate, credential: Credential, exchange: Exchange): Promise<unknown> {
  let principal: unknown;
  try {
    principal = await authenticate(credential, { operation: exchange.operation, address: exchange.ctx.ip });
  } catch {
    return undefined;
  }
  return principal === null || principal === false ? undefined : principal;
}

export function only(children: readonly XmlElement[], namespace: string, name: string): XmlElement | undefined {
  const found = children.filter((c) => c.name === name && c.namespaceUri === namespace);
  if (found.length > 1) throw invalid(`more than one ${name}`);
  return found[0];
}

const DATE_TIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** An xsd:dateTime with its time zone, in milliseconds; anything else is a malformed header. */
function dateTime(text: string, what: string): number {
  const value = text.trim();
  const ms = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw invalid(`${what}'s time is not an xsd:dateTime with a time zone`);
  return ms;
}

/** A Timestamp's Created may not be later than the clock (with the skew), nor its Expires past. */
function checkTimestamp(timestamp: XmlElement, at: number, skewMs: number): void {
  const children = childElements(timestamp);
  const createdElement = only(children, WSU, 'Created');
  if (!createdElement) throw invalid('a Timestamp without Created');
  const created = dateTime(createdElement.content, 'the Timestamp');
  const expiresElement = only(children, WSU, 'Expires');
  const expires = expiresElement ? dateTime(expiresElement.content, 'the Timestamp') : undefined;
  if (expires !== undefined && expires < created) throw invalid('a Timestamp that expires before it was created');
  if (created > at + skewMs) throw expired('a Timestamp created in the future');
  if (expires !== undefined && expires <= at - skewMs) throw expired('an expired Timestamp');
}

/** The unqualified attribute `name` of an element. */
const attribute = (element: XmlElement, name: string) => element.attrs.find((a) => a.name === name && !a.namespaceUri)?.value.trim();

function readToken(element: XmlElement): ReadToken {
  const children = childElements(element);
  const username = only(children, WSSE, 'Username');
  if (!username) throw invalid('a UsernameToken without Username');
  const token: ReadToken = { username: username.content.trim(), passwordType: 'none' };
  const password = only(children, WSSE, 'Password');
  if (password) {
    const type = attribute(password, 'Type') ?? PASSWORD_TEXT;
    if (type !== PASSWORD_TEXT && type !== PASSWORD_DIGEST) throw invalid('a password Type the profile does not define');
    token.passwordType = type === PASSWORD_TEXT ? 'text' : 'digest';
    token.password = password.content;
  }
  const nonce = only(children, WSSE, 'Nonce');
  if (nonce) {
    const encoding = attribute(nonce, 'EncodingType') ?? BASE64_BINARY;
    const text = nonce.content.replace(/\s+/g, '');
    if (encoding !== BASE64_BINARY || !/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0)
      throw invalid('a nonce that is not Base64');
    token.nonce = Buffer.from(text, 'base64');
    token.nonceText = text;
  }
  // Created is wsu's (Username Token Profile 1.0); a few old clients write it in wsse's namespace.
  const created = only(children, WSU, 'Created') ?? only(children, WSSE, 'Created');
  if (created) token.created = created.content.trim();
  return token;
}

/** Equal in constant time: both hashed first, so their lengths tell nothing either. */
function sameText(a: string, b: string): boolean {
  const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(hash(a), hash(b));
}

/** What the hook sees of a token: its username and form, and a check of a password against it. */
function credentialOf(token: ReadToken): Credential {
  return {
    kind: 'usernameToken',
    username: token.username,
    passwordType: token.passwordType,
    matches(password: string): boolean {
      if (token.password === undefined) return false;
      if (token.passwordType === 'text') return sameText(token.password, password);
      const digest = createHash('sha1').update(token.nonce!).update(token.created!, 'utf8').update(password, 'utf8').digest('base64');
      return sameText(token.password.trim(), digest);
    },
  };
}
