/**
 * What codegen writes for a contract (generated/contract.ts) and the runtime
 * serves: its operations' routes, the documents it publishes, the variants it
 * declares. The runtime never imports generated code: a service hands it a
 * ContractDefinition, typed by the contract's own operations (`Ops`).
 */
import type { XmlElement } from './xml/xml-engine';

/** The variants a WSDL of ASMX's shape can declare, one per port. */
export type Variant = 'soap11' | 'soap12' | 'httpGet' | 'httpPost';

/** Every variant a call can use: the WSDL's, and JSON for browser scripts (not a WSDL binding). */
export type CallVariant = Variant | 'json';
export const CALL_VARIANTS: readonly CallVariant[] = ['soap11', 'soap12', 'httpGet', 'httpPost', 'json'];

/** A request class of the contract: it writes itself as the content of its element (a message's parts: as the body's elements, in `namespace`). */
export interface RequestMessage {
  toXml(namespace?: string): string;
}

/** The SOAP header blocks an operation reads (`in`, those the call carried) and writes (`out`, set by its handler). */
export interface SoapHeaders {
  in: object;
  out: object;
}

/** The request and result types of one operation, and its SOAP headers when it declares any. */
export interface OperationTypes {
  request: RequestMessage;
  result: unknown;
  headers?: SoapHeaders;
}

/** An operation's headers: SoapHeaders, empty at run time, for one that declares none. */
export type HeadersOf<T extends OperationTypes> = T extends { headers: infer H extends SoapHeaders } ? H : SoapHeaders;

/** What a contract's `Operations` map must be: every member an operation's request and result. */
export type OperationsOf<Ops> = { [K in keyof Ops]: OperationTypes };

/** An operation's name in the contract `Ops`. */
export type OperationName<Ops> = keyof Ops & string;

/**
 * The call a handler answers, as its binding hands it: plain data, the
 * operation's SOAP header blocks, and one function back to the runtime.
 * Nothing of HTTP or of the web framework.
 */
export interface Call<Headers extends SoapHeaders = SoapHeaders> {
  /** The caller's address: the connection's, or behind a trusted proxy the one that proxy put last in X-Forwarded-For. */
  readonly address: string;
  /** The id of the call's request log line (X-Request-Id); undefined when no request log runs. */
  readonly requestId: string | undefined;
  readonly operation: string;
  /** The variant it came by; `page` for a plain page a service adds beside the endpoint. */
  readonly variant: CallVariant | 'page';
  /**
   * The header blocks the operation declares: `in` holds those the call carried (SOAP only; by their part's name),
   * `out` those the handler sets for the answer's Header. Both empty, and frozen, for an operation that declares none.
   */
  readonly headers: Headers;
  /**
   * The WS-Addressing headers the call carried (SOAP, where the binding's policy speaks of addressing); undefined
   * otherwise.
   */
  readonly addressing?: AddressingHeaders;
  /** Who the caller is, as the host's authenticate hook said of the call's WS-Security token; undefined without one. */
  readonly principal?: unknown;
  /** A header of the HTTP request, by case-insensitive name (read-only); undefined when the request has none. */
  header(name: string): string | undefined;
  /**
   * Tells the runtime what the handler's answer meant, in the service's own
   * word (`accepted`, `wrong`): the request log line's and the metrics'
   * `outcome` instead of `ok`. A method: call it on the Call.
   */
  answered(outcome: string): void;
}

/** The WS-Addressing message information headers of a request. */
export interface AddressingHeaders {
  version: AddressingVersion;
  action: string;
  messageId?: string;
  to?: string;
  /** The ReplyTo address (only the anonymous one is served). */
  replyTo?: string;
  from?: string;
  relatesTo?: string;
}

/**
 * A WS-Security token a request carried, as the host's authenticate hook sees it once the runtime has checked its
 * form (timestamp, nonce, signature): the hook says who the caller is (a principal) or that it may not call.
 */
export type Credential =
  | {
      kind: 'usernameToken';
      username: string;
      /** `text` (PasswordText), `digest` (PasswordDigest) or `none` (a token with no password). */
      passwordType: 'text' | 'digest' | 'none';
      /** Whether `password` is the token's password (compared in constant time; for a digest: the digest recomputed). */
      matches(password: string): boolean;
    }
  | {
      kind: 'x509';
      /** The certificate whose key signed the request, already checked against the trust store. */
      certificate: import('node:crypto').X509Certificate;
    };

/** The host's hook: a principal for a credential it accepts, undefined (or a throw) for one it refuses. */
export type Authenticate = (credential: Credential, call: { operation: string; address: string }) => unknown | Promise<unknown>;

/**
 * The hand-written side of operation K: its typed request and the call it answers in, a promise of its result out,
 * knowing nothing of XML or HTTP. Every variant's binding calls it alike.
 */
export type OperationHandler<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>> = (
  request: Ops[K]['request'],
  call: Call<HeadersOf<Ops[K]>>,
) => Promise<Ops[K]['result']>;

/** Every operation's handler: what the bindings call. */
export type Handlers<Ops extends OperationsOf<Ops>> = { [K in OperationName<Ops>]: OperationHandler<Ops, K> };

/** A port of the WSDL service, served at the path of its address. */
export interface Port {
  name: string;
  binding: string;
  variant: Variant;
  path?: string;
}

/** A SOAP header block of an operation: its element (in the target namespace unless `namespace` says), decoded by `decode`. */
export interface HeaderRoute {
  name: string;
  element: string;
  namespace?: string;
  decode(element: XmlElement): unknown;
}

/** The WS-Addressing versions a call may speak: W3C 1.0, and the 2004/08 member submission WCF and Axis2 still send. */
export type AddressingVersion = 'wsa10' | 'wsa200408';

/**
 * What the WS-Policy a WSDL attaches to a port, its binding, an operation or its input asks of a SOAP call, merged
 * for one operation of one binding (codegen reads it; the runtime enforces it). An absent member asks for nothing.
 */
export interface SoapPolicy {
  /** wsam:Addressing / wsaw:UsingAddressing: `required` refuses a call without its headers; `optional` reads them when sent. */
  addressing?: 'required' | 'optional';
  /** sp:UsernameToken (in sp:SupportingTokens or sp:SignedSupportingTokens): the password form it asks for. */
  usernameToken?: { password: 'text' | 'digest' | 'any' };
  /** sp:IncludeTimestamp: a wsu:Timestamp in the wsse:Security header, checked; the answer carries one. */
  timestamp?: true;
  /**
   * sp:AsymmetricBinding with X.509 tokens: the request is signed by the caller's certificate over these parts
   * (sp:SignedParts: the body, and header blocks by name), and the answer signed with the service's key.
   */
  signature?: {
    body: boolean;
    headers: readonly { namespace: string; name?: string }[];
    /** sp:AlgorithmSuite: the digest the references use. */
    digest: 'sha1' | 'sha256';
    signAnswer: boolean;
  };
  /** wsoma:OptimizedMimeSerialization: binary content travels as MTOM attachments. */
  mtom?: true;
}

/** The WS-Addressing actions of an operation: wsam:Action / wsaw:Action, or the default action pattern. */
export interface AddressingActions {
  input: string;
  output: string;
  /** By fault name. */
  faults?: Readonly<Record<string, string>>;
}

/** Everything the bindings need to route, decode and encode one operation. */
export interface Route<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>> {
  operation: K;
  /** What the operation does, from the WSDL's documentation. */
  documentation: string;
  /** The SOAPAction (SOAP 1.1) and `action` (SOAP 1.2) are the namespace followed by this, unless soapActions says. */
  soapActionSuffix: string;
  /** A SOAP version's action as the WSDL writes it (empty, the bare operation name, another namespace's). */
  soapActions?: Partial<Record<'soap11' | 'soap12', string>>;
  /** The SOAP body element of the request ('' for an empty body); with requestParts, the first part's. */
  requestElement: string;
  /** The body element's namespace, when it is not the target namespace. */
  requestNamespace?: string;
  /** The body's elements are the request's parts: decodeXml reads the Body element itself. */
  requestParts?: true;
  /**
   * An rpc operation whose body element another operation takes as well (overloaded: one WSDL name, told apart by
   * their parts): the local names of the element's children, its parts' accessors, which choose it.
   */
  bodyMembers?: readonly string[];
  responseElement: string;
  /** A one-way operation: the call is answered 202 with no envelope. */
  oneWay?: true;
  /** What the WS-Policy of each SOAP binding asks of this operation's calls (absent: nothing). */
  policies?: Partial<Record<'soap11' | 'soap12', SoapPolicy>>;
  /** Its WS-Addressing actions, where a binding's policy (or wsaw:UsingAddressing) speaks of addressing. */
  addressingActions?: AddressingActions;
  /** The SOAP header blocks it reads and writes. */
  headers?: { in: readonly HeaderRoute[]; out: readonly HeaderRoute[] };
  /** rpc/encoded: its bodies are SOAP-encoded (wire/soap-encoding.ts reads and writes them by this). */
  soapEncoding?: SoapEncoding;
  /** Path segment of the HTTP GET and POST variants, without the slash. */
  httpOperation: string;
  /**
   * HTTP POST carries the SOAP request's element itself, of this media type, and is answered with the SOAP answer's
   * element (an XML body: Axis2's HTTP binding), rather than fields answered with the result.
   */
  httpXml?: string;
  /** Query or form field names, in WSDL order. */
  httpFields: readonly string[];
  httpResponseElement: string;
  /** Decodes a request body element validated against the schema. */
  decodeXml(element: XmlElement): Ops[K]['request'];
  /** Every member of the request is text (no complex, repeated or nillable member, no attribute): decodeFields can read it. */
  fromFields: boolean;
  /**
   * Decodes the request from its members' texts by name: HTTP GET query or POST form fields, JSON parameters,
   * or the children of a SOAP request element validated against the schema (when fromFields; else it throws).
   */
  decodeFields(field: (name: string) => string | undefined): Ops[K]['request'];
  /** The SOAP body content; `namespace` is already escaped for an attribute. */
  encodeSoapBody(result: Ops[K]['result'], namespace: string): string;
  /** A request's SOAP body content, as a client sends it; `namespace` is already escaped for an attribute. */
  encodeSoapRequest(request: Ops[K]['request'], namespace: string): string;
  /** The header blocks a client sends; `namespace` is already escaped for an attribute. */
  encodeSoapRequestHeaders?(headers: HeadersOf<Ops[K]>['in'], namespace: string): string;
  /** The SOAP header blocks the handler set; `namespace` is already escaped for an attribute. */
  encodeSoapHeaders?(headers: HeadersOf<Ops[K]>['out'], namespace: string): string;
  /** The whole HTTP GET/POST answer; `namespace` is already escaped for an attribute. */
  encodeHttp(result: Ops[K]['result'], namespace: string): string;
  /** A request with every field set to a placeholder valid for its schema type (help pages). */
  sampleRequest(): Ops[K]['request'];
  /** A result with every field set to a placeholder valid for its schema type (help pages). */
  sampleResult(): Ops[K]['result'];
  /** Header blocks with every field set to a placeholder valid for its schema type. */
  sampleHeaders?(): HeadersOf<Ops[K]>;
}

/**
 * A type as SOAP encoding writes it, by its key (a class's name, or `{XML Schema namespace}builtin`): the xsi:type
 * it is written with (`{namespace}name`), and a struct's members (accessor, type key) or an array's items.
 */
export interface SoapEncodedType {
  readonly xsiType?: string;
  /** A struct's members: accessor, type key, and the member's namespace where the schema qualifies it. */
  readonly members?: readonly (readonly [string, string, string?])[];
  readonly array?: { readonly item: string; readonly element: string; readonly rank: number };
}

/** Every type of a contract as SOAP encoding writes it, by key. */
export type SoapEncodedTypes = Readonly<Record<string, SoapEncodedType>>;

/**
 * An rpc/encoded operation: the encoding (SOAP 1.1's or 1.2's), its request's and its answer's parts (accessor, type
 * key, and the namespace of a part that names an element of one).
 */
export interface SoapEncoding {
  readonly version: 'soap11' | 'soap12';
  readonly input: readonly (readonly [string, string, string?])[];
  readonly output: readonly (readonly [string, string, string?])[];
  /** Its declared faults' detail elements (local name, type key). */
  readonly faults?: readonly (readonly [string, string])[];
  /** Its header blocks bound encoded (`{namespace}name`, type key): read and written SOAP-encoded, as the body is. */
  readonly headers?: readonly (readonly [string, string])[];
  /**
   * An overloaded operation: the names its call's and answer's wrappers take in the literal form (its own, which
   * the served schemas declare with its parts), where the wire's is another overload's too.
   */
  readonly literalNames?: { readonly input: string; readonly output: string };
  /** With literalNames: the wire's wrapper names, which the encoded call and answer are written with. */
  readonly wireNames?: { readonly input: string; readonly output: string };
  readonly types: SoapEncodedTypes;
}

/** One operation as browser scripts call it (ASP.NET AJAX script service). */
export interface JsonOperation<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>> {
  /** The names of the JSON body's members, in WSDL order; case-sensitive, as .NET's parameter names. */
  parameters: readonly string[];
  /** The whole answer body: the result wrapped in `d`, `null` when absent. */
  encodeAnswer(result: Ops[K]['result']): string;
}

/** A contract as codegen describes it: the runtime serves it whole from this. */
export interface ContractDefinition<Ops extends OperationsOf<Ops>> {
  /** The service name of the WSDL. */
  serviceName: string;
  /** The WSDL's target namespace: the default namespace a service speaks. */
  targetNamespace: string;
  /** The path of the WSDL's address: every variant is served there (SOAP) and under it (`/{operation}`). */
  endpointPath: string;
  /** Every port's path (the first is endpointPath): each is served alike. */
  endpointPaths?: readonly string[];
  /** The variants the WSDL declares: the ports it has. */
  variants: readonly Variant[];
  ports: readonly Port[];
  /** The operations in WSDL order. */
  operationNames: readonly OperationName<Ops>[];
  routes: { readonly [K in OperationName<Ops>]: Route<Ops, K> };
  json: { readonly [K in OperationName<Ops>]: JsonOperation<Ops, K> };
  /** The self-contained WSDL (schema inline), for a namespace and the endpoint's absolute address. */
  renderWsdl(namespace: string, address: string): string;
  /** The whole schema document, in the given namespace. */
  renderSchema(namespace: string): string;
  /** Every namespace's schema document, the target namespace's first; each imports the others as `N.xsd` (N its place). */
  renderSchemas?(namespace: string): readonly string[];
  /** The WSDLs the first imports, served at `?wsdl=wsdlN`. */
  renderImportedWsdls?(namespace: string, address: string): readonly string[];
  /** Per operation, a schema holding only its request element: small, so fast to validate against (absent: the whole set). */
  requestSchemas: { readonly [K in OperationName<Ops>]?: (namespace: string) => string };
  /** The ASP.NET AJAX script proxy, calling the endpoint at `path`. */
  renderScriptProxy(path: string): string;
  /** The OpenAPI 3.1 description; `throttled` names the operations whose handlers refuse with 429 and Retry-After. */
  renderOpenApi(namespace: string, address: string, throttled: readonly OperationName<Ops>[]): string;
}
