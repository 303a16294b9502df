/** Whether the command key is ⌘ (macOS) or Ctrl, decided once from the browser. */
export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
