/** Where a benchmark's figures come from (provenance.mjs). */
export interface Provenance {
  commit: string | null;
  date: string;
  node: string;
  cpus: number;
  cpu_model: string;
}
export function provenance(): Provenance;
