/**
 * The room's soft shapes (issue 28): the drawn mattress and pillow are the surfaces the contact is
 * measured against (every vertex on the height functions of shared/bedroom/bedSurface.ts, and the
 * triangles between them within DRAWN_TOLERANCE_M), and the blanket lies over the body: on the back and
 * on the side every point of the body's skin under it (the cached subset the rig rests the body with)
 * is below the cloth, it changes shape with the turn-over, and with nobody in bed it lies flat.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Vector3, type BufferAttribute, type Mesh } from 'three';
import { mattressHeightAt, supportHeight } from '../../../shared/bedroom/bedSurface';
import { toBedFrame } from '../../../renderer/bedroom/placement';
import { BLANKET_THICKNESS } from '../../../renderer/bedroom/blanket';
import { BODY_PARTS } from '../../../renderer/bedroom/bodySurface';
import { LIE_DOWN_SEC, SleepCycle, TURN_SEC } from '../../../renderer/bedroom/sleepCycle';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { makeChibiVrm0 } from './chibiVrm';
import { bedroomScene, type TestScene } from './nodeScene';

/** How far the drawn triangles may leave the height function between their vertices (at the rims' steep ends, 2.1 mm measured). */
const DRAWN_TOLERANCE_M = 0.003;

function bedPoints(s: TestScene, name: string): Vector3[] {
  const mesh = s.room.root.getObjectByName(name) as Mesh;
  const pos = mesh.geometry.getAttribute('position') as BufferAttribute;
  const out: Vector3[] = [];
  for (let i = 0; i < pos.count; i++) {
    const p = new Vector3(pos.getX(i), pos.getY(i), pos.getZ(i)).applyMatrix4(mesh.matrix);
    const b = toBedFrame([p.x, p.y, p.z], s.room.bed);
    out.push(new Vector3(...b));
  }
  return out;
}

/** The support under a point of the bed's top (the rim's last vertices lie on the outline: float32 puts some a hair outside). */
function surfaceAt(s: TestScene, a: number, c: number, f: typeof supportHeight): number {
  const shape = s.rig.rest.shape;
  return f(shape, Math.max(-shape.length / 2, Math.min(shape.length / 2, a)), Math.max(-shape.width / 2, Math.min(shape.width / 2, c)));
}

describe('the room draws what the body rests on', () => {
  let s: TestScene;
  beforeAll(async () => {
    s = await bedroomScene(makeMannequinVrm());
  });

  it('every vertex of the mattress and the pillow is on the contact surface; the triangles within 3 mm of it', () => {
    // The mattress's mesh is its top alone; the pillow's is what the head meets (pillow on mattress), 1 mm up.
    for (const [name, lift, f] of [['mattress', 0, mattressHeightAt], ['pillow', 0.001, supportHeight]] as const) {
      const pts = bedPoints(s, name);
      const mesh = s.room.root.getObjectByName(name) as Mesh;
      let atVertex = 0;
      for (const p of pts) atVertex = Math.max(atVertex, Math.abs(p.y - lift - surfaceAt(s, p.x, p.z, f)));
      // Triangle centres: where the drawn surface is furthest from its vertices.
      const index = mesh.geometry.getIndex()!;
      let between = 0;
      let corner = 0;
      const shape = s.rig.rest.shape;
      const r = shape.rim ?? 0;
      for (let t = 0; t < index.count; t += 3) {
        const c = pts[index.getX(t)].clone().add(pts[index.getX(t + 1)]).add(pts[index.getX(t + 2)]).divideScalar(3);
        const d = Math.abs(c.y - lift - surfaceAt(s, c.x, c.z, f));
        // The mattress's four corners (an eighth of a sphere on a square grid) are apart: nobody lies there.
        if (Math.abs(c.x) > shape.length / 2 - r && Math.abs(c.z) > shape.width / 2 - r) corner = Math.max(corner, d);
        else between = Math.max(between, d);
      }
      console.info(
        `[bedroom room] ${name}: ${pts.length} vertices, largest distance from the contact surface ${(atVertex * 1000).toFixed(3)} mm at a vertex, ${
          (between * 1000).toFixed(2)
        } mm at a triangle's centre (${(corner * 1000).toFixed(2)} mm in the mattress's corners)`,
      );
      // float32 positions on the rim's steep end: 0.1 mm.
      expect(atVertex).toBeLessThanOrEqual(1e-4);
      expect(between).toBeLessThanOrEqual(DRAWN_TOLERANCE_M);
    }
    // The pillow is soft (lower at its rim than its middle) and the mattress's edge rounded.
    const pillow = bedPoints(s, 'pillow').map((p) => p.y);
    expect(Math.max(...pillow) - Math.min(...pillow)).toBeGreaterThan(0.06);
    expect(Math.min(...bedPoints(s, 'mattress').map((p) => p.y))).toBeLessThan(-0.04);
  });
});

function blanketFits(s: TestScene): { under: number; covered: number; worst: number } {
  // (Drawn, the blanket is laid just before it is drawn; here there is no renderer.)
  s.rig.layBlanket();
  const pts = s.rig.rest.surface.sample();
  const b = s.rig.blanket;
  const shape = s.rig.rest.shape;
  let covered = 0;
  let worst = -Infinity;
  let under = 0;
  for (let k = 0; k < pts.count; k++) {
    const part = BODY_PARTS[pts.part[k]];
    if (part === 'head' || part === 'hair') continue;
    const a = pts.xyz[k * 3], y = pts.xyz[k * 3 + 1], c = pts.xyz[k * 3 + 2];
    // Under the cloth's spread: over the mattress, between the foot and a cell short of the top edge.
    if (a < -shape.length / 2 || a > b.top - 0.05 || Math.abs(c) > shape.width / 2) continue;
    covered++;
    const d = y - b.heightAt(a, c);
    worst = Math.max(worst, d);
    if (d <= 0) under++;
  }
  return { under, covered, worst };
}

describe('the blanket covers the sleeper and follows the turn-over', () => {
  for (const [name, bytes] of [['mannequin', () => makeMannequinVrm()], ['chibi', makeChibiVrm0]] as const) {
    it(`${name}: flat on the bed awake; over every point of the body asleep on the back and on the side`, async () => {
      const s = await bedroomScene(bytes());
      const clock = { t: 0 };
      const cycle = new SleepCycle({ now: () => clock.t, pose: 'back', autoTurn: false, autoSec: 600 });
      const run = (sec: number) => {
        for (let i = 0; i < sec * 30; i++) {
          clock.t += 1 / 30;
          s.rig.update(1 / 30, cycle.tick());
        }
      };
      const shape = s.rig.rest.shape;
      run(0.5);
      s.rig.layBlanket();
      // Awake: nobody in bed, the cloth lies on the mattress at its thickness.
      const flat = Math.max(...Array.from({ length: 20 }, (_, k) => {
        const a = -shape.length / 2 + 0.05 + k * 0.04;
        return s.rig.blanket.heightAt(a, 0.1) - supportHeight(shape, a, 0.1) - BLANKET_THICKNESS;
      }));
      expect(Math.abs(flat)).toBeLessThanOrEqual(1e-3);
      cycle.sleep();
      run(LIE_DOWN_SEC + 0.5);
      const back = blanketFits(s);
      const heightsBack = Float32Array.from(s.rig.blanket.heights);
      cycle.turnOver();
      run(TURN_SEC + 0.5);
      const side = blanketFits(s);
      let moved = 0;
      s.rig.blanket.heights.forEach((h, i) => (moved = Math.max(moved, Math.abs(h - heightsBack[i]))));
      console.info(
        `[bedroom blanket] ${name}: on the back ${back.under}/${back.covered} body points under the cloth (highest ${
          (back.worst * 100).toFixed(2)
        } cm relative to it), on the side ${side.under}/${side.covered} (${(side.worst * 100).toFixed(2)} cm); the turn-over moved the cloth up to ${(moved * 100).toFixed(1)} cm`,
      );
      expect(back.covered).toBeGreaterThan(100);
      expect(side.covered).toBeGreaterThan(100);
      expect(back.worst).toBeLessThanOrEqual(0);
      expect(side.worst).toBeLessThanOrEqual(0);
      // It rose over the body and changed with the turn-over.
      expect(Math.max(...heightsBack)).toBeGreaterThan(0.08);
      expect(moved).toBeGreaterThan(0.03);
    }, 120_000);
  }
});
