/**
 * The functions with the most self time in a V8 CPU profile (`node --cpu-prof`).
 *
 *   node --import=tsx bench/profile-top.ts FILE.cpuprofile [N]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

export interface SelfTime {
  name: string;
  where: string;
  share: number;
}

/** Where a function is, shortened: a package name or a path inside this repository. */
function shorten(url: string, line: number): string {
  if (url === '') return '(native)';
  const inModules = url.lastIndexOf('node_modules/');
  const path = inModules >= 0 ? url.slice(inModules + 'node_modules/'.length) : url.replace(/^.*\/(dist|src|bench|generated)\//, '$1/');
  return `${path}:${line + 1}`;
}

export function topSelfTime(file: string, n = 15): SelfTime[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, { name: string; where: string; samples: number }>();
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const name = frame.functionName || '(anonymous)';
    const where = shorten(frame.url, frame.lineNumber);
    const key = `${name} ${where}`;
    const entry = counts.get(key) ?? { name, where, samples: 0 };
    entry.samples++;
    counts.set(key, entry);
  }
  const total = profile.samples.length || 1;
  return [...counts.values()]
    .sort((a, b) => b.samples - a.samples)
    .slice(0, n)
    .map((e) => ({ name: e.name, where: e.where, share: e.samples / total }));
}

if (require.main === module) {
  const [file, n] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node --import=tsx bench/profile-top.ts FILE.cpuprofile [N]');
    process.exit(2);
  }
  for (const row of topSelfTime(file, Number(n ?? 25))) {
    console.log(`${(row.share * 100).toFixed(1).padStart(5)} %  ${row.name}  ${row.where}`);
  }
}
