/**
 * deploy/kubernetes/ without a cluster (docs/operations.md, *Kubernetes*):
 * every document is validated against the Kubernetes API's schemas
 * (kubernetes-models: JSON Schema validation, then its types, which refuse a
 * field the API does not have, as `kubectl apply`'s strict field validation
 * does), then held to what the service needs and what the API server would
 * check beyond the schemas (selectors, named ports, volumes). The pods run as
 * the manifests say in test/system/kubernetes.test.ts.
 */
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { STOP_GRACE_MS } from '../../src/service/cli/serve';
import { SETTINGS } from '../../src/service/config';
import {
  containerPort,
  containers,
  flagsOf,
  type Manifest,
  type ManifestDocument,
  readManifests,
  REPO,
  workload,
} from '../support/kubernetes';

/** The kinds deploy/kubernetes/ may hold: kubernetes-models' module, class and type of each. */
const KINDS: Record<string, { module: string; name: string }> = {
  'v1/Service': { module: 'kubernetes-models/v1/Service', name: 'Service' },
  'apps/v1/StatefulSet': { module: 'kubernetes-models/apps/v1/StatefulSet', name: 'StatefulSet' },
  'apps/v1/Deployment': { module: 'kubernetes-models/apps/v1/Deployment', name: 'Deployment' },
  'networking.k8s.io/v1/NetworkPolicy': { module: 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy', name: 'NetworkPolicy' },
  'policy/v1/PodDisruptionBudget': { module: 'kubernetes-models/policy/v1/PodDisruptionBudget', name: 'PodDisruptionBudget' },
};

const kindOf = (manifest: Manifest) => `${manifest.apiVersion}/${manifest.kind}`;
const where = (d: ManifestDocument) => `${d.file} #${d.index + 1} (${d.manifest.kind} ${d.manifest.metadata?.name})`;

/** The JSON Schema validation of kubernetes-models (an ES module): the error's message, or undefined when valid. */
async function schemaErrors(manifest: Manifest): Promise<string | undefined> {
  const kind = KINDS[kindOf(manifest)];
  const specifier = kind.module;
  const Model = (await import(specifier))[kind.name] as new (data: Manifest) => { validate(): void };
  try {
    new Model(manifest).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The documents as object literals checked against kubernetes-models' types:
 * a field the API does not have is an excess property. Each error as the
 * path to the field (`spec.template.spec.containers[0].readinesProbe`) and
 * TypeScript's message.
 */
function fieldErrors(manifests: readonly Manifest[]): string[] {
  const file = join(REPO, 'test', 'kubernetes-manifests.virtual.mts');
  const source = manifests
    .map((manifest, i) => {
      const kind = KINDS[kindOf(manifest)];
      return `import type { I${kind.name} as T${i} } from '${kind.module}';\nexport const m${i} = ${JSON.stringify(manifest, null, 1)} satisfies T${i};\n`;
    })
    .join('');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language, true) : readSource(name, language, ...rest);
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || exists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file?.fileName !== file || diagnostic.start === undefined) return message;
    return `m${pathAt(diagnostic.file, diagnostic.start)}: ${message}`;
  });
}

/** The path of object keys and array indices from a document's literal down to `position`. */
function pathAt(sourceFile: ts.SourceFile, position: number): string {
  let path = '';
  const visit = (node: ts.Node): void => {
    if (position < node.getStart(sourceFile) || position >= node.getEnd()) return;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) path = node.name.text.slice(1);
    if (ts.isPropertyAssignment(node) && ts.isStringLiteral(node.name)) path += `.${node.name.text}`;
    if (ts.isArrayLiteralExpression(node)) {
      const index = node.elements.findIndex((e) => position >= e.getStart(sourceFile) && position < e.getEnd());
      if (index >= 0) path += `[${index}]`;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return path;
}

const DOCUMENTS = readManifests();

test('deploy/kubernetes/ holds both workloads, each with its Service, and only kinds the tests know', (t) => {
  const kinds = DOCUMENTS.map((d) => `${d.file}: ${d.manifest.kind}`);
  for (const expected of [
    'deploy/kubernetes/embedded/pin-service.yaml: StatefulSet',
    'deploy/kubernetes/embedded/pin-service.yaml: Service',
    'deploy/kubernetes/redis/pin-service.yaml: Deployment',
    'deploy/kubernetes/redis/pin-service.yaml: Service',
    'deploy/kubernetes/redis/pin-service.yaml: PodDisruptionBudget',
  ]) {
    t.true(kinds.includes(expected), expected);
  }
  for (const d of DOCUMENTS) t.truthy(KINDS[kindOf(d.manifest)], `${where(d)}: a kind of ${Object.keys(KINDS).join(', ')}`);
});

test('every document is valid against the Kubernetes API schemas, and names no field the API lacks', async (t) => {
  for (const d of DOCUMENTS) t.is(await schemaErrors(d.manifest), undefined, where(d));
  t.deepEqual(fieldErrors(DOCUMENTS.map((d) => d.manifest)), []);
});

test('the validation catches a wrong kind of value and a misspelt field', async (t) => {
  const { document } = workload('StatefulSet');
  const wrongType = structuredClone(document.manifest);
  wrongType.spec.template.spec.securityContext.runAsNonRoot = 'yes';
  t.regex((await schemaErrors(wrongType)) ?? '', /runAsNonRoot must be boolean/);
  const misspelt = structuredClone(document.manifest);
  const container = misspelt.spec.template.spec.containers[0];
  container.readinesProbe = container.readinessProbe;
  delete container.readinessProbe;
  const errors = fieldErrors([misspelt]);
  t.is(errors.length, 1, errors.join('\n'));
  t.regex(errors[0], /^m0\.spec\.template\.spec\.containers\[0\]\.readinesProbe: .*'"readinesProbe"' does not exist/);
});

/** bench/RESULTS.md's results of one process of the service (not --workers, not the before build): peak RSS MB and server cores. */
function measuredOneProcess(): { peakRssMb: number; cores: number } {
  const results = readFileSync(join(REPO, 'bench', 'RESULTS.md'), 'utf8')
    .split(/^## /m)
    .find((section) => section.startsWith('Results'));
  const table = (results ?? '')
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').map((cell) => cell.trim()));
  // The columns by their headings, which the report may reorder.
  const column = (heading: RegExp) => table[0]?.findIndex((cell) => heading.test(cell)) ?? -1;
  const [server, rss, cpu] = [column(/^server$/), column(/^peak RSS MB$/), column(/^CPU, cores/)];
  if (server < 0 || rss < 0 || cpu < 0)
    throw new Error('bench/RESULTS.md: its Results table has no server, peak RSS MB or CPU, cores column');
  const rows = table.filter((cells) => /^ours( --store memory| over HTTPS)?$/.test(cells[server] ?? ''));
  if (rows.length === 0) throw new Error('bench/RESULTS.md has no results of ours');
  return {
    peakRssMb: Math.max(...rows.map((cells) => Number(cells[rss]))),
    cores: Math.max(...rows.map((cells) => Number(cells[cpu].split('/')[0]))),
  };
}

const mebibytes = (quantity: string) => {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`memory ${quantity}: write it in Mi or Gi`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
};
const cores = (quantity: string) => (quantity.endsWith('m') ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity));

for (const kind of ['StatefulSet', 'Deployment'] as const) {
  test(`${kind}: the pod runs as nobody on a read-only root with no capabilities, no token and no service links`, (t) => {
    const pod = workload(kind).document.manifest.spec.template;
    t.false(pod.spec.automountServiceAccountToken);
    t.false(pod.spec.enableServiceLinks);
    t.like(pod.spec.securityContext, {
      runAsNonRoot: true,
      runAsUser: 65534,
      runAsGroup: 65534,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    for (const container of pod.spec.containers as Manifest[]) {
      t.deepEqual(
        container.securityContext,
        { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        container.name,
      );
      t.truthy(container.resources?.requests && container.resources?.limits, `${container.name}: resources`);
      t.is(container.resources.requests.memory, container.resources.limits.memory, `${container.name}: memory as requested`);
    }
  });

  test(`${kind}: probes on /readyz and /healthz of the service's port, and a grace period covering the preStop pause and the drain`, (t) => {
    const pod = workload(kind).document.manifest.spec.template;
    const { service } = containers(pod);
    const port = flagsOf(service.args).find((f) => f.flag === '--port')?.value;
    t.is(Number(port), containerPort(service, 'https'), '--port is the https port');
    const tls = flagsOf(service.args).some((f) => f.flag === '--tls-cert');
    for (const [probe, path] of [
      ['readinessProbe', '/readyz'],
      ['livenessProbe', '/healthz'],
      ['startupProbe', '/healthz'],
    ] as const) {
      t.like(service[probe]?.httpGet, { path, port: 'https', scheme: tls ? 'HTTPS' : 'HTTP' }, probe);
    }
    const pause = service.lifecycle?.preStop?.sleep?.seconds as number;
    t.true(pause >= 1, 'a preStop pause, while endpoints stop sending new connections');
    t.true(pod.spec.terminationGracePeriodSeconds >= pause + STOP_GRACE_MS / 1000 + 1, 'preStop + the service’s own grace + a margin');
  });

  test(`${kind}: resources sized from bench/RESULTS.md's measured RSS and CPU`, (t) => {
    const { service } = containers(workload(kind).document.manifest.spec.template);
    const measured = measuredOneProcess();
    // Figures of a loaded service, read from the table (not a heading or an empty cell).
    t.true(measured.peakRssMb >= 100 && measured.cores > 0.5, JSON.stringify(measured));
    // The peak under full load, with a fifth to spare (Mi → MB).
    t.true(mebibytes(service.resources.limits.memory) * 1.048576 >= measured.peakRssMb * 1.2, JSON.stringify(measured));
    // One process never uses more than about a core: a limit below that would throttle it under load.
    t.true(cores(service.resources.limits.cpu) >= Math.min(1, measured.cores), JSON.stringify(measured));
    t.true(cores(service.resources.requests.cpu) <= cores(service.resources.limits.cpu));
  });

  test(`${kind}: the service's arguments are its settings, HTTPS comes from the TLS Secret, and a sidecar reloads it`, (t) => {
    const pod = workload(kind).document.manifest.spec.template;
    const { service, sidecars } = containers(pod);
    const known = new Set(SETTINGS.map((s) => s.flag));
    for (const { flag } of flagsOf(service.args)) t.true(known.has(flag), `${flag} is a setting`);
    for (const { name } of service.env ?? [])
      t.true(
        SETTINGS.some((s) => s.env === name),
        `${name} is a setting`,
      );
    const flags = Object.fromEntries(flagsOf(service.args).map((f) => [f.flag, f.value]));
    const tlsVolume = (pod.spec.volumes as Manifest[]).find((v) => v.secret?.secretName === 'pin-service-tls');
    t.truthy(tlsVolume, 'the TLS Secret as a volume');
    const tlsMount = (service.volumeMounts as Manifest[]).find((m) => m.name === tlsVolume?.name);
    t.like(tlsMount, { readOnly: true });
    // kubernetes.io/tls Secrets hold tls.crt and tls.key.
    t.is(flags['--tls-cert'], `${tlsMount?.mountPath}/tls.crt`);
    t.is(flags['--tls-key'], `${tlsMount?.mountPath}/tls.key`);
    t.is(tlsVolume?.secret.defaultMode, 0o440, 'readable by the pod’s group (fsGroup), no one else');
    t.is(pod.spec.securityContext.fsGroup, pod.spec.securityContext.runAsGroup);
    // The sidecar: the same image, watching the same mount, signalling the service's program through a shared process namespace.
    t.is(sidecars.length, 1);
    const [sidecar] = sidecars;
    t.true(pod.spec.shareProcessNamespace);
    t.is(sidecar.image, service.image);
    const options = Object.fromEntries(flagsOf(sidecar.args).map((f) => [f.flag, f.value]));
    t.is(options['--watch'], tlsMount?.mountPath);
    t.is(options['--process'], service.command[1]);
    t.like(
      (sidecar.volumeMounts as Manifest[]).find((m) => m.mountPath === tlsMount?.mountPath),
      { name: tlsVolume?.name, readOnly: true },
    );
  });

  test(`${kind}: the management port stays inside the cluster: in no Service, and only pods may reach it`, (t) => {
    const { document, all } = workload(kind);
    const { service } = containers(document.manifest.spec.template);
    const flags = Object.fromEntries(flagsOf(service.args).map((f) => [f.flag, f.value]));
    t.is(Number(flags['--management-port']), containerPort(service, 'management'));
    t.is(flags['--management-host'], '0.0.0.0', 'the pod’s address, for the scrape; the NetworkPolicy keeps it in');
    t.is(document.manifest.spec.template.metadata.annotations['prometheus.io/port'], flags['--management-port']);
    for (const s of all.filter((d) => d.manifest.kind === 'Service')) {
      for (const port of s.manifest.spec.ports as Manifest[]) {
        t.not(port.targetPort, 'management', where(s));
        t.not(port.targetPort, Number(flags['--management-port']), where(s));
      }
    }
    const policies = all.filter((d) => d.manifest.kind === 'NetworkPolicy').map((d) => d.manifest);
    t.is(policies.length, 1);
    const [policy] = policies;
    t.deepEqual(policy.spec.podSelector.matchLabels, document.manifest.spec.selector.matchLabels);
    t.deepEqual(policy.spec.policyTypes, ['Ingress']);
    const rules = (policy.spec.ingress as Manifest[]).filter((rule) => (rule.ports as Manifest[]).some((p) => p.port === 'management'));
    t.is(rules.length, 1);
    t.true(rules[0].from.length > 0, 'from some peers only');
    for (const peer of rules[0].from as Manifest[]) {
      t.is(peer.ipBlock, undefined, 'no address range: pods of the cluster only');
      t.truthy(peer.namespaceSelector ?? peer.podSelector);
    }
  });

  test(`${kind}: what the API server checks beyond the schemas: selectors, named ports, volumes`, (t) => {
    const { document, all } = workload(kind);
    const spec = document.manifest.spec;
    const labels = spec.template.metadata.labels;
    t.like(labels, spec.selector.matchLabels, 'the selector selects the template');
    const volumes = new Set(
      [...(spec.template.spec.volumes ?? []), ...(spec.volumeClaimTemplates ?? []).map((c: Manifest) => c.metadata)].map((v) => v.name),
    );
    for (const container of spec.template.spec.containers as Manifest[]) {
      for (const mount of container.volumeMounts ?? []) t.true(volumes.has(mount.name), `${container.name}: volume ${mount.name}`);
    }
    const services = all.filter((d) => d.manifest.kind === 'Service');
    t.true(services.length > 0);
    const { service } = containers(spec.template);
    for (const s of services) {
      t.like(labels, s.manifest.spec.selector, `${where(s)} selects the pods`);
      for (const port of s.manifest.spec.ports as Manifest[]) containerPort(service, port.targetPort);
    }
    if (kind === 'StatefulSet') t.true(services.some((s) => s.manifest.metadata.name === spec.serviceName));
  });
}

test('StatefulSet: one pod, its state directory on a volume of its own', (t) => {
  const { manifest } = workload('StatefulSet').document;
  t.is(manifest.spec.replicas, 1, 'one process holds the state file');
  t.deepEqual(
    manifest.spec.persistentVolumeClaimRetentionPolicy,
    { whenDeleted: 'Retain', whenScaled: 'Retain' },
    'the records outlive it',
  );
  const { service } = containers(manifest.spec.template);
  const stateDir = (service.env as Manifest[]).find((e) => e.name === 'PIN_STATE_DIR')?.value;
  const claims = manifest.spec.volumeClaimTemplates as Manifest[];
  t.is(claims.length, 1);
  t.like(
    (service.volumeMounts as Manifest[]).find((m) => m.name === claims[0].metadata.name),
    { mountPath: stateDir },
  );
  t.deepEqual(claims[0].spec.accessModes, ['ReadWriteOnce']);
  t.true(mebibytes(claims[0].spec.resources.requests.storage) >= 256, 'room for a full store and its folds');
  t.false(
    flagsOf(service.args).some((f) => f.flag === '--store') || (service.env as Manifest[]).some((e) => e.name === 'PIN_STORE'),
    'the embedded store, the default',
  );
});

test('Deployment: two pods or more, the Redis URL and the state key from a Secret, a disruption budget', (t) => {
  const { document, all } = workload('Deployment');
  const { manifest } = document;
  t.true(manifest.spec.replicas >= 2);
  t.like(manifest.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } });
  const { service } = containers(manifest.spec.template);
  const env = Object.fromEntries((service.env as Manifest[]).map((e) => [e.name, e]));
  for (const [name, key] of [
    ['PIN_STORE', 'store-url'],
    ['PIN_STATE_KEY', 'state-key'],
  ]) {
    t.deepEqual(env[name]?.valueFrom, { secretKeyRef: { name: 'pin-service-redis', key } }, name);
  }
  t.is(service.volumeMounts.length, 1, 'no volume but the TLS Secret: nothing of the pod’s own is kept');
  const budget = all.find((d) => d.manifest.kind === 'PodDisruptionBudget')?.manifest;
  t.is(budget?.spec.minAvailable, 1);
  t.deepEqual(budget?.spec.selector, manifest.spec.selector);
});

test('the image: Node.js 24, the build the manifests run, as nobody', (t) => {
  const dockerfile = readFileSync(join(REPO, 'deploy', 'kubernetes', 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  t.true(
    stages.every((stage) => stage.startsWith('node:24')),
    'Node.js 24 in every stage',
  );
  const last = stages.at(-1)!;
  t.regex(last, /^USER 65534:65534$/m);
  const workdir = /^WORKDIR (\S+)$/m.exec(last)?.[1];
  t.is(workdir, '/opt/pin-service');
  t.regex(dockerfile, /RUN npm ci .*\n(.*\n)*RUN npm run build/);
  const copied = [...last.matchAll(/^COPY --from=build \/src\/(\S+) \.\/(\S+)$/gm)].map((m) => m[2]);
  t.deepEqual(copied.sort(), ['dist', 'node_modules', 'package.json']);
  // Every program a container runs is the compiled form of a source file (dist/src/X.js from src/X.ts).
  for (const kind of ['StatefulSet', 'Deployment'] as const) {
    for (const container of workload(kind).document.manifest.spec.template.spec.containers as Manifest[]) {
      const [node, program] = container.command as string[];
      t.is(node, 'node');
      t.true(program.startsWith(`${workdir}/dist/`), program);
      const source = program.slice(`${workdir}/dist/`.length).replace(/\.js$/, '.ts');
      t.true(existsSync(join(REPO, source)), `${program} is built from ${source}`);
    }
  }
});
