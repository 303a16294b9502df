/** BVH parser: the format's variations and clear, line-numbered errors for broken files. */
import { describe, expect, it } from 'vitest';
import { parseBvh } from '../../../shared/convert/bvh/parse';
import { convertBvh } from '../../../shared/convert/bvh/convertBvh';
import { MotionError } from '../../../shared/errors';
import { encode } from '../../../testkit/bvhKit';

const SMALL = [
  'HIERARCHY',
  'ROOT Hips',
  '{',
  '\tOFFSET 0 0 0',
  '\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation',
  '\tJOINT Left Thigh',
  '\t{',
  '\t\tOFFSET 10 -5 0',
  '\t\tCHANNELS 6 Xposition Yposition Zposition Yrotation Zrotation Xrotation',
  '\t\tEnd Site',
  '\t\t{',
  '\t\t\tOFFSET 0 -40 0',
  '\t\t}',
  '\t}',
  '\tJOINT Chest {',
  '\t\tOFFSET 0 20 0',
  '\t\tCHANNELS 3 Xrotation Yrotation Zrotation',
  '\t\tEnd Site {',
  '\t\t\tOFFSET 0 30 0',
  '\t\t}',
  '\t}',
  '}',
  'MOTION',
  'Frames: 2',
  'Frame Time: 0.04',
  '1 2 3 10 20 30 10 -5 0 5 6 7 1 2 3',
  '\t4  5 6 11 21 31 10 -5 0 5 6 7 1 2 3  ',
];

function expectBvhError(text: string, pattern: RegExp): void {
  let caught: unknown;
  try {
    parseBvh(encode(text));
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(MotionError);
  expect((caught as MotionError).code).toMatch(/BAD_BVH|TOO_LARGE/);
  expect((caught as MotionError).message).toMatch(pattern);
}

describe('parseBvh', () => {
  it('reads channel orders per joint, 6-channel joints below the root, End Sites, names with spaces, braces on the joint line', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const bvh = parseBvh(encode(SMALL.join(eol)));
      expect(bvh.joints.map((j) => j.name)).toEqual(['Hips', 'Left Thigh', 'Chest']);
      expect(bvh.joints[1].channels).toEqual(['Xposition', 'Yposition', 'Zposition', 'Yrotation', 'Zrotation', 'Xrotation']);
      expect(bvh.joints[1].channelStart).toBe(6);
      expect(bvh.joints[2].channelStart).toBe(12);
      expect(bvh.joints[1].endSite).toEqual([0, -40, 0]);
      expect(bvh.joints[2].endSite).toEqual([0, 30, 0]);
      expect(bvh.joints[0].children).toEqual([1, 2]);
      expect(bvh.frameCount).toBe(2);
      expect(bvh.frameTime).toBeCloseTo(0.04, 9);
      expect(bvh.channelCount).toBe(15);
      expect(Array.from(bvh.data.subarray(15, 18))).toEqual([4, 5, 6]);
      expect(bvh.data[15 + 5]).toBe(31);
    }
  });

  it('names the line of each kind of fault', () => {
    const lines = (edit: (l: string[]) => void) => {
      const l = [...SMALL];
      edit(l);
      return l.join('\n');
    };
    expectBvhError('MOTION\n', /line 1: a BVH file starts with HIERARCHY/);
    expectBvhError(lines((l) => (l[3] = '\tOFFSET 0 zero 0')), /line 4: OFFSET y must be a number, got “zero”/);
    expectBvhError(lines((l) => (l[4] = '\tCHANNELS 3 Xrotation Yrotation Wrotation')), /line 5: unknown channel “Wrotation”/);
    expectBvhError(lines((l) => (l[4] = '\tCHANNELS 7 Xrotation')), /line 5: the channel count must be 0 to 6/);
    expectBvhError(lines((l) => (l[4] = '\tCHANNELS 3 Xrotation Yrotation')), /line 5: CHANNELS 3 lists 2 channels/);
    expectBvhError(lines((l) => l.splice(21, 1)), /line 22: MOTION before the hierarchy is closed/);
    expectBvhError(lines((l) => (l[23] = 'Frames: -3')), /line 24: Frames must be a whole number/);
    expectBvhError(lines((l) => (l[24] = 'Frame Time: 0')), /line 25: Frame Time must be between 0 and 60/);
    expectBvhError(lines((l) => (l[25] = '1 2 3 10 20 30 10 -5 0 5 6 7 1 2')), /line 26: frame 1 has 14 numbers, the hierarchy declares 15/);
    expectBvhError(lines((l) => (l[26] = '4 5 6 11 21 31 10 -5 0 5 6 7 1 2 NaN')), /line 27: frame 2: “NaN” is not a number/);
    expectBvhError(lines((l) => l.pop()), /line 26: the file ends after 1 of 2 frames/);
    expectBvhError(lines((l) => (l[23] = 'Frames: 100000000')), /100,000,000 frames × 15 channels/);
    expectBvhError(SMALL.slice(0, 12).join('\n'), /file ends inside the hierarchy/);
  });

  it('warns about data after the declared frames and tolerates blank lines inside the data', () => {
    const bvh = parseBvh(encode([...SMALL.slice(0, 26), '', SMALL[26], SMALL[26], ''].join('\n')));
    expect(bvh.frameCount).toBe(2);
    expect(bvh.warnings.map((w) => w.text).join(' ')).toMatch(/data after the 2 declared frames/);
  });

  it('takes the frame time from the file: a converted motion keys at that rate', () => {
    const fixtureLike = [
      'HIERARCHY',
      'ROOT Hips',
      '{',
      'OFFSET 0 0 0',
      'CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation',
      ...['Left', 'Right'].flatMap((s, i) => [
        `JOINT ${s}UpLeg`,
        '{',
        `OFFSET ${i ? -10 : 10} 0 0`,
        'CHANNELS 3 Zrotation Xrotation Yrotation',
        `JOINT ${s}Leg`,
        '{',
        'OFFSET 0 -45 0',
        'CHANNELS 3 Zrotation Xrotation Yrotation',
        `JOINT ${s}Foot`,
        '{',
        'OFFSET 0 -45 0',
        'CHANNELS 3 Zrotation Xrotation Yrotation',
        'End Site',
        '{',
        'OFFSET 0 -5 12',
        '}',
        '}',
        '}',
        '}',
      ]),
      'JOINT Spine',
      '{',
      'OFFSET 0 10 0',
      'CHANNELS 3 Zrotation Xrotation Yrotation',
      ...['Left', 'Right'].flatMap((s, i) => [
        `JOINT ${s}Arm`,
        '{',
        `OFFSET ${i ? -15 : 15} 40 0`,
        'CHANNELS 3 Zrotation Xrotation Yrotation',
        `JOINT ${s}ForeArm`,
        '{',
        `OFFSET ${i ? -28 : 28} 0 0`,
        'CHANNELS 3 Zrotation Xrotation Yrotation',
        `JOINT ${s}Hand`,
        '{',
        `OFFSET ${i ? -25 : 25} 0 0`,
        'CHANNELS 3 Zrotation Xrotation Yrotation',
        'End Site',
        '{',
        `OFFSET ${i ? -10 : 10} 0 0`,
        '}',
        '}',
        '}',
        '}',
      ]),
      'JOINT Head',
      '{',
      'OFFSET 0 55 0',
      'CHANNELS 3 Zrotation Xrotation Yrotation',
      'End Site',
      '{',
      'OFFSET 0 20 0',
      '}',
      '}',
      '}',
      '}',
      'MOTION',
      'Frames: 3',
      'Frame Time: 0.0416667',
      ...[0, 1, 2].map((f) => [0, 95, f, ...new Array(3 + 3 * 6 + 3 + 3 * 6 + 3).fill(f * 10)].join(' ')),
    ];
    const motion = convertBvh(encode(fixtureLike.join('\r\n')));
    const times = motion.channels[0].times;
    expect(times.length).toBe(3);
    expect(times[2]).toBeCloseTo(2 * 0.0416667, 6);
  });
});
