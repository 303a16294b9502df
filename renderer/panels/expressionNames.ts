/**
 * How an expression is named on screen: a preset in the user's language (happy -> 喜 in Japanese),
 * a custom expression by the avatar's (or the file's) own name. The expressions panel and the dope
 * sheet's expression rows use it.
 */
import { isPresetExpression } from '../../shared/edits/expressionKeys';
import { translate } from '../../shared/i18n';

export function expressionLabel(name: string): string {
  return isPresetExpression(name) ? translate(`expressions.preset.${name}`, undefined, name) : name;
}
