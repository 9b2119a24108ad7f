/** The acton local-net chain of the fixtures (masterchain 1-2, basechain 1-2; every link verified in MANIFEST.md). */
import { join } from 'node:path';

export const FIX = join(import.meta.dirname, '..', 'fixtures');
export const ACTON = ['mc-1', 'mc-2', 'wc0-8000000000000000-1', 'wc0-8000000000000000-2'].map((f) => join(FIX, 'blocks', 'localnet', `localnet-acton-${f}.boc`));

/** Ids from test/fixtures/MANIFEST.md (acton localnet chain, all links verified there). */
export const ACTON_IDS = {
  mc1: { root: 'c911a25caecd8fc34793a26039b7ecb9ea6df0854c26294cd3fc2cd3f92aeaf4', file: '163e5cb17f1e3adc1f8c10dd2f161962a72d22e19d37fdcea7faddc6347ad5a4' },
  mc2: { root: 'b0f2dbe0cb343261fb66a5be59808dd20a6adac7befc78fea496030476a46cec' },
  wc1: { root: 'c668aa75d8986c395c927808bd2ac2f71f9399b7ff6ef9618bdaa46f11e0377c', file: 'b88cedf0c58ee678e83cdcd8f6ba8d4c145e0804097015e512a32ded87ac7253' },
  wc2: { root: 'ce3df52136fd2af83ad5453d61945de38c4e48ad569983be91635deb6390978e' },
  wallet: '3029b3eaeda86a5381d86100f2a8b761c38de45642edb6e4bb1cca2e6dd7ffed',
  tx1: 'e0d6d60a6b679ce0f3284e609ff7a5ebeb840d4f29e029896a249774750e8164',
  tx2: 'a1e15230a9021318f8b6d94bd53922890e42a60fdc3022d09e14cbe7949e7ded',
  tx4: 'a17dcd62e4136c053b59bd76092803a30553895b788f288b1a5f02e50d30922d',
  genUtime: 1784192438,
};
