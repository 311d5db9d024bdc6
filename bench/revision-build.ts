/**
 * Another revision of the project (BENCH_OURS, BENCH_BEFORE), built into a
 * temporary folder the way `make build` builds this checkout, so that the
 * bench can measure it in the same rounds as other code. The folder (a `git
 * archive` of the revision with its own production dependencies, from its
 * lockfile) is removed by cleanup(), and when this process exits if
 * cleanup() was never reached.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './servers';

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
    // Its own dependencies: another revision may need packages this checkout no longer has, or other versions.
    execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // What `make build` does, with this checkout's compiler, without type checking (the revision's type packages are
    // dev dependencies; Node's own types, which its tsconfig names, are this checkout's).
    const typeRoots = join(ROOT, 'node_modules/@types');
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck', '--typeRoots', typeRoots],
      {
        cwd: dir,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    // The help pages' templates, where the revision keeps them (src/help/ before the runtime had a room of its own).
    for (const templates of ['src/runtime/help/templates', 'src/help/templates'])
      if (existsSync(join(dir, templates))) cpSync(join(dir, templates), join(dir, 'dist', templates), { recursive: true });
    if (!existsSync(join(dir, 'dist/src/main.js'))) throw new Error(`the build of ${revision} wrote no dist/src/main.js`);
  } catch (error) {
    cleanup();
    throw new Error(`could not build ${revision} (${commit.slice(0, 12)}): ${(error as Error).message}`);
  }
  return { revision, commit, dir, cleanup };
}
