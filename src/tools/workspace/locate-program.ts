import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `program` as given when it holds a `/`, else the first executable of that name on `path`. */
export function locateProgram(program: string, path: string): string | undefined {
  if (program.includes('/')) return executable(program) ? program : undefined;
  for (const folder of path.split(delimiter)) {
    if (folder === '' || !isAbsolute(folder)) continue;
    const candidate = join(folder, program);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}
