/**
 * How long files and functions are, read with the TypeScript parser: the size rule of the project
 * (files under 400 lines except message catalogues and data tables, functions under 120 lines).
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { ROOT, sourceFiles } from './importGraph';

export interface LongThing {
  /** "path" for a file, "path:name" for a function. */
  readonly where: string;
  readonly lines: number;
}

const nameOf = (node: ts.Node, sf: ts.SourceFile): string => {
  const n = (node as { name?: ts.Node }).name;
  if (n && ts.isIdentifier(n)) return n.text;
  if (n) return n.getText(sf);
  // An arrow or function expression: the variable, property or call it is given to.
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return `(anonymous at line ${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1})`;
};

/** Every function, method, arrow and constructor longer than `maxLines` in the .ts files below `dirs`. */
export function longFunctions(dirs: readonly string[], maxLines: number): LongThing[] {
  const out: LongThing[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(dir)) {
      if (!file.endsWith('.ts')) continue;
      const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
      const visit = (node: ts.Node, owner: string): void => {
        let next = owner;
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
          const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
          const name = (owner ? `${owner}.` : '') + nameOf(node, sf);
          if (end - start + 1 > maxLines) out.push({ where: `${relative(ROOT, file)}:${name}`, lines: end - start + 1 });
          next = name;
        } else if (ts.isClassDeclaration(node) && node.name) next = node.name.text;
        ts.forEachChild(node, (c) => visit(c, next));
      };
      visit(sf, '');
    }
  }
  return out.sort((a, b) => a.where.localeCompare(b.where));
}

/** Source files longer than `maxLines`, leaving out what `exempt` says is a catalogue or data table. */
export function longFiles(dirs: readonly string[], maxLines: number, exempt: (path: string) => boolean): LongThing[] {
  const out: LongThing[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(dir)) {
      const path = relative(ROOT, file);
      if (exempt(path)) continue;
      const lines = readFileSync(file, 'utf8').split('\n').length;
      if (lines > maxLines) out.push({ where: path, lines });
    }
  }
  return out.sort((a, b) => a.where.localeCompare(b.where));
}
