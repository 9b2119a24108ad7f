/**
 * Files the code reads at run time (clickhouse/ migrations, src/config/networks/*.json, src/devnet/contracts/*.boc,
 * the TL-B schemes) stay where they are in the repository and are found from the package root: the directory of
 * package.json above this file. That is the same directory whether this module runs from src/util/ (tsx, vitest)
 * or compiled from dist/src/util/, so the build copies no assets and there is one copy of each.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The package root: the nearest directory above this module that holds a package.json. */
export function packageRoot(): string {
  if (root === undefined) {
    const start = dirname(fileURLToPath(import.meta.url));
    let dir = start;
    while (!existsSync(join(dir, 'package.json'))) {
      const up = dirname(dir);
      if (up === dir) throw new Error(`no package.json in ${start} or above it`);
      dir = up;
    }
    root = dir;
  }
  return root;
}

/** A path inside the package, by its repository-relative segments: `packagePath('clickhouse')`. */
export function packagePath(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}
