/**
 * The runtime and codegen packages as a team installs them: `npm pack` of
 * each workspace of a fresh copy of the repository (what git tracks, each
 * built as its `npm run build` builds it), both tarballs installed with
 * `npm install` into a new project of the team's in a temporary folder
 * outside the repository, beside the packages the project names (typescript,
 * say) from the npm registry; the PIN service is not installed. Commands run in the project with this Node.js
 * first on PATH (the package's commands are `#!/usr/bin/env node` scripts),
 * each bounded in time; a server is started on 127.0.0.1 at a port the system
 * picks, and killed by the caller.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import ts from 'typescript';
import { makeRepositoryCopy, run, workspaces } from './repository-copy';

/** The environment of the project's commands: this Node.js (24) before any other `node` on PATH. */
export const PROJECT_ENV: NodeJS.ProcessEnv = { ...process.env, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) };

/** Runs `command` in `cwd` with PROJECT_ENV, bounded; its output, or an Error with the output's end when it fails. */
export async function succeed(command: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const ran = await run(command, args, cwd, timeoutMs, PROJECT_ENV);
  if (ran.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${ran.status}):\n${ran.output.slice(-8000)}`);
  return ran.output;
}

/** A workspace's tarball, and what `npm pack` put in it (paths inside the package). */
export interface Packed {
  name: string;
  tarball: string;
  files: string[];
}

/**
 * Packs the runtime's and codegen's packages (the root package.json's workspaces) of a fresh copy of the repository,
 * each built as `npm run build` builds it, into the folder `into`; answers each tarball and its files. `dryRun` packs
 * nothing and answers the files `npm pack --dry-run` lists.
 */
export async function packWorkspaces(into: string, { dryRun = false } = {}): Promise<Packed[]> {
  const copy = makeRepositoryCopy('pin-pack-');
  try {
    const names = workspaces(copy).map(({ name }) => name);
    for (const name of names) await succeed('npm', ['run', 'build', '--workspace', name], copy, 5 * 60_000);
    const workspaceArgs = names.flatMap((name) => ['--workspace', name]);
    const output = await succeed(
      'npm',
      ['pack', '--json', ...(dryRun ? ['--dry-run'] : []), '--pack-destination', into, ...workspaceArgs],
      copy,
      2 * 60_000,
    );
    const listed = JSON.parse(output.slice(output.search(/^\[/m), output.lastIndexOf('\n]') + 2)) as {
      name: string;
      filename: string;
      files: { path: string }[];
    }[];
    if (listed.map(({ name }) => name).join() !== names.join())
      throw new Error(`npm pack packed ${listed.map(({ name }) => name).join(', ')}`);
    return listed.map(({ name, filename, files }) => ({ name, tarball: join(into, filename), files: files.map(({ path }) => path) }));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The compiler options of the team's project: CommonJS on Node.js, strict, src/ compiled into dist/. */
export const PROJECT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'node16',
    moduleResolution: 'node16',
    types: ['node'],
    strict: true,
    esModuleInterop: true,
    skipLibCheck: false,
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
};

/**
 * A new project in `folder` (package.json, tsconfig.json) with the tarballs and `packages` installed by `npm install`
 * (the registry, or npm's cache when it has them).
 */
export async function makeProject(folder: string, tarballs: string[], packages: string[]): Promise<void> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'a-team-project', version: '1.0.0', private: true, type: 'commonjs' }, null, 2)}\n`,
  );
  writeFileSync(join(folder, 'tsconfig.json'), `${JSON.stringify(PROJECT_TSCONFIG, null, 2)}\n`);
  await succeed('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs, ...packages], folder, 10 * 60_000);
}

/** A command of the project's node_modules/.bin, run as a shell runs it: the file itself, its #! line choosing Node.js. */
export function projectBin(project: string, name: string): string {
  return join(project, 'node_modules', '.bin', name);
}

export interface Served {
  /** The endpoint's URL, as the server's `listening` line says it. */
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Starts `command args` in `cwd` (a host of the runtime: `--port 0 --host 127.0.0.1` are added) and waits, at most
 * `readyMs`, for its `listening` line.
 */
export async function serve(command: string, args: string[], cwd: string, readyMs = 60_000): Promise<Served> {
  const child = spawn(command, [...args, '--port', '0', '--host', '127.0.0.1'], {
    cwd,
    env: PROJECT_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(graceMs).then(() => 'late' as const)]);
    if (code !== 'late') return code;
    child.kill('SIGKILL');
    return Promise.race([exited, sleep(5000).then(() => null)]);
  };
  const deadline = Date.now() + readyMs;
  while (Date.now() < deadline) {
    const url = /"event":"listening","url":"([^"]+)"/.exec(output)?.[1];
    if (url) return { url, child, output: () => output, stop };
    if (child.exitCode !== null || child.signalCode !== null) break;
    await sleep(50);
  }
  await stop(0);
  throw new Error(`${command} ${args.join(' ')} did not listen within ${readyMs} ms:\n${output.slice(-8000)}`);
}

/** Every module a TypeScript file of `folder` (and its folders) imports, with the file that imports it. */
export function importsIn(folder: string): { file: string; module: string }[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(folder, file), 'utf8'), true, true)
        .importedFiles.map(({ fileName }) => ({ file, module: fileName })),
    );
}
