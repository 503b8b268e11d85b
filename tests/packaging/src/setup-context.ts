/** What the global set-up (src/global-setup.ts) hands the test files: `inject('packaging')`. */
import type { PackageInstall } from './install-sizes.js';
import type { PackedTarball } from './pack.js';

export interface PackagingSetup {
  workspaceRoot: string;
  /** The temporary directory holding the tarballs and the projects (removed after the run). */
  work: string;
  tarballs: PackedTarball[];
  /** Each public package installed alone, in name order. */
  installs: PackageInstall[];
  /**
   * The project holding every tarball, TypeScript and @types/node. It began as the project of
   * the package whose install builds native code (measured before anything else was added).
   */
  consumer: { project: string; failure?: string };
  /** Where the size table was written. */
  sizesFile: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    packaging: PackagingSetup;
  }
}
