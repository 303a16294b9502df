/**
 * The edit registry is the one description of every edit: the CLI's --help and the studio's edit panel
 * show the same defaults and ranges (compared here through the registry), the ranges are the core's own,
 * one name per edit reaches the CLI, the panel and the commands, and running an edit through the
 * registry equals calling the core function with the same values.
 */
import { withMarkers } from '../../../shared/motion/markers';
import { editOnRange, editPartBlended, editPartOnRange } from '../../../shared/edits/rangeEdit';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../../testkit/cli';
import { EDITS, checkParam, editById, resolveParams, runEdit, type EditDefinition, type NumberParam } from '../../../shared/edits/registry';
import { panelFields, initialState, disabledReason, runPanelEdit } from '../../../renderer/panels/editCatalog';
import { t } from '../../../shared/i18n';
import { editCommand } from '../../../main/cli/editCommand';
import { COMMANDS } from '../../../main/cli/commands';
import { capturedIO } from '../../../testkit/cli';
import * as core from '../../../shared/edits/index';
import { MAX_SPEED_FACTOR, MIN_SPEED_FACTOR } from '../../../shared/edits/speed';
import { MAX_RESAMPLE_FPS, MIN_RESAMPLE_FPS } from '../../../shared/edits/resample';
import { MotionError } from '../../../shared/errors';
import { durationOf, type Motion } from '../../../shared/motion/types';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { wavyMotion, withRotatedRest } from './editTestKit';
import { fit as fitToAvatar } from '../../../shared/edits/fit';
import { pinRange } from '../../../shared/edits/pinRange';
import { bakeIntermediateNodes } from '../../../shared/edits/bakeIntermediate';
import { readAvatarSkeleton } from '../../../shared/avatar/avatarSkeleton';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';

/** An avatar for the edits that fit to one (the generated mannequin, VRM 1.0). */
const MANNEQUIN = readAvatarSkeleton(makeMannequinVrm(), 'mannequin');

/** What one CLI --help option line says: default (or required) and the accepted range. */
interface HelpFacts {
  required: boolean;
  default?: number;
  min: number;
  minExclusive: boolean;
  max: number;
}

const NUM = '(-?[\\d.]+(?:e[-+]?\\d+)?)';

function helpFacts(usage: string, flag: string): HelpFacts {
  const line = usage.split('\n').find((l) => l.trimStart().startsWith(`--${flag} `));
  expect(line, `--${flag} in the help`).toBeDefined();
  const text = line!;
  const dflt = new RegExp(`\\(default ${NUM}`).exec(text);
  const required = /\(required\)$/.test(text);
  expect(required || dflt !== null, text).toBe(true);
  let m: RegExpExecArray | null;
  if ((m = new RegExp(`, ${NUM}(?: [\\w/]+)? to ${NUM}`).exec(text))) return { required, default: dflt ? Number(dflt[1]) : undefined, min: Number(m[1]), minExclusive: false, max: Number(m[2]) };
  if ((m = new RegExp(`, more than ${NUM}(?: [\\w/]+)?(?:, at most ${NUM})?`).exec(text))) {
    return { required, default: dflt ? Number(dflt[1]) : undefined, min: Number(m[1]), minExclusive: true, max: m[2] ? Number(m[2]) : Infinity };
  }
  m = new RegExp(`, ${NUM}(?: [\\w/]+)? or more`).exec(text);
  expect(m, `range in "${text}"`).not.toBeNull();
  return { required, default: dflt ? Number(dflt[1]) : undefined, min: Number(m![1]), minExclusive: false, max: Infinity };
}

/** Equal as the help prints them (6 significant digits). */
const close = (a: number, b: number) => (Number.isFinite(a) ? Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)) : a === b);

describe('edit registry: CLI --help and the edit panel agree', () => {
  for (const def of EDITS) {
    it(`${def.id}: every parameter has the same default and range in both`, async () => {
      const r = await cli(def.id, '--help');
      expect(r.code).toBe(0);
      const fields = panelFields(def);
      for (const p of def.params) {
        const field = fields.find((f) => f.kind !== 'motionFile' && f.param === p.name);
        if (!field || field.kind === 'motionFile') throw new Error(`${def.id}: no panel field for ${p.name}`);
        expect(field.id).toBe(`edit-${def.id}-${p.name}`);
        if (p.kind === 'boolean') {
          expect(field.kind).toBe('checkbox');
          // A flag that is on by default is turned off with --no-NAME; the checkbox starts as the default.
          const flag = p.default ? `--no-${p.name}` : `--${p.name}`;
          expect(r.out.split('\n').some((l) => l.trimStart().startsWith(flag + ' '))).toBe(true);
          expect(field.value).toBe(p.default);
          continue;
        }
        if (field.kind !== 'number') throw new Error('number field expected');
        const facts = helpFacts(r.out, p.name);
        expect(close(field.min, facts.min), `${def.id} --${p.name} min: panel ${field.min}, help ${facts.min}`).toBe(true);
        expect(close(field.max, facts.max), `${def.id} --${p.name} max: panel ${field.max}, help ${facts.max}`).toBe(true);
        if (facts.required) {
          expect(p.default).toBeUndefined();
          expect(field.value).toBe(p.suggested);
        } else {
          expect(close(field.value, facts.default!), `${def.id} --${p.name} default: panel ${field.value}, help ${facts.default}`).toBe(true);
        }
        expect(facts.minExclusive).toBe(p.minExclusive === true);
        expect(field.title).toContain(p.help);
      }
    });
  }

  it('the drift of issue 10 is gone: join and delete blend 0.2 (the core), speed and resample take the core ranges', () => {
    const value = (id: string, name: string) => (initialState(editById(id)!).values[name]);
    expect(value('join', 'blend')).toBe(core.DEFAULT_JOIN_BLEND);
    expect(core.DEFAULT_JOIN_BLEND).toBe(0.2);
    expect(value('delete', 'blend')).toBe(core.DEFAULT_DELETE_BLEND);
    const field = (id: string, name: string) => panelFields(editById(id)!).find((f) => f.kind === 'number' && f.param === name) as Extract<ReturnType<typeof panelFields>[number], { kind: 'number' }>;
    expect([field('speed', 'factor').min, field('speed', 'factor').max]).toEqual([MIN_SPEED_FACTOR, MAX_SPEED_FACTOR]);
    expect([MIN_SPEED_FACTOR, MAX_SPEED_FACTOR]).toEqual([0.001, 1000]);
    expect([field('resample', 'fps').min, field('resample', 'fps').max]).toEqual([MIN_RESAMPLE_FPS, MAX_RESAMPLE_FPS]);
    expect([MIN_RESAMPLE_FPS, MAX_RESAMPLE_FPS]).toEqual([1, 1000]);
  });
});

describe("edit registry: validation is the core's", () => {
  const m = wavyMotion({ duration: 2, fps: 30 });
  it('every number parameter accepts exactly what its core function accepts at the edges', () => {
    for (const def of EDITS) {
      for (const p of def.params) {
        if (p.kind !== 'number') continue;
        const inside = p.minExclusive ? p.min + 1e-3 : p.min;
        expect(() => checkParam(p, inside), `${def.id} ${p.name} ${inside}`).not.toThrow();
        expect(() => checkParam(p, p.minExclusive ? p.min : p.min - 1e-3), `${def.id} ${p.name} below`).toThrow(MotionError);
        if (Number.isFinite(p.max)) {
          expect(() => checkParam(p, p.max)).not.toThrow();
          expect(() => checkParam(p, p.max * 1.001 + 1e-3)).toThrow(MotionError);
        }
        expect(() => checkParam(p, Number.NaN)).toThrow(/must be a finite number/);
      }
    }
    // The registry's limits are the core function's own: called directly (no registry check), the core
    // takes the edges and refuses just beyond them.
    const b = wavyMotion({ duration: 2, fps: 24, seed: 9 });
    for (const def of EDITS) {
      const input = { motion: m, range: { from: 0.5, to: 1.5 }, other: b, time: 1, avatar: MANNEQUIN };
      const base = Object.fromEntries(def.params.map((p) => [p.name, p.kind === 'boolean' ? p.name === 'fingers' || p.name === 'left-hand' || p.default : (p.default ?? p.suggested!)]));
      for (const p of def.params) {
        if (p.kind !== 'number') continue;
        const at = (v: number) => () => def.apply(input, { ...base, [p.name]: v });
        if (!p.minExclusive) expect(at(p.min), `${def.id} --${p.name} ${p.min}`).not.toThrow();
        expect(at(p.minExclusive ? p.min : p.min - 1e-3), `${def.id} --${p.name} below`).toThrow(MotionError);
        if (Number.isFinite(p.max)) {
          expect(at(p.max), `${def.id} --${p.name} ${p.max}`).not.toThrow();
          expect(at(p.max * 1.001 + 1e-3), `${def.id} --${p.name} above`).toThrow(MotionError);
        }
      }
    }
    // The values the old panel refused but the core takes now go through, and the core's own check agrees.
    const speed = editById('speed')!;
    for (const factor of [0.01, 500]) {
      const out = runEdit(speed, { motion: m }, { factor }).motion;
      expect(durationOf(out)).toBeCloseTo(durationOf(m) / factor, 3);
    }
    expect(() => runEdit(speed, { motion: m }, { factor: 1001 })).toThrow(/factor must be between 0.001 and 1000/);
    expect(() => core.changeSpeed(m, 1001)).toThrow(/between 0.001 and 1000/);
    const fps = runEdit(editById('resample')!, { motion: m }, { fps: 500 }).motion;
    expect(fps.channels[0].times.length).toBe(Math.floor(durationOf(m) * 500 + 1e-6) + 1);
    // A required parameter has no default: leaving it out is an error, not a silent value.
    expect(() => resolveParams(speed, {})).toThrow(/factor is required/);
  });
});

describe('edit registry: one name per edit, running through it equals the core', () => {
  it('ids are unique, each is a CLI subcommand and an `edit-<id>` panel entry', () => {
    const ids = EDITS.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z][a-z-]*$/);
      expect(COMMANDS.filter((c) => c.name === id)).toHaveLength(1);
    }
    expect(ids).toEqual(['keep', 'delete', 'speed', 'reverse', 'mirror', 'in-place', 'smooth', 'loop', 'strip', 'optimize', 'fix', 'join', 'resample', 'pin-feet', 'pin', 'fit', 'bake-intermediate']);
  });

  const a = withRotatedRest(wavyMotion({ duration: 4, fps: 30 }));
  const b = wavyMotion({ duration: 2, fps: 24, seed: 9 });
  const range = { start: 1, end: 2.5 };
  const r = { from: range.start, to: range.end };
  const ctx = { motion: a, duration: durationOf(a), range, time: 0, avatar: MANNEQUIN };
  const same = (x: Motion, y: Motion) => Buffer.from(writeVrma(x)).equals(Buffer.from(writeVrma(y)));
  const expected: Record<string, () => Motion> = {
    keep: () => core.keepRange(a, 1, 2.5),
    delete: () => core.deleteRange(a, 1, 2.5, 0.2),
    // Edits with an optional range get the panel's IN/OUT (rangeEdit.ts).
    speed: () => editPartOnRange(a, r, (m) => core.changeSpeed(m, 1.5)),
    reverse: () => editPartBlended(a, r, core.reverse),
    mirror: () => editOnRange(a, r, core.mirror),
    'in-place': () => editPartBlended(a, r, core.inPlace),
    smooth: () => editOnRange(a, r, (m) => core.smooth(m, 0.05)),
    loop: () => core.loopSeam(a, 0.3),
    strip: () => editOnRange(a, r, (m) => core.strip(m, { fingers: true, hipsTranslation: false })),
    optimize: () => editOnRange(a, r, (m) => core.optimize(m, { rotationTolerance: 0.004, positionTolerance: 0.002 }), 0),
    fix: () => editPartOnRange(a, r, core.fixOutliers),
    // Join also marks the boundary (shared/motion/markers.ts).
    join: () => {
      const out = core.join(a, b, { blend: 0.2, fixOutliers: true });
      return withMarkers(out, [{ time: durationOf(out) - durationOf(core.fixOutliers(b)), name: b.animationName ?? 'part 2', kind: 'join' }]);
    },
    resample: () => editOnRange(a, r, (m) => core.resample(m, 30), 0),
    'pin-feet': () => core.pinFeet(a, { height: 0.05, speed: 0.3, minContact: 0.1, blend: 0.15 }),
    pin: () => pinRange(a, 1, 2.5, { limbs: ['leftArm'], blend: 0.2 }),
    fit: () => fitToAvatar(a, MANNEQUIN, { height: 0.05, speed: 0.3, minContact: 0.1, blend: 0.15 }),
    // Nothing between a's bones is animated: the motion comes back as it is (tests/unit/edits/bakeIntermediate.test.ts has idle_loop).
    'bake-intermediate': () => bakeIntermediateNodes(a),
  };

  it('the panel with its starting values gives exactly the core function with the documented defaults', () => {
    for (const def of EDITS) {
      const state = initialState(def);
      if (def.id === 'strip') state.values.fingers = true; // strip needs a choice; both start off
      if (def.id === 'pin') state.values['left-hand'] = true; // so does pin
      if (def.other) state.other = b;
      const out = runPanelEdit(def, ctx, state).motion;
      expect(same(out, expected[def.id]()), def.id).toBe(true);
    }
    expect(Object.keys(expected).sort()).toEqual(EDITS.map((e) => e.id).sort());
  });

  it('range and second-motion edits say why they are disabled until they have one', () => {
    expect(disabledReason(editById('keep')!, { ...ctx, range: null }, initialState(editById('keep')!))).toBe(t('edits.needsRange'));
    expect(disabledReason(editById('join')!, ctx, initialState(editById('join')!))).toMatch(/motion file/);
    expect(disabledReason(editById('keep')!, ctx, initialState(editById('keep')!))).toBeNull();
    const still = wavyMotion({ duration: 0, fps: 30 });
    expect(disabledReason(editById('reverse')!, { ...ctx, motion: still, duration: 0 }, initialState(editById('reverse')!))).toMatch(/single frame/);
  });
});

describe('edit registry: a new edit is one entry (optional range, time)', () => {
  // An edit of the shape pinFeet / range variants will have: an optional range and a time.
  const cutAt: EditDefinition = {
    id: 'cut-at',
    label: 'Cut at',
    summary: 'Keep from the range start (or 0) up to a time',
    description: ['Test edit.'],
    range: 'optional',
    time: true,
    params: [{ name: 'scale', kind: 'number', label: 'Scale', unit: '', default: 1, min: 0.5, max: 2, step: 0.1, help: 'speed factor afterwards' } satisfies NumberParam],
    apply: (input, p) => core.changeSpeed(core.keepRange(input.motion, input.range?.from ?? 0, input.time!), p.scale as number),
  };
  const m = wavyMotion({ duration: 3, fps: 30 });

  it('the CLI gets --from/--to (optional), --at (required) and the parameter from the entry', async () => {
    const cmd = editCommand(cutAt);
    expect(cmd.usage).toMatch(/^Usage: vrma-studio cut-at IN \[--from S --to S\] --at S \[--scale F\] -o OUT/);
    expect(cmd.usage).toMatch(/--scale F +speed factor afterwards, 0.5 to 2 \(default 1\)/);
    const dir = mkdtempSync(join(tmpdir(), 'vrma-registry-'));
    try {
      const src = join(dir, 'in.vrma');
      writeFileSync(src, writeVrma(m));
      const run = async (...argv: string[]) => {
        const io = capturedIO();
        const { parseArgs } = await import('node:util');
        const { positionals, values } = parseArgs({ args: argv, options: cmd.options, allowPositionals: true, strict: true });
        const code = await cmd.run(positionals, values as Record<string, string | boolean | undefined>, io);
        return { code, err: io.stderr.join('\n') };
      };
      expect((await run(src, '--at', '2', '-o', join(dir, 'a.vrma'))).code).toBe(0);
      expect(durationOf(readVrma(new Uint8Array(readFileSync(join(dir, 'a.vrma')))))).toBeCloseTo(2, 4);
      expect((await run(src, '--from', '0.5', '--at', '2', '--scale', '2', '-o', join(dir, 'b.vrma'))).code).toBe(0);
      expect(durationOf(readVrma(new Uint8Array(readFileSync(join(dir, 'b.vrma')))))).toBeCloseTo(0.75, 4);
      const bad = await run(src, '--at', '2', '--scale', '3', '-o', join(dir, 'c.vrma'));
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(/scale must be between 0.5 and 2, got 3/);
      await expect(run(src, '-o', join(dir, 'd.vrma'))).rejects.toThrow(/--at is required/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the panel runs it with the timeline range when set, the whole motion otherwise, at the playhead', () => {
    const state = initialState(cutAt);
    expect(state.values).toEqual({ scale: 1 });
    const whole = runPanelEdit(cutAt, { motion: m, duration: 3, range: null, time: 2.5 }, state).motion;
    expect(durationOf(whole)).toBeCloseTo(2.5, 4);
    const ranged = runPanelEdit(cutAt, { motion: m, duration: 3, range: { start: 1, end: 3 }, time: 2.5 }, state).motion;
    expect(durationOf(ranged)).toBeCloseTo(1.5, 4);
    expect(disabledReason(cutAt, { motion: m, duration: 3, range: null, time: 0 }, state)).toBeNull();
  });
});
