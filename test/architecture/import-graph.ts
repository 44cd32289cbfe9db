import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One import between two files under `src/` (`fromFolder`/`toFolder` are '' for the entry files at its top). */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly fromFolder: string;
  readonly toFolder: string;
  readonly typeOnly: boolean;
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });

const specifiersOf = (source: ts.SourceFile): { specifier: string; typeOnly: boolean }[] => {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node) ? Boolean(node.importClause?.isTypeOnly) : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

/** Every relative import (static, dynamic, `import type`, `import('…')` types) between files under `srcDir`. */
export function sourceImports(srcDir: string): ImportEdge[] {
  const root = resolve(srcDir);
  const folderOf = (path: string): string => {
    const parts = relative(root, path).split('/');
    return parts.length === 1 ? '' : (parts[0] ?? '');
  };
  const repo = dirname(root);
  return filesUnder(root).flatMap((file) => {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    return specifiersOf(source)
      .filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier, typeOnly }) => {
        const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
        return {
          from: relative(repo, file),
          to: relative(repo, target),
          fromFolder: folderOf(file),
          toFolder: folderOf(target),
          typeOnly,
        };
      });
  });
}

/**
 * The layer table of `docs/architecture.md`: the first markdown table whose header starts with
 * `| row | folder`, read as folder → row.
 */
export function readLayerTable(markdown: string): Map<string, number> {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^\|\s*row\s*\|\s*folder/i.test(line));
  if (start < 0) throw new Error('docs/architecture.md has no "| row | folder |" table');
  const table = new Map<string, number>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [row, folders] = line
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    for (const folder of (folders ?? '').matchAll(/`([\w-]+)\/?`/g)) table.set(folder[1] ?? '', Number(row));
  }
  return table;
}

/** The imports that reach a folder on the importer's own row or a higher one, as readable lines. */
export function layerViolations(edges: readonly ImportEdge[], table: ReadonlyMap<string, number>): string[] {
  return edges
    .filter((edge) => edge.fromFolder !== '' && edge.fromFolder !== edge.toFolder)
    .filter((edge) => {
      const from = table.get(edge.fromFolder);
      const to = table.get(edge.toFolder);
      return from === undefined || to === undefined || to >= from;
    })
    .map(
      (edge) =>
        `${edge.from} (${edge.fromFolder}, row ${table.get(edge.fromFolder)}) imports ${edge.to} (${edge.toFolder}, row ${table.get(edge.toFolder)})${edge.typeOnly ? ' [type]' : ''}`,
    );
}

/** The folder-level graph and its circles (each as the folders on it, in order). */
export function folderGraph(edges: readonly ImportEdge[]): { cycles: string[][] } {
  const next = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (edge.fromFolder === '' || edge.toFolder === '' || edge.fromFolder === edge.toFolder) continue;
    next.set(edge.fromFolder, (next.get(edge.fromFolder) ?? new Set()).add(edge.toFolder));
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (folder: string): void => {
    state.set(folder, 'open');
    path.push(folder);
    for (const to of next.get(folder) ?? []) {
      if (state.get(to) === 'open') cycles.push([...path.slice(path.indexOf(to)), to]);
      else if (state.get(to) === undefined) visit(to);
    }
    path.pop();
    state.set(folder, 'done');
  };
  for (const folder of [...next.keys()].sort()) if (state.get(folder) === undefined) visit(folder);
  return { cycles };
}

/** The folders directly under `srcDir`. */
export function sourceFolders(srcDir: string): string[] {
  return readdirSync(srcDir)
    .filter((name) => statSync(join(srcDir, name)).isDirectory())
    .sort();
}

/**
 * What is wrong with the folders' faces, as readable lines: a folder under `srcDir` (but those
 * in `faceless`) without an `index.ts`, or a face statement that is not a named re-export
 * (`export { … } from`, `export type { … } from`; no `export *`, no code of its own).
 */
export function faceProblems(srcDir: string, faceless: readonly string[] = []): string[] {
  const repo = dirname(resolve(srcDir));
  const folders = sourceFolders(srcDir).filter((folder) => !faceless.includes(folder));
  return folders.flatMap((folder) => {
    const face = join(resolve(srcDir), folder, 'index.ts');
    let text: string;
    try {
      text = readFileSync(face, 'utf8');
    } catch {
      return [`${relative(repo, face)} is missing: the folder has no face`];
    }
    const source = ts.createSourceFile(face, text, ts.ScriptTarget.Latest, true);
    return source.statements
      .filter(
        (statement) =>
          !(
            ts.isExportDeclaration(statement) &&
            statement.moduleSpecifier !== undefined &&
            statement.exportClause !== undefined &&
            ts.isNamedExports(statement.exportClause)
          ),
      )
      .map(
        (statement) =>
          `${relative(repo, face)}:${source.getLineAndCharacterOfPosition(statement.getStart()).line + 1} is not a named re-export: ${statement.getText().split('\n')[0]}`,
      );
  });
}
