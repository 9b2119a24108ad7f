export { startLiteServer, type LiteServer, type LiteServerOptions } from './server.ts';
export { LiteServerError, ErrorCode } from './errors.ts';
export { serverKeyFromSeed, seedFromText, adnlKeyId, type ServerKey } from './keys.ts';
export {
  writeLiteServerJson,
  readLiteServerJson,
  readServerKeyFile,
  writeServerKeyFile,
  ipToInt,
  intToIp,
  type LiteServerJson,
} from './config.ts';
export { ProofBuilder, serializeBocRoots, dictPath } from './proof.ts';
export { stateHashAfter, LS_VERSION, LS_CAPABILITIES } from './handlers.ts';
export { serveDevnetDir, type ServeDirOptions } from './serve-dir.ts';
