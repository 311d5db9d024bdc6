/** The facts read/ takes from a WSDL: the service's ports and operations, as plain data (read/wsdl.ts reads them). */
import type { AddressingActions, Variant } from 'contract-runtime/codec';
import type { QName } from '../xsd/facts';

/** A message part: it names a global element (document style) or a type (rpc style, HTTP bindings). */
export interface WsdlPart {
  name: string;
  element?: QName;
  type?: QName;
  /**
   * A header part bound encoded (`soap:header use="encoded"`): its block is `element`, an accessor named by the part
   * in the header's namespace where the part names a type (`type` kept), written and read SOAP-encoded.
   */
  encoded?: true;
}

/** One direction of a SOAP operation: the parts in the body, in order, and the parts sent as header blocks. */
export interface WsdlSoapMessage {
  /** The message's name, for messages. */
  message: string;
  body: WsdlPart[];
  headers: WsdlPart[];
  /** rpc: the namespace of the wrapper element (`soap:body namespace`). */
  namespace?: string;
  /** rpc/encoded: SOAP encoding (`soap:body use="encoded"`), of SOAP 1.1 or of SOAP 1.2. */
  encoded?: 'soap11' | 'soap12';
}

/**
 * A WS-Policy assertion as read: its element's name, wsp:Optional, its attributes (`{namespace}name` for a
 * qualified one), its parameters (child elements outside WS-Policy: sp:Body, sp:Header) and its nested policy's
 * alternatives.
 */
export interface PolicyAssertion {
  namespace: string;
  name: string;
  optional?: true;
  attributes: Readonly<Record<string, string>>;
  parameters: readonly PolicyAssertion[];
  nested?: PolicyFacts;
}
export type PolicyAlternative = readonly PolicyAssertion[];
/** A policy in normal form: its alternatives, any one of which is the policy (`[[]]`: it asks for nothing). */
export type PolicyFacts = readonly PolicyAlternative[];

/** The policy expressions one SOAP binding attaches to an operation, by subject (WS-PolicyAttachment §3.1). */
export interface WsdlOperationPolicies {
  /** The binding's name. */
  binding: string;
  /** The endpoint's: of the service, the port served and its binding. */
  endpoint: readonly PolicyFacts[];
  /** The bound operation's. */
  operation: readonly PolicyFacts[];
  /** The bound input's and output's (the message subjects). */
  input: readonly PolicyFacts[];
  output: readonly PolicyFacts[];
}

export interface WsdlOperationFacts {
  /** The operation's name in generated code: the WSDL's, or of an overloaded one after the first, its own (`overload`). */
  name: string;
  /**
   * An overloaded operation (one WSDL name, several operations told apart by their input and output names): the
   * name the WSDL gives it (its rpc wrapper's) when `name` is another, and the input and output names it is bound by.
   */
  overload?: { wsdlName: string; input?: string; output?: string };
  /**
   * The WSDL's name of a document-style operation of one port type whose name an operation of another port type
   * served has taken (Travelport's services each bind a port type of one operation `service`): `name` is then
   * `{port type}_{name}`.
   */
  wsdlName?: string;
  /** The port type that declares it (`{namespace}name`): a service may bind several. */
  portType?: string;
  documentation: string;
  style: 'document' | 'rpc';
  /** The SOAPAction each SOAP binding declares (absent: no binding of that version). */
  soapActions: Partial<Record<'soap11' | 'soap12', string>>;
  /** Absent when the service has no SOAP port (HTTP GET/POST bindings only). */
  input?: WsdlSoapMessage;
  /** Absent for a one-way operation (or without a SOAP port). */
  output?: WsdlSoapMessage;
  /** The WS-Policy each SOAP binding attaches to the operation; absent when the contract attaches none. */
  policies?: Partial<Record<'soap11' | 'soap12', WsdlOperationPolicies>>;
  /** The port type operation's WS-Addressing actions (read/wsdl/policy.ts); absent when the contract attaches no policy. */
  addressingActions?: AddressingActions;
  /**
   * Declared faults: each a message of one part, the fault's detail. A part naming a type (Axis 1's rpc/literal
   * faults) has a detail element no schema declares, named after the part in the fault's namespace: `type` is its
   * type, and the served schemas declare it.
   */
  faults: { name: string; element: QName; type?: QName }[];
  /** From the HTTP GET binding, else the HTTP POST one; absent when neither has the operation. */
  http?: {
    location: string;
    /** The path under the endpoint the operation is served at ({endpoint}/{segment}), without the slash. */
    segment: string;
    inputParts: WsdlPart[];
    /** Absent for a void operation (an output message without parts). */
    outputElement?: QName;
    /**
     * The request is its one part's element as the POST body (`mime:content type="text/xml"` or `application/xml`,
     * `mime:mimeXml`: Axis2's HTTP binding), not query or form fields; the media type the answer is written as.
     */
    xmlBody?: { mediaType: string };
  };
}

export interface WsdlPort {
  name: string;
  binding: string;
  variant: Variant;
  /** The path of the port's address (`/Service.asmx` of `http://localhost/Service.asmx`): where it answers. */
  path: string;
}

export interface WsdlFacts {
  targetNamespace: string;
  /** The service served, or the first of those served (its name names the generated client and pages). */
  service: string;
  ports: WsdlPort[];
  /** Each service chosen (every one, or the one named) and the names of its ports served (none: not served). */
  services: { name: string; ports: string[] }[];
  operations: WsdlOperationFacts[];
  /** What was chosen among several services or bindings, in a line for the user; absent when nothing was. */
  choice?: string;
  /** The policy references and attachments that could not be read, each named (absent: none). */
  unreadPolicies?: string[];
  /** How many ports of the services chosen and operations of their bindings there are, served or not. */
  allPorts: number;
  allOperations: number;
  /** What is served of every port of every service the WSDL declares (SOAP and HTTP ones): what `npm run corpus` counts. */
  coverage: WsdlCoverage;
}

/**
 * What is served of a WSDL: the operations (by name) of every SOAP or HTTP port of every service, and each port
 * complete (served with every operation its binding binds) or not. A contract is served whole when every port is.
 */
export interface WsdlCoverage {
  operations: number;
  servedOperations: number;
  ports: number;
  completePorts: number;
}
