/**
 * The package entry: the generated typed client, its error and the
 * contract's types (AuthenticatorApiClient, PairingInfo… for schema/), and
 * what an application needs to embed the service itself.
 */
export * from '../../generated/client';
export * from '../../generated/types';
export { CLIENT_VARIANTS } from '../runtime';
/** The contract's namespace (the WSDL's targetNamespace), the client's and the service's default. */
export { TARGET_NAMESPACE as DEFAULT_NAMESPACE } from '../../generated/routes';

export { createApp, type AppDependencies } from './app';
/** Await once before createApp (startService does it itself). */
export { loadXmlEngine } from '../runtime/host';
export { startService, type RunningService } from './server';
export { parseConfig, defaultConfig, ConfigError, type Config } from './config';
export { createLogger } from './observability/logger';
