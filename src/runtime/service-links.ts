/**
 * Kubernetes service links: for every Service in a pod's namespace, kubelet
 * puts variables in the pod's environment (unless the pod says
 * `enableServiceLinks: false`), named after the Service (`pin-service` →
 * `PIN_SERVICE_…`, `pin` → `PIN_…`). Under a settings prefix they look like
 * settings, so a settings table tells them apart by name and value together:
 *
 *   <NAME>_SERVICE_HOST=10.0.0.1                  <NAME>_PORT=tcp://10.0.0.1:8080
 *   <NAME>_SERVICE_PORT=8080                      <NAME>_PORT_8080_TCP=tcp://10.0.0.1:8080
 *   <NAME>_SERVICE_PORT_<PORT NAME>=8080          <NAME>_PORT_8080_TCP_PROTO=tcp
 *                                                 <NAME>_PORT_8080_TCP_PORT=8080
 *                                                 <NAME>_PORT_8080_TCP_ADDR=10.0.0.1
 *
 * (IPv6 addresses as `fd00::1`, bracketed in URLs.) A name of that shape
 * holding another kind of value is not a service link: a misspelt setting
 * such as `PIN_HTTPS_PORT=8443` is still refused.
 */
import { isIP } from 'node:net';
import { escapeRegExp } from './escape';

const PROTOCOL = '(?:TCP|UDP|SCTP)';
const PORT_NUMBER = /^(?:[1-9]\d{0,3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5])$/;

const isPort = (value: string) => PORT_NUMBER.test(value);
const isAddress = (value: string) => isIP(value) !== 0;

/** `tcp://10.0.0.1:8080`, `udp://[fd00::1]:53`: what kubelet writes for a Service's port. */
function isPortUrl(value: string): boolean {
  const match = /^(?:tcp|udp|sctp):\/\/(?:\[([^\]]+)\]|([^:/[\]]+)):(\d+)$/.exec(value);
  if (!match) return false;
  const address = match[1] ?? match[2];
  return (match[1] === undefined ? isIP(address) === 4 : isIP(address) === 6) && isPort(match[3]);
}

/** The rest of a variable's name after the Service's name (an empty name: a Service named as the prefix itself), with the value it must hold. */
const SHAPES: ReadonlyArray<readonly [suffix: string, value: (text: string) => boolean]> = [
  ['SERVICE_HOST', isAddress],
  ['SERVICE_PORT(?:_[A-Z0-9_]+)?', isPort],
  ['PORT', isPortUrl],
  [`PORT_\\d+_${PROTOCOL}`, isPortUrl],
  [`PORT_\\d+_${PROTOCOL}_PROTO`, (text) => /^(?:tcp|udp|sctp)$/.test(text)],
  [`PORT_\\d+_${PROTOCOL}_PORT`, isPort],
  [`PORT_\\d+_${PROTOCOL}_ADDR`, isAddress],
];

/**
 * Tells whether `name=value` is a variable kubelet injects for a Service whose
 * variables start with `prefix` (`PIN_` names the Services `pin` and `pin-…`).
 */
export function serviceLinkTest(prefix: string): (name: string, value: string) => boolean {
  const shapes = SHAPES.map(([suffix, value]) => [new RegExp(`^${escapeRegExp(prefix)}(?:[A-Z0-9_]*_)?${suffix}$`), value] as const);
  return (name, value) => shapes.some(([shape, holds]) => shape.test(name) && holds(value));
}
