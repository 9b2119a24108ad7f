export { parseTlSchema, type TlSchema, type TlConstructor, type TlField } from './schema.ts';
export { TlCodec, TlReader, TlWriter, TlError, type TlObject, type TlValue } from './codec.ts';
export { liteApi, LITE_API_TL, type TlBlockIdExt } from './lite-api.ts';
