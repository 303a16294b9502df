/**
 * The library's middle ellipsis (issue 27) on the issue's names: the end that is always shown keeps
 * what tells a file from its neighbours and the extension; start + end is the whole name.
 */
import { describe, expect, it } from 'vitest';
import { entryNameParts, entryNamesParts } from '../../../renderer/library/entryName';

const FOLDER = ['cmu_12_01_walk.bvh', 'cmu_12_01_walk.edited.vrma', 'cmu_12_01_walk-2.edited.vrma', 'mei_bye.vmd', 'mei_greeting.vmd', 'mei_greeting.edited.vrma', 'idle.vrma'];
const parts = (name: string) => {
  const p = entryNameParts(name, FOLDER);
  return { start: p.start, end: p.word + p.rest + p.ext };
};

describe('entryNameParts', () => {
  it("keeps the distinguishing word and the extension of each of the issue's names", () => {
    expect(parts('cmu_12_01_walk-2.edited.vrma')).toEqual({ start: 'cmu_12_01_', end: 'walk-2.edited.vrma' });
    expect(parts('cmu_12_01_walk.edited.vrma')).toEqual({ start: 'cmu_12_01_', end: 'walk.edited.vrma' });
    expect(parts('mei_greeting.vmd')).toEqual({ start: 'mei_', end: 'greeting.vmd' });
    // A stem of seven characters is shown whole (the end keeps at least six of them, from a word start).
    expect(parts('mei_bye.vmd')).toEqual({ start: '', end: 'mei_bye.vmd' });
    expect(parts('mei_greeting.edited.vrma')).toEqual({ start: 'mei_', end: 'greeting.edited.vrma' });
  });

  it('never gives two different names of a folder the same shown end', () => {
    const ends = FOLDER.map((n) => parts(n).end);
    expect(new Set(ends).size).toBe(FOLDER.length);
    for (const n of FOLDER) {
      const p = parts(n);
      expect(p.start + p.end).toBe(n);
      expect(p.end.endsWith(/\.[a-z]+$/.exec(n)![0])).toBe(true);
    }
  });

  it('splits the end into the word (always shown), the rest (cut second) and the extension', () => {
    expect(entryNameParts('cmu_12_01_walk-2.edited.vrma', FOLDER)).toEqual({ start: 'cmu_12_01_', word: 'walk-2', rest: '.edited', ext: '.vrma' });
    expect(entryNameParts('cmu_12_01_walk.edited.vrma', FOLDER)).toEqual({ start: 'cmu_12_01_', word: 'walk.edited', rest: '', ext: '.vrma' });
    expect(entryNameParts('mei_greeting.vmd', FOLDER)).toEqual({ start: 'mei_', word: 'greeting', rest: '', ext: '.vmd' });
    expect(entryNameParts('mei_greeting.edited.vrma', FOLDER)).toEqual({ start: 'mei_', word: 'greeting.edited', rest: '', ext: '.vrma' });
  });

  it('a name unlike its neighbours still keeps its last six stem characters and the extension', () => {
    expect(parts('idle.vrma')).toEqual({ start: '', end: 'idle.vrma' });
    expect(entryNameParts('a_very_long_motion_name_without_neighbours.vrma', [])).toEqual({ start: 'a_very_long_motion_name_without_', word: 'neighbours', rest: '', ext: '.vrma' });
    // A path inside the folder: the folder part is shared, the file name is kept.
    expect(entryNameParts('mocap/session_01/take_12.bvh', ['mocap/session_01/take_11.bvh'])).toEqual({ start: 'mocap/session_01/', word: 'take_12', rest: '', ext: '.bvh' });
  });

  it('the whole listing at once gives every name the parts it gets against the others one by one', () => {
    expect(entryNamesParts(FOLDER)).toEqual(FOLDER.map((n) => entryNameParts(n, FOLDER)));
    // A generated listing of 600: shared stems, takes, subfolders, case variants, a name twice, an
    // İ (lowercases to two units), names sharing nothing, and very short ones.
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const stems = [
      'cmu_12_01_walk',
      'CMU_12_01_run',
      'mei_greeting',
      'mei_bye',
      'take',
      'mocap/session_01/take',
      'mocap/Session_02/jump',
      'İdle',
      'idle',
      'a',
      'zz_long_name_without_any_breaks_at_all',
    ];
    const exts = ['.vrma', '.bvh', '.vmd', '.fbx', ''];
    const names: string[] = [];
    for (let i = 0; i < 600; i++) names.push(`${stems[rnd(stems.length)]}${rnd(3) ? `_${rnd(40)}` : ''}${rnd(4) ? '' : '.edited'}${exts[rnd(exts.length)]}`);
    names.push(names[10]);
    const batch = entryNamesParts(names);
    const one = names.map((n) => entryNameParts(n, names));
    expect(batch).toEqual(one);
    // The listing has the cases it is for: names sharing a start with others, and some sharing none.
    expect(one.filter((p) => p.start.length > 0).length).toBeGreaterThan(100);
    expect(new Set(names).size).toBeLessThan(names.length);
  });
});
