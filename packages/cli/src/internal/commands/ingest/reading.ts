/**
 * What `kis ingest` reads: the files, folders and JSONL of its PATHs, or a database or
 * repository (`@kis/node`'s SQL or git source, checked before anything is sent, and told how the
 * run ended so that it records its cursor or commit).
 */
import type { Readable } from 'node:stream';
import type { IngestSummary } from '@kis/client';
import type { FolderSourceOptions, SourceItem } from '@kis/node';
import {
  checkSource,
  closeSource,
  finishSource,
  kindOfItem,
  type OpenOptions,
  openSource,
  sourceCall,
} from '../../incremental-source.js';
import { type Inputs, inputSources } from '../../inputs.js';
import type { Output } from '../../output.js';
import type { SourceSpec } from '../../source-location.js';

/** How a run ended, as the command follows it. */
export interface Followed {
  summary: IngestSummary;
  interrupted: boolean;
}

export interface Reading {
  items(): Iterable<SourceItem> | AsyncIterable<SourceItem>;
  /** How many items there are, when that can be known before reading them. */
  count?: (() => Promise<number>) | undefined;
  /** What an item is, by its ref (a file kind, `jsonl`, `row`): a dry run counts by it. */
  kindOf(ref: string): string;
  /** Follows the run to its end, then does what the source does after a run. */
  end(follow: () => Promise<Followed>, dryRun: boolean): Promise<Followed>;
}

/** The PATHs' files, folders and JSONL (inputs.ts). */
export function fileReading(
  inputs: Inputs,
  stdin: Readable,
  options: FolderSourceOptions,
): Reading {
  const sources = inputSources(inputs, stdin, options);
  return {
    items: sources.items,
    // stdin can be read once only: not counted
    count: inputs.stdin ? undefined : () => sources.count(),
    kindOf: (ref) => sources.kindOf(ref),
    end: (follow) => follow(),
  };
}

/**
 * A database or repository: opened and checked here (the mapping against the query's columns,
 * or the ref), said on stderr; after the run, its cursor or commit recorded when the run stored
 * all it was given, never after a dry run.
 */
export async function sourceReading(
  out: Output,
  spec: SourceSpec,
  options: OpenOptions,
): Promise<Reading> {
  const opened = openSource(spec, options);
  try {
    out.info(`checked ${await checkSource(opened, 'flags')}`);
  } catch (error) {
    closeSource(opened);
    throw error;
  }
  return {
    items: () => opened.source,
    kindOf: kindOfItem(opened),
    async end(follow, dryRun) {
      try {
        const followed = await sourceCall('flags', follow);
        const { summary, interrupted } = followed;
        if (!dryRun) {
          await finishSource(
            opened,
            {
              failed: summary.failed,
              aborted: summary.aborted,
              stopped: summary.stopped,
              cancelled: interrupted,
            },
            'flags',
          );
        }
        return followed;
      } finally {
        closeSource(opened);
      }
    },
  };
}
