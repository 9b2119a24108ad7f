/**
 * `ton-gateway engine`: the embedded ClickHouse engine of a data directory in the foreground (until SIGTERM or
 * Ctrl-C), on ports you choose, for tools to connect to (clickhouse-client, Grafana, any ClickHouse driver) whether a
 * gateway runs or not. Every command that opens the directory uses it while it runs. `--for-clients` is how a
 * gateway process starts an engine for itself (src/engine/supervisor.ts): that one stops when no process uses it.
 * `engine info` prints how to connect to the running one.
 */
import { readFileSync } from 'node:fs';
import { ENGINE_EXIT, ENGINE_USERS, enginePaths, readEngineState, runEngine } from '../../engine/index.ts';
import { CliError, intOption, optionValue, type Command } from '../command.ts';

function dataDirDefault(): string {
  return process.env.TON_GATEWAY_DATA ?? './data';
}

function info(dataDir: string, json: boolean): number {
  const paths = enginePaths(dataDir);
  const state = readEngineState(paths);
  if (!state) throw new CliError(`no engine runs on ${paths.dataDir} (it runs while a gateway uses the directory, or start one: ton-gateway engine --data ${dataDir})`);
  let secret = '';
  try {
    secret = readFileSync(paths.secret, 'utf8').trim();
  } catch {
    /* printed as unknown */
  }
  const out = {
    data_dir: paths.dataDir,
    pid: state.pid,
    version: state.version,
    http: `http://${state.host}:${state.http_port}`,
    native: `${state.host}:${state.tcp_port}`,
    users: { [ENGINE_USERS.reader]: 'read-only (SELECT; settings may change)', [ENGINE_USERS.writer]: 'read-write (the gateway itself)' },
    password_file: paths.secret,
    started_by: state.standalone ? 'hand (ton-gateway engine)' : 'a gateway process (stops when none uses it)',
  };
  if (json) {
    console.log(JSON.stringify(out, null, 2));
    return 0;
  }
  console.log(
    [
      `engine ${state.version} on ${paths.dataDir} (pid ${state.pid}, started by ${out.started_by})`,
      `  HTTP:   ${out.http}`,
      `  native: ${out.native}`,
      `  users:  ${ENGINE_USERS.reader} (read-only), ${ENGINE_USERS.writer} (read-write); password in ${paths.secret}`,
      `  e.g.    clickhouse-client --host ${state.host} --port ${state.tcp_port} --user ${ENGINE_USERS.reader} --password "$(cat ${paths.secret})"`,
      ...(secret ? [] : ['  (the password file is not readable by you)']),
    ].join('\n'),
  );
  return 0;
}

export const engineCommand: Command = {
  async run(argv) {
    let dataDir = dataDirDefault();
    let httpPort: number | undefined;
    let tcpPort: number | undefined;
    let forClients = false;
    let infoOnly = false;
    let json = false;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === 'info' && i === 0) infoOnly = true;
      else if (a === '--data') dataDir = optionValue(a, argv[++i]);
      else if (a === '--http-port') httpPort = intOption(a, argv[++i], 1, 65535);
      else if (a === '--tcp-port') tcpPort = intOption(a, argv[++i], 1, 65535);
      else if (a === '--for-clients') forClients = true;
      else if (a === '--json') json = true;
      else throw new CliError(`unknown option "${a}" (see --help)`);
    }
    if (infoOnly) return info(dataDir, json);
    if (httpPort !== undefined && httpPort === tcpPort) throw new CliError('--http-port and --tcp-port must differ');
    const log = (line: string) => console.error(`${new Date().toISOString()} ton-gateway engine: ${line}`);
    const code = await runEngine({ dataDir, httpPort, tcpPort, standalone: !forClients, log });
    if (!forClients && code === ENGINE_EXIT.portTaken) throw new CliError('a port is taken (see above)', code);
    if (!forClients && code === ENGINE_EXIT.alreadyRunning) throw new CliError(`an engine already runs on ${enginePaths(dataDir).dataDir}: \`ton-gateway engine info --data ${dataDir}\``, code);
    return code;
  },
};
