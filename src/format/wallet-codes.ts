/**
 * Code hashes (cell representation hashes, lower-case hex) of the standard wallet contracts.
 * Values checked against test/fixtures/codes/*.boc (see test/format/wallet-codes.test.ts).
 */

export type WalletType =
  | 'wallet v1 r1'
  | 'wallet v1 r2'
  | 'wallet v1 r3'
  | 'wallet v2 r1'
  | 'wallet v2 r2'
  | 'wallet v3 r1'
  | 'wallet v3 r2'
  | 'wallet v4 r1'
  | 'wallet v4 r2'
  | 'wallet v5 beta'
  | 'wallet v5 r1';

/** The 11 standard wallet codes (API v3 `WalletsHashMap`; API v2 wallet_type names). */
export const WALLET_CODE_HASHES: Readonly<Record<string, WalletType>> = {
  a0cfc2c48aee16a271f2cfc0b7382d81756cecb1017d077faaab3bb602f6868c: 'wallet v1 r1',
  d4902fcc9fad74698fa8e353220a68da0dcf72e32bcb2eb9ee04217c17d3062c: 'wallet v1 r2',
  '587cc789eff1c84f46ec3797e45fc809a14ff5ae24f1e0c7a6a99cc9dc9061ff': 'wallet v1 r3',
  '5c9a5e68c108e18721a07c42f9956bfb39ad77ec6d624b60c576ec88eee65329': 'wallet v2 r1',
  fe9530d3243853083ef2ef0b4c2908c0abf6fa1c31ea243aacaa5bf8c7d753f1: 'wallet v2 r2',
  b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581: 'wallet v3 r1',
  '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599': 'wallet v3 r2',
  '64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d': 'wallet v4 r1',
  feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0: 'wallet v4 r2',
  // v5 beta is deployed as a library cell; this is the hash of that (exotic) code cell.
  f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93: 'wallet v5 beta',
  '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f': 'wallet v5 r1',
};

export type HighloadType =
  | 'highload v1 r1'
  | 'highload v1 r2'
  | 'highload v2'
  | 'highload v2 r1'
  | 'highload v2 r2'
  | 'highload v3';

export const HIGHLOAD_CODE_HASHES: Readonly<Record<string, HighloadType>> = {
  d8cdbbb79f2c5caa677ac450770be0351be21e1250486de85cc52aa33dd16484: 'highload v1 r1',
  '0dceed21269d66013e95b19fbb5c55a6f01adad40837baa8e521cde3a02aa46c': 'highload v1 r2',
  '9494d1cc8edf12f05671a1a9ba09921096eb50811e1924ec65c3c629fbb80812': 'highload v2',
  '8ceb45b3cd4b5cc60eaae1c13b9c092392677fe536b2e9b2d801b62eff931fe1': 'highload v2 r1',
  '203dd4f358adb49993129aa925cac39916b68a0e4f78d26e8f2c2b69eafa5679': 'highload v2 r2',
  '11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525': 'highload v3',
};

export function walletTypeOfCodeHash(codeHashHex: string | null | undefined): WalletType | null {
  if (!codeHashHex) return null;
  return WALLET_CODE_HASHES[codeHashHex.toLowerCase()] ?? null;
}

export function highloadTypeOfCodeHash(codeHashHex: string | null | undefined): HighloadType | null {
  if (!codeHashHex) return null;
  return HIGHLOAD_CODE_HASHES[codeHashHex.toLowerCase()] ?? null;
}
