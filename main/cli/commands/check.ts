/** `vrma-studio check FILE... [--json]`: what each known reader will do with each .vrma (shared/vrma/compat.ts). */
import type { CliCommand, CliIO } from '../command';
import { eachFile } from '../eachFile';
import { checkCompatibility, COMPAT_READERS, type CompatFinding, type CompatFix, type CompatReader } from '../../../shared/vrma/compat';

const READER_NAMES: Readonly<Record<CompatReader, string>> = {
  spec: 'VRM Animation 1.0 rules',
  threeVrm: 'three-vrm-animation',
  blender: 'VRM Add-on for Blender',
  univrm: 'UniVRM',
};
const LEVELS = { fails: 'fails', differs: 'plays differently', note: 'note' } as const;
const FIXES: Readonly<Record<CompatFix, string>> = {
  'bake-intermediate': 'vrma-studio bake-intermediate FILE -o OUT',
  upgrade: 'vrma-studio upgrade FILE -o OUT',
  float: 'write it without --quantize (vrma-studio upgrade FILE -o OUT)',
  resample: 'vrma-studio resample FILE --fps N -o OUT',
};

function formatFindings(file: string, findings: readonly CompatFinding[]): string {
  const lines = [file];
  for (const reader of COMPAT_READERS) {
    const mine = findings.filter((f) => f.reader === reader);
    lines.push(`  ${READER_NAMES[reader]}: ${mine.length ? '' : 'ok'}`.trimEnd());
    for (const f of mine) lines.push(`    - [${LEVELS[f.level]}] ${f.text}${f.fix ? `\n      fix: ${FIXES[f.fix]}` : ''}`);
  }
  return lines.join('\n');
}

export const checkCommand: CliCommand = {
  name: 'check',
  summary: 'Say what each reader (the spec, three-vrm-animation, Blender, UniVRM) will do with .vrma files',
  usage: [
    'Usage: vrma-studio check FILE... [--json]',
    '',
    'Checks each file against the VRM Animation 1.0 rules and against what three-vrm-animation, the VRM',
    'Add-on for Blender and UniVRM do with it: tracks they refuse, ignore or apply differently, and by how',
    'much the pose then differs. Each finding names the edit or command that fixes it, if one does.',
    '',
    'Options:',
    '  --json   one JSON array with an object per file ({file, findings: [{reader, level, code, params, text, fix}]} or {file, error})',
    '',
    'Exit status: 0 all files checked (whatever was found), 1 a file could not be read (the others are still checked), 2 bad usage.',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  run(positionals, values, io: CliIO) {
    return eachFile('check', positionals, values.json === true, io, (file, bytes) => {
      const findings = checkCompatibility(bytes);
      return { json: { findings }, text: formatFindings(file, findings) };
    });
  },
};
