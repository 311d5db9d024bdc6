/**
 * Pair's help page shows its answer as a person needs it: the QR code drawn
 * (a link that opens the authenticator app on a phone) and the setup code as
 * text, above the test form's XML answer (folded). Both are read with the
 * browser's own parsers; the Html is never inserted as markup.
 */
import type { HelpExtension } from '../../runtime/host';

const MARKUP = `<style>
  /* A light quiet zone around the QR code in both themes, or phones cannot read it from the screen. */
  #qr img { display: block; width: 240px; max-width: 100%; height: auto; background: #fff; padding: 12px; border-radius: 6px; }
  #setup-code { font-size: 1.1rem; letter-spacing: .05em; }
</style>
<section id="meaning" aria-live="polite" hidden>
<h3>What it means</h3>
<p>Scan the QR code with the authenticator app (on a phone, tap it), or type the setup code into it.</p>
<p id="qr"></p>
<p>Setup code: <code id="setup-code"></code></p>
</section>`;

const SCRIPT = `
const meaning = document.getElementById('meaning');
const folded = document.getElementById('answer-xml');
function showPairing(status, text) {
  meaning.hidden = true;
  folded.open = true;
  const qr = document.getElementById('qr');
  qr.replaceChildren();
  const info = status === 200 ? new DOMParser().parseFromString(text, 'application/xml').documentElement : null;
  if (!info || info.localName !== 'PairingInfo') return;
  const field = (name) => [...info.children].find((e) => e.localName === name)?.textContent ?? '';
  const fragment = new DOMParser().parseFromString(field('Html'), 'text/html');
  const source = fragment.querySelector('img[src]')?.getAttribute('src');
  const target = fragment.querySelector('a[href]')?.getAttribute('href') ?? '';
  if (source) {
    const image = document.createElement('img');
    image.src = source;
    image.alt = 'QR code to scan with the authenticator app';
    if (target.startsWith('otpauth:')) {
      const link = document.createElement('a');
      link.href = target;
      link.append(image);
      qr.append(link);
    } else qr.append(image);
  }
  document.getElementById('setup-code').textContent = field('ManualSetupCode');
  meaning.hidden = false;
  // What the answer means first; its XML (a screen of base64 for the QR code) a click away.
  folded.open = false;
}
document.getElementById('answer').addEventListener('answer', (event) => showPairing(event.detail.status, event.detail.text));`;

export const PAIRING_HELP: HelpExtension = { markup: MARKUP, script: SCRIPT };

/** The service page's first sentence. */
export const SERVICE_LEAD = 'A PIN pairing and validation service (TOTP, as used by Google Authenticator and compatible apps).';
