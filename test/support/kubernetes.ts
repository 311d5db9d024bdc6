/**
 * deploy/kubernetes/ as the tests read it: every YAML document of every file,
 * read as kubectl reads them (YAML 1.1: `0440` is octal), and the parts of a
 * workload the tests hold to what they run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const REPO = join(__dirname, '..', '..');
export const KUBERNETES = join(REPO, 'deploy', 'kubernetes');

/** A manifest document, loosely typed: the schemas check its shape. */
// biome-ignore lint/suspicious/noExplicitAny: a YAML document, checked against the Kubernetes API's schemas by the tests.
export type Manifest = Record<string, any>;

export interface ManifestDocument {
  /** The file, relative to the repository, and the document's place in it. */
  file: string;
  index: number;
  manifest: Manifest;
}

function yamlFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

export function readManifests(directory = KUBERNETES): ManifestDocument[] {
  return yamlFiles(directory)
    .sort()
    .flatMap((path) => {
      const documents = parseAllDocuments(readFileSync(path, 'utf8'), { version: '1.1' });
      if (!Array.isArray(documents)) throw new Error(`${path}: no YAML documents`);
      return documents.map((document, index) => {
        if (document.errors.length > 0) throw new Error(`${relative(REPO, path)}: ${document.errors[0].message}`);
        return { file: relative(REPO, path), index, manifest: document.toJS() as Manifest };
      });
    });
}

/** The workloads (StatefulSet, Deployment) of one directory of deploy/kubernetes/, by kind. */
export function workload(kind: 'StatefulSet' | 'Deployment'): { document: ManifestDocument; all: ManifestDocument[] } {
  const directory = kind === 'StatefulSet' ? 'embedded' : 'redis';
  const all = readManifests(join(KUBERNETES, directory));
  const found = all.filter((d) => d.manifest.kind === kind);
  if (found.length !== 1) throw new Error(`deploy/kubernetes/${directory}/ holds ${found.length} ${kind}s, not one`);
  return { document: found[0], all };
}

/** The service's container of a pod template (the one that runs dist/src/service/main.js), and the others. */
export function containers(pod: Manifest): { service: Manifest; sidecars: Manifest[] } {
  const all = (pod.spec?.containers ?? []) as Manifest[];
  const service = all.filter((c) => (c.command ?? []).some((arg: string) => arg.endsWith('/dist/src/service/main.js')));
  if (service.length !== 1) throw new Error(`the pod has ${service.length} containers running dist/src/service/main.js, not one`);
  return { service: service[0], sidecars: all.filter((c) => c !== service[0]) };
}

/** `--name=value` and `--name value` of a container's args, in order. */
export function flagsOf(args: readonly string[]): Array<{ flag: string; value: string | undefined }> {
  const flags: Array<{ flag: string; value: string | undefined }> = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) continue;
    const equals = arg.indexOf('=');
    if (equals > 0) flags.push({ flag: arg.slice(0, equals), value: arg.slice(equals + 1) });
    else flags.push({ flag: arg, value: args[i + 1]?.startsWith('--') ? undefined : args[++i] });
  }
  return flags;
}

/** The container's port of that name. */
export function containerPort(container: Manifest, name: string): number {
  const port = (container.ports ?? []).find((p: Manifest) => p.name === name);
  if (!port) throw new Error(`container ${container.name} has no port named ${name}`);
  return port.containerPort;
}
