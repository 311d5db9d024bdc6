import { execFileSync } from 'node:child_process';

const TSC = require.resolve('typescript/bin/tsc');

/** `tsc --noEmit -p DIR`: '' when the folder type-checks, else the compiler's messages. */
export function typeCheck(dir: string): string {
  try {
    execFileSync(process.execPath, [TSC, '--noEmit', '-p', dir], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return `${stdout}${stderr}`.trim() || String(error);
  }
}
