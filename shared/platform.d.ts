/**
 * The only host APIs the motion core may use: they exist alike in browsers, Node, workers and Electron.
 * shared/ is type-checked against ES2022 plus this file alone (tsconfig.shared.json), so any other DOM or
 * Node global used in shared/ fails the architecture test.
 */
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  readonly encoding: string;
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare const console: {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
};
declare function setTimeout(cb: () => void, ms?: number): unknown;
declare function clearTimeout(id: unknown): void;
