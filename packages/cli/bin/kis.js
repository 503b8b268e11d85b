#!/usr/bin/env node
// Thin launcher so the bin link exists before the first build; the CLI is dist/bin.js.
import '../dist/bin.js';
