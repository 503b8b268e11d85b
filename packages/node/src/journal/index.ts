export { FileJournal, type FileJournalOptions, openJournal } from './file-journal.js';
