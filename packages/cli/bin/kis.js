#!/usr/bin/env node
// Thin launcher so the bin link exists before the first build; the CLI lives in dist/bundle/
// (scripts/bundle.mjs).
import '../dist/bundle/bin.js';
