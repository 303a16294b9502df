/**
 * The exporters out of VRM Animation, one object per format as the format table
 * (shared/formats/formats.ts) plugs them in: `{ ext, write(motion, options) }`, pure Motion in,
 * bytes and a report of what the format could not carry out.
 */
import type { MotionExporter } from './report';
import type { ExportFormat } from './exportFormats';
import { writeVmd, type VmdExportOptions } from './vmdWriter';
import { writeBvh, type BvhExportOptions } from './bvhWriter';
import { writeGlb, type GlbExportOptions } from './glbWriter';
import { writeFbx, type FbxExportOptions } from './fbxWriter';

export type { ExportResult, MotionExporter } from './report';
export type { VmdExportOptions } from './vmdWriter';
export type { BvhExportOptions } from './bvhWriter';
export type { GlbExportOptions } from './glbWriter';
export type { FbxExportOptions } from './fbxWriter';

export const VMD_EXPORTER: MotionExporter<VmdExportOptions> = { ext: 'vmd', write: writeVmd };

export const BVH_EXPORTER: MotionExporter<BvhExportOptions> = { ext: 'bvh', write: writeBvh };

export const GLB_EXPORTER: MotionExporter<GlbExportOptions> = { ext: 'glb', write: writeGlb };

export const FBX_EXPORTER: MotionExporter<FbxExportOptions> = { ext: 'fbx', write: writeFbx };

export const EXPORTERS = { vmd: VMD_EXPORTER, bvh: BVH_EXPORTER, glb: GLB_EXPORTER, fbx: FBX_EXPORTER } as const satisfies Record<ExportFormat, MotionExporter<never>>;
export { EXPORT_FORMATS, isExportFormat, type ExportFormat } from './exportFormats';
