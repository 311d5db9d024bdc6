import type { Config } from '../config';
import { clientError, escapeHtml } from '../../runtime/handler';
import { encodeBase32 } from '../otp/base32';
import { otpauthUri } from '../otp/uri';
import { QrCapacityError, qrSvgDataUri, qrSymbol } from '../qr/svg';
import { type Pair, PairingInfo } from '../../../generated/types';
import { SERVICE_NAME } from '../../../generated/routes';
import type { OperationHandler, ServiceState } from './by-convention';
import { LIMITS, optionalText, presentText, secretKey } from './fields';

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

/** What Pair's handler is made from: the settings it reads, and the state whose keyed hash names the secret to the audit trail. */
export interface PairDependencies {
  settings: PairSettings;
  state: Pick<ServiceState, 'stateKeyOf' | 'outcomes'>;
}

/** The Pair operation: its pairing, with the service's settings, told to the audit trail by the secret's keyed hash. */
export function pair({ settings, state }: PairDependencies): OperationHandler<'Pair'> {
  return async (request, call) => {
    const outcomes = state.outcomes;
    outcomes?.ready();
    const info = pairingInfo(request, settings);
    outcomes?.paired(state.stateKeyOf(secretKey(request.secretCode, settings.secretEncoding)), call);
    return info;
  };
}

declare module './by-convention' {
  interface HandlerModules {
    Pair: typeof pair;
  }
}
