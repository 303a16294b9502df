/**
 * What the studio's Export writes the motion for (issue 26), as the CLI's --model and --avatar do:
 * - VMD: MMD's standard bones, or an MMD model (.pmx/.pmd) the user gave by the Open dialog or a drop
 *   (MmdModels.given: the page never names a path it was not given);
 * - BVH and FBX: the standard proportions, or the avatar on screen;
 * - GLB: always the avatar on screen (the built-in mannequin when none is loaded; a plain humanoid
 *   glTF avatar as its own file).
 * The choice sits beside "Export to" (#export-skeleton) and lasts for the session.
 */
import type { ExportFormat } from '../../shared/export/index';
import type { WriteOptions } from '../../shared/formats/codecs';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import { onLocaleChange, t } from '../../shared/i18n';
import type { Studio } from './studio';
import { h } from '../ui/dom';
import { tAttr } from '../ui/i18n';

/** 'standard', 'avatar', or 'model:N' (N-th model of MmdModels.given). */
type Choice = string;
const chosen: Record<ExportFormat, Choice> = { vmd: 'standard', bvh: 'standard', glb: 'avatar', fbx: 'standard' };

function avatarBytes(studio: Studio): Uint8Array {
  return studio.avatar?.bytes.length ? studio.avatar.bytes : makeMannequinVrm();
}

/** The choices for a format, with their labels in the page's language. */
function choicesFor(studio: Studio, format: ExportFormat): { value: Choice; label: string }[] {
  const avatar = { value: 'avatar', label: t('studio.exportSkeleton.avatar', { name: studio.avatar?.name ?? t('studio.exportSkeleton.mannequin') }) };
  if (format === 'glb') return [avatar];
  if (format === 'vmd')
    return [
      { value: 'standard', label: t('studio.exportSkeleton.standardMmd') },
      ...studio.mmdModels.given().map((m, i) => ({ value: `model:${i}`, label: t('studio.exportSkeleton.model', { name: m.name }) })),
    ];
  return [{ value: 'standard', label: t('studio.exportSkeleton.standard') }, avatar];
}

/** The writer's options for the choice made for `format`. */
export function exportSkeletonOptions(studio: Studio, format: ExportFormat): WriteOptions {
  const c = chosen[format];
  // A plain glTF avatar is baked onto as it is (the export stays a plain glTF); BVH and FBX read its
  // proportions from the VRM humanoid the studio gave it.
  if (format === 'glb') return { avatar: studio.avatar?.plainSource ?? avatarBytes(studio) };
  if (c === 'avatar') return { avatar: avatarBytes(studio) };
  const model = /^model:(\d+)$/.exec(c);
  const given = model ? studio.mmdModels.given()[Number(model[1])] : undefined;
  return format === 'vmd' && given ? { model: given.bytes } : {};
}

/** The list beside "Export to": rebuilt when the format, the avatar, the models or the language change. */
export function exportSkeletonControl(studio: Studio, format: () => ExportFormat, onFormat: (cb: () => void) => void): HTMLSelectElement {
  const select = h('select', { id: 'export-skeleton' });
  const fill = () => {
    const f = format();
    const list = choicesFor(studio, f);
    if (!list.some((c) => c.value === chosen[f])) chosen[f] = list[0].value;
    select.replaceChildren(...list.map((c) => h('option', { value: c.value }, c.label)));
    select.value = chosen[f];
  };
  select.addEventListener('change', () => (chosen[format()] = select.value));
  tAttr(select, 'aria-label', 'studio.exportSkeleton');
  tAttr(select, 'title', 'studio.exportSkeletonHelp');
  onFormat(fill);
  studio.events.on('avatar', fill);
  studio.mmdModels.onGiven(fill);
  onLocaleChange(fill);
  fill();
  return select;
}
