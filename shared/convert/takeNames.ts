/** Output names of the takes of an FBX/glTF file (shared/convert/takes.ts): no converter code, so the studio's first chunk may use them. */

/**
 * A take name as part of a file name: characters that Windows, macOS or Linux refuse (\ / : * ? " < > |
 * and control characters) become "_", runs of them one, leading/trailing dots and spaces go; empty -> "take".
 */
export function safeTakeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const s = name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  return (s || 'take').slice(0, 120);
}

/**
 * Output path of each take given the path a single-motion file would get (…/NAME.vrma): one take keeps
 * it, several get …/NAME.TAKE.vrma (made unique when two names clash once made safe).
 */
export function takeOutputs(output: string, takes: readonly string[]): { take: string; output: string }[] {
  if (takes.length === 1) return [{ take: takes[0], output }];
  const stem = output.replace(/\.vrma$/i, '');
  const used = new Set<string>();
  return takes.map((take) => {
    let safe = safeTakeName(take);
    for (let k = 2; used.has(safe.toLowerCase()); k++) safe = `${safeTakeName(take)}_${k}`;
    used.add(safe.toLowerCase());
    return { take, output: `${stem}.${safe}.vrma` };
  });
}
