/** VMD, VPD and PMX readers: real fixtures, generated files with known content, and malformed input. */
import { describe, expect, it } from 'vitest';
import { MotionError } from '../../../shared/errors';
import { parseVmd, parseVpd, parsePmxBones } from '../../../shared/convert/mmd';
import { decodeNameField } from '../../../shared/convert/mmd/shiftJis';
import { bezierAt, BoneTrackSampler } from '../../../shared/convert/mmd/vmdSampler';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { encodeShiftJis, writeVmd, writeVpd } from '../../../testkit/mmdWriters';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof MotionError) return e.code;
    throw e;
  }
  return undefined;
}

describe('Shift_JIS name fields', () => {
  it('cuts at the first NUL whatever the padding after it', () => {
    const name = encodeShiftJis('センター');
    const zeroPadded = new Uint8Array(15);
    zeroPadded.set(name);
    const fdPadded = new Uint8Array(15).fill(0xfd);
    fdPadded.set(name);
    fdPadded[name.length] = 0;
    expect(decodeNameField(zeroPadded)).toBe('センター');
    expect(decodeNameField(fdPadded)).toBe('センター');
  });

  it('drops a trailing half character cut off by the field size', () => {
    // 8 full-width characters are 16 bytes; a 15-byte field ends on a lead byte.
    const bytes = encodeShiftJis('あいうえおかきく');
    expect(decodeNameField(bytes.subarray(0, 15))).toBe('あいうえおかき');
  });

  it('encodes and decodes Japanese, full-width and ASCII alike', () => {
    const s = '左つま先ＩＫ mouth_a ウィンク右';
    expect(decodeNameField(encodeShiftJis(s))).toBe(s);
  });
});

describe('Bezier interpolation curves', () => {
  it('is the identity for a linear curve and eases for an ease-in-out curve', () => {
    expect(bezierAt(20, 20, 107, 107, 0.3)).toBeCloseTo(0.3, 12);
    // (127,0)-(0,127) is a strong ease in-out: slow at the ends, symmetric about the middle.
    expect(bezierAt(127, 0, 0, 127, 0.5)).toBeCloseTo(0.5, 5);
    expect(bezierAt(127, 0, 0, 127, 0.1)).toBeLessThan(0.02);
    expect(bezierAt(127, 0, 0, 127, 0.9)).toBeGreaterThan(0.98);
    // The value at x solves x(s) = x: check with an independent evaluation of the cubic.
    const s = 0.37;
    const bx = 3 * (1 - s) ** 2 * s * (64 / 127) + 3 * (1 - s) * s * s * (10 / 127) + s ** 3;
    const by = 3 * (1 - s) ** 2 * s * (5 / 127) + 3 * (1 - s) * s * s * (120 / 127) + s ** 3;
    expect(bezierAt(64, 5, 10, 120, bx)).toBeCloseTo(by, 5);
  });

  it("samples sparse keys along the later key's curve, not linearly", () => {
    const vmd = parseVmd(
      writeVmd({
        bones: [
          { name: 'センター', frame: 0, position: [0, 0, 0] },
          { name: 'センター', frame: 30, position: [10, 0, 0], curve: [127, 0, 0, 127] },
        ],
      }),
    );
    const sampler = new BoneTrackSampler(vmd.boneTracks[0]);
    const pos = new Float64Array(3);
    const rot = new Float64Array(4);
    sampler.sample(3, pos, 0, rot, 0);
    expect(pos[0]).toBeCloseTo(10 * bezierAt(127, 0, 0, 127, 0.1), 5);
    expect(pos[0]).toBeLessThan(0.2); // linear would give 1.0
    sampler.sample(15, pos, 0, rot, 0);
    expect(pos[0]).toBeCloseTo(5, 3);
  });
});

describe('parseVmd', () => {
  it('reads generated bone, morph and IK keys back', () => {
    const bytes = writeVmd({
      modelName: 'テスト',
      bones: [
        { name: '左足ＩＫ', frame: 10, position: [1, 2, 3], rotation: [0, 0.6, 0, 0.8] },
        { name: '左足ＩＫ', frame: 0 },
        { name: '頭', frame: 5, rotation: [0, 0, 0, 2] },
      ],
      morphs: [{ name: 'まばたき', frame: 4, weight: 0.5 }],
      ik: [{ frame: 20, enabled: { '左足ＩＫ': false } }],
    });
    const vmd = parseVmd(bytes);
    expect(vmd.modelName).toBe('テスト');
    expect(vmd.lastFrame).toBe(20);
    const ik = vmd.boneTracks.find((t) => t.key === '左足IK')!;
    expect(ik.name).toBe('左足ＩＫ');
    expect(Array.from(ik.frames)).toEqual([0, 10]);
    expect(Array.from(ik.positions.subarray(3))).toEqual([1, 2, 3]);
    expect(ik.rotations[5]).toBeCloseTo(0.6, 6);
    // Non-unit quaternions are normalized on reading.
    expect(vmd.boneTracks.find((t) => t.key === '頭')!.rotations[3]).toBeCloseTo(1, 6);
    expect(vmd.morphTracks[0]).toMatchObject({ name: 'まばたき' });
    expect(vmd.morphTracks[0].weights[0]).toBeCloseTo(0.5, 6);
    expect(vmd.ikKeys).toHaveLength(1);
    expect(vmd.ikKeys[0].enabled.get('左足IK')).toBe(false);
  });

  describeFixtures('fixtures', () => {
    it('reads the counts the fixture README lists', () => {
      const rows: [string, number, number, number, number][] = [
        ['mmdagent/mei_wait.vmd', 406, 142, 142, 29],
        ['mmdagent/mei_greeting.vmd', 376, 78, 21, 18],
        ['mmdagent/menu_rotation.vmd', 40, 16, 2, 2],
        ['gene/stand.vmd', 470, 222, 184, 178],
        ['gene/00_normal.vmd', 0, 0, 449, 214],
      ];
      for (const [file, boneKeys, bones, morphKeys, morphs] of rows) {
        const vmd = parseVmd(readFixture('vmd', file));
        expect(vmd.boneKeyCount, file).toBe(boneKeys);
        expect(vmd.boneTracks.length, file).toBe(bones);
        expect(vmd.morphKeyCount, file).toBe(morphKeys);
        // Repeated keys on one frame collapse to one: tracks are strictly increasing.
        for (const t of [...vmd.boneTracks, ...vmd.morphTracks]) for (let i = 1; i < t.frames.length; i++) expect(t.frames[i]).toBeGreaterThan(t.frames[i - 1]);
        expect(vmd.morphTracks.length, file).toBe(morphs);
      }
      const stand = parseVmd(readFixture('vmd', 'gene/stand.vmd'));
      expect(stand.modelName).toBe('ジェネ / Gene');
      expect([...stand.ikKeys[0].enabled.keys()]).toEqual(['右腕xcIK', '左足IK', '左つま先IK', '右足IK', '右つま先IK', '前クローク2_1xcIK']);
      // The morph-only file's model name field ends in the middle of a character.
      const normal = parseVmd(readFixture('vmd', 'gene/00_normal.vmd'));
      expect(normal.modelName.startsWith('ニルヴァ / Nirva')).toBe(true);
      expect(normal.modelName).not.toContain('\uFFFD');
    });
  });

  it('rejects malformed files with BAD_VMD and a clear message', () => {
    expect(codeOf(() => parseVmd(new Uint8Array(10)))).toBe('BAD_VMD');
    expect(() => parseVmd(new TextEncoder().encode('x'.repeat(60)))).toThrow(/Vocaloid Motion Data/);
    const good = writeVmd({ bones: [{ name: '頭', frame: 0 }] });
    const lying = good.slice();
    new DataView(lying.buffer).setUint32(50, 1_000_000, true);
    expect(() => parseVmd(lying)).toThrow(/at byte 54 the file declares 1,000,000 entries \(at least [\d,]+ bytes\) but only \d+ bytes remain/);
    expect(() => parseVmd(good.subarray(0, 100))).toThrow(MotionError);
    const nan = good.slice();
    new DataView(nan.buffer).setFloat32(54 + 19, NaN, true);
    expect(() => parseVmd(nan)).toThrow(/invalid position/);
    const far = writeVmd({ bones: [{ name: '頭', frame: 4_000_000_000 }] });
    expect(() => parseVmd(far)).toThrow(/beyond the [\d,]+-frame/);
  });
});

describe('parseVpd / writeVpd', () => {
  const sample = [
    'Vocaloid Pose Data file',
    '',
    'ミク.osm;\t\t// 親ファイル名',
    '3;\t\t\t\t// 総ポーズボーン数',
    '',
    '// a comment line',
    'Bone0{右ひじ',
    '  0.000000,0.000000,0.000000;\t\t// trans x,y,z',
    '  0.100000,0.200000,0.300000,0.927362;\t// Quaternion x,y,z,w',
    '}',
    '',
    'Bone1{左足ＩＫ\t// full-width name',
    '  1.5,-2,3.25;',
    '  0,0,0,1;',
    '}',
    'Bone2{　センター　',
    '  0,1,0;',
    '  0,0,0,1;',
    '}',
    'Morph0{まばたき',
    '  0.75;',
    '}',
  ];

  it('reads CRLF Shift_JIS with comments, full-width names and morphs', () => {
    const pose = parseVpd(encodeShiftJis(sample.join('\r\n')));
    expect(pose.modelName).toBe('ミク');
    expect(pose.bones.map((b) => b.name)).toEqual(['右ひじ', '左足ＩＫ', 'センター']);
    expect(pose.bones[1].position).toEqual([1.5, -2, 3.25]);
    const q = pose.bones[0].rotation;
    expect(Math.hypot(...q)).toBeCloseTo(1, 9);
    expect(q[0] / q[1]).toBeCloseTo(0.5, 6);
    expect(pose.morphs).toEqual([{ name: 'まばたき', weight: 0.75 }]);
    // LF-only reads the same.
    expect(parseVpd(encodeShiftJis(sample.join('\n')))).toEqual(pose);
  });

  it('round-trips through writeVpd', () => {
    const pose = parseVpd(encodeShiftJis(sample.join('\r\n')));
    const again = parseVpd(writeVpd(pose));
    expect(again.bones.map((b) => b.name)).toEqual(pose.bones.map((b) => b.name));
    again.bones.forEach((b, i) => {
      b.rotation.forEach((v, k) => expect(v).toBeCloseTo(pose.bones[i].rotation[k], 8));
      b.position.forEach((v, k) => expect(v).toBeCloseTo(pose.bones[i].position[k], 8));
    });
    expect(again.morphs).toEqual(pose.morphs);
  });

  it('names the line of a malformed value', () => {
    const broken = [...sample];
    broken[12] = '  1.5,oops,3.25;';
    expect(() => parseVpd(encodeShiftJis(broken.join('\r\n')))).toThrow(/This VPD pose file cannot be read \(line 13: “oops” is not a valid number\)/);
    expect(codeOf(() => parseVpd(encodeShiftJis('hello')))).toBe('BAD_VPD');
    expect(() => parseVpd(encodeShiftJis(sample.slice(0, 8).join('\n')))).toThrow(/the file ends before the pose is complete/);
    const zero = [...sample];
    zero[13] = '  0,0,0,0;';
    expect(() => parseVpd(encodeShiftJis(zero.join('\n')))).toThrow(/line 14: bone “左足ＩＫ” has a zero-length rotation/);
  });
});

/** A minimal PMX writer: header, optional vertices of every weight type, bones. */
function writePmx(
  opts: { utf8: boolean; boneIndexSize: 1 | 2 | 4; vertices?: boolean; bones: { name: string; pos: [number, number, number]; parent: number; append?: [number, number]; ik?: [number, number[]] }[] },
): Uint8Array {
  const parts: number[] = [];
  const u8 = (v: number) => parts.push(v & 0xff);
  const u32 = (v: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, v, true);
    parts.push(...b);
  };
  const f32 = (v: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    parts.push(...b);
  };
  const idx = (v: number) => {
    const b = new Uint8Array(opts.boneIndexSize);
    const dv = new DataView(b.buffer);
    if (opts.boneIndexSize === 1) dv.setInt8(0, v);
    else if (opts.boneIndexSize === 2) dv.setInt16(0, v, true);
    else dv.setInt32(0, v, true);
    parts.push(...b);
  };
  const text = (s: string) => {
    let b: Uint8Array;
    if (opts.utf8) b = new TextEncoder().encode(s);
    else {
      b = new Uint8Array(s.length * 2);
      for (let i = 0; i < s.length; i++) new DataView(b.buffer).setUint16(i * 2, s.charCodeAt(i), true);
    }
    u32(b.length);
    parts.push(...b);
  };
  parts.push(0x50, 0x4d, 0x58, 0x20);
  f32(2.0);
  u8(8);
  parts.push(opts.utf8 ? 1 : 0, 1, 2, 1, 1, opts.boneIndexSize, 1, 1);
  text('モデル');
  text('model');
  text('');
  text('');
  if (opts.vertices) {
    u32(5);
    for (let type = 0; type < 5; type++) {
      for (let k = 0; k < 8 + 4; k++) f32(0); // position, normal, uv, one extra vec4
      u8(type);
      const bonesOf = type === 0 ? 1 : type === 1 || type === 3 ? 2 : 4;
      for (let k = 0; k < bonesOf; k++) idx(0);
      if (type === 1) f32(1);
      if (type === 2 || type === 4) { for (let k = 0; k < 4; k++) f32(0.25); }
      if (type === 3) { for (let k = 0; k < 10; k++) f32(0); }
      f32(1);
    }
    u32(3);
    for (let k = 0; k < 3; k++) parts.push(0, 0);
  } else {
    u32(0);
    u32(0);
  }
  u32(0); // textures
  u32(0); // materials
  u32(opts.bones.length);
  for (const b of opts.bones) {
    text(b.name);
    text('');
    b.pos.forEach(f32);
    idx(b.parent);
    u32(0);
    const flags = 0x0001 | (b.append ? 0x0100 : 0) | (b.ik ? 0x0020 : 0);
    parts.push(flags & 0xff, flags >> 8);
    idx(-1);
    if (b.append) {
      idx(b.append[0]);
      f32(b.append[1]);
    }
    if (b.ik) {
      idx(b.ik[0]);
      u32(40);
      f32(2);
      u32(b.ik[1].length);
      for (const l of b.ik[1]) {
        idx(l);
        u8(1);
        for (let k = 0; k < 6; k++) f32(0);
      }
    }
  }
  return new Uint8Array(parts);
}

describe('parsePmxBones', () => {
  const bones = [
    { name: 'センター', pos: [0, 8, 0] as [number, number, number], parent: -1 },
    { name: '左足', pos: [1, 10, 0] as [number, number, number], parent: 0 },
    { name: '左ひざ', pos: [1, 5, 0] as [number, number, number], parent: 1 },
    { name: '左足首', pos: [1, 1, 0] as [number, number, number], parent: 2 },
    { name: '左足D', pos: [1, 10, 0] as [number, number, number], parent: 0, append: [1, 1] as [number, number] },
    { name: '左足ＩＫ', pos: [1, 1, 0] as [number, number, number], parent: 0, ik: [3, [2, 1]] as [number, number[]] },
  ];

  it('reads bones of UTF-8 and UTF-16 files with every index size, skipping vertices of every weight type', () => {
    for (const utf8 of [true, false]) {
      for (const boneIndexSize of [1, 2, 4] as const) {
        const model = parsePmxBones(writePmx({ utf8, boneIndexSize, vertices: true, bones }));
        expect(model.name).toBe('モデル');
        expect(model.bones.map((b) => b.name)).toEqual(bones.map((b) => b.name));
        expect(model.bones[2].position).toEqual([1, 5, 0]);
        expect(model.bones.map((b) => b.parent)).toEqual([-1, 0, 1, 2, 0, 0]);
        expect(model.bones[4]).toMatchObject({ appendParent: 1, appendRatio: 1, appendRotation: true });
        expect(model.bones[5].ik).toEqual({
          target: 3,
          links: [2, 1],
          iterations: 40,
          limitAngle: 2,
          limits: [{ kind: 'euler', lower: [0, 0, 0], upper: [0, 0, 0] }, { kind: 'euler', lower: [0, 0, 0], upper: [0, 0, 0] }],
        });
        expect(model.bones[5].key).toBe('左足IK');
      }
    }
  });

  it('rejects bad headers, index sizes, counts and references', () => {
    const good = writePmx({ utf8: true, boneIndexSize: 2, bones });
    expect(() => parsePmxBones(new Uint8Array(20))).toThrow(/the “PMX ” signature is missing/);
    const badSize = good.slice();
    badSize[9 + 5] = 3;
    expect(() => parsePmxBones(badSize)).toThrow(/an index size of 3 is not 1, 2 or 4/);
    expect(() => parsePmxBones(good.subarray(0, good.length - 5))).toThrow(/This PMX model cannot be read \(the file ends at byte/);
    const badParent = writePmx({ utf8: true, boneIndexSize: 2, bones: [{ name: 'a', pos: [0, 0, 0], parent: 7 }] });
    expect(() => parsePmxBones(badParent)).toThrow(/bone 0 refers to bone 7, outside 0 to 0/);
    // A vertex count far larger than the file.
    const lying = good.slice();
    const vertexCountAt = 4 + 4 + 1 + 8 + 4 + 9 + 4 + 5 + 4 + 4;
    new DataView(lying.buffer).setUint32(vertexCountAt, 50_000_000, true);
    expect(() => parsePmxBones(lying)).toThrow(/declares 50,000,000 entries/);
  });

  describeFixtures('Gene.pmx', () => {
    it('reads the 224 bones and 6 IK bones of the fixture', () => {
      const model = parsePmxBones(readFixture('pmx', 'Gene.pmx'));
      expect(model.version).toBeCloseTo(2.0, 5);
      expect(model.bones).toHaveLength(224);
      const ik = model.bones.filter((b) => b.ik).map((b) => b.name);
      expect(ik).toEqual(['右腕xcIK', '左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ', '前クローク2_1xcIK']);
      expect(model.bones.slice(0, 8).map((b) => b.name)).toEqual(['全ての親', 'センター', 'グルーブ', '下半身', '下半身先', '上半身', '上半身補', '上半身2']);
      const leftArm = model.bones.find((b) => b.name === '左腕')!;
      expect(leftArm.position[0]).toBeGreaterThan(0); // MMD: the model's left is +X
      const legIk = model.bones.find((b) => b.name === '左足ＩＫ')!;
      expect(legIk.ik!.links.map((l) => model.bones[l].name)).toEqual(['左ひざ', '左足']);
      expect(model.bones[legIk.ik!.target].name).toBe('左足首');
    });
  });
});
