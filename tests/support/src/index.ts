export * from './files.js';
export * from './loopback.js';
export * from './zip-files.js';
