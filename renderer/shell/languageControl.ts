/**
 * The language switch: a select in the studio's top bar and three commands (language.system /
 * language.en / language.ja) that the desktop menu lists as check items under Language. Both go
 * through LanguageChoice, which applies the language at once and remembers it in the settings.
 */
import type { LanguageSetting } from '../../shared/contract/studioApi';
import { LANGUAGE_SETTINGS } from '../../shared/contract/studioApi';
import { t, onLocaleChange } from '../../shared/i18n';
import type { CommandRegistry } from '../app/commands';
import type { LanguageChoice } from '../app/language';
import { systemLocale } from '../app/language';
import { h } from '../ui/dom';
import { localize } from '../ui/i18n';

function optionText(s: LanguageSetting): string {
  if (s === 'system') return t('studio.language.system', { language: t(systemLocale() === 'ja' ? 'studio.language.ja' : 'studio.language.en') });
  return t(s === 'ja' ? 'studio.language.ja' : 'studio.language.en');
}

export function createLanguageControl(choice: LanguageChoice): HTMLElement {
  const select = h('select', { id: 'language-select' }) as HTMLSelectElement;
  for (const s of LANGUAGE_SETTINGS) {
    // Each language is named in itself (English / 日本語), as language pickers do; "System" follows the UI.
    select.append(localize(h('option', { value: s, lang: s === 'system' ? undefined : s }), (o) => (o.textContent = optionText(s))));
  }
  select.value = choice.setting;
  select.addEventListener('change', () => void choice.choose(select.value as LanguageSetting));
  choice.onChange((s) => (select.value = s));
  const label = h('label', { class: 'language-control' }, select);
  localize(label, () => {
    select.setAttribute('aria-label', t('studio.language.label'));
    label.title = t('studio.language.help');
  });
  return label;
}

export function registerLanguageCommands(registry: CommandRegistry, choice: LanguageChoice): void {
  for (const s of LANGUAGE_SETTINGS) {
    registry.register({
      id: `language.${s}`,
      label: s === 'system' ? 'System Language' : s === 'ja' ? '日本語' : 'English',
      menu: 'view',
      isChecked: () => choice.setting === s,
      run: () => choice.choose(s),
    });
  }
  // The menu's check marks and labels follow a switch.
  choice.onChange(() => registry.changed());
  onLocaleChange(() => registry.changed());
}
