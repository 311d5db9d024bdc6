/** `pin-service pair`: the manual setup code and a QR code in the terminal, as the Pair operation pairs them. */
import { toString as qrToString } from 'qrcode';
import { parseConfig, type Config } from '../config';
import { ServiceError } from '../../runtime/errors';
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
