/**
 * The command line: `serve` (default) runs the service; `secret` prints a new
 * random Base32 secret; `pair` prints the manual setup code and a QR code in
 * the terminal; `secret-status` and `unlock` ask the running service about a
 * secret, and unlock it. Each takes `--help`.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config';
import { helpText } from './help';
import { ServiceError } from '../../runtime/handler';
import { encodeBase32 } from '../otp/base32';
import { secretStatusCommand, unlockCommand } from './admin-commands';
import { pairCommand, type TerminalCommand } from './pair-command';
import { UsageError } from './usage-error';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Default: the process's standard input. */
  stdin?: NodeJS.ReadableStream;
}

/** The commands beside `serve`, `secret` and `help`, by name. */
const COMMANDS: ReadonlyMap<string, TerminalCommand> = new Map(
  [pairCommand, secretStatusCommand, unlockCommand].map((command) => [command.name, command]),
);

function commandList(added: ReadonlyMap<string, TerminalCommand>): string {
  const rows: [string, string][] = [
    ['serve', 'run the service (the default)'],
    ['secret', 'print a new random secret (160 bits, Base32)'],
    ...[...added.values()].map((c): [string, string] => [c.name, c.summary]),
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 3;
  return `Commands:\n${rows.map(([name, summary]) => `  ${name.padEnd(width)}${summary}`).join('\n')}\n\nRun pin-service COMMAND --help for the options of each.`;
}

const SECRET_HELP = `Usage: pin-service secret [--bytes N]

Prints a new random secret from the operating system's CSPRNG, as Base32
(RFC 4648, no padding): 20 bytes (160 bits, 32 characters) unless --bytes.
It works as a secretCode in either secret encoding.`;

/** Runs a non-serving command; answers the exit code, or undefined for `serve`. */
export async function runCommand(argv: string[], io: CliIo): Promise<number | undefined> {
  const [command, ...rest] = argv[0] && !argv[0].startsWith('-') ? argv : ['serve', ...argv];
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  const added = COMMANDS;
  switch (command) {
    case 'serve':
      if (wantsHelp) {
        io.out(`${helpText()}\n\n${commandList(added)}`);
        return 0;
      }
      return undefined;
    case 'secret':
      if (!wantsHelp) return secretCommand(rest, io);
      io.out(SECRET_HELP);
      return 0;
    case 'help':
      io.out(`Usage: pin-service [command] [options]\n\n${commandList(added)}`);
      return 0;
    default: {
      const own = added.get(command);
      if (!own) throw new UsageError(`unknown command ${command} (see --help)`);
      if (!wantsHelp) return own.run(rest, io);
      io.out(own.help);
      return 0;
    }
  }
}

function secretCommand(args: string[], io: CliIo): number {
  let bytes = 20;
  const { tokens } = parseArgs({ args, options: { bytes: { type: 'string' } }, strict: false, allowPositionals: true, tokens: true });
  if (tokens.length) {
    const [only] = tokens;
    const value = only.kind === 'option' && only.rawName === '--bytes' ? only.value : undefined;
    if (tokens.length > 1 || value === undefined || !/^\d+$/.test(value) || Number(value) < 10 || Number(value) > 64) {
      throw new UsageError('secret takes only --bytes N (10 to 64)');
    }
    bytes = Number(value);
  }
  io.out(encodeBase32(randomBytes(bytes)));
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
