/**
 * The variables kubelet puts in a pod's environment for a Service of its
 * namespace (enableServiceLinks, on by default), as kubelet's envvars.go
 * writes them: the Service's name in capitals with `-` as `_`, its cluster
 * IP, its first port, every named port, and the Docker-style link variables
 * for each port.
 */
export interface ServicePort {
  name?: string;
  port: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export function serviceLinkVariables(service: string, clusterIp: string, ports: readonly ServicePort[]): Record<string, string> {
  const name = service.toUpperCase().replaceAll('-', '_');
  const host = clusterIp.includes(':') ? `[${clusterIp}]` : clusterIp;
  const env: Record<string, string> = {
    [`${name}_SERVICE_HOST`]: clusterIp,
    [`${name}_SERVICE_PORT`]: String(ports[0].port),
  };
  for (const port of ports) {
    if (port.name) env[`${name}_SERVICE_PORT_${port.name.toUpperCase().replaceAll('-', '_')}`] = String(port.port);
  }
  const url = (port: ServicePort) => `${(port.protocol ?? 'TCP').toLowerCase()}://${host}:${port.port}`;
  env[`${name}_PORT`] = url(ports[0]);
  for (const port of ports) {
    const protocol = port.protocol ?? 'TCP';
    const prefix = `${name}_PORT_${port.port}_${protocol}`;
    env[prefix] = url(port);
    env[`${prefix}_PROTO`] = protocol.toLowerCase();
    env[`${prefix}_PORT`] = String(port.port);
    env[`${prefix}_ADDR`] = clusterIp;
  }
  return env;
}

/** What a pod sees when its namespace holds a Service named `pin-service` and one named `pin` (the names an operator reaches for). */
export function pinServiceLinks(): Record<string, string> {
  return {
    ...serviceLinkVariables('pin-service', '10.96.12.34', [
      { name: 'https', port: 443 },
      { name: 'management', port: 9091 },
    ]),
    ...serviceLinkVariables('pin', '10.0.0.1', [{ port: 8080 }]),
  };
}
