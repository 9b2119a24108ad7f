import type { V2Method } from '../method.ts';
import * as accounts from './accounts.ts';
import * as blocks from './blocks.ts';
import * as config from './config.ts';
import * as dns from './dns.ts';
import * as run from './run.ts';
import * as send from './send.ts';
import * as tokens from './tokens.ts';
import * as transactions from './transactions.ts';
import * as utils from './utils.ts';

/** Every API v2 method, in the order of the toncenter reference. */
export const ALL_METHODS: V2Method[] = [
  accounts.getAddressInformation,
  accounts.getExtendedAddressInformation,
  accounts.getWalletInformation,
  accounts.getAddressBalance,
  accounts.getAddressState,
  accounts.getShardAccountCell,
  dns.dnsResolve,
  tokens.getTokenData,
  blocks.getMasterchainInfo,
  blocks.getMasterchainBlockSignatures,
  blocks.getShardBlockProof,
  blocks.getConsensusBlock,
  blocks.lookupBlockMethod,
  blocks.getShards,
  blocks.shards,
  blocks.getBlockHeader,
  blocks.getOutMsgQueueSize,
  transactions.getBlockTransactions,
  transactions.getBlockTransactionsExt,
  transactions.getTransactions,
  transactions.getTransactionsStd,
  transactions.tryLocateTx,
  transactions.tryLocateResultTx,
  transactions.tryLocateSourceTx,
  send.sendBoc,
  send.sendBocReturnHash,
  send.sendBocReturnHashNoError,
  send.sendQuery,
  send.estimateFee,
  run.runGetMethodLegacy,
  run.runGetMethodStd,
  utils.detectAddress,
  utils.detectHash,
  utils.packAddress,
  utils.unpackAddress,
  config.getConfigParam,
  config.getConfigAll,
  config.getLibraries,
];
