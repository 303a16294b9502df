/**
 * Every error the motion core throws says what is wrong in both languages (issue 12): each throw site
 * in shared/ (fail(), a reader's bad()/r.fail(), new MotionError) names a catalogue detail
 * (`errorDetail.<key>`, shared/i18n/messages/errors.ts) with its parameters, and the studio words it
 * with the real values. The throw sites are found in the source (TypeScript AST), so a new throw
 * without a detail, a detail missing in either language, or a message placeholder the site does not
 * pass fails here. Real broken files then give Japanese messages with their real line numbers.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { MotionError } from '../../../shared/errors';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { placeholdersOf } from '../../../shared/i18n/format';
import { setLocale, t } from '../../../shared/i18n';
import { errorText } from '../../../renderer/ui/messages';
import { convertToMotion } from '../../../shared/formats';
import { readVrma } from '../../../shared/vrma/read';
import { describeFixtures, FIXTURES_DIR } from '../../../testkit/fixtures';
import { englishWords, JAPANESE } from '../../../testkit/japaneseText';
import { DETAIL_KEY, REPO_ROOT, tsSourceFiles } from '../../../testkit/sourceScan';

afterEach(() => setLocale('en'));

const ROOT = REPO_ROOT;
const SHARED = join(ROOT, 'shared');
const DETAIL = DETAIL_KEY;
/** Reader helpers that add `line` to the parameters they are given (bvh/parse.ts, mmd/vpd.ts). */
const ADDS_LINE = new Set(['bad']);

interface ThrowSite {
  readonly where: string;
  /** Detail keys the site may pass (a conditional gives two); empty: none. */
  readonly details: readonly string[];
  /** Forwards a `detail` it was given (a helper such as BinaryReader.fail). */
  readonly forwards: boolean;
  /** Parameter names of an object-literal params argument (null when not a literal, e.g. forwarded). */
  readonly params: readonly string[] | null;
  readonly addsLine: boolean;
}

function literals(e: ts.Expression): string[] {
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return DETAIL.test(e.text) ? [e.text] : [];
  if (ts.isConditionalExpression(e)) return [...literals(e.whenTrue), ...literals(e.whenFalse)];
  if (ts.isParenthesizedExpression(e)) return literals(e.expression);
  return [];
}

function extendsMotionError(node: ts.Node): boolean {
  let c: ts.Node | undefined = node;
  while (c && !ts.isClassDeclaration(c)) c = c.parent;
  return !!c && (c as ts.ClassDeclaration).heritageClauses?.some((h) => h.types.some((t) => t.expression.getText() === 'MotionError')) === true;
}

function throwSites(): ThrowSite[] {
  const sites: ThrowSite[] = [];
  // The core, and the studio's own few MotionErrors (renderer/app/core.ts).
  for (const file of [...tsSourceFiles(SHARED), ...tsSourceFiles(join(ROOT, 'renderer'))]) {
    const text = readFileSync(file, 'utf8');
    // Only modules that throw MotionError (shared/contract's bad() throws the API's own StudioApiError).
    if (!/from '[^']*errors'|\.fail\(/.test(text) && !file.endsWith(join('shared', 'errors.ts'))) continue;
    const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      let name: string | null = null;
      let args: readonly ts.Expression[] = [];
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        if (ts.isIdentifier(callee) && (callee.text === 'fail' || callee.text === 'bad')) name = callee.text;
        else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'fail') name = 'fail';
        args = node.arguments;
      } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'MotionError') {
        name = 'MotionError';
        args = node.arguments ?? [];
      }
      // A subclass of MotionError (the avatar's DecoderError) throws through its super() call.
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword && extendsMotionError(node)) {
        name = 'MotionError';
        args = node.arguments;
      }
      if (name) {
        const details = args.flatMap(literals);
        const forwards = args.some((a) => (ts.isIdentifier(a) && a.text === 'detail') || (ts.isPropertyAccessExpression(a) && a.name.text === 'detail'));
        const obj = args.find(ts.isObjectLiteralExpression);
        const params = obj
          ? obj.properties.flatMap((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : [])
          : null;
        const line = src.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        sites.push({ where: `${relative(ROOT, file)}:${line}`, details, forwards, params, addsLine: ADDS_LINE.has(name) });
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return sites;
}

const SITES = throwSites();
const detailKey = (d: string) => `errorDetail.${d}`;

describe('every MotionError throw site names a translated detail', () => {
  it('finds the throw sites of the core (readers, converters, edits)', () => {
    expect(SITES.length).toBeGreaterThan(250);
    for (const dir of ['shared/vrma/', 'shared/gltf/', 'shared/convert/bvh/', 'shared/convert/mmd/', 'shared/convert/fbx/', 'shared/convert/gltf/', 'shared/edits/']) {
      expect(SITES.some((s) => s.where.startsWith(dir)), dir).toBe(true);
    }
  });

  it('every throw site passes a detail (or forwards one it was given)', () => {
    expect(SITES.filter((s) => !s.details.length && !s.forwards).map((s) => s.where)).toEqual([]);
  });

  it('every detail used exists in English and Japanese', () => {
    const missing = SITES.flatMap((s) => s.details.flatMap((d) => (['en', 'ja'] as const).filter((l) => !(detailKey(d) in CATALOGUE[l])).map((l) => `${s.where}: ${d} (${l})`)));
    expect(missing).toEqual([]);
  });

  it('no errorDetail message is left over from a throw site that no longer exists', () => {
    const used = new Set(SITES.flatMap((s) => s.details.map(detailKey)));
    expect(Object.keys(CATALOGUE.en).filter((k) => k.startsWith('errorDetail.') && !used.has(k))).toEqual([]);
  });

  it('each site passes every parameter its message shows', () => {
    const problems: string[] = [];
    for (const s of SITES) {
      if (!s.params) continue;
      const given = new Set([...s.params, ...(s.addsLine ? ['line'] : [])]);
      for (const d of s.details) {
        const needed = CATALOGUE.en[detailKey(d)] ? placeholdersOf(CATALOGUE.en[detailKey(d)]) : [];
        for (const p of needed) if (!given.has(p)) problems.push(`${s.where}: ${d} shows {${p}} but the site does not pass it`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the studio words a detail with its parameters, numbers in the language (en and ja), and falls back to the core message without one', () => {
    const e = new MotionError('BAD_BVH', 'bvh.truncated', { line: 1234, frames: 10, total: 20 });
    expect(errorText(e)).toBe('This BVH file cannot be read (line 1,234: the file ends after 10 of 20 frames)');
    // One wording: the message (the CLI's, the logs') is the same catalogue English.
    expect(e.message).toBe('This BVH file cannot be read (line 1,234: the file ends after 10 of 20 frames)');
    setLocale('ja');
    expect(errorText(e)).toBe('この BVH ファイルを読み込めません（1,234 行目: 20 フレーム中 10 フレームでファイルが終わっています）');
    // An error rebuilt from data that came without a detail still says something specific.
    expect(errorText(new MotionError('BAD_BVH', undefined, {}, 'BVH line 3: odd'))).toBe('この BVH ファイルを読み込めません（BVH line 3: odd）');
  });
});

/** The user's message for a file that fails to open, in the current language (as the studio shows it). */
function openFailure(file: string, bytes: Uint8Array): { error: MotionError; text: string } {
  try {
    if (file.endsWith('.vrma')) readVrma(bytes);
    else convertToMotion(file, bytes);
  } catch (e) {
    if (!(e instanceof MotionError)) throw e;
    return { error: e, text: t('studio.open.fileFailed', { file, detail: errorText(e) }) };
  }
  throw new Error(`${file} opened without an error`);
}

const fixture = (p: string) => new Uint8Array(readFileSync(join(FIXTURES_DIR, p)));

describeFixtures('real broken files give Japanese messages with their real values', () => {
  it('a BVH cut in its motion data: the line where it ends, no English outside the allow-list', () => {
    const full = fixture('bvh/cmu_12_01_walk.bvh');
    const text = new TextDecoder('latin1').decode(full);
    const lines = text.split(/\r?\n/);
    // Keep the hierarchy and 10 frames, then cut the 11th frame in the middle of a number.
    const motion = lines.findIndex((l) => l.trim() === 'MOTION');
    const frames = Number(lines[motion + 1].split(/\s+/)[1]);
    expect(frames).toBeGreaterThan(100);
    const kept = lines.slice(0, motion + 3 + 10);
    const partial = lines[motion + 3 + 10].split(/\s+/).filter(Boolean).slice(0, 5).join(' ');
    const cut = new TextEncoder().encode(`${kept.join('\n')}\n${partial}\n`);
    const lineOfCut = motion + 3 + 10 + 1; // 1-based
    setLocale('ja');
    const { error, text: ja } = openFailure('walk_cut.bvh', cut);
    expect(error.code).toBe('BAD_BVH');
    expect(error.detail).toBe('bvh.frameCountMismatch');
    expect(error.params).toMatchObject({ line: lineOfCut, frame: 11, count: 5 });
    expect(ja).toContain('walk_cut.bvh');
    expect(ja).toContain(`${lineOfCut} 行目`);
    expect(ja).toContain('フレーム 11');
    expect(JAPANESE.test(ja)).toBe(true);
    expect(englishWords(ja)).toEqual([]);
    // The CLI's English message is the catalogue's: the same words as the studio's in English.
    expect(error.message).toBe(`This BVH file cannot be read (line ${lineOfCut}: frame 11 has 5 numbers, the hierarchy declares ${error.params.channels})`);
    setLocale('en');
    expect(openFailure('walk_cut.bvh', cut).text).toContain(`line ${lineOfCut}: frame 11 has 5 numbers, the hierarchy declares ${error.params.channels}`);
  });

  it('a truncated .vrma (GLB cut in half): the declared and real sizes', () => {
    const full = fixture('vrma/test.vrma');
    const half = full.subarray(0, Math.floor(full.length / 2));
    setLocale('ja');
    const { error, text } = openFailure('test.vrma', half);
    expect(error.code).toBe('TRUNCATED');
    expect(error.params).toEqual({ declared: full.length, bytes: half.length });
    expect(text).toContain(new Intl.NumberFormat('ja').format(full.length));
    expect(text).toContain(new Intl.NumberFormat('ja').format(half.length));
    expect(englishWords(text)).toEqual([]);
  });

  it('a truncated VMD and FBX: the byte offset where reading stopped', () => {
    for (
      const [file, bytes] of [
        ['mei_walk_cut.vmd', fixture(`vmd/mmdagent/${readdirSync(join(FIXTURES_DIR, 'vmd', 'mmdagent')).find((f) => f.endsWith('.vmd'))}`)],
        ['robot_cut.fbx', fixture('fbx/quaternius_robot.fbx')],
      ] as const
    ) {
      const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
      setLocale('ja');
      const { error, text } = openFailure(file, cut);
      expect(error.detail, `${file}: ${error.message}`).toBeTruthy();
      const numbers = Object.values(error.params).filter((v): v is number => typeof v === 'number');
      expect(numbers.length, `${file}: ${error.message}`).toBeGreaterThan(0);
      for (const n of numbers) expect(text).toContain(new Intl.NumberFormat('ja', { maximumFractionDigits: 3 }).format(n));
      expect(englishWords(text), `${file}: ${text}`).toEqual([]);
    }
  });
});
