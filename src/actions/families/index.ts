/**
 * The ported families: one file per upstream matcher file (indexer/events/blocks/<name>.py), each exporting
 * `MATCHERS` (its matcher instances under upstream's class names) and, where upstream has one, `POST_PROCESSORS`
 * (under upstream's function names). The order they run in is matcher-order.ts (upstream's), not this file's.
 *
 * One slot per upstream file, in two places (import, registration): replace the `(not ported yet)` line under
 * the family's header in both; headers keep slots apart, so parallel ports merge cleanly. See ../PORTING.md.
 */
import type { BlockMatcher } from '../matchers.ts';
import type { PostProcessor } from '../processing.ts';

// ---- imports: one slot per upstream file (header line, then the import) ----
// -- auction.py
// (not ported yet)
// -- cocoon.py
import * as cocoon from './cocoon.ts';
// -- dedust_v2/ (newer upstream)
// (not ported yet)
// -- dns.py
// (not ported yet)
// -- elections.py
// (not ported yet)
// -- ethena_staking.py
import * as ethenaStaking from './ethena_staking.ts';
// -- evaa.py
import * as evaa from './evaa.ts';
// -- jettons.py
import * as jettons from './jettons.ts';
// -- jvault.py
// (not ported yet)
// -- layerzero.py
import * as layerzero from './layerzero.ts';
// -- liquidity.py
// (not ported yet)
// -- multisig.py
// (not ported yet)
// -- nft.py
// (not ported yet)
// -- staking.py
import * as staking from './staking.ts';
// -- subscriptions.py
// (not ported yet)
// -- swaps.py
// (not ported yet)
// -- tgbtc.py
import * as tgbtc from './tgbtc.ts';
// -- tgwallet.py (newer upstream)
// (not ported yet)
// -- vesting.py
// (not ported yet)

interface Family {
  MATCHERS: Record<string, BlockMatcher>;
  POST_PROCESSORS?: Record<string, PostProcessor>;
}

// ---- registrations: one slot per upstream file (header line, then the module) ----
const FAMILIES: Family[] = [
  // -- auction.py
  // (not ported yet)
  // -- cocoon.py
  cocoon,
  // -- dedust_v2/ (newer upstream)
  // (not ported yet)
  // -- dns.py
  // (not ported yet)
  // -- elections.py
  // (not ported yet)
  // -- ethena_staking.py
  ethenaStaking,
  // -- evaa.py
  evaa,
  // -- jettons.py
  jettons,
  // -- jvault.py
  // (not ported yet)
  // -- layerzero.py
  layerzero,
  // -- liquidity.py
  // (not ported yet)
  // -- multisig.py
  // (not ported yet)
  // -- nft.py
  // (not ported yet)
  // -- staking.py
  staking,
  // -- subscriptions.py
  // (not ported yet)
  // -- swaps.py
  // (not ported yet)
  // -- tgbtc.py
  tgbtc,
  // -- tgwallet.py (newer upstream)
  // (not ported yet)
  // -- vesting.py
  // (not ported yet)
];

/** Every ported matcher by upstream class name. */
export const FAMILY_MATCHERS: Readonly<Record<string, BlockMatcher>> = Object.assign({}, ...FAMILIES.map((f) => f.MATCHERS));

/** Every ported post-processor by upstream function name. */
export const FAMILY_POST_PROCESSORS: Readonly<Record<string, PostProcessor>> = Object.assign({}, ...FAMILIES.map((f) => f.POST_PROCESSORS ?? {}));
