/**
 * The bedroom: floor, two walls with a moonlit window, a bed (frame, a mattress with a rounded top
 * edge, a soft pillow, headboard), a nightstand with a shaded lamp giving warm light, and soft night
 * lighting. The mattress's and the pillow's tops are drawn from the height functions the contact uses
 * (shared/bedroom/bedSurface.ts), so the body rests on what is drawn. The blanket moves with the body
 * (blanket.ts). Everything hangs under one root, so the room can be moved as a whole (as in VR); the
 * bed's layout is described in that root's frame.
 */
import {
  AmbientLight,
  BoxGeometry,
  Color,
  CylinderGeometry,
  DirectionalLight,
  DoubleSide,
  Group,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  PlaneGeometry,
  PointLight,
  SphereGeometry,
  type Material,
  type Object3D,
} from 'three';
import { mattressHeightAt, supportHeight } from '../../shared/bedroom/bedSurface';
import type { BedLayout, Placement } from './placement';
import { bedShapeOf } from './bodyRest';
import { edgeSpaced, fillGrid, gridGeometry } from './heightField';

export interface Room {
  /** Parent of everything in the room, including the avatar's holder. */
  readonly root: Group;
  readonly bed: BedLayout;
  readonly floorY: number;
  /** Where the avatar stands while awake (in the root's frame), facing the viewer. */
  readonly standing: Placement;
  /** Meshes that are part of the room (for picking and for test renders). */
  readonly meshes: readonly Mesh[];
  dispose(): void;
}

// Bed geometry (metres). The bed runs along X with its head end toward -X, against the left wall.
const BED_LENGTH = 2.0;
const BED_WIDTH = 1.3;
const BED_CENTER_X = -0.35;
const BED_CENTER_Z = -0.55;
const FRAME_HEIGHT = 0.3;
const MATTRESS_THICKNESS = 0.2;
const PILLOW_LENGTH = 0.38;
const PILLOW_WIDTH = 0.62;
const PILLOW_THICKNESS = 0.07;
/** Radius of the mattress's rounded top edge. */
const MATTRESS_RIM = 0.05;
const ROOM_HALF = 1.9;

export const NIGHT_BACKGROUND = new Color(0x0b1020);

export function buildRoom(): Room {
  const root = new Group();
  root.name = 'bedroom';
  const meshes: Mesh[] = [];
  const materials: Material[] = [];
  const mat = (color: number, extra: Partial<{ roughness: number; emissive: number; emissiveIntensity: number }> = {}) => {
    const m = new MeshStandardMaterial({ color, roughness: extra.roughness ?? 0.85, metalness: 0 });
    if (extra.emissive !== undefined) {
      m.emissive = new Color(extra.emissive);
      m.emissiveIntensity = extra.emissiveIntensity ?? 1;
    }
    materials.push(m);
    return m;
  };
  const add = (mesh: Mesh, name: string, parent: Object3D = root) => {
    mesh.name = name;
    parent.add(mesh);
    meshes.push(mesh);
    return mesh;
  };
  const box = (w: number, h: number, d: number, material: Material, x: number, y: number, z: number, name: string) => {
    const m = add(new Mesh(new BoxGeometry(w, h, d), material), name);
    m.position.set(x, y, z);
    return m;
  };

  const floor = add(new Mesh(new PlaneGeometry(ROOM_HALF * 2, ROOM_HALF * 2), mat(0x5a4636)), 'floor');
  floor.rotation.x = -Math.PI / 2;
  const wallMat = mat(0x39405a);
  const back = add(new Mesh(new PlaneGeometry(ROOM_HALF * 2, 2.6), wallMat), 'wall-back');
  back.position.set(0, 1.3, -ROOM_HALF);
  const left = add(new Mesh(new PlaneGeometry(ROOM_HALF * 2, 2.6), wallMat), 'wall-left');
  left.position.set(-ROOM_HALF, 1.3, 0);
  left.rotation.y = Math.PI / 2;
  box(1.0, 0.8, 0.02, mat(0x1d2f5a, { emissive: 0x30467a, emissiveIntensity: 0.6 }), 0.65, 1.55, -ROOM_HALF + 0.01, 'window');
  box(0.9, 0.01, 1.2, mat(0x6b3b3b), 0.9, 0.005, 0.3, 'rug');

  const headX = BED_CENTER_X - BED_LENGTH / 2;
  box(BED_LENGTH, FRAME_HEIGHT, BED_WIDTH + 0.06, mat(0x6e4a2f, { roughness: 0.7 }), BED_CENTER_X, FRAME_HEIGHT / 2, BED_CENTER_Z, 'bed-frame');
  box(0.06, 1.0, BED_WIDTH + 0.06, mat(0x5d3d25, { roughness: 0.7 }), headX - 0.03, 0.5, BED_CENTER_Z, 'headboard');
  const mattressTop = FRAME_HEIGHT + MATTRESS_THICKNESS;
  const pillowX = headX + 0.05 + PILLOW_LENGTH / 2;
  const bed: BedLayout = {
    mattressCenter: [BED_CENTER_X, mattressTop, BED_CENTER_Z],
    mattressTop,
    headDir: [-1, 0, 0],
    // The back wall (-Z) runs along the bed's far side.
    wallDir: [0, 0, -1],
    length: BED_LENGTH - 0.04,
    width: BED_WIDTH,
    pillowCenter: [pillowX, mattressTop + PILLOW_THICKNESS, BED_CENTER_Z],
    pillowLength: PILLOW_LENGTH,
    pillowWidth: PILLOW_WIDTH,
    mattressRim: MATTRESS_RIM,
  };
  const shape = bedShapeOf(bed, 0);
  // The mattress: its block below the rim, and its top (flat, rounded to the edge) from the contact's function.
  box(bed.length, MATTRESS_THICKNESS - MATTRESS_RIM, BED_WIDTH, mat(0xd9dce8), BED_CENTER_X, FRAME_HEIGHT + (MATTRESS_THICKNESS - MATTRESS_RIM) / 2, BED_CENTER_Z, 'mattress-side');
  const mAlong = edgeSpaced(bed.length / 2, MATTRESS_RIM, 12, 24);
  const mAcross = edgeSpaced(bed.width / 2, MATTRESS_RIM, 12, 16);
  const mattress = add(new Mesh(gridGeometry(mAlong.length, mAcross.length), mat(0xe4e6ef, { roughness: 0.95 })), 'mattress');
  fillGrid(mattress.geometry, bed, mAlong, mAcross, (a, c) => mattressHeightAt(shape, a, c));
  // The pillow: its top from the same cushion the head rests on, meeting the mattress at its rim.
  const pAlong = edgeSpaced(PILLOW_LENGTH / 2, PILLOW_LENGTH / 4, 16, 8).map((a) => a + shape.pillowAlong);
  const pAcross = edgeSpaced(PILLOW_WIDTH / 2, PILLOW_WIDTH / 5, 16, 10).map((c) => c + shape.pillowAcross);
  const pillow = add(new Mesh(gridGeometry(pAlong.length, pAcross.length), mat(0xf4f1ea, { roughness: 0.9 })), 'pillow');
  // (On the mattress as it is there: the pillow's head end lies on the rounded rim.)
  fillGrid(pillow.geometry, bed, pAlong, pAcross, (a, c) => supportHeight(shape, a, c) + 0.001);
  (pillow.material as MeshStandardMaterial).side = DoubleSide;

  // Nightstand and lamp at the head end, toward the viewer.
  const standX = headX + 0.25;
  const standZ = BED_CENTER_Z + BED_WIDTH / 2 + 0.3;
  box(0.42, 0.5, 0.4, mat(0x5d3d25), standX, 0.25, standZ, 'nightstand');
  const lampBase = add(new Mesh(new CylinderGeometry(0.05, 0.07, 0.04, 20), mat(0x8a6a48, { roughness: 0.5 })), 'lamp-base');
  lampBase.position.set(standX, 0.52, standZ);
  const stem = add(new Mesh(new CylinderGeometry(0.012, 0.012, 0.2, 8), mat(0x8a6a48, { roughness: 0.5 })), 'lamp-stem');
  stem.position.set(standX, 0.64, standZ);
  // An open fabric shade lit from inside: warm, and brightest where the light leaves it.
  const shadeMat = mat(0xffd9a0, { emissive: 0xffa850, emissiveIntensity: 1.6 });
  shadeMat.side = DoubleSide;
  const shade = add(new Mesh(new CylinderGeometry(0.08, 0.13, 0.16, 28, 1, true), shadeMat), 'lamp');
  shade.position.set(standX, 0.78, standZ);
  const bulb = add(new Mesh(new SphereGeometry(0.03, 12, 8), mat(0xfff0d0, { emissive: 0xffd090, emissiveIntensity: 2.5 })), 'lamp-bulb');
  bulb.position.set(standX, 0.74, standZ);

  // Warm lamp light over the pillow and the blanket; the moon cool and dim through the window.
  const lamp = new PointLight(0xffa860, 3.2, 5, 1.4);
  lamp.position.set(standX, 0.8, standZ);
  const moon = new DirectionalLight(0x9fb4ff, 0.55);
  moon.position.set(1.5, 3, 1.5);
  moon.target.position.set(BED_CENTER_X, 0.4, BED_CENTER_Z);
  const hemi = new HemisphereLight(0x8090c0, 0x302015, 0.7);
  const ambient = new AmbientLight(0x4a4258, 0.45);
  root.add(lamp, moon, moon.target, hemi, ambient);

  return {
    root,
    bed,
    floorY: 0,
    standing: { position: [0.35, 0, 0.45], yaw: 0.3 },
    meshes,
    dispose() {
      for (const m of meshes) m.geometry.dispose();
      for (const m of materials) m.dispose();
      lamp.dispose();
      moon.dispose();
      hemi.dispose();
      ambient.dispose();
    },
  };
}
