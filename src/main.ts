#!/usr/bin/env node
/** Command line: `pin-service [serve] [settings]`. */
import { ConfigError, helpText, parseConfig } from './config';
import { createLogger } from './observability/logger';
import { startService } from './server';

async function main(argv: string[]): Promise<void> {
  const args = argv[0] === 'serve' ? argv.slice(1) : argv;
  if (args.includes('--help') || args.includes('-h')) {
    console.log(helpText());
    return;
  }
  let config;
  try {
    config = parseConfig(args, process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`pin-service: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const service = await startService(config, logger);
  logger.info({ event: 'listening', url: service.url, namespace: config.namespace }, 'service started');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'stopping', signal }, 'finishing in-flight calls');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    service.close().then(() => {
      logger.info({ event: 'stopped' }, 'service stopped');
      logger.flush();
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(`pin-service: ${error.message}`);
  process.exit(1);
});
