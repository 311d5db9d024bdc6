/** `pin-service pair`: the manual setup code and a QR code in the terminal, as the Pair operation pairs them. */
import { parseArgs } from 'node:util';
import { toString as qrToString } from 'qrcode';
import { parseConfig, type Config } from '../config';
import { ServiceError } from '../../runtime/handler';
import { pairingInfo, pairingUri } from '../handlers/pair';
import { qrSegments } from '../qr/matrix';
import { Pair, type PairingInfo } from '../../../generated/types';
import { UsageError } from './usage-error';

/** What a command of the terminal writes to and reads from. */
export interface TerminalIo {
  out(text: string): void;
  err(text: string): void;
  /** Default: the process's standard input. */
  stdin?: NodeJS.ReadableStream;
}

/** A command of the terminal (`pin-service NAME`) beside `serve`. */
export interface TerminalCommand {
  name: string;
  /** One line for the list of commands. */
  summary: string;
  /** The text of `pin-service NAME --help`. */
  help: string;
  /** Runs the command; answers the exit code. A mistake of the user throws UsageError. */
  run(args: string[], io: TerminalIo): Promise<number>;
}

/** The flag of `pair` that gives each field of the Pair operation. */
const PAIR_FLAGS: Record<string, string> = { appName: '--app', appInfo: '--account', secretCode: '--secret' };
const OWN_FLAGS = new Set(Object.values(PAIR_FLAGS));
const OWN_OPTIONS = { app: { type: 'string' }, account: { type: 'string' }, secret: { type: 'string' } } as const;

/** `pin-service pair`: the manual setup code and a QR code in the terminal. */
export const pairCommand: TerminalCommand = {
  name: 'pair',
  summary: 'print the manual setup code and a pairing QR code for a secret',
  help: `Usage: pin-service pair --app NAME --account ACCOUNT --secret SECRET [settings]

Prints the ManualSetupCode and a QR code to scan with an authenticator app,
exactly as the Pair operation would pair them. Settings that change the
pairing (--secret-encoding, --algorithm, --digits, --period,
--min-secret-bytes) are those of the service; see pin-service serve --help.`,
  async run(args, io) {
    // Its own flags are taken out (node:util's parseArgs splits them); every other argument is a setting, in order.
    const own: Record<string, string> = {};
    const taken = new Set<number>();
    const { tokens } = parseArgs({ args, options: OWN_OPTIONS, strict: false, allowPositionals: true, tokens: true });
    for (const token of tokens) {
      if (token.kind !== 'option' || !OWN_FLAGS.has(token.rawName)) continue;
      if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
      own[token.name] = token.value;
      taken.add(token.index);
      if (!token.inlineValue) taken.add(token.index + 1);
    }
    const settings = args.filter((_, i) => !taken.has(i));
    if (!own.account || !own.secret) throw new UsageError('pair needs --account and --secret (and usually --app)');
    const config: Config = parseConfig(settings, {});
    let info: PairingInfo;
    try {
      info = pairingInfo(new Pair({ appName: own.app, appInfo: own.account, secretCode: own.secret }), { ...config, qr: 'inline' });
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
  },
};
