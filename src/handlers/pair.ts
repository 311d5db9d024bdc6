import { toString as qrToString } from 'qrcode';
import { parseConfig, type Config } from '../config';
import { ServiceError, UsageError, clientError } from '../runtime/errors';
import { encodeBase32 } from '../otp/base32';
import { otpauthUri } from '../otp/uri';
import { qrSegments } from '../qr/matrix';
import { QrCapacityError, qrSvgDataUri, qrSymbol } from '../qr/svg';
import { operationPage, qrPage, required } from '../pages/plain-pages';
import { Pair, PairingInfo } from '../../generated/types';
import { SERVICE_NAME } from '../../generated/routes';
import type { BoundHandler, HandlerContext, OperationExtras, TerminalCommand } from './by-convention';
import { LIMITS, optionalText, presentText, secretKey } from './fields';
import { escapeEach } from '../runtime/xml/xml-codec';

export type PairSettings = Pick<Config, 'secretEncoding' | 'minSecretBytes' | 'algorithm' | 'digits' | 'period' | 'qr' | 'publicUrl'>;

/**
 * Pair: the manual setup code (Base32 of the key) and an HTML fragment whose
 * link opens an authenticator app on a phone and whose inline QR code is
 * scanned elsewhere. The secret never leaves this service.
 */
export function pairingInfo(request: Pair, settings: PairSettings): PairingInfo {
  const key = secretKey(request.secretCode, settings.secretEncoding);
  if (key.length < settings.minSecretBytes) {
    throw clientError(`secretCode must be at least ${settings.minSecretBytes} bytes (${settings.minSecretBytes * 8} bits) long.`);
  }
  // An empty appInfo is answered, as the original answers it; an absent one is refused.
  const account = presentText('appInfo', request.appInfo, LIMITS.appInfo);
  const issuer = optionalText('appName', request.appName, LIMITS.appName);
  const manualSetupCode = encodeBase32(key);
  const uri = pairingUri(issuer, account, manualSetupCode, settings);
  const html =
    `<a title='Manually pair with ${escapeHtml(manualSetupCode)}' href='${escapeHtml(uri)}'>` +
    `<img src='${escapeHtml(qrSource(uri, settings))}' border=0></a>`;
  return new PairingInfo({ ManualSetupCode: manualSetupCode, Html: html });
}

/** The otpauth URI of a pairing; with neither appName nor appInfo, the label is the service's name. */
export function pairingUri(
  issuer: string | undefined,
  account: string,
  manualSetupCode: string,
  settings: Pick<Config, 'algorithm' | 'digits' | 'period'>,
): string {
  return otpauthUri({
    issuer,
    account,
    unnamed: SERVICE_NAME,
    secret: manualSetupCode,
    algorithm: settings.algorithm,
    digits: settings.digits,
    period: settings.period,
  });
}

/** Inline SVG by default; `link` points at this service's own /qr.aspx, never a third party. */
function qrSource(uri: string, settings: PairSettings): string {
  try {
    if (settings.qr === 'link' && settings.publicUrl) {
      qrSymbol(uri); // /qr.aspx must be able to draw what the link asks for
      return `${settings.publicUrl}/qr.aspx?size=200x200&data=${encodeURIComponent(uri)}`;
    }
    return qrSvgDataUri(uri);
  } catch (error) {
    // Each field is within its limit, but percent-encoded non-ASCII text can still outgrow a QR code.
    if (error instanceof QrCapacityError) throw clientError('appName and appInfo are too long together to fit in a QR code.');
    throw error;
  }
}

const HTML_ESCAPES = [
  ['&', /&/g, '&amp;'],
  ['<', /</g, '&lt;'],
  ['>', />/g, '&gt;'],
  ['"', /"/g, '&quot;'],
  ["'", /'/g, '&#39;'],
] as const;

export function escapeHtml(text: string): string {
  return escapeEach(text, HTML_ESCAPES);
}

/** The Pair operation: its pairing, with the service's settings. */
export async function pair(request: Pair, { config }: HandlerContext): Promise<PairingInfo | undefined> {
  return pairingInfo(request, config);
}

declare module './by-convention' {
  interface HandlerModules {
    Pair: typeof pair;
  }
}

/** /pair.aspx: the Html fragment of a pairing, from query parameters named as the reference names them. */
function pairPage(call: BoundHandler<'Pair'>) {
  return operationPage(
    'Pair',
    (get) =>
      new Pair({
        appName: required(get, 'AppName'),
        appInfo: required(get, 'AppInfo', 'empty allowed'), // as Pair takes it
        secretCode: required(get, 'SecretCode'),
      }),
    call,
    'text/html; charset=utf-8',
    (info) => info?.Html ?? '',
  );
}

/** The flag of `pair` that gives each field of the Pair operation. */
const PAIR_FLAGS: Record<string, string> = { appName: '--app', appInfo: '--account', secretCode: '--secret' };

/** `pin-service pair`: the manual setup code and a QR code in the terminal. */
const pairCommand: TerminalCommand = {
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

export const extras: OperationExtras<'Pair'> = {
  pages: { '/pair.aspx': pairPage, '/qr.aspx': () => qrPage },
  command: pairCommand,
  showsPairing: true,
};
