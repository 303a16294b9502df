/** The motion's figures: duration, fps, keys, bones, expressions, lookAt and the reader's warnings. */
import type { Studio } from '../app/studio';
import type { Motion } from '../../shared/motion/types';
import { summarizeMotion } from '../../shared/vrma/summary';
import { h } from '../ui/dom';
import { formatTime } from '../app/frames';
import { t, formatNumber, formatList, formatSize, onLocaleChange } from '../../shared/i18n';
import { localize, tAttr, tText } from '../ui/i18n';
import { warningText } from '../ui/messages';
import { BUILTIN_AVATAR_NAME } from '../app/builtinAvatar';

/**
 * About what the motion's .vrma takes on disk: its key data (float32 times and values) plus the
 * glTF JSON's typical overhead; writing the file to measure it would cost a full write per edit.
 */
function estimatedVrmaBytes(motion: Motion): number {
  let bytes = 4096;
  for (const c of motion.channels) bytes += (c.times.length + c.values.length) * 4;
  return bytes;
}

export function createInfoPanel(studio: Studio): HTMLElement {
  // The figures that matter while editing, always visible in a compact strip; the rest under "More".
  const list = h('dl', { class: 'info-list info-strip' });
  const moreList = h('dl', { class: 'info-list' });
  const more = h('details', { class: 'info-more' }, localize(h('summary'), (e) => (e.textContent = t('studio.info.more'))), moreList);
  const warnings = tAttr(h('ul', { class: 'warnings' }), 'aria-label', 'studio.info.warnings');
  const avatarLine = h('p', { class: 'avatar-line' });
  const panel = h('section', { class: 'panel info-panel', 'aria-labelledby': 'info-title' }, tText(h('h2', { id: 'info-title' }), 'studio.info.title'), list, more, avatarLine, warnings);

  const render = () => {
    const s = summarizeMotion(studio.motion);
    const animated = s.expressions.filter((e) => e.animated).map((e) => e.name);
    // The data-info names are stable (tests read them); the shown labels follow the language.
    const rows: [string, string, string][] = [
      ['name', t('studio.info.name'), studio.motionName],
      ['duration', t('studio.info.duration'), t('studio.info.durationValue', { time: formatTime(s.durationSeconds), seconds: formatNumber(s.durationSeconds, 3, 3) })],
      // No estimate for single keys (a one-frame pose), as in `vrma-studio info`.
      ['frame-rate', t('studio.info.fps'), s.estimatedFps === null ? t('studio.info.fpsUnknown') : t('studio.info.fpsValue', { fps: formatNumber(s.estimatedFps, 3) })],
      ['keys', t('studio.info.keys'), formatNumber(s.totalKeys)],
      ['bones', t('studio.info.bones'), formatNumber(s.animatedBones.length)],
      ['expressions', t('studio.info.expressions'), animated.length ? formatList(animated) : t('studio.info.none')],
      ['look-at', t('studio.info.lookAt'), s.lookAt === 'animated' ? t('studio.info.animated') : t('studio.info.none')],
      ['spec-version', t('studio.info.specVersion'), s.specVersion],
      ['size', t('studio.info.size'), t('studio.info.sizeValue', { size: formatSize(estimatedVrmaBytes(studio.motion)) })],
    ];
    const cells = ([id, k, v]: [string, string, string]) => [h('dt', { text: k }), h('dd', { text: v, 'data-info': id, title: v })];
    const strip = new Set(['duration', 'frame-rate', 'keys', 'bones', 'size']);
    list.replaceChildren(...rows.filter((r) => strip.has(r[0])).flatMap(cells));
    moreList.replaceChildren(...rows.filter((r) => !strip.has(r[0])).flatMap(cells));
    warnings.replaceChildren(...s.warnings.map((w) => h('li', { text: warningText(w), title: w.text })));
    warnings.hidden = s.warnings.length === 0;
    const a = studio.avatar;
    avatarLine.textContent = a ? t('studio.info.avatar', { name: a.name === BUILTIN_AVATAR_NAME ? t('studio.mannequin.name') : a.name, version: a.metaVersion === '0' ? '0.x' : '1.0' })
      : t('studio.info.noAvatar');
  };
  onLocaleChange(render);
  studio.events.on('motion', render);
  studio.events.on('avatar', render);
  render();
  return panel;
}
