/** Runs the Khronos glTF-Validator (npm gltf-validator) on GLB bytes. */
import validator from 'gltf-validator';

export interface ValidationSummary {
  errors: number;
  warnings: number;
  /** "SEVERITY CODE pointer: message" for every error and warning (infos and hints left out). */
  messages: string[];
}

const SEVERITY = ['ERROR', 'WARNING', 'INFO', 'HINT'];

export async function validateVrmaBytes(bytes: Uint8Array): Promise<ValidationSummary> {
  const report = await validator.validateBytes(new Uint8Array(bytes), {
    maxIssues: 1000,
    // Any external resource reference is itself a problem for a .vrma: report it instead of loading.
    externalResourceFunction: (uri: string) => Promise.reject(new Error(`external resource ${uri} not allowed`)),
  });
  const messages = (report.issues.messages as { code: string; message: string; severity: number; pointer?: string }[])
    .filter((m) => m.severity <= 1)
    .map((m) => `${SEVERITY[m.severity]} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  return { errors: report.issues.numErrors, warnings: report.issues.numWarnings, messages };
}
