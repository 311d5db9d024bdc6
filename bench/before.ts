/**
 * "ours (before)": another revision of the project, built into a temporary
 * folder the way `make build` builds this checkout, so that the bench can
 * measure it in the same rounds as the current code. The folder (a `git
 * archive` of the revision, node_modules linked to this checkout's) is
 * removed by cleanup(), and when this process exits if cleanup() was never
 * reached.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './servers';

/** The committed default: the first line of bench/baseline-revision that is not a comment. */
export function baselineRevision(): string {
  const text = readFileSync(join(ROOT, 'bench', 'baseline-revision'), 'utf8');
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#'));
  if (!line) throw new Error('bench/baseline-revision names no revision');
  return line;
}

export interface BeforeBuild {
  /** The revision as asked for, and the commit it names. */
  revision: string;
  commit: string;
  /** The project's root in the temporary folder: its build is dir/dist. */
  dir: string;
  cleanup(): void;
}

export function buildBefore(revision: string): BeforeBuild {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
  const commit = git('rev-parse', '--verify', `${revision}^{commit}`).toString().trim();
  const dir = mkdtempSync(join(tmpdir(), 'pin-bench-before-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  process.on('exit', cleanup);
  try {
    execFileSync('tar', ['-x', '-C', dir], { input: git('archive', '--format=tar', commit) });
    // This checkout's dependencies stand in for the revision's own: say so plainly when one it needs is not there.
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
    const missing = missingDependencies(dir);
    if (missing.length) {
      throw new Error(
        `it depends on ${missing.join(', ')}, which this checkout's node_modules does not have ` +
          '(BENCH_BEFORE= runs without the before row; BENCH_BEFORE=<revision> names a revision with the same dependencies as this checkout)',
      );
    }
    // What `make build` does, without make (its install step must never run npm ci on the shared node_modules).
    execFileSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
    cpSync(join(dir, 'src/help/templates'), join(dir, 'dist/src/help/templates'), { recursive: true });
    if (!existsSync(join(dir, 'dist/src/main.js'))) throw new Error(`the build of ${revision} wrote no dist/src/main.js`);
  } catch (error) {
    cleanup();
    throw new Error(`could not build ${revision} (${commit.slice(0, 12)}) for the "before" row: ${(error as Error).message}`);
  }
  return { revision, commit, dir, cleanup };
}

/** The packages the revision's package.json names (dependencies and devDependencies: its build type-checks) that node_modules lacks. */
function missingDependencies(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: object; devDependencies?: object };
  const names = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
  return names.filter((name) => !existsSync(join(dir, 'node_modules', name, 'package.json')));
}
