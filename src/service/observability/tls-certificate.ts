/**
 * pin_tls_certificate_not_after_seconds: when the served certificate expires,
 * so that an alert can fire before a renewal that did not happen shows as
 * failed handshakes.
 */
import { Gauge, type Registry } from 'prom-client';

export function tlsCertificateExpiry(registry: Registry): { set(notAfter: Date): void } {
  const gauge = new Gauge({
    name: 'pin_tls_certificate_not_after_seconds',
    help: 'Expiry (notAfter, Unix seconds) of the certificate served over HTTPS; with --workers the earliest over all workers',
    registers: [registry],
    // Summed over workers it would be meaningless; the earliest is the one to renew.
    aggregator: 'min',
  });
  return { set: (notAfter) => gauge.set(Math.floor(notAfter.getTime() / 1000)) };
}
