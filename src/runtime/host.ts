/**
 * The host's door: what a program that serves a contract imports. A
 * contract served on its own (contract-server.ts: what the handler
 * skeleton's index.ts and the mock run), and the parts a service with more
 * to do composes itself (src/service/: ports, pages, settings and state of
 * its own): the app builder, the route table and the contract's routes on
 * it, the request log, the listener, the settings machinery, and the XML
 * engine to load before the first app is made.
 */

// A contract served on its own.
export { type ContractAppOptions, createContractApp, runContractServer, type ServedContract, serveContract } from './contract-server';
export type { HeaderStackOptions, SoapSecuritySettings } from './soap-stack/stack';
export type { MtomSettings } from './wire/mtom';
export type { Authenticate, Credential } from './definition';
export { HOST_SETTINGS, type HostSettings, type ListenerSettingChoices, listenerSettings, type LogLevel } from './listener-settings';

// The parts of a host that composes its own app.
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
export { parseUrlEncoded } from './bindings/form';
export { loadXmlEngine } from './xml/xml-engine';

// The SOAP envelopes of both versions, for a host (or a check of what it serves) that writes a request itself.
export { SOAP11, SOAP12, soapEnvelope, type SoapVersion } from './wire/soap-envelope';
// SOAP encoding of rpc/encoded operations, read into literal form and written from it (as a client or a check calls them).
export { encodedAnswer, encodedCall, encodedHeaders, literalAnswer, literalCall, literalHeader } from './wire/soap-encoding';
export { requestAddressingHeaders } from './soap-stack/addressing';
