/**
 * The bedroom: floor, two walls with a moonlit window, a bed (frame, mattress, pillow, headboard),
 * a nightstand with a warm lamp, and soft night lighting. Everything hangs under one root, so the
 * room can be moved as a whole (as in VR); the bed's layout is described in that root's frame.
 */
import {
  AmbientLight, BoxGeometry, Color, DirectionalLight, Group, HemisphereLight, Mesh, MeshStandardMaterial,
  PlaneGeometry, PointLight, SphereGeometry, type Material, type Object3D,
} from 'three';
import type { BedLayout, Placement } from './placement';

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
  box(BED_LENGTH - 0.04, MATTRESS_THICKNESS, BED_WIDTH, mat(0xd9dce8), BED_CENTER_X, FRAME_HEIGHT + MATTRESS_THICKNESS / 2, BED_CENTER_Z, 'mattress');
  const pillowX = headX + 0.05 + PILLOW_LENGTH / 2;
  box(PILLOW_LENGTH, PILLOW_THICKNESS, PILLOW_WIDTH, mat(0xf2f0ea), pillowX, mattressTop + PILLOW_THICKNESS / 2, BED_CENTER_Z, 'pillow');

  // Nightstand and lamp at the head end, toward the viewer.
  const standX = headX + 0.25;
  const standZ = BED_CENTER_Z + BED_WIDTH / 2 + 0.3;
  box(0.42, 0.5, 0.4, mat(0x5d3d25), standX, 0.25, standZ, 'nightstand');
  const shade = add(new Mesh(new SphereGeometry(0.09, 16, 12), mat(0xffd9a0, { emissive: 0xffb060, emissiveIntensity: 1.4 })), 'lamp');
  shade.position.set(standX, 0.62, standZ);

  const lamp = new PointLight(0xffb874, 2.2, 6, 1.6);
  lamp.position.set(standX, 0.75, standZ);
  const moon = new DirectionalLight(0x9fb4ff, 0.9);
  moon.position.set(1.5, 3, 1.5);
  moon.target.position.set(BED_CENTER_X, 0.4, BED_CENTER_Z);
  const hemi = new HemisphereLight(0x8090c0, 0x201810, 0.9);
  const ambient = new AmbientLight(0x404a70, 0.5);
  root.add(lamp, moon, moon.target, hemi, ambient);

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
  };
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
