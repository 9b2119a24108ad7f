import { CliError, type Command } from '../command.ts';
import { loadLiteservers, LiteserverPool, NetworkConfigError, parseNetwork, type NetworkName } from '../../source/index.ts';
import { indexStatusDetail, type IndexStatusDetail } from '../../store/read/index.ts';
import { ENGINE_USERS, enginePaths, readEngineState } from '../../engine/index.ts';
import { openStoreOrExplain, readerDataDir } from '../open-store.ts';

export const statusCommand: Command = {
  async run(argv) {
    let dataDir: string | undefined;
    let network: NetworkName | undefined;
    let configPath: string | undefined;
    let json = false;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--data') {
        dataDir = argv[++i];
        if (!dataDir) throw new CliError('--data needs a directory');
      } else if (a === '--network') {
        try {
          network = parseNetwork(argv[++i] ?? '');
        } catch (err) {
          throw new CliError((err as Error).message);
        }
      } else if (a === '--config') {
        configPath = argv[++i];
        if (!configPath) throw new CliError('--config needs a path');
      } else if (a === '--json') json = true;
      else throw new CliError(`unknown option "${a}" (see --help)`);
    }
    // the network of the deployment (compose.yml sets it), for the tip and the lag, where none is given
    if (network === undefined && configPath === undefined && process.env.TON_GATEWAY_NETWORK) {
      try {
        network = parseNetwork(process.env.TON_GATEWAY_NETWORK);
      } catch (err) {
        throw new CliError(`TON_GATEWAY_NETWORK: ${(err as Error).message}`);
      }
    }
    // read-only: a running gateway keeps indexing while this reads
    const store = await openStoreOrExplain(readerDataDir(dataDir, (line) => console.error(`ton-gateway status: ${line}`)), undefined, { readonly: true });
    let st: IndexStatusDetail;
    const used = store.engine;
    try {
      st = await indexStatusDetail(store);
    } finally {
      await store.close();
    }
    // the engine, where one runs on after this command (one this command started has stopped with it)
    const engine = used && readEngineState(enginePaths(store.location))?.pid === used.pid ? used : null;
    let tip: number | null = null;
    let tipError: string | null = null;
    if (network || configPath) {
      let pool: LiteserverPool | undefined;
      try {
        pool = new LiteserverPool(loadLiteservers({ network, configPath }), { timeoutMs: 5000 });
        await pool.start(10_000);
        tip = (await pool.getMasterchainTip()).seqno;
      } catch (err) {
        if (err instanceof NetworkConfigError) throw new CliError(err.message);
        tipError = (err as Error).message;
      } finally {
        await pool?.close();
      }
    }
    const lag = tip !== null && st.last !== null ? tip - st.last : null;
    const engineInfo = engine && { http: engine.url, native: `${engine.host}:${engine.tcpPort}`, version: engine.version, pid: engine.pid, users: ENGINE_USERS };
    if (json) {
      console.log(JSON.stringify({ ...st, tip, lag, tip_error: tipError, engine: engineInfo }, null, 2));
      return 0;
    }
    if (st.first === null) {
      console.log(st.requestedFrom !== null ? `nothing indexed yet (requested from masterchain seqno ${st.requestedFrom})` : 'nothing indexed yet (run `ton-gateway index`)');
    } else {
      console.log(`indexed masterchain seqnos: ${st.first} .. ${st.last}  (checkpoint ${st.checkpoint ?? 'none'})`);
      console.log(`blocks: ${st.blocks}  transactions: ${st.transactions}`);
      console.log(st.mcGaps.length ? `masterchain gaps: ${st.mcGaps.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ')}` : 'masterchain gaps: none');
      console.log(
        st.shardGaps.length
          ? `shard gaps: ${st.shardGaps.length}${st.shardGaps.length >= 1000 ? '+' : ''} (first: ${st.shardGaps[0].block} misses ${st.shardGaps[0].missingPrev}, mc ${st.shardGaps[0].mcSeqno})`
          : 'shard gaps: none',
      );
      if (st.recent) console.log(`throughput (last minute of ingestion): ${st.recent.blocksPerSec.toFixed(1)} blocks/s, ${st.recent.txPerSec.toFixed(1)} tx/s`);
    }
    if (st.range) console.log(`requested range: ${st.range.from} .. ${st.range.until ?? 'tip'}`);
    if (st.stall) console.log(`stalled at mc seqno ${st.stall.seqno}: ${st.stall.reason} (since ${new Date(st.stall.since).toISOString()})`);
    if (tip !== null) console.log(`network tip: ${tip}${lag !== null ? `  lag: ${lag} masterchain blocks` : ''}`);
    else if (tipError) console.log(`network tip: unknown (${tipError.split(';')[0]})`);
    if (engine) console.log(`engine: ClickHouse ${engine.version}, HTTP ${engine.url}, native ${engine.host}:${engine.tcpPort} (users ${ENGINE_USERS.reader}, ${ENGINE_USERS.writer}; \`ton-gateway engine info\`)`);
    return 0;
  },
};
