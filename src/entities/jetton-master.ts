/**
 * Jetton masters (TEP-74) through `get_jetton_data`, whatever the contract's own data layout:
 * `(int total_supply, int mintable, slice admin_address, cell jetton_content, cell jetton_wallet_code)`.
 * The wallet code is usually pruned from the block; its hash is still known (the pruned cell's hash).
 */
import type { ContractReader } from './contract-reader.ts';
import { parseTokenContent } from '../contracts/index.ts';
import { stateColumns, type EntityRow, type FamilyInput } from './family.ts';

/** Content as stored: JSON text of the decoded map; null when the block pruned it (unknown). */
export function contentJson(r: ContractReader, cell: import('@ton/core').Cell | null): string | null {
  if (!cell) return '{}';
  if (r.touchesPruned(cell)) return null;
  return JSON.stringify(parseTokenContent(cell) ?? {});
}

export async function readJettonMaster({ state, reader }: FamilyInput): Promise<EntityRow | null> {
  if (!reader) return null;
  const s = await reader.get('get_jetton_data');
  const wallet = s.cell(4);
  const content = contentJson(reader, s.cell(3));
  return {
    table: 'jetton_masters',
    row: {
      address: state.account,
      total_supply: s.int(0),
      mintable: s.bool(1),
      admin_address: s.address(2),
      jetton_content: content ?? '',
      jetton_wallet_code_hash: wallet ? reader.hashOf(wallet) : '0'.repeat(64),
      ...stateColumns(state),
    },
    unknown: content === null ? ['jetton_content'] : [],
  };
}
