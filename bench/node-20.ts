/**
 * The Node.js 20 that runs "ours (before)": BENCH_BEFORE_NODE when named,
 * else the machine's own `node` when it is 20, else Node.js 20 from the npm
 * registry, brought into .node20/ as make brings Node.js 24 into .node/.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './servers';

const MAJOR = 20;

/** The Node.js version `node` reports (e.g. v20.20.2), or undefined when it does not run. */
export function versionOf(node: string): string | undefined {
  const result = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

export function node20(): string {
  const named = process.env.BENCH_BEFORE_NODE?.trim();
  if (named) {
    if (versionOf(named) === undefined) throw new Error(`BENCH_BEFORE_NODE: ${named} does not run`);
    return named;
  }
  const own = spawnSync('sh', ['-c', 'PATH=/usr/local/bin:/usr/bin:/bin command -v node'], { encoding: 'utf8' }).stdout.trim();
  if (own !== '' && versionOf(own)?.startsWith(`v${MAJOR}.`)) return own;
  const folder = join(ROOT, '.node20');
  const name = `node-${process.platform}-${process.arch}`;
  const node = join(folder, 'node_modules', name, 'bin', 'node');
  if (!versionOf(node)?.startsWith(`v${MAJOR}.`)) {
    console.log(`bench: bringing ${name}@${MAJOR} from the npm registry into .node20/ for "ours (before)"`);
    execFileSync('npm', ['install', '--prefix', folder, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${name}@${MAJOR}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  if (!existsSync(node)) throw new Error(`${name}@${MAJOR} has no bin/node`);
  return node;
}
