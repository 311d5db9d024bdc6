/**
 * The command line: `serve` (default) runs the service; `secret` prints a new
 * random Base32 secret; `pair` prints the manual setup code and a QR code in
 * the terminal. Each takes `--help`.
 */
import { randomBytes } from 'node:crypto';
import { toString as qrToString } from 'qrcode';
import { qrSegments } from '../qr/matrix';
import { ConfigError, parseConfig, type Config } from '../config';
import { helpText } from './help';
import { ServiceError } from '../errors';
import { pair, pairingUri } from '../handlers/pair';
import { encodeBase32 } from '../otp/base32';
import { Pair } from '../../generated/types';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

const COMMANDS = `Commands:
  serve    run the service (the default)
  secret   print a new random secret (160 bits, Base32)
  pair     print the manual setup code and a pairing QR code for a secret

Run pin-service COMMAND --help for the options of each.`;

const COMMANDS_HELP = `Usage: pin-service [command] [options]\n\n${COMMANDS}`;

const SECRET_HELP = `Usage: pin-service secret [--bytes N]

Prints a new random secret from the operating system's CSPRNG, as Base32
(RFC 4648, no padding): 20 bytes (160 bits, 32 characters) unless --bytes.
It works as a secretCode in either secret encoding.`;

const PAIR_HELP = `Usage: pin-service pair --app NAME --account ACCOUNT --secret SECRET [settings]

Prints the ManualSetupCode and a QR code to scan with an authenticator app,
exactly as the Pair operation would pair them. Settings that change the
pairing (--secret-encoding, --algorithm, --digits, --period,
--min-secret-bytes) are those of the service; see pin-service serve --help.`;

/** The flag of `pair` that gives each field of the Pair operation. */
const PAIR_FLAGS: Record<string, string> = { appName: '--app', appInfo: '--account', secretCode: '--secret' };

/** Runs a non-serving command; answers the exit code, or undefined for `serve`. */
export async function runCommand(argv: string[], io: CliIo): Promise<number | undefined> {
  const [command, ...rest] = argv[0] && !argv[0].startsWith('-') ? argv : ['serve', ...argv];
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  switch (command) {
    case 'serve':
      if (wantsHelp) {
        io.out(`${helpText()}\n\n${COMMANDS}`);
        return 0;
      }
      return undefined;
    case 'secret':
      if (!wantsHelp) return secretCommand(rest, io);
      io.out(SECRET_HELP);
      return 0;
    case 'pair':
      if (!wantsHelp) return pairCommand(rest, io);
      io.out(PAIR_HELP);
      return 0;
    case 'help':
      io.out(COMMANDS_HELP);
      return 0;
    default:
      throw new UsageError(`unknown command ${command} (see --help)`);
  }
}

function secretCommand(args: string[], io: CliIo): number {
  let bytes = 20;
  if (args.length) {
    const [flag, value] = args[0].includes('=') ? args[0].split('=', 2) : [args[0], args[1]];
    if (
      flag !== '--bytes' ||
      !/^\d+$/.test(value ?? '') ||
      Number(value) < 10 ||
      Number(value) > 64 ||
      args.length > (args[0].includes('=') ? 1 : 2)
    ) {
      throw new UsageError('secret takes only --bytes N (10 to 64)');
    }
    bytes = Number(value);
  }
  io.out(encodeBase32(randomBytes(bytes)));
  return 0;
}

async function pairCommand(args: string[], io: CliIo): Promise<number> {
  const own: Record<string, string> = {};
  const settings: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].includes('=')
      ? [args[i].slice(0, args[i].indexOf('=')), args[i].slice(args[i].indexOf('=') + 1)]
      : [args[i], undefined];
    if (flag === '--app' || flag === '--account' || flag === '--secret') {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
      own[flag.slice(2)] = value;
    } else {
      settings.push(args[i]);
      if (inline === undefined && args[i + 1] !== undefined && !args[i + 1].startsWith('--')) settings.push(args[++i]);
    }
  }
  if (!own.account || !own.secret) throw new UsageError('pair needs --account and --secret (and usually --app)');
  const config: Config = parseConfig(settings, {});
  let info: ReturnType<typeof pair>;
  try {
    info = pair(new Pair({ appName: own.app, appInfo: own.account, secretCode: own.secret }), { ...config, qr: 'inline' });
  } catch (error) {
    // The operation's messages name its fields; here the user typed flags.
    if (error instanceof ServiceError)
      throw new UsageError(error.message.replace(/\b(appName|appInfo|secretCode)\b/g, (field) => PAIR_FLAGS[field]));
    throw error;
  }
  const uri = pairingUri(own.app, own.account, info.ManualSetupCode!, config);
  io.out(`ManualSetupCode: ${info.ManualSetupCode}`);
  io.out(`URI: ${uri}`);
  io.out(await qrToString(qrSegments(uri), { type: 'terminal', small: true, errorCorrectionLevel: 'M' }));
  return 0;
}

/** The address a person opens: localhost when the service listens on every interface. */
export function addressToOpen(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = 'localhost';
  return url.origin;
}

/** One line for the user, never a stack trace. */
export function describeFailure(error: unknown): string | undefined {
  if (error instanceof ConfigError || error instanceof UsageError || error instanceof ServiceError) return error.message;
  return describeListenFailure(error as NodeJS.ErrnoException & { hostname?: string; address?: string; port?: number });
}

/** A host or port the service cannot listen on is a setting the user gave: say which. */
function describeListenFailure(error: NodeJS.ErrnoException & { hostname?: string; address?: string; port?: number }): string | undefined {
  switch (error?.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `--host ${error.hostname}: no such host name`;
    case 'EADDRNOTAVAIL':
      return `--host ${error.address}: not an address of this machine`;
    case 'EADDRINUSE':
      return `--port ${error.port}: already in use on ${error.address}`;
    case 'EACCES':
      return `--port ${error.port}: not allowed for this user (ports below 1024 need privileges)`;
    default:
      return undefined;
  }
}
