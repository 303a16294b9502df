/** `vrma-studio info FILE... [--json]`: what a .vrma holds, one block (or JSON object) per file. */
import type { CliCommand, CliIO } from '../command';
import { eachFile } from '../eachFile';
import { readVrma } from '../../../shared/vrma/read';
import { summarizeMotion, type MotionSummary } from '../../../shared/vrma/summary';
import { byteBreakdown, fileEncoding, type ByteBreakdown, type FileEncoding } from '../../../shared/vrma/encoding';

/** A file's failure as printed ("FILE: message") and in --json: the core's code, or the errno's one mapping. */
function formatSummary(file: string, s: MotionSummary, enc: FileEncoding, bytes: ByteBreakdown): string {
  const t = s.tracks;
  const kinds = [
    `bone rotations ${t.boneRotations}`,
    `hips translation ${t.hipsTranslation}`,
    ...(t.otherBoneTranslations ? [`other bone translations ${t.otherBoneTranslations}`] : []),
    `expressions ${t.expressions}`,
    `lookAt ${t.lookAt}`,
    `other nodes ${t.other}`,
  ];
  const animatedExpr = s.expressions.filter((e) => e.animated).map((e) => e.name);
  const lines = [
    file,
    `  spec version      ${s.specVersion}`,
    `  duration          ${s.durationSeconds.toFixed(3)} s`,
    `  fps (estimated)   ${s.estimatedFps === null ? '- (single keys)' : String(s.estimatedFps)}`,
    `  tracks            ${s.totalTracks} (${kinds.join(', ')})`,
    `  keys              ${s.totalKeys}`,
    `  encoding          ${enc.encoding}${enc.encoding === 'float' ? '' : ` (rotations ${enc.rotationComponents.join('/')})`}, ${enc.bytesPerKey.toFixed(1)} bytes per key`,
    `  bytes             ${bytes.total}: JSON ${bytes.json}, key times ${bytes.times} (${bytes.timeArrays} arrays), rotations ${bytes.rotations}, translations ${
      bytes.translations + bytes.otherValues
    }, headers+padding ${bytes.overhead}`,
    `  bones             ${s.bones.length} mapped, ${s.animatedBones.length} animated${s.animatedBones.length ? `: ${s.animatedBones.join(', ')}` : ''}`,
    `  expressions       ${s.expressions.length ? `${s.expressions.map((e) => e.name).join(', ')} (${animatedExpr.length} animated)` : 'none'}`,
    `  lookAt            ${s.lookAt}`,
    `  rest hips height  ${s.restHipsHeight.toFixed(4)}${s.restHipsHeight < 1e-3 ? ' (zero: hips translation is not scaled to the avatar)' : ''}`,
    `  warnings          ${s.warnings.length ? '' : 'none'}`,
    ...s.warnings.map((w) => `    - ${w.text}`),
  ];
  return lines.join('\n');
}

export const infoCommand: CliCommand = {
  name: 'info',
  summary: 'Show what .vrma files contain (version, duration, fps, tracks, keys, bones, expressions)',
  usage: [
    'Usage: vrma-studio info FILE... [--json]',
    '',
    'Prints, per file: spec version, duration, estimated fps, tracks by kind, total keys, encoding',
    "(float, or quantized: 16-bit rotations) with the file's bytes per key, where the bytes go (JSON, key",
    'times, rotations, translations, headers and padding), bones, expressions, lookAt,',
    "rest hips height and the reader's warnings.",
    '',
    'Options:',
    '  --json   one JSON array with an object per file ({file, ...} or {file, error})',
    '',
    'Exit status: 0 all files read, 1 a file could not be read (the others are still reported), 2 bad usage.',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  run(positionals, values, io: CliIO) {
    return eachFile('info', positionals, values.json === true, io, (file, bytes) => {
      const summary = summarizeMotion(readVrma(bytes));
      const enc = fileEncoding(bytes);
      return {
        json: {
          ...summary,
          warnings: summary.warnings.map((w) => w.text),
          encoding: enc.encoding,
          rotationComponents: enc.rotationComponents,
          bytesPerKey: enc.bytesPerKey,
          bytes: byteBreakdown(bytes),
        },
        text: formatSummary(file, summary, enc, byteBreakdown(bytes)),
      };
    });
  },
};
