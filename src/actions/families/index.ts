/**
 * The ported families: one file per upstream matcher file (indexer/events/blocks/<name>.py), each exporting
 * `MATCHERS` (its matcher instances under upstream's class names) and, where upstream has one, `POST_PROCESSORS`
 * (under upstream's function names). The order they run in is matcher-order.ts (upstream's), not this file's.
 *
 * One slot per upstream file, in two places (import, registration): replace the `(not ported yet)` line under
 * the family's header in both; headers keep slots apart, so parallel ports merge cleanly. See ../PORTING.md.
 */
import type { BlockMatcher } from '../matchers.ts';
import type { PostProcessor } from '../core.ts';

// ---- imports: one slot per upstream file (header line, then the import) ----
// -- auction.py
import * as auction from './auction.ts';
// -- cocoon.py
import * as cocoon from './cocoon.ts';
// -- dedust_v2/ (newer upstream)
import * as dedustV2 from './dedust-v2.ts';
// -- dns.py
import * as dns from './dns.ts';
// -- elections.py
import * as elections from './elections.ts';
// -- ethena_staking.py
import * as ethenaStaking from './ethena_staking.ts';
// -- evaa.py
import * as evaa from './evaa.ts';
// -- jettons.py
import * as jettons from './jettons.ts';
// -- jvault.py
import * as jvault from './jvault.ts';
// -- layerzero.py
import * as layerzero from './layerzero.ts';
// -- liquidity.py
import * as liquidity from './liquidity.ts';
// -- multisig.py
import * as multisig from './multisig.ts';
// -- nft.py
import * as nft from './nft.ts';
// -- staking.py
import * as staking from './staking.ts';
// -- subscriptions.py
import * as subscriptions from './subscriptions.ts';
// -- swaps.py
import * as swaps from './swaps.ts';
// -- tgbtc.py
import * as tgbtc from './tgbtc.ts';
// -- tgwallet.py (newer upstream)
import * as tgwallet from './tgwallet.ts';
// -- vesting.py
import * as vesting from './vesting.ts';

interface Family {
  MATCHERS: Record<string, BlockMatcher>;
  POST_PROCESSORS?: Record<string, PostProcessor>;
}

// ---- registrations: one slot per upstream file (header line, then the module) ----
const FAMILIES: Family[] = [
  // -- auction.py
  auction,
  // -- cocoon.py
  cocoon,
  // -- dedust_v2/ (newer upstream)
  dedustV2,
  // -- dns.py
  dns,
  // -- elections.py
  elections,
  // -- ethena_staking.py
  ethenaStaking,
  // -- evaa.py
  evaa,
  // -- jettons.py
  jettons,
  // -- jvault.py
  jvault,
  // -- layerzero.py
  layerzero,
  // -- liquidity.py
  liquidity,
  // -- multisig.py
  multisig,
  // -- nft.py
  nft,
  // -- staking.py
  staking,
  // -- subscriptions.py
  subscriptions,
  // -- swaps.py
  swaps,
  // -- tgbtc.py
  tgbtc,
  // -- tgwallet.py (newer upstream)
  tgwallet,
  // -- vesting.py
  vesting,
];

/** Every ported matcher by upstream class name. */
export const FAMILY_MATCHERS: Readonly<Record<string, BlockMatcher>> = Object.assign({}, ...FAMILIES.map((f) => f.MATCHERS));

/** Every ported post-processor by upstream function name. */
export const FAMILY_POST_PROCESSORS: Readonly<Record<string, PostProcessor>> = Object.assign({}, ...FAMILIES.map((f) => f.POST_PROCESSORS ?? {}));
