/**
 * The report's Compatibility section (issue 25): what each known reader (the VRM Animation rules,
 * three-vrm-animation, Blender's VRM add-on, UniVRM) will do with the document as it would be saved,
 * from shared/vrma/compat.ts, worded in the current language. Checked when the report opens, not on
 * every change (a file with animated intermediate nodes costs a pose comparison).
 */
import type { Studio } from '../app/studio';
import { h } from '../ui/dom';
import { t, translate } from '../../shared/i18n';
import { writeVrma } from '../../shared/vrma/write';
import { checkCompatibility, COMPAT_READERS, type CompatFinding } from '../../shared/vrma/compat';

function findingText(f: CompatFinding): string {
  const text = translate(`compat.finding.${f.code}`, f.params, f.text);
  return f.fix ? `${text} ${t('compat.fix', { fix: translate(`compat.fix.${f.fix}`) })}` : text;
}

export function createCompatSection(studio: Studio): { element: HTMLElement; render(): void } {
  const title = h('h3', { id: 'compat-title' });
  // A role=list of paragraphs, not <li>: the report's notes are the panel's list items.
  const list = h('div', { class: 'compat-list', id: 'compat-list', role: 'list' });
  const element = h('section', { id: 'compat-section', 'aria-labelledby': 'compat-title' }, title, list);
  const render = () => {
    title.textContent = t('compat.title');
    let findings: CompatFinding[];
    try {
      findings = checkCompatibility(writeVrma(studio.doc.motion));
    } catch {
      // A motion the writer refuses has nothing to check; saving it says why.
      findings = [];
    }
    if (!findings.length) {
      list.replaceChildren(h('p', { class: 'compat-empty', role: 'listitem', text: t('compat.none') }));
      return;
    }
    list.replaceChildren(
      ...COMPAT_READERS.flatMap((reader) =>
        findings
          .filter((f) => f.reader === reader)
          .map((f) =>
            h('p', {
              class: `compat-${f.level}`,
              role: 'listitem',
              'data-reader': reader,
              'data-code': f.code,
              text: `${translate(`compat.reader.${reader}`)} (${translate(`compat.level.${f.level}`)}): ${findingText(f)}`,
            })
          )
      ),
    );
  };
  return { element, render };
}
