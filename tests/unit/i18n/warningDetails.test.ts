/**
 * Every warning of the core's readers and converters says what happened in both languages (issue 12):
 * each `warning(text, detail, params)` in shared/ names a catalogue detail (`warning.<key>`,
 * shared/i18n/messages/warnings.ts) with its parameters, and every place a warning is added
 * (`warnings.push(...)`, a `warnings: [...]` list) passes one made by warning() (or forwards warnings
 * made elsewhere). The sites are found in the source (TypeScript AST), so a new warning without a key,
 * a key missing in either language, or a placeholder the site does not pass fails here. Real files
 * that warn (a VMD without its model, BVH/FBX with unmapped joints) then give Japanese warnings with
 * their real values.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { placeholdersOf } from '../../../shared/i18n/format';
import { setLocale, t } from '../../../shared/i18n';
import { warningText } from '../../../renderer/ui/messages';
import { convertToMotion } from '../../../shared/formats';
import { warning, type MotionWarning } from '../../../shared/warnings';
import { describeFixtures, FIXTURES_DIR } from '../../../testkit/fixtures';
import { englishWords, JAPANESE } from '../../../testkit/japaneseText';
import { DETAIL_KEY, REPO_ROOT, tsSourceFiles } from '../../../testkit/sourceScan';

afterEach(() => setLocale('en'));

const ROOT = REPO_ROOT;
const SHARED = join(ROOT, 'shared');
const DETAIL = DETAIL_KEY;

interface WarningSite {
  readonly where: string;
  readonly detail: string | null;
  /** Parameter names of the object-literal params (null when not a literal). */
  readonly params: readonly string[] | null;
}

interface AddSite {
  readonly where: string;
  /** What is added, as source text, and whether it is acceptable. */
  readonly added: string;
  readonly ok: boolean;
}

const isWarningCall = (e: ts.Node): e is ts.CallExpression => ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'warning';

function scan(): { warnings: WarningSite[]; adds: AddSite[] } {
  const files = tsSourceFiles(SHARED).map((file) => ({ file, src: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true) }));
  // Names that stand for warnings made by warning(): `const X = warning(...)` and functions returning one.
  const producers = new Set<string>();
  for (const { src } of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && isWarningCall(node.initializer)) producers.add(node.name.text);
      if (ts.isFunctionDeclaration(node) && node.name && node.body) {
        const returns: ts.Expression[] = [];
        const find = (n: ts.Node): void => {
          if (ts.isReturnStatement(n) && n.expression) returns.push(n.expression);
          if (!ts.isFunctionLike(n)) ts.forEachChild(n, find);
        };
        ts.forEachChild(node.body, find);
        const made = returns.filter((r) => !(ts.isIdentifier(r) && r.text === 'undefined'));
        if (made.length && made.every(isWarningCall)) producers.add(node.name.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  // A local `const w = producer(...)` pushed after `if (w)` is a producer's warning too.
  const acceptable = (e: ts.Expression, locals: ReadonlySet<string>): boolean => {
    if (isWarningCall(e)) return true;
    if (ts.isIdentifier(e)) return producers.has(e.text) || locals.has(e.text);
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) return producers.has(e.expression.text);
    if (ts.isConditionalExpression(e)) return acceptable(e.whenTrue, locals) && acceptable(e.whenFalse, locals);
    return false;
  };
  const warnings: WarningSite[] = [];
  const adds: AddSite[] = [];
  for (const { file, src } of files) {
    const locals = new Set<string>();
    const at = (node: ts.Node) => `${relative(ROOT, file)}:${src.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const added = (node: ts.Node, e: ts.Expression) => {
      // A spread forwards warnings that another site made (a reader's, the recognition's).
      if (ts.isSpreadElement(e)) return;
      adds.push({ where: at(node), added: e.getText(src).slice(0, 80), ok: acceptable(e, locals) });
    };
    const visit = (node: ts.Node): void => {
      if (
        ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isCallExpression(node.initializer) && ts.isIdentifier(node.initializer.expression) &&
        producers.has(node.initializer.expression.text)
      ) locals.add(node.name.text);
      if (isWarningCall(node)) {
        const [, detail, params] = node.arguments;
        warnings.push({
          where: at(node),
          detail: detail && (ts.isStringLiteral(detail) || ts.isNoSubstitutionTemplateLiteral(detail)) && DETAIL.test(detail.text) ? detail.text : null,
          params: !params ? [] : ts.isObjectLiteralExpression(params) ? params.properties.flatMap((p) =>
            (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : []
          ) : null,
        });
      }
      // warnings.push(a, b, ...)
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'push' && /warnings$/i.test(node.expression.expression.getText(src))) {
        for (const a of node.arguments) added(node, a);
      }
      // warnings: [ ... ] in an object literal
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'warnings' && ts.isArrayLiteralExpression(node.initializer)) {
        for (const e of node.initializer.elements) added(node, e);
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return { warnings, adds };
}

const { warnings: SITES, adds: ADDS } = scan();
const key = (d: string) => `warning.${d}`;

describe('every warning of the core names a translated detail', () => {
  it('finds the warning sites of the readers and converters', () => {
    expect(SITES.length).toBeGreaterThan(60);
    expect(ADDS.length).toBeGreaterThan(55);
    for (const dir of ['shared/vrma/', 'shared/convert/bvh/', 'shared/convert/mmd/', 'shared/convert/fbx/', 'shared/convert/gltf/', 'shared/convert/humanoid/', 'shared/edits/']) {
      expect(SITES.some((s) => s.where.startsWith(dir)), dir).toBe(true);
    }
  });

  it('every warnings.push and warnings list adds a warning made by warning() (or forwards one)', () => {
    expect(ADDS.filter((a) => !a.ok).map((a) => `${a.where}: ${a.added}`)).toEqual([]);
  });

  it('every warning() passes a literal detail that exists in English and Japanese', () => {
    expect(SITES.filter((s) => !s.detail).map((s) => s.where)).toEqual([]);
    const missing = SITES.flatMap((s) => (s.detail ? (['en', 'ja'] as const).filter((l) => !(key(s.detail!) in CATALOGUE[l])).map((l) => `${s.where}: ${s.detail} (${l})`) : []));
    expect(missing).toEqual([]);
  });

  it('no warning message is left over from a site that no longer exists', () => {
    const used = new Set(SITES.flatMap((s) => (s.detail ? [key(s.detail)] : [])));
    expect(Object.keys(CATALOGUE.en).filter((k) => k.startsWith('warning.') && !used.has(k))).toEqual([]);
  });

  it('each site passes every parameter its message shows (in either language)', () => {
    const problems: string[] = [];
    for (const s of SITES) {
      if (!s.detail || !s.params) {
        if (s.detail && !s.params) problems.push(`${s.where}: params are not an object literal`);
        continue;
      }
      const needed = new Set([...placeholdersOf(CATALOGUE.en[key(s.detail)] ?? ''), ...placeholdersOf(CATALOGUE.ja[key(s.detail)] ?? '')]);
      for (const p of needed) if (!s.params.includes(p)) problems.push(`${s.where}: ${s.detail} shows {${p}} but the site does not pass it`);
    }
    expect(problems).toEqual([]);
  });

  it('the English catalogue message is the core’s English text (same words, same values)', () => {
    const w = warning('BVH line 12: data after the 3 declared frames was ignored', 'bvh.extraData', { line: 12, frames: 3 });
    expect(warningText(w)).toBe(w.text);
    setLocale('ja');
    expect(warningText(w)).toBe('BVH の 12 行目: 宣言された 3 フレームより後のデータを無視しました');
    // A detail the catalogue does not know (a newer core) still says something specific.
    expect(warningText({ text: 'something new', detail: 'nope' as never, params: {} })).toBe('something new');
  });
});

/** A Japanese warning checked: Japanese text, every real value shown, no English besides the values (file content: joint names). */
function expectJapanese(w: MotionWarning, text: string): void {
  expect(JAPANESE.test(text), text).toBe(true);
  let rest = text;
  // A select parameter (unit, side, how the skeleton was found) is worded, not shown as it is.
  const worded = new Set([...CATALOGUE.ja[key(w.detail)].matchAll(/\{(\w+), select,/g)].map((m) => m[1]));
  for (const [k, v] of Object.entries(w.params)) {
    if (worded.has(k)) continue;
    if (typeof v === 'number') {
      const shown = new Intl.NumberFormat('ja', { maximumFractionDigits: 3 }).format(v);
      if (v !== 0) expect(text, `${w.detail}: ${text}`).toContain(shown);
    } else if (v) {
      expect(text, `${w.detail}: ${text}`).toContain(v);
      rest = rest.split(v).join(' ');
    }
  }
  expect(englishWords(rest), `${w.detail}: ${text}`).toEqual([]);
}

const fixture = (p: string) => new Uint8Array(readFileSync(join(FIXTURES_DIR, p)));

/** The report lines of a converted file in Japanese, as the studio words them. */
function jaWarnings(file: string, bytes: Uint8Array): { warnings: readonly MotionWarning[]; texts: string[] } {
  const result = convertToMotion(file, bytes) as unknown;
  const motion = (result as { motion?: { warnings: readonly MotionWarning[] } }).motion ?? (result as { warnings: readonly MotionWarning[] });
  setLocale('ja');
  return { warnings: motion.warnings, texts: motion.warnings.map((w) => t('studio.convert.warning', { file, detail: warningText(w) })) };
}

describeFixtures('real files that warn give Japanese warnings with their real values', () => {
  it('a VMD without its model: the notice about the model, the skipped morphs and non-humanoid bones', () => {
    const dir = join(FIXTURES_DIR, 'vmd', 'mmdagent');
    const name = readdirSync(dir).find((f) => f.endsWith('.vmd'))!;
    const { warnings, texts } = jaWarnings(name, fixture(`vmd/mmdagent/${name}`));
    const details = warnings.map((w) => w.detail);
    expect(details).toContain('mmd.noModel');
    const noModel = texts[details.indexOf('mmd.noModel')];
    expect(noModel).toContain('標準の MMD 骨格とみなしました');
    expect(noModel).toContain(name);
    warnings.forEach((w, i) => expectJapanese(w, texts[i]));
    // The CLI's English is the core's, unchanged.
    expect(warnings[details.indexOf('mmd.noModel')].text).toBe('no .pmx given: assumed the standard MMD skeleton (pass the model for its exact leg lengths and arm angles)');
  });

  it('a BVH and an FBX with joints that map to no VRM bone: the folded joints by name, the summary with frames and fps', () => {
    const cases = [['bvh/cmu_12_01_walk.bvh', 'cmu_12_01_walk.bvh'], ['fbx/quaternius_robot.fbx', 'quaternius_robot.fbx']] as const;
    for (const [path, file] of cases) {
      if (!existsSync(join(FIXTURES_DIR, path))) continue;
      const { warnings, texts } = jaWarnings(file, fixture(path));
      const folded = warnings.find((w) => w.detail === 'humanoid.jointsFolded');
      expect(folded, `${file}: ${warnings.map((w) => w.text).join(' | ')}`).toBeTruthy();
      const names = String(folded!.params.names).split(', ');
      expect(names.length).toBeGreaterThan(0);
      const text = texts[warnings.indexOf(folded!)];
      expect(text).toContain('割り当てたボーンの子に畳み込んだジョイント');
      for (const n of names) expect(text).toContain(n);
      // The English sentence names the same joints.
      for (const n of names) expect(folded!.text).toContain(n);
      const summary = warnings.find((w) => w.detail === 'bvh.summary' || w.detail === 'fbx.take')!;
      expect(summary, file).toBeTruthy();
      expect(summary.params.frames as number).toBeGreaterThan(10);
      const st = texts[warnings.indexOf(summary)];
      expect(st).toContain(`${new Intl.NumberFormat('ja').format(summary.params.frames as number)} フレーム`);
      expect(st).toMatch(/骨格は(名前から|形から|名前と形から)認識しました/);
      warnings.forEach((w, i) => expectJapanese(w, texts[i]));
    }
  });
});
