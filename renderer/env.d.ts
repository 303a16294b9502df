/// <reference types="vite/client" />

/** One language's messages, combined from shared/i18n/messages at build time (electron.vite.config.ts). */
declare module 'virtual:vrma-i18n/*' {
  const table: Readonly<Record<string, string>>;
  export default table;
}

/** The built-in mannequin's and walk cycle's files, made at build time (electron.vite.config.ts: builtinFiles). */
declare module 'virtual:vrma-builtin-files' {
  export const MANNEQUIN_URL: string;
  export const WALK_TRACKS_URL: string;
}
