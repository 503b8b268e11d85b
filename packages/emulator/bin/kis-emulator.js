#!/usr/bin/env node
// Thin launcher so the bin link exists before the first build; the emulator lives in dist/.
import '../dist/bin.js';
