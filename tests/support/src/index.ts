export * from './files.js';
export * from './loopback.js';
export * from './mariadb-server.js';
export * from './postgres-server.js';
export * from './redis-server.js';
export * from './sql-databases.js';
export * from './until.js';
export * from './zip-files.js';
