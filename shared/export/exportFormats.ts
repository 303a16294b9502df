/**
 * The export formats' ids, alone (no writers): the settings contract remembers the last one chosen
 * (Settings.exportFormat) and validates it against this list without pulling the writers into the
 * preload; shared/export/index.ts keys EXPORTERS by the same ids.
 */
export const EXPORT_FORMATS = ['vmd', 'bvh', 'glb', 'fbx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const isExportFormat = (v: unknown): v is ExportFormat => EXPORT_FORMATS.includes(v as ExportFormat);
