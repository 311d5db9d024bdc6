/**
 * The state directory of the embedded store: its SQLite file and, unless
 * --state-key is given, the state key, created here once (mode 0600) so that
 * the records stay addressable across restarts. Every way it cannot be used
 * is one StateFileError line naming the path and what to do.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StateFileError } from './persistent-store';

export interface StateDirectory {
  /** The SQLite file of the records. */
  file: string;
  stateKey: string;
}

/** The directory the settings name: --state-dir, else systemd's $STATE_DIRECTORY (its first), else ./state. */
export function stateDirectoryPath(stateDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(stateDir ?? env.STATE_DIRECTORY?.split(':')[0] ?? 'state');
}

export function openStateDirectory(path: string, stateKey: string | undefined): StateDirectory {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new StateFileError(
      `the state directory ${path} cannot be used (${(error as NodeJS.ErrnoException).code ?? 'error'}): make it a directory the service's user can write, or name another with --state-dir`,
    );
  }
  return { file: join(path, 'state.db'), stateKey: stateKey ?? keyFile(join(path, 'state-key')) };
}

/** The state key kept in the directory, made on first start. */
function keyFile(path: string): string {
  try {
    writeFileSync(path, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new StateFileError(
        `cannot create the state key file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}): make its directory writable`,
      );
    }
  }
  let key: string;
  try {
    key = readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new StateFileError(
      `cannot read the state key file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}): make it readable by the service's user`,
    );
  }
  if (key.length < 32)
    throw new StateFileError(
      `the state key file ${path} holds no key of 32 characters or more: restore it, or move the state directory away`,
    );
  return key;
}
