/// <reference types="vite/client" />

/** One language's messages, combined from shared/i18n/messages at build time (electron.vite.config.ts). */
declare module 'virtual:vrma-i18n/*' {
  const table: Readonly<Record<string, string>>;
  export default table;
}
