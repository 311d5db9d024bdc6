/**
 * A pod of deploy/kubernetes/ run on this machine without a cluster, as its
 * manifest says (bubblewrap, Debian's `bubblewrap`): the image's files (the
 * Dockerfile's last stage: WORKDIR, ENV, the COPY lines, Node.js at
 * /usr/local/bin/node as in the node images) in a root that is read-only
 * (readOnlyRootFilesystem), an empty read-only /tmp, the pod's volumes where
 * its containers mount them (writable only where the manifest says),
 * processes that are uid/gid 65534 with no capability (runAsUser, runAsGroup,
 * capabilities drop ALL, allowPrivilegeEscalation false), the containers'
 * commands, args and env, and all of them in one process namespace
 * (shareProcessNamespace), the service's process the first. The machine's own
 * directories are mirrored read-only around the image's, as a base image's
 * would be. The network is the machine's: each port a container names is
 * given a free one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { containers, flagsOf, type Manifest, REPO } from './kubernetes';

/** Fails loudly when a tool the runs need is missing: `make test-all` needs them (installed by .ci/run). */
export function requireSandboxTools(): void {
  for (const [tool, args, hint] of [
    ['bwrap', ['--version'], 'apt-get install -y bubblewrap'],
    ['setpriv', ['--version'], 'apt-get install -y util-linux'],
  ] as const) {
    const found = spawnSync(tool, args, { encoding: 'utf8' });
    if (found.error || found.status !== 0) throw new Error(`${tool} is not installed: run \`${hint}\` (see .ci/run)`);
  }
}

/** The last stage of deploy/kubernetes/Dockerfile: its working directory, environment, and the files it copies (image path → repository path). */
export function imageOf(dockerfile = join(REPO, 'deploy', 'kubernetes', 'Dockerfile')): {
  workdir: string;
  env: Record<string, string>;
  files: Record<string, string>;
} {
  const last = readFileSync(dockerfile, 'utf8')
    .split(/^FROM /m)
    .at(-1)!;
  const workdir = /^WORKDIR (\S+)$/m.exec(last)?.[1];
  if (!workdir) throw new Error('the Dockerfile’s last stage has no WORKDIR');
  const env = Object.fromEntries([...last.matchAll(/^ENV (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
  const files = Object.fromEntries(
    [...last.matchAll(/^COPY --from=build \/src\/(\S+) \.\/(\S+)$/gm)].map((m) => [join(workdir, m[2]), join(REPO, m[1])]),
  );
  return { workdir, env, files };
}

/** What the node images put on PATH. */
const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Made by the sandbox itself, never mirrored from the machine. */
const OWN = new Set(['/proc', '/dev', '/tmp', '/sys', '/run', '/var/run']);

/** bwrap's arguments for a read-only mirror of the machine's directories around `targets` (paths the sandbox mounts itself). */
function mirror(directory: string, targets: readonly string[]): string[] {
  const args: string[] = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (OWN.has(path)) continue;
    const inside = targets.filter((target) => target === path || target.startsWith(`${path}/`));
    const stat = lstatSync(path);
    if (inside.includes(path)) continue;
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (inside.length > 0 && stat.isDirectory()) args.push('--perms', '0755', '--dir', path, ...mirror(path, inside));
    else if (inside.length > 0) throw new Error(`${path} is in the way of ${inside.join(', ')}`);
    else if (stat.isDirectory() || stat.isFile()) args.push('--ro-bind', path, path);
  }
  return args;
}

export interface PodRun {
  /** The host's process id of the service (its container's process), and of the sidecars. */
  pid: number;
  child: ChildProcess;
  /** The free port each port number of the manifest was given. */
  ports: Map<number, number>;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): Promise<void>;
}

export interface PodOptions {
  /** The pod template (`spec.template` of a StatefulSet or Deployment). */
  template: Manifest;
  /** A directory of this machine for each volume the containers mount (a Secret's as kubelet writes it: support/secret-volume.ts). */
  volumes: Record<string, string>;
  /** The values of secretKeyRef, by Secret name and key. */
  secrets?: Record<string, Record<string, string>>;
  /** Variables kubelet adds (service links); the manifest's env wins over them, as in a pod. */
  kubeletEnv?: Record<string, string>;
  /** Flags the service does not know yet: left out of its args (with their value). */
  leaveOut?: readonly string[];
  /** The port each port number of the manifest is given (default: a free one each). */
  ports: Map<number, number>;
}

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The environment of a container: the image's, then kubelet's, then the manifest's. */
function environment(container: Manifest, options: PodOptions, image: ReturnType<typeof imageOf>): Record<string, string> {
  const env: Record<string, string> = { PATH: IMAGE_PATH, HOSTNAME: 'pin-service-0', HOME: '/', ...image.env, ...options.kubeletEnv };
  for (const variable of (container.env ?? []) as Manifest[]) {
    if (variable.value !== undefined) env[variable.name] = String(variable.value);
    else {
      const ref = variable.valueFrom?.secretKeyRef;
      const value = ref && options.secrets?.[ref.name]?.[ref.key];
      if (value === undefined) throw new Error(`${container.name}: no value for ${variable.name} (${JSON.stringify(variable.valueFrom)})`);
      env[variable.name] = value;
    }
  }
  return env;
}

/** A container's command line, its port numbers replaced by the ports given, the flags left out dropped. */
function commandLine(container: Manifest, options: PodOptions): string[] {
  const args: string[] = [];
  const given = (container.args ?? []) as string[];
  for (let i = 0; i < given.length; i++) {
    const [{ flag, value }] = flagsOf(given.slice(i));
    const whole = given[i].includes('=') ? 1 : value === undefined ? 1 : 2;
    if (options.leaveOut?.includes(flag)) {
      i += whole - 1;
      continue;
    }
    const port = value !== undefined ? options.ports.get(Number(value)) : undefined;
    args.push(port === undefined ? given[i] : `${flag}=${port}`);
    if (whole === 2 && port !== undefined) i++;
  }
  return [...container.command, ...args];
}

export async function runPod(options: PodOptions): Promise<PodRun> {
  requireSandboxTools();
  const image = imageOf();
  for (const path of Object.values(image.files))
    if (!existsSync(path)) throw new Error(`${path} is missing: run make build (make test-all does)`);
  const pod = options.template.spec;
  const { service, sidecars } = containers(options.template);
  // One mount namespace for all the containers: each mounts its volumes where the service does, or not at all.
  const mounts = new Map<string, Manifest>();
  for (const container of [service, ...sidecars]) {
    for (const mount of (container.volumeMounts ?? []) as Manifest[]) {
      const known = mounts.get(mount.mountPath);
      if (known && (known.name !== mount.name || Boolean(known.readOnly) !== Boolean(mount.readOnly)))
        throw new Error(`${container.name} mounts ${mount.mountPath} otherwise than another container`);
      mounts.set(mount.mountPath, mount);
    }
  }
  const node = '/usr/local/bin/node';
  const targets = [...Object.keys(image.files), node, ...mounts.keys()];
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--hostname', 'pin-service-0'];
  args.push(...mirror('/', targets), '--ro-bind', '/sys', '/sys', '--proc', '/proc', '--dev', '/dev', '--perms', '1777', '--dir', '/tmp');
  // The image's own directories (bwrap would make them 0700, for root alone).
  const made = new Set<string>();
  for (const target of targets) {
    for (let parent = dirname(target); parent !== '/' && !existsSync(parent) && !made.has(parent); parent = dirname(parent))
      made.add(parent);
  }
  for (const directory of [...made].sort()) args.push('--perms', '0755', '--dir', directory);
  for (const [target, source] of Object.entries(image.files)) args.push('--ro-bind', source, target);
  args.push('--ro-bind', process.execPath, node);
  for (const [path, mount] of mounts) {
    const source = options.volumes[mount.name];
    if (!source) throw new Error(`no directory for the volume ${mount.name}`);
    args.push(mount.readOnly ? '--ro-bind' : '--bind', source, path);
  }
  args.push('--remount-ro', '/', '--chdir', service.workingDir ?? image.workdir, '--info-fd', '3');
  const context = pod.securityContext ?? {};
  const uid = service.securityContext?.runAsUser ?? context.runAsUser;
  const gid = service.securityContext?.runAsGroup ?? context.runAsGroup;
  if (!(context.runAsNonRoot && uid > 0 && gid > 0)) throw new Error('the pod does not say runAsNonRoot with its user and group');
  if (!service.securityContext?.capabilities?.drop?.includes('ALL')) throw new Error('the service’s container keeps capabilities');
  if (service.securityContext?.readOnlyRootFilesystem !== true) throw new Error('the service’s container may write its root');
  const groups = context.fsGroup !== undefined && context.fsGroup !== gid ? `--groups=${context.fsGroup}` : '--clear-groups';
  const asUser =
    process.getuid?.() === 0
      ? {
          // As root: bwrap mounts what only root may read, then setpriv becomes the pod's user, keeping no capability.
          bwrap: ['--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP'],
          prefix: ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, groups, '--bounding-set=-all', '--inh-caps=-all', '--no-new-privs'],
        }
      : { bwrap: ['--unshare-user', '--uid', String(uid), '--gid', String(gid)], prefix: [] };
  // The sidecars first, in the background; then the service replaces the shell, keeping its process id.
  const line = (container: Manifest) =>
    [
      'env',
      '-i',
      ...Object.entries(environment(container, options, image)).map(([k, v]) => `${k}=${v}`),
      ...commandLine(container, options),
    ]
      .map(quote)
      .join(' ');
  const script = [...sidecars.map((c) => `${line(c)} &`), `exec ${line(service)}`].join('\n');
  const child = spawn('bwrap', [...args, ...asUser.bwrap, '--', ...asUser.prefix, '/bin/sh', '-c', script], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => chunks.push(d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => chunks.push(d));
  const output = () => chunks.join('');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  let info = '';
  child.stdio[3]!.on('data', (d: Buffer) => (info += d.toString('utf8')));
  // bwrap's first process is the namespace's init (as a pod's pause process); the service is its child, once exec'd.
  const deadline = Date.now() + 20_000;
  let pid: number | undefined;
  while (pid === undefined && Date.now() < deadline && child.exitCode === null) {
    const init = /"child-pid":\s*(\d+)/.exec(info)?.[1];
    pid = init === undefined ? undefined : childRunning(Number(init), service.command[1]);
    if (pid === undefined) await sleep(20);
  }
  if (pid === undefined) {
    child.kill('SIGKILL');
    throw new Error(`the sandbox did not start:\n${output()}`);
  }
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(5000)]);
  };
  return { pid, child, ports: options.ports, output, exited, kill };
}

/** The child of `parent` whose command line holds `program`. */
function childRunning(parent: number, program: string): number | undefined {
  try {
    for (const task of readdirSync(`/proc/${parent}/task`)) {
      for (const pid of readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(program)) return Number(pid);
      }
    }
  } catch {
    // Not there yet, or gone.
  }
  return undefined;
}

/** The numbers of the ports a pod's containers name, each given a free port of this machine. */
export async function givenPorts(template: Manifest, freePort: () => Promise<number>): Promise<Map<number, number>> {
  const ports = new Map<number, number>();
  for (const container of template.spec.containers as Manifest[]) {
    for (const port of (container.ports ?? []) as Manifest[]) ports.set(port.containerPort, await freePort());
  }
  return ports;
}

/** /proc/PID/status's fields of a process of this machine (its user, groups, capabilities). */
export function processStatus(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .filter((line) => line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
}
