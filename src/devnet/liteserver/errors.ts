/**
 * liteServer.error codes and texts as the C++ liteserver (validator/impl/liteserver.cpp) sends them:
 * ErrorCode (ton/ton-types.h) failure=601 error=602 warning=603 protoviolation=621 notready=651 timeout=652
 * cancelled=653; LiteQuery::fatal_error(msg) defaults to -400.
 */
export const ErrorCode = {
  failure: 601,
  error: 602,
  warning: 603,
  protoviolation: 621,
  notready: 651,
  timeout: 652,
  cancelled: 653,
  fatal: -400,
} as const;

export class LiteServerError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'LiteServerError';
  }
}

export const notApplied = () => new LiteServerError(ErrorCode.notready, 'block is not applied');
export const notFoundInDb = () => new LiteServerError(ErrorCode.notready, 'ltdb: block not found');
export const invalidBlockId = () => new LiteServerError(ErrorCode.fatal, 'invalid BlockIdExt');
export const unknownQuery = () => new LiteServerError(ErrorCode.protoviolation, 'unknown query');
