/**
 * A directory as kubelet keeps a mounted Secret or ConfigMap (its AtomicWriter):
 * the files in a hidden directory of their own, `..data` a symbolic link to it,
 * and each file a link through `..data`. An update writes a new hidden
 * directory and renames a new `..data` link over the old one, so a reader sees
 * all the old files or all the new ones, never a mix.
 */
import { chmodSync, chownSync, mkdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let generation = 0;

export interface SecretFileOptions {
  /** The volume's defaultMode (the files' mode). */
  mode?: number;
  /** fsGroup: the files' group, where the caller may change it (root). */
  group?: number;
}

export function writeSecretVolume(directory: string, files: Record<string, string>, options: SecretFileOptions = {}): void {
  mkdirSync(directory, { recursive: true });
  const data = `..${new Date().toISOString().replace(/[-:.]/g, '_')}.${process.pid}.${++generation}`;
  mkdirSync(join(directory, data), { mode: 0o755 });
  for (const [name, text] of Object.entries(files)) {
    const file = join(directory, data, name);
    writeFileSync(file, text);
    chmodSync(file, options.mode ?? 0o644);
    if (options.group !== undefined) chownSync(file, 0, options.group);
  }
  let previous: string | undefined;
  try {
    previous = readlinkSync(join(directory, '..data'));
  } catch {
    previous = undefined;
  }
  symlinkSync(data, join(directory, '..data_tmp'));
  renameSync(join(directory, '..data_tmp'), join(directory, '..data'));
  for (const name of Object.keys(files)) {
    try {
      symlinkSync(join('..data', name), join(directory, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (previous) rmSync(join(directory, previous), { recursive: true, force: true });
}
