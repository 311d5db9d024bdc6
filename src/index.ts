/**
 * The package entry: the generated typed client and its error, and what an
 * application needs to embed the service itself.
 */
export {
  AuthenticatorApiClient,
  AuthenticatorApiError,
  type AuthenticatorApiClientOptions,
  type CallOptions,
  type ClientVariant,
} from '../generated/client';
export { PairingInfo, type PairFields, type ValidatePinFields } from '../generated/types';
export { CLIENT_VARIANTS } from './client/exchange';
export { DEFAULT_NAMESPACE } from './client/defaults';

export { createApp, type AppDependencies } from './app';
/** Await once before createApp (startService does it itself). */
export { loadXmlEngine } from './xml/xml-engine';
export { startService, type RunningService } from './server';
export { parseConfig, defaultConfig, ConfigError, type Config } from './config';
export { createLogger } from './observability/logger';
