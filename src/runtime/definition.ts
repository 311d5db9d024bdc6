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

/** A request class of the contract: it writes itself as the content of its element. */
export interface RequestMessage {
  toXml(): string;
}

/** The request and result types of one operation. */
export interface OperationTypes {
  request: RequestMessage;
  result: unknown;
}

/** What a contract's `Operations` map must be: every member an operation's request and result. */
export type OperationsOf<Ops> = { [K in keyof Ops]: OperationTypes };

/** An operation's name in the contract `Ops`. */
export type OperationName<Ops> = keyof Ops & string;

/** The hand-written side: one function per operation, knowing nothing of XML or HTTP. */
export type Handlers<Ops extends OperationsOf<Ops>> = {
  [K in OperationName<Ops>]: (request: Ops[K]['request']) => Promise<Ops[K]['result']>;
};

/** A port of the WSDL service; every port is at the one address. */
export interface Port {
  name: string;
  binding: string;
  variant: Variant;
}

/** Everything the bindings need to route, decode and encode one operation. */
export interface Route<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>> {
  operation: K;
  /** What the operation does, from the WSDL's documentation. */
  documentation: string;
  /** The SOAPAction (SOAP 1.1) and `action` (SOAP 1.2) are the namespace followed by this. */
  soapActionSuffix: string;
  /** The SOAP body element of the request, in the namespace. */
  requestElement: string;
  responseElement: string;
  /** Path segment of the HTTP GET and POST variants, without the slash. */
  httpOperation: string;
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
  /** The whole HTTP GET/POST answer; `namespace` is already escaped for an attribute. */
  encodeHttp(result: Ops[K]['result'], namespace: string): string;
  /** A request with every field set to a placeholder valid for its schema type (help pages). */
  sampleRequest(): Ops[K]['request'];
  /** A result with every field set to a placeholder valid for its schema type (help pages). */
  sampleResult(): Ops[K]['result'];
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
  /** Per operation, a schema holding only its request element: small, so fast to validate against. */
  requestSchemas: { readonly [K in OperationName<Ops>]: (namespace: string) => string };
  /** The ASP.NET AJAX script proxy, calling the endpoint at `path`. */
  renderScriptProxy(path: string): string;
  /** The OpenAPI 3.1 description; `throttled` names the operations whose handlers refuse with 429 and Retry-After. */
  renderOpenApi(namespace: string, address: string, throttled: readonly OperationName<Ops>[]): string;
}
