/**
 * GET /favicon.ico: the icon a browser asks for beside the help pages (a 404 there fills a browser's console and the
 * request log): a small SVG drawn here, of no contract in particular, cached for a day.
 */
import type { CallContext } from '../call-state';

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b5cad"/>' +
  '<path d="M5 4.5 2.5 8 5 11.5M11 4.5 13.5 8 11 11.5M9 3.5l-2 9" stroke="#fff" stroke-width="1.5" fill="none" stroke-linecap="round"/></svg>';

export async function favicon(ctx: CallContext): Promise<void> {
  ctx.set('Content-Type', 'image/svg+xml');
  ctx.set('Cache-Control', 'public, max-age=86400');
  ctx.body = ICON;
}
