export * from './files.js';
export * from './loopback.js';
