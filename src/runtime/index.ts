/**
 * The runtime's front door, which hands on every door: generated code imports
 * the doors made for it (codec.ts, and client/index.ts for the typed client),
 * a handler module handler.ts, a host host.ts, a tool that reads XML (codegen/)
 * xml/index.ts; src/service/ imports the handler and host doors. A team's
 * project that installed the package imports them by name
 * (`contract-runtime`, `contract-runtime/codec`, …: this folder's
 * package.json's `exports`). The runtime's own modules import each other
 * directly.
 */

// A contract as codegen writes it (generated/contract.ts, routes.ts, json.ts), and the call a handler answers.
export type {
  AddressingActions,
  AddressingHeaders,
  AddressingVersion,
  Authenticate,
  Call,
  CallVariant,
  ContractDefinition,
  Credential,
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
  SoapPolicy,
  Variant,
} from './definition';

// What a handler module imports (handler.ts): the errors it throws, the convention that binds it, markup escaped.
export {
  bindHandlers,
  clientError,
  DeclaredFault,
  type ErrorKind,
  type EveryOperationHandled,
  escapeEach,
  escapeHtml,
  loadHandlerModules,
  type OperationHandler,
  ServiceError,
} from './handler';

// The generated classes' reading and writing of XML, and their JSON.
export {
  childElements,
  DecodeError,
  decodeErrorAt,
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
  XsiTyped,
  xsiTyped,
  readTypedRoot,
  type RootType,
  type TypedRoot,
  writeTypedRoot,
  xsiTypeAttribute,
  xsiTypedValue,
} from './xml/xml-codec';
export { formatXsdUnion, parseXsdUnion, type XsdUnionMember } from './xml/xsd-unions';
export {
  type AnyAttribute,
  type AnyContent,
  AnyType,
  anyTypeContent,
  type DeclaredElement,
  type GlobalElements,
  type KeptElement,
  keepWildcardElement,
  readAnyType,
  readWildcardElement,
  type WildcardElement,
  wildcardElementXml,
} from './xml/any-type';
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

// What a host imports (host.ts): a contract served on its own, and the parts of one that composes its own app.
export {
  addContractRoutes,
  type AppParts,
  buildApp,
  type CallContext,
  type CallState,
  callOf,
  type CloseOptions,
  ConfigError,
  type Contract,
  type ContractAppOptions,
  type ContractRouteOptions,
  connectionLimits,
  createContractApp,
  digits,
  HOST_HEADER,
  HOST_SETTINGS,
  type HeaderStackOptions,
  type HelpExtension,
  type MtomSettings,
  type HostSettings,
  integer,
  type Listener,
  type ListenOptions,
  listen,
  listenHost,
  liveness,
  loadContract,
  namespaceUri,
  oneOf,
  optional,
  parseUrlEncoded,
  publicUrl,
  type RequestLogFields,
  type RouteHandler,
  RouteTable,
  requestLog,
  runContractServer,
  type ServedContract,
  serveContract,
  type SettingSpec,
  type SettingsTable,
  type SoapSecuritySettings,
  type SettingValues,
  setting,
  settingsTable,
  type ValueType,
  yesNo,
} from './host';
