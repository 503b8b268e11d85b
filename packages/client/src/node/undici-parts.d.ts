// The two modules of undici the Node sender imports on its own (see undici-sender.ts): CommonJS
// modules whose `module.exports` is the class or function the package's index exports by name.
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: typeof import('undici').Agent;
  export default Agent;
}

declare module 'undici/lib/core/connect.js' {
  const buildConnector: typeof import('undici').buildConnector;
  export default buildConnector;
}
