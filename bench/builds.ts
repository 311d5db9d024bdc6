/**
 * The builds the bench measures besides this checkout's: another revision (BENCH_OURS, BENCH_BEFORE), built into a
 * temporary folder the way `make build` builds this checkout (a `git archive` with its own production dependencies,
 * from its lockfile; removed by cleanup(), or when this process exits); and the Node.js 20 that runs this
 * checkout's build as "ours (before)" when no revision is named.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, serviceDist } from './servers';

export interface RevisionBuild {
  /** The revision as asked for, and the commit it names. */
  revision: string;
  commit: string;
  /** The project's root in the temporary folder: its build is dir/dist. */
  dir: string;
  cleanup(): void;
}

export function buildRevision(revision: string): RevisionBuild {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
  const commit = git('rev-parse', '--verify', `${revision}^{commit}`).toString().trim();
  const dir = mkdtempSync(join(tmpdir(), 'pin-bench-revision-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  process.on('exit', cleanup);
  try {
    execFileSync('tar', ['-x', '-C', dir], { input: git('archive', '--format=tar', commit) });
    // Its own dependencies: another revision may need packages, or versions, this checkout does not have.
    execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // `make build` with this checkout's compiler and Node's types, unchecked (the revision's type packages are dev dependencies).
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const typeRoots = join(ROOT, 'node_modules/@types');
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--typeRoots', typeRoots], {
      cwd: dir,
      stdio: 'inherit',
    });
    // The help pages' templates, where the revision keeps them (src/help/ before the runtime had a room of its own).
    for (const templates of ['src/runtime/help/templates', 'src/help/templates'])
      if (existsSync(join(dir, templates))) cpSync(join(dir, templates), join(dir, 'dist', templates), { recursive: true });
    if (!existsSync(join(serviceDist(dir), 'main.js'))) throw new Error(`the build of ${revision} wrote no main.js of the service`);
  } catch (error) {
    cleanup();
    throw new Error(`could not build ${revision} (${commit.slice(0, 12)}): ${(error as Error).message}`);
  }
  return { revision, commit, dir, cleanup };
}

/** The Node.js version `node` reports (e.g. v20.20.2), or undefined when it does not run. */
export function versionOf(node: string): string | undefined {
  const result = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The Node.js 20 that runs "ours (before)" by default: BENCH_BEFORE_NODE, else the machine's own `node` when it is 20. */
export function previousNode(): string {
  const own = spawnSync('sh', ['-c', 'PATH=/usr/local/bin:/usr/bin:/bin command -v node'], { encoding: 'utf8' }).stdout.trim();
  const node = process.env.BENCH_BEFORE_NODE?.trim() || own;
  if (!versionOf(node)?.startsWith('v20.'))
    throw new Error(
      `no Node.js 20 for "ours (before)" (${node || 'none'}): name one with BENCH_BEFORE_NODE, or a revision with BENCH_BEFORE`,
    );
  return node;
}
