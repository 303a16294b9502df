/** gltfpack's JS API (npm gltfpack: library.js, WebAssembly inside), as the bench uses it. */
declare module 'gltfpack' {
  interface PackInterface {
    read(path: string): Uint8Array;
    write(path: string, data: Uint8Array): void;
  }
  /** Runs gltfpack with command-line arguments; resolves to its log, rejects with it on failure. */
  export function pack(args: string[], iface: PackInterface): Promise<string>;
}
