/**
 * NFT collections (TEP-62) through `get_collection_data`: `(int next_item_index, cell collection_content,
 * slice owner_address)`. Telemint and DNS roots answer -1 as next index (items are not numbered in order);
 * a negative index is stored as 0 (the column is unsigned).
 */
import { contentJson } from './jetton-master.ts';
import { stateColumns, type EntityRow, type FamilyInput } from './family.ts';

export async function readNftCollection({ state, reader }: FamilyInput): Promise<EntityRow | null> {
  if (!reader) return null;
  const s = await reader.get('get_collection_data');
  const next = s.int(0);
  const content = contentJson(reader, s.cell(1));
  return {
    table: 'nft_collections',
    row: {
      address: state.account,
      next_item_index: next < 0n ? 0n : next,
      owner_address: s.address(2),
      collection_content: content ?? '',
      ...stateColumns(state),
    },
    unknown: content === null ? ['collection_content'] : [],
  };
}
