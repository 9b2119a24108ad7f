/**
 * The engine's configuration files (pure: text in, text out).
 *
 * Users. The engine is clickhouse-local serving ClickHouse's HTTP and native protocols on loopback. Its own startup
 * statements (SYSTEM START LISTEN) run in a local session that ClickHouse authenticates as `default` with no password
 * from a loopback address, which a network client on this machine can present too. So `default` may do only what the
 * startup needs (SYSTEM LISTEN; reading system.one for the statement that keeps the engine alive), and its quota of
 * statements is spent by that startup: every later statement as `default` is refused (QUOTA_EXCEEDED), whoever sends
 * it. The gateway's processes log in as `gateway` (every privilege) or `reader` (SELECT only, `readonly = 2`: settings
 * may change, nothing may be written, created or dropped; no file, URL, remote or S3 table function: those need
 * grants it lacks), both with the password generated into `<data dir>/engine/secret`, both from loopback only.
 */
import { createHash } from 'node:crypto';

/** The startup statements `default` runs; its quota is exactly these (see above). */
export const STARTUP_STATEMENTS = ['SYSTEM START LISTEN HTTP', 'SYSTEM START LISTEN TCP'] as const;

/** Users of the engine: `gateway` writes (the indexer, migrations, imports), `reader` reads (sql, the API, tools). */
export const ENGINE_USERS = { writer: 'gateway', reader: 'reader' } as const;

/**
 * Settings both users start with. Output formatting on a thread of its own cost a statement about 1 ms of CPU and
 * gained nothing on the API's small results (bench:engine); parallel parsing cost more than it gained on the writer's
 * batches with few cores (bench:store).
 */
const PROFILE_SETTINGS = {
  output_format_json_quote_64bit_integers: 1,
  output_format_json_quote_decimals: 1,
  output_format_parallel_formatting: 0,
  input_format_parallel_parsing: 0,
} as const;

/**
 * How large a request's URL and each of its parameters may be. Query parameters travel in the URL, and the store
 * binds thousands of keys at once (the writer's replay checks, src/store/client/replay.ts; a page of transactions by key):
 * past the 1 MiB URL and 128 KiB per parameter a server allows by default. Read before the user is known, so from
 * the `default` profile.
 */
const REQUEST_LIMITS = { http_max_uri_size: 64 << 20, http_max_field_value_size: 64 << 20 } as const;

const LOOPBACK = '<networks><ip>127.0.0.1</ip><ip>::1</ip></networks>';

function settingsXml(settings: Record<string, string | number>): string {
  return Object.entries(settings)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('');
}

/** users.xml: the three users, their profiles and quotas. `secret`: the generated password. */
export function usersXml(secret: string): string {
  const sha = createHash('sha256').update(secret).digest('hex');
  // a whole year per interval would do; ClickHouse's interval is an Int32 of seconds
  const forever = 2_000_000_000;
  return `<clickhouse>
  <users>
    <default>
      <no_password/>
      ${LOOPBACK}
      <profile>bootstrap</profile>
      <quota>bootstrap</quota>
      <grants><query>GRANT SYSTEM LISTEN ON *.*</query><query>GRANT SELECT ON system.one</query></grants>
    </default>
    <${ENGINE_USERS.writer}>
      <password_sha256_hex>${sha}</password_sha256_hex>
      ${LOOPBACK}
      <profile>writer</profile>
      <quota>unlimited</quota>
    </${ENGINE_USERS.writer}>
    <${ENGINE_USERS.reader}>
      <password_sha256_hex>${sha}</password_sha256_hex>
      ${LOOPBACK}
      <profile>reader</profile>
      <quota>unlimited</quota>
      <grants><query>GRANT SELECT ON *.*</query></grants>
    </${ENGINE_USERS.reader}>
  </users>
  <profiles>
    <default>${settingsXml(REQUEST_LIMITS)}</default>
    <bootstrap><function_sleep_max_microseconds_per_block>0</function_sleep_max_microseconds_per_block></bootstrap>
    <writer>${settingsXml(PROFILE_SETTINGS)}</writer>
    <reader>${settingsXml({ ...PROFILE_SETTINGS, readonly: 2 })}</reader>
  </profiles>
  <quotas>
    <unlimited/>
    <bootstrap><interval><duration>${forever}</duration><queries>${STARTUP_STATEMENTS.length}</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></bootstrap>
  </quotas>
</clickhouse>
`;
}

/**
 * config.xml: where the users are, and the server-level options a ClickHouse server would take in config.d
 * (`serverOptions`: the inner XML of clickhouse/rocksdb.xml, the point-read tables' RocksDB options).
 */
export function configXml(o: { usersPath: string; serverOptions: string }): string {
  return `<clickhouse>
  <users_config>${escapeXml(o.usersPath)}</users_config>
  ${o.serverOptions.trim()}
</clickhouse>
`;
}

/** The inner XML of a `<clickhouse>` configuration file (comments dropped). */
export function innerConfig(xml: string): string {
  const body = /<clickhouse>([\s\S]*)<\/clickhouse>/.exec(xml.replace(/<!--[\s\S]*?-->/g, ''));
  if (!body) throw new Error('not a <clickhouse> configuration file');
  return body[1];
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The statement that keeps the engine alive: a sleep of about 31 years in a session that ends when the engine does. */
export const KEEP_ALIVE = 'SELECT sleep(1000000000) FROM system.one FORMAT Null';
