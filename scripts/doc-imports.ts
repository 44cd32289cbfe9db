/** One `import … from 'agent-harness…'` statement found in a ```ts block of a document. */
export interface DocImport {
  /** The document, relative to the repository root (`docs/adapters.md`). */
  readonly doc: string;
  /** 1-based line of the statement's first line in the document. */
  readonly line: number;
  /** The entry imported from: `agent-harness` or `agent-harness/<subpath>`. */
  readonly specifier: string;
  /** Exported names the statement imports by name (`x` for `x as y`, `T` for `type T`). */
  readonly names: readonly string[];
}

const FENCE = /^```(ts|typescript)\s*\n([\s\S]*?)^```/gm;
// The clause stops at a `;`, so that `import fc from 'fast-check';` above is not taken in.
const IMPORT = /^import\s+(?:type\s+)?([^;]*?)\s+from\s+'(agent-harness(?:\/[^']*)?)'/gm;

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** The names between the braces of an import clause; a default or `* as` import names none. */
function namedImports(clause: string): string[] {
  const braces = clause.match(/\{([\s\S]*)\}/);
  if (braces === null) return [];
  return (braces[1] ?? '')
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter((part) => part !== '')
    .map((part) => part.split(/\s+as\s+/)[0] ?? part);
}

/** Every import of agent-harness or one of its subpaths in the ```ts blocks of one Markdown text. */
export function docImports(doc: string, markdown: string): DocImport[] {
  const found: DocImport[] = [];
  for (const block of markdown.matchAll(FENCE)) {
    const code = block[2] ?? '';
    const codeStart = (block.index ?? 0) + block[0].indexOf('\n') + 1;
    for (const statement of code.matchAll(IMPORT)) {
      found.push({
        doc,
        line: lineAt(markdown, codeStart + (statement.index ?? 0)),
        specifier: statement[2] ?? '',
        names: namedImports(statement[1] ?? ''),
      });
    }
  }
  return found;
}

/**
 * A TypeScript module that fails to type-check when an import names an entry the package does
 * not export or a name that entry does not export. Line `i + 1` checks `imports[i]`.
 */
export function importCheckModule(imports: readonly DocImport[]): string {
  return imports
    .map((found, i) => {
      const aliases = found.names.map((name, j) => `${name} as _${i}_${j}`).join(', ');
      return aliases === ''
        ? `import type * as _${i} from '${found.specifier}';`
        : `import type { ${aliases} } from '${found.specifier}';`;
    })
    .join('\n')
    .concat('\nexport {};\n');
}
