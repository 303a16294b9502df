/**
 * Paths typed in the browser host's boxes (there is no native dialog to vouch for them): which ones
 * need the user's confirmation before they are granted.
 */
import { sep } from 'node:path';
import { isInside } from './accessPolicy';

/** Folders whose contents belong to the system, not to the user's motions (typed paths there need a confirmation). */
const SYSTEM_FOLDERS = process.platform === 'win32'
  ? [
    process.env.SystemRoot ?? 'C:\\Windows',
    process.env.ProgramFiles ?? 'C:\\Program Files',
    process.env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)',
    process.env.ProgramData ?? 'C:\\ProgramData',
  ]
  : [
    '/etc',
    '/usr',
    '/bin',
    '/sbin',
    '/lib',
    '/lib32',
    '/lib64',
    '/boot',
    '/dev',
    '/proc',
    '/sys',
    '/run',
    '/var',
    '/root',
    '/opt',
    '/srv',
    '/snap',
    '/System',
    '/Library',
    '/private',
    '/Applications',
    '/Volumes',
  ];

/**
 * Why a typed path must be confirmed by the user before it is granted, or null when it may open
 * straight away: inside the home folder, in no system folder and under no hidden folder (~/.ssh...).
 */
export function typedPathConcern(real: string, home: string): string | null {
  if (!isInside(home, real)) {
    const system = SYSTEM_FOLDERS.find((f) => isInside(f, real));
    return system ? `${real} is in a system folder (${system})` : `${real} is outside your home folder (${home})`;
  }
  const rel = real.slice(home.length).split(sep).filter(Boolean);
  const hidden = rel.find((seg) => seg.startsWith('.'));
  if (hidden) return `${real} is inside the hidden folder ${hidden}, which usually holds settings or keys`;
  return null;
}
