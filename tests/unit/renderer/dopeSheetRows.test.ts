/** The dope sheet's rows and groups, frame numbers and timecode, on a generated motion and a fixture. */
import { describe, expect, it } from 'vitest';
import { dopeLines, dopeRows, filterRows } from '../../../renderer/timeline/dopeSheetRows';
import { frameOf, timecode } from '../../../renderer/app/frames';
import { selectGroupSpan, summaryMask, summaryTimes } from '../../../renderer/timeline/dopeSheetSummary';
import { KeySelectionState } from '../../../renderer/timeline/dopeSheetSelection';
import { DopeLayout } from '../../../renderer/timeline/dopeSheetLayout';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { deleteKeys } from '../../../shared/edits/deleteKeys';
import { findChannel } from '../../../shared/motion/types';
import { describeFixtures } from '../../../testkit/fixtures';
import { fixtureMotion, wavyMotion } from '../edits/editTestKit';

describe('dope sheet rows', () => {
  it('groups every animated channel, keeps unkeyed bones as rows, hips position and expressions apart', () => {
    const m = wavyMotion();
    const groups = dopeRows(m);
    expect(groups.map((g) => g.id)).toEqual(['torso', 'head', 'leftArm', 'rightArm', 'leftLeg', 'rightLeg', 'fingers', 'hipsPosition', 'expressions', 'lookAt']);
    const rows = groups.flatMap((g) => g.rows);
    // Every channel of the motion has exactly one row.
    for (const c of m.channels) expect(rows.filter((r) => r.channel === c)).toHaveLength(1);
    expect(groups.find((g) => g.id === 'leftArm')!.rows.map((r) => r.label)).toEqual(
      ['leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand'].filter((b) => m.humanoid.boneToNode[b as 'leftHand'] !== undefined),
    );
    const unkeyed = rows.filter((r) => !r.channel);
    expect(unkeyed.length).toBeGreaterThan(0);
    expect(unkeyed.every((r) => r.path === 'rotation' && r.bone)).toBe(true);
    expect(groups.find((g) => g.id === 'expressions')!.rows.map((r) => r.label).sort()).toEqual(['blinkLeft', 'blinkRight', 'happy']);
    expect(groups.find((g) => g.id === 'hipsPosition')!.rows[0].path).toBe('translation');
    const lines = dopeLines(groups, new Set(['fingers', 'torso']));
    expect(lines.filter((l) => l.kind === 'group')).toHaveLength(groups.length);
    expect(lines.some((l) => l.kind === 'row' && (l.row.group === 'fingers' || l.row.group === 'torso'))).toBe(false);
  });
  it('an expression or lookAt whose keys were all deleted keeps its row, unkeyed, to key into', () => {
    const m = wavyMotion();
    const happy = m.expressions.find((e) => e.name === 'happy')!;
    const hc = findChannel(m, happy.node, 'translation')!;
    const lc = findChannel(m, m.lookAtNode!, 'rotation')!;
    const out = deleteKeys(m, [
      { node: happy.node, path: 'translation', keys: Array.from({ length: hc.times.length }, (_, i) => i) },
      { node: lc.node, path: 'rotation', keys: Array.from({ length: lc.times.length }, (_, i) => i) },
    ]);
    const groups = dopeRows(out);
    const row = groups.find((g) => g.id === 'expressions')!.rows.find((r) => r.label === 'happy')!;
    expect(row.channel).toBeUndefined();
    expect(row.id).toBe(`${happy.node}/translation`);
    const gaze = groups.find((g) => g.id === 'lookAt')!.rows[0];
    expect(gaze.channel).toBeUndefined();
    expect(gaze.node).toBe(m.lookAtNode);
    expect(dopeRows(wavyMotion({ expressions: false })).some((g) => g.id === 'expressions' || g.id === 'lookAt')).toBe(false);
  });
  it('frames and timecode at the motion fps', () => {
    expect(frameOf(1.5, 30)).toBe(45);
    expect(timecode(61.5, 30)).toBe('00:01:01:15');
    expect(timecode(3600 + 2 / 24, 24)).toBe('01:00:00:02');
  });
  it('selection masks follow moved keys and become the core selection', () => {
    const m = wavyMotion();
    const c = m.channels[0];
    const id = `${c.node}/${c.path}`;
    const sel = new KeySelectionState();
    expect(sel.selectTimeSpan(id, c.times, 0.5, 1)).toBe(16);
    const core = sel.toKeySelection();
    expect(Array.from(core[0].keys)).toEqual(Array.from({ length: 16 }, (_, i) => 15 + i));
    const moved = moveKeys(m, core, 0.2);
    sel.reselectMoved(core, m, moved, 0.2);
    const now = findChannel(moved, c.node, c.path)!;
    const picked = Array.from(sel.mask(id)!.entries()).filter(([, v]) => v).map(([i]) => now.times[i]);
    expect(picked).toEqual(Array.from({ length: 16 }, (_, i) => Math.fround(c.times[15 + i] + 0.2)));
  });
  it('single keys set and unset, spans, reselection and validate: size, empty and the core selection match the masks', () => {
    const m = wavyMotion();
    const [a, b] = m.channels;
    const ida = `${a.node}/${a.path}`, idb = `${b.node}/${b.path}`;
    const sel = new KeySelectionState();
    expect(sel.empty).toBe(true);
    sel.set(ida, a.times.length, 40, true);
    sel.set(ida, a.times.length, 3, true);
    const inSpan = [...b.times.keys()].filter((k) => b.times[k] >= 1 && b.times[k] <= 1.2);
    expect(inSpan.length).toBeGreaterThan(2);
    expect(sel.selectTimeSpan(idb, b.times, 1, 1.2)).toBe(inSpan.length);
    sel.set(idb, b.times.length, inSpan[0], false);
    expect(sel.size).toBe(2 + inSpan.length - 1);
    const core = sel.toKeySelection();
    expect(core.map((e) => Array.from(e.keys))).toEqual([[3, 40], inSpan.slice(1)]);
    // Every key unset again: empty, and nothing listed.
    for (const k of [3, 40]) sel.set(ida, a.times.length, k, false);
    for (const k of inSpan) sel.set(idb, b.times.length, k, false);
    expect(sel.empty).toBe(true);
    expect(sel.size).toBe(0);
    expect(sel.toKeySelection()).toEqual([]);
    // A mask dropped by validate (its track is another length now) starts over with a fresh span.
    sel.set(ida, a.times.length + 1, a.times.length, true);
    sel.validate(m);
    expect(sel.mask(ida)).toBeUndefined();
    sel.set(ida, a.times.length, 0, true);
    expect(Array.from(sel.toKeySelection()[0].keys)).toEqual([0]);
  });
});

describeFixtures('dope sheet rows on fixtures', () => {
  it('idle_loop.vrma: every channel in a row', () => {
    const m = fixtureMotion('idle_loop.vrma');
    const rows = dopeRows(m).flatMap((g) => g.rows);
    const humanoid = m.channels.filter((c) => m.humanoid.nodeToBone.has(c.node) && (c.path === 'rotation' || c.path === 'translation'));
    for (const c of humanoid) expect(rows.some((r) => r.channel === c)).toBe(true);
  });
});

describe('group summaries kept across edits', () => {
  it('a group whose rows keep their time arrays keeps its summary; one whose rows changed gets the merge of the new ones; undo finds the earlier one', () => {
    const m = wavyMotion();
    const keyed = (id: string) => dopeRows(m).find((g) => g.id === id)!.rows.filter((r) => r.channel);
    // Rows of the left arm and of the torso get their own time arrays (a key move), so their summaries are merges.
    const pick = (r: { node: number; path: 'rotation' | 'translation' | 'scale' }, keys: number[]) => ({ node: r.node, path: r.path, keys });
    const [t0, t1] = keyed('torso');
    const moved = moveKeys(m, [...keyed('leftArm').slice(0, 2).map((r) => pick(r, [10, 11])), pick(t0, [5])], 0.5 / 30);
    let motion = moved;
    const layout = new DopeLayout({ motion: () => motion, selectedBone: () => null });
    const group = (id: string) => layout.groups().find((g) => g.id === id)!;
    const armSummary = layout.summaryOf(group('leftArm'));
    const torso = layout.summaryOf(group('torso'));
    expect(Array.from(armSummary)).toEqual(Array.from(summaryTimes(group('leftArm'))));
    expect(summaryTimes(group('torso'))).not.toBe(torso); // a merge: a new array each time
    // An edit of another torso track: the arm's summary is the same object, the torso's merged again.
    motion = moveKeys(moved, [pick(t1, [20])], 0.5 / 30);
    expect(layout.summaryOf(group('leftArm'))).toBe(armSummary);
    const torsoNow = layout.summaryOf(group('torso'));
    expect(torsoNow).not.toBe(torso);
    expect(Array.from(torsoNow)).toEqual(Array.from(summaryTimes(group('torso'))));
    expect(torsoNow.length).toBe(torso.length + 1);
    // Undo: the torso's rows have their earlier arrays again, and so its earlier summary.
    motion = moved;
    expect(layout.summaryOf(group('torso'))).toBe(torso);
  });
});

describe('dope sheet row filter and group summaries (issue 27)', () => {
  it('keyed rows by default, every bone, the selected bone, a search', () => {
    const m = wavyMotion();
    const groups = dopeRows(m);
    const rows = (g: ReturnType<typeof filterRows>) => g.flatMap((x) => x.rows);
    const keyed = rows(filterRows(groups, { mode: 'keyed', search: '' }));
    expect(keyed.length).toBe(m.channels.length);
    expect(keyed.every((r) => r.channel)).toBe(true);
    expect(rows(filterRows(groups, { mode: 'all', search: '' })).length).toBe(rows(groups).length);
    expect(rows(filterRows(groups, { mode: 'selected', search: '', selectedBone: null }))).toEqual([]);
    expect(rows(filterRows(groups, { mode: 'selected', search: '', selectedBone: 'hips' })).map((r) => `${r.group}:${r.path}`)).toEqual(['torso:rotation', 'hipsPosition:translation']);
    expect(rows(filterRows(groups, { mode: 'all', search: 'LOWERARM' })).map((r) => r.label)).toEqual(['leftLowerArm', 'rightLowerArm']);
    // The shown (translated) name matches too.
    expect(rows(filterRows(groups, { mode: 'all', search: 'にこ', shownName: (r) => (r.label === 'happy' ? 'にこにこ' : r.label) })).map((r) => r.label)).toEqual(['happy']);
  });
  it('summary keys are the union of the group rows’ key times; a summary key selects the group at its time', () => {
    const m = wavyMotion();
    const torso = dopeRows(m).find((g) => g.id === 'torso')!;
    const keyedRows = torso.rows.filter((r) => r.channel);
    expect(keyedRows.length).toBeGreaterThan(1);
    const union = summaryTimes(torso);
    const expected = [...new Set(keyedRows.flatMap((r) => Array.from(r.channel!.times)))].sort((a, b) => a - b);
    expect(Array.from(union)).toEqual(expected);
    const sel = new KeySelectionState();
    const t = union[5];
    const n = selectGroupSpan(torso, sel, t, t);
    expect(n).toBe(keyedRows.filter((r) => Array.from(r.channel!.times).includes(t)).length);
    const mask = summaryMask(torso, union, sel)!;
    expect(Array.from(mask).map((v, i) => (v ? i : -1)).filter((i) => i >= 0)).toEqual([5]);
    // One row's key unselected: the summary key is no longer selected.
    const r0 = keyedRows[0];
    sel.set(r0.id, r0.channel!.times.length, Array.from(r0.channel!.times).indexOf(t), false);
    expect(summaryMask(torso, union, sel)![5]).toBe(0);
  });
});

describeFixtures('dope sheet rows on test.vrma', () => {
  it('shows its three keyed rows by default, not every bone', () => {
    const m = fixtureMotion('test.vrma');
    const shown = filterRows(dopeRows(m), { mode: 'keyed', search: '' });
    expect(shown.map((g) => `${g.id}:${g.rows.map((r) => r.label).join(',')}`)).toEqual(['rightArm:rightUpperArm', 'expressions:happy', 'lookAt:lookAt']);
    expect(dopeRows(m).flatMap((g) => g.rows).length).toBeGreaterThan(20);
  });
});
