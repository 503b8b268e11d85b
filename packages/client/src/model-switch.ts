/** Types of `kis.searchSettings.switchInProgress()`: an embedding-model switch. Types only. */
import type { SwitchFlow, SwitchoverType } from '@kis/rules';
import type { SearchSettings } from './types.js';

export interface ModelSwitchNotice {
  /** The settings of the index the switch builds. */
  settings: SearchSettings;
  /** `port`: documents are copied into the new index; `legacy`: connectors run again instead. */
  flow: SwitchFlow;
  switchover: SwitchoverType | null;
  /**
   * What becomes of pushed documents: `ported` into the new index with their pair, or only there
   * when `push-again` during the switch (connectors never produce them).
   */
  pushedDocuments: 'ported' | 'push-again';
  /** What the switch means for pushed documents on this server, in one sentence. */
  message: string;
}
