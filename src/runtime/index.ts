/**
 * The runtime's front door: what a handler module and a host import, and
 * nothing else; generated code imports the doors made for it instead
 * (codec.ts, and client/index.ts for the typed client), whose names this
 * door exports too, for its other importers. src/service/ imports the
 * runtime through it by path; a team's project that installed the package
 * imports it by name (`pin-service/runtime`, package.json's `exports`). The
 * runtime's own modules import each other directly.
 */

// A contract as codegen writes it (generated/contract.ts, routes.ts, json.ts), and the call a handler answers.
export type {
  Call,
  CallVariant,
  ContractDefinition,
  Handlers,
  HeaderRoute,
  HeadersOf,
  JsonOperation,
  OperationName,
  OperationsOf,
  OperationTypes,
  Port,
  RequestMessage,
  Route,
  SoapHeaders,
  Variant,
} from './definition';

// What a handler throws: a client's mistake or the service's failure, or a fault its operation declares.
export { clientError, DeclaredFault, type ErrorKind, ServiceError } from './errors';

// Handler modules found by convention, one per operation (the handler skeleton's index.ts binds them).
export { bindHandlers, type EveryOperationHandled, loadHandlerModules, type OperationHandler } from './handler-modules';

// The generated classes' reading and writing of XML, and their JSON.
export {
  childElements,
  DecodeError,
  type ElementCodec,
  formatXsdBoolean,
  isXsiNil,
  mixedContentOf,
  otherAttributesOf,
  parseXsdBoolean,
  readDocument,
  withXmlOrder,
  writeOtherAttributes,
  XML_DECLARATION,
  type XmlFragment,
  xmlFragmentOf,
  xmlOrderOf,
  XSD_NAMESPACE,
  XSI_NAMESPACE,
  xsiTypeOf,
} from './xml/xml-codec';
export { escapeXmlAttribute, escapeXmlText } from './xml/xml-escape';
export {
  formatXsdBase64Binary,
  formatXsdBigInteger,
  formatXsdDateTime,
  formatXsdFloat,
  formatXsdHexBinary,
  formatXsdInteger,
  formatXsdLexical,
  formatXsdQName,
  formatXsdQNameList,
  parseXsdBase64Binary,
  parseXsdBigInteger,
  parseXsdDateTime,
  parseXsdEnumeration,
  parseXsdFloat,
  parseXsdHexBinary,
  parseXsdInteger,
  parseXsdLexical,
  parseXsdQName,
  parseXsdText,
  xsdQNameDeclaration,
  xsdQNameListDeclarations,
} from './xml/xsd-values';
export {
  fromJsonArray,
  fromJsonBigInteger,
  fromJsonBoolean,
  fromJsonBytes,
  fromJsonDate,
  fromJsonDecimal,
  fromJsonEnum,
  fromJsonFloat,
  fromJsonInteger,
  fromJsonLexical,
  fromJsonObject,
  fromJsonString,
  toJsonBytes,
  toJsonDate,
  toJsonDecimal,
  toJsonEnum,
  toJsonFloat,
} from './xml/xsd-json';
export { loadXmlEngine, type XmlElement, type XsdValidator } from './xml/xml-engine';
export { compileSchemaSet } from './xml/xml-schema';
export { jsonString } from './wire/json-text';

// The typed client's transport (generated/client.ts).
export { DEFAULT_TIMEOUT_MS } from './client/defaults';
export { CLIENT_VARIANTS, type ClientVariant, type Decode, exchange, type Fault, isNil, type OperationSpec } from './client/exchange';
export { exchangeJson, jsonBoolean, JsonShapeError, jsonStringMembers, jsonText } from './client/json-exchange';

// A host: a contract served on its own (the handler skeleton's index.ts, the mock).
export { createContractApp, HOST_SETTINGS, type HostSettings, runContractServer, type ServedContract, serveContract } from './host';

// A host that composes the parts itself (src/service/: ports, pages, settings and state of its own).
export { type AppParts, buildApp } from './app-builder';
export { type CallContext, type CallState, callOf } from './call-state';
export { type Contract, loadContract } from './contract';
export { addContractRoutes, type ContractRouteOptions } from './contract-routes';
export { type RouteHandler, RouteTable } from './route-table';
export { liveness, requestLog, type RequestLogFields } from './request-log';
export { type CloseOptions, connectionLimits, type Listener, type ListenOptions, listen } from './listener';
export {
  ConfigError,
  digits,
  integer,
  listenHost,
  namespaceUri,
  oneOf,
  optional,
  publicUrl,
  setting,
  type SettingSpec,
  type SettingsTable,
  settingsTable,
  type SettingValues,
  type ValueType,
  yesNo,
} from './settings';
export { HOST_HEADER } from './pages/service-description';
export type { HelpExtension } from './help/pages';
export { escapeEach } from './escape';
export { parseUrlEncoded } from './bindings/form';
