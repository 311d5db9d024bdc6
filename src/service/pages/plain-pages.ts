/**
 * The plain pages beside the web service, as the reference serves them:
 * /pair.aspx answers the Pair Html fragment, /Validate.aspx True or False,
 * and /qr.aspx renders a QR code here, never a redirect to a third party.
 * Paths and parameter names match in any case. They call the operations'
 * handlers, and so share the settings, replay protection and throttling of
 * the web service.
 */
import type { Handlers, OperationName } from '../../../generated/routes';
import { Pair, ValidatePin } from '../../../generated/types';
import { type Call, clientError } from '../../runtime/handler';
import { type CallContext, callOf, parseUrlEncoded } from '../../runtime/host';
import { QrCapacityError, qrSvg } from '../qr/svg';
import { qrPng } from '../qr/png';

/** Largest QR image side, in pixels: bounds the work one request can ask for. */
export const QR_MAX_PIXELS = 1000;
const QR_MIN_PIXELS = 21;

/** Query parameters by lower-case name; a parameter given twice is refused. */
function query(ctx: CallContext): (name: string) => string | undefined {
  const values = new Map<string, string>();
  for (const [name, given] of parseUrlEncoded(ctx.querystring)) {
    const key = name.toLowerCase();
    if (values.has(key) || given.length > 1) throw clientError(`The parameter ${name} is given more than once.`);
    values.set(key, given[0]);
  }
  return (name) => values.get(name.toLowerCase());
}

/** The reference's message for a missing parameter, with a 400 instead of its stack trace; `empty` allows `Name=`. */
function required(get: (name: string) => string | undefined, name: string, empty: 'empty allowed' | 'not empty' = 'not empty'): string {
  const value = get(name);
  if (value === undefined || (value === '' && empty === 'not empty')) throw clientError(`Pass '${name}' in QueryString`);
  return value;
}

/** The pages by path (the router matches them in any case), each calling its operation's handler. */
export function plainPages(handlers: Handlers): Record<string, (ctx: CallContext) => Promise<void>> {
  return {
    '/pair.aspx': operationPage(
      'Pair',
      (get) =>
        new Pair({
          appName: required(get, 'AppName'),
          appInfo: required(get, 'AppInfo', 'empty allowed'), // as Pair takes it
          secretCode: required(get, 'SecretCode'),
        }),
      handlers.Pair,
      'text/html; charset=utf-8',
      (info) => info?.Html ?? '',
    ),
    '/validate.aspx': operationPage(
      'ValidatePin',
      (get) => new ValidatePin({ pin: required(get, 'Pin'), secretCode: required(get, 'SecretCode') }),
      handlers.ValidatePin,
      'text/plain; charset=utf-8',
      (valid) => (valid ? 'True' : 'False'),
    ),
    '/qr.aspx': qrPage,
  };
}

/**
 * An operation's plain page: its request read from the query, the handler's
 * answer written as `contentType`, kept by no cache (it may hold a secret).
 */
function operationPage<Request, Result>(
  operation: OperationName,
  read: (get: (name: string) => string | undefined) => Request,
  handler: (request: Request, call: Call) => Promise<Result>,
  contentType: string,
  write: (result: Result) => string,
) {
  return async function page(ctx: CallContext): Promise<void> {
    ctx.state.variant = 'page';
    ctx.state.operation = operation;
    const result = await handler(read(query(ctx)), callOf(ctx, operation, 'page'));
    ctx.set('Content-Type', contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = write(result);
  };
}

async function qrPage(ctx: CallContext): Promise<void> {
  ctx.state.variant = 'page';
  const get = query(ctx);
  const data = required(get, 'data');
  const pixels = qrSize(get('size'));
  const format = (get('format') ?? 'png').toLowerCase();
  if (format !== 'png' && format !== 'svg') throw clientError('format must be png or svg.');
  try {
    if (format === 'svg') {
      ctx.set('Content-Type', 'image/svg+xml');
      ctx.body = qrSvg(data, pixels);
    } else {
      ctx.set('Content-Type', 'image/png');
      ctx.body = await qrPng(data, pixels);
    }
  } catch (error) {
    if (error instanceof QrCapacityError) throw clientError('data is too long for a QR code.');
    throw error;
  }
  // The data may be an otpauth URI holding a secret: no cache may keep it.
  ctx.set('Cache-Control', 'no-store');
}

/** `size=WxH` as the reference takes it (a QR code is square: the smaller side wins); default 300. */
function qrSize(size: string | undefined): number {
  if (size === undefined || size === '') return 300;
  const match = /^(\d{1,5})x(\d{1,5})$/i.exec(size);
  if (!match) throw clientError('size must be WIDTHxHEIGHT in pixels, e.g. 300x300.');
  const pixels = Math.min(Number(match[1]), Number(match[2]));
  if (pixels < QR_MIN_PIXELS || Math.max(Number(match[1]), Number(match[2])) > QR_MAX_PIXELS) {
    throw clientError(`size must be between ${QR_MIN_PIXELS} and ${QR_MAX_PIXELS} pixels each way.`);
  }
  return pixels;
}
