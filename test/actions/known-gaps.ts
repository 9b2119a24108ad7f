// Cases of toncenter's suite (test/fixtures/traces/toncenter-indexer/test_cases) whose family is not ported yet on the
// new engine (src/actions/README.md, "Action types"). Suites run them with `it.fails`; each family's port removes its lines.
// Ported and passing: ton-transfers, jetton-transfer, jetton-mints.
export const KNOWN_GAPS = new Set<string>([
  // coffee.yaml
  'coffee.yaml: Coffee DEX Swap USDT -> TON (hop) -> CES',
  'coffee.yaml: Coffee DEX Swap USDT -> TON',
  'coffee.yaml: Complicated Swap (Dedust, Coffee + Stonfi)',
  'coffee.yaml: Less complicated Swap (Dedust + Coffee)',
  'coffee.yaml: Another less complicated Swap (Stonfi + Coffee)',
  'coffee.yaml: Terrifying Swap (Stonfi, Coffee + Stonfi V2, Dedust, Stonfi V2)',
  'coffee.yaml: Coffee deposit liquidity TON + CES',
  'coffee.yaml: Coffee deposit liquidity TON + ARBUZ (with vault excess)',
  'coffee.yaml: Coffee withdraw liquidity (jetton - jetton)',
  'coffee.yaml: Coffee create pool creator (only create)',
  'coffee.yaml: Coffee create pool (full and simple)',
  // dedust-liquidities.yaml
  'dedust-liquidities.yaml: Multiple deposits with one deposit contract',
  'dedust-liquidities.yaml: Merged deposit, jetton excess',
  'dedust-liquidities.yaml: First deposit',
  'dedust-liquidities.yaml: Final deposit',
  'dedust-liquidities.yaml: Final deposit with ton excesses',
  // jvault.yaml
  'jvault.yaml: Stake (partial referral updates)',
  'jvault.yaml: Stake (simple)',
  'jvault.yaml: Stake (failed, cancellation)',
  'jvault.yaml: Stake (full referral call chain)',
  'jvault.yaml: Unstake (with referrals)',
  'jvault.yaml: Claim rewards',
  'jvault.yaml: Unstake (failed)',
  // nft.yaml
  'nft.yaml: Getgems purchase',
  'nft.yaml: Fragment purchase',
  // stonfi-swaps.yaml
  'stonfi-swaps.yaml: Stonfi Jetton -> Ton swap with referral payout',
  'stonfi-swaps.yaml: Stonfi Jetton -> Ton (receiver != sender)',
  'stonfi-swaps.yaml: Stonfi Jetton -> Ton (receiver == sender)',
  'stonfi-swaps.yaml: Stonfi Jetton -> Jetton',
  // stonfi-v2-swaps.yaml
  'stonfi-v2-swaps.yaml: Stonfi v2 Jetton -> Jetton',
  'stonfi-v2-swaps.yaml: Stonfi v2 Jetton -> Jetton multirouter',
  // tonco.yaml
  'tonco.yaml: Tonco deploy pools',
  'tonco.yaml: Tonco swap USDT -> TON',
  'tonco.yaml: Tonco swap USDT -> STORM with hop',
  'tonco.yaml: Tonco swap TON -> USDT failed',
  'tonco.yaml: Tonco swap TON -> KUKU',
  'tonco.yaml: Tonco deposit liquidity (normal)',
  'tonco.yaml: Tonco deposit liquidity one side TON (strange case)',
  // tonstakers.yaml
  'tonstakers.yaml: TS Withdrawal request', // staking.py classifies it; its request NFT's nft_mint / nft_transfer are nft.py's
  // vesting.yaml
  'vesting.yaml: Vesting add whitelist',
]);
