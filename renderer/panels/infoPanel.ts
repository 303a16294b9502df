/** The motion's figures: duration, fps, keys, bones, expressions, lookAt and the reader's warnings. */
import type { Studio } from '../app/studio';
import { summarize } from '../app/motionStats';
import { h } from '../ui/dom';
import { formatTime } from '../timeline/timeScale';

export function createInfoPanel(studio: Studio): HTMLElement {
  const list = h('dl', { class: 'info-list' });
  const warnings = h('ul', { class: 'warnings', 'aria-label': 'Reader warnings' });
  const avatarLine = h('p', { class: 'avatar-line' });
  const panel = h('section', { class: 'panel info-panel', 'aria-labelledby': 'info-title' }, h('h2', { id: 'info-title', text: 'Motion info' }), avatarLine, list, warnings);

  const render = () => {
    const s = summarize(studio.motion);
    const rows: [string, string][] = [
      ['Name', studio.motionName],
      ['Duration', `${formatTime(s.duration)} (${s.duration.toFixed(3)} s)`],
      ['Frame rate', `${s.fps} fps`],
      ['Keys', s.keys.toLocaleString('en-US')],
      ['Bones', String(s.bones)],
      ['Expressions', s.expressions.length ? s.expressions.join(', ') : 'none'],
      ['Look at', s.lookAt ? 'animated' : 'none'],
      ['Spec version', s.specVersion],
    ];
    list.replaceChildren(...rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v, 'data-info': k.toLowerCase().replace(/\s+/g, '-') })]));
    warnings.replaceChildren(...s.warnings.map((w) => h('li', { text: w })));
    warnings.hidden = s.warnings.length === 0;
    const a = studio.avatar;
    avatarLine.textContent = a ? `Avatar: ${a.name} (VRM ${a.metaVersion === '0' ? '0.x' : '1.0'})` : 'No avatar';
  };
  studio.events.on('motion', render);
  studio.events.on('avatar', render);
  render();
  return panel;
}
