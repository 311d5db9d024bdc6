/**
 * A fresh copy of the repository, as a newcomer's clone has it: its files (what git tracks, or, outside a
 * git checkout such as CI's copy, every file .gitignore does not exclude), copied into a new folder; and
 * commands run in it without blocking the test, bounded in time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { REPO } from './child-service';

/** The repository's files, relative to REPO: git's list in a checkout, else the tree less what .gitignore names. */
export function repositoryFiles(): string[] {
  const top = spawnSync('git', ['-C', REPO, 'rev-parse', '--show-toplevel'], { encoding: 'utf8' });
  if (top.status === 0 && realpathSync(top.stdout.trim()) === realpathSync(REPO)) {
    const listed = spawnSync('git', ['-C', REPO, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
    return listed.stdout.split('\0').filter((file) => file !== '' && existsSync(join(REPO, file)));
  }
  // .gitignore's patterns are names and simple globs (`dist/`, `*.cpuprofile`), matched at any depth; one that starts
  // with a slash (`/.node`, `/state/`) is matched at the top only.
  const patterns = readFileSync(join(REPO, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => ({
      rooted: line.startsWith('/'),
      name: new RegExp(
        `^${line
          .replace(/^\//, '')
          .replace(/\/$/, '')
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')}$`,
      ),
    }));
  const ignored = (dir: string, name: string) => patterns.some((p) => p.name.test(name) && (!p.rooted || dir === REPO));
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.name !== '.git' && !ignored(dir, entry.name))
      .flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [relative(REPO, join(dir, entry.name))]));
  return walk(REPO);
}

export interface Ran {
  status: number | null;
  output: string;
}

/** Runs a command in `cwd` without blocking this process, bounded in time. */
export function run(command: string, args: string[], cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', (error) => resolve({ status: null, output: `${output}\n${error.message}` }));
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** Copies the repository's files into `copy` (a new folder); answers the files copied. */
export function copyRepository(copy: string): string[] {
  const files = repositoryFiles();
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(REPO, file), join(copy, file));
  }
  return files;
}

/**
 * A new folder (`prefix` and a random suffix, under the temporary folder)
 * holding a copy of the repository for a test to change: its files but
 * node_modules and a work tree's .node (links git may not ignore), and a
 * node_modules of links: to each package of this checkout's, but the
 * workspaces (contract-runtime, contract-codegen), which link to the copy's
 * own folders as npm links them, so that what is built or resolved by name in
 * the copy is the copy's.
 */
export function makeRepositoryCopy(prefix: string): string {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  try {
    for (const file of repositoryFiles().filter((f) => !/^(node_modules|\.node)(\/|$)/.test(f))) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(REPO, file), join(copy, file));
    }
    linkNodeModules(copy);
    return copy;
  } catch (error) {
    rmSync(copy, { recursive: true, force: true });
    throw error;
  }
}

/** This Node.js run with `args` in the copy, bounded; its output, or an Error with the output's end when it fails. */
export async function nodeInCopy(copy: string, args: string[], timeoutMs: number): Promise<string> {
  const ran = await run(process.execPath, args, copy, timeoutMs);
  if (ran.status !== 0) throw new Error(`${args.join(' ')} failed in the copy (exit ${ran.status}):\n${ran.output.slice(-8000)}`);
  return ran.output;
}

/** The workspaces of the root package.json: each package's name and folder. */
export function workspaces(root = REPO): { name: string; folder: string }[] {
  const { workspaces: folders = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  return folders.map((folder) => ({
    name: (JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { name: string }).name,
    folder,
  }));
}

/** `copy`'s node_modules: links to this checkout's packages, its workspaces' links to the copy's folders. */
function linkNodeModules(copy: string): void {
  const installed = realpathSync(join(REPO, 'node_modules'));
  const own = new Map(workspaces(copy).map(({ name, folder }) => [name, folder]));
  mkdirSync(join(copy, 'node_modules'));
  for (const entry of readdirSync(installed)) {
    if (own.has(entry)) symlinkSync(join(copy, own.get(entry) as string), join(copy, 'node_modules', entry));
    else symlinkSync(join(installed, entry), join(copy, 'node_modules', entry));
  }
  for (const name of own.keys())
    if (!existsSync(join(copy, 'node_modules', name))) throw new Error(`${name} is not in node_modules: npm install links the workspaces`);
}
