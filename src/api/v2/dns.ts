/**
 * TON DNS resolution as ton-http-api-cpp does it (src/core/dns.cpp): the domain is normalized and encoded
 * (labels reversed, each ended by a zero byte), then `dnsresolve(subdomain, 0)` is run on the root resolver
 * (config param 4) and on every next resolver it delegates to, until the whole name is consumed; the final
 * record dictionary gives every category. Pure parts here; the get-method runs come in through `query`.
 */
import { Cell, Dictionary, type Slice, type TupleItem } from '@ton/core';
import { formatFriendly, type AccountAddress } from '../../format/index.ts';
import { ApiError, badParam } from '../errors.ts';

export const MAX_RESOLVER_CALLS = 64;
const MAX_ENCODED_BYTES = 127;

/** What a resolver's dnsresolve answered. */
export interface ResolverAnswer {
  exitCode: number;
  stack: TupleItem[];
}

export type ResolverQuery = (resolver: AccountAddress, subdomain: Buffer) => Promise<ResolverAnswer>;

export interface PreparedDomain {
  domain: string;
  encoded: Buffer;
}

/** A resolver answered something no DNS contract answers: 502, as the reference. */
function invalid(message: string): ApiError {
  return new ApiError(502, `DNS resolution: ${message}`);
}

/**
 * prepare_domain: lower case, one trailing dot dropped, non-empty labels, no spaces or control characters;
 * encoded as ton::DnsInterface::encode_name (reversed labels, each followed by \0), prefixed by \0 for an
 * explicit resolver; at most 127 bytes.
 */
export function prepareDomain(input: string, customResolver: boolean): PreparedDomain {
  // A lone surrogate is what invalid UTF-8 in the request decodes to.
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFFFD/.test(input)) throw badParam('domain', 'domain must be valid UTF-8');
  let domain = input.toLowerCase();
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  if (domain === '' || domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) throw badParam('domain', 'domain must contain nonempty labels');
  for (const ch of domain) {
    const c = ch.codePointAt(0)!;
    if (c <= 32 || c === 127) throw badParam('domain', 'domain must not contain spaces or control characters');
  }
  const parts: Buffer[] = customResolver ? [Buffer.alloc(1)] : [];
  for (const label of domain.split('.').reverse()) parts.push(Buffer.from(label, 'utf8'), Buffer.alloc(1));
  const encoded = Buffer.concat(parts);
  if (encoded.length > MAX_ENCODED_BYTES) throw badParam('domain', `encoded domain must not exceed ${MAX_ENCODED_BYTES} bytes`);
  return { domain, encoded };
}

/** Config param 4: the root resolver, a 256-bit masterchain account id. */
export function rootFromConfig(param4: Cell | null): AccountAddress {
  if (!param4) throw invalid('config parameter 4 is missing');
  if (param4.bits.length !== 256 || param4.refs.length !== 0) throw invalid('config parameter 4 must contain a 256-bit address');
  return { workchain: -1, hash: param4.beginParse().loadBuffer(32).toString('hex') };
}

/** rserialize(true): url-safe bounceable, as tonlib prints DNS addresses (no testnet flag). */
function accountJson(a: AccountAddress) {
  return { '@type': 'accountAddress', account_address: formatFriendly(a, { bounceable: true, testOnly: false, urlSafe: true }) };
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** CRC16-XMODEM (td::crc16). */
function crc16(data: Buffer): number {
  let crc = 0;
  for (const b of data) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** td::adnl_id_encode: base32 of 0x2d, the 32 bytes and their CRC16, without the first character (55 chars). */
export function adnlIdEncode(id: Buffer): string {
  const buf = Buffer.alloc(35);
  buf[0] = 0x2d;
  id.copy(buf, 1);
  buf.writeUInt16BE(crc16(buf.subarray(0, 33)), 33);
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const b of buf) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(acc << (5 - bits)) & 31];
  return out.slice(1);
}

function loadStdAddress(s: Slice): AccountAddress {
  const a = s.loadAddress();
  return { workchain: a.workChain, hash: a.hash.toString('hex') };
}

/** text$_ chunks:(## 8) rest:(TextChunks chunks); text_chunk$_ len:(## 8) data:(bits (len * 8)) next:(TextChunkRef n) */
function loadText(s: Slice): string {
  const chunks = s.loadUint(8);
  const parts: Buffer[] = [];
  let cur = s;
  for (let i = 0; i < chunks; i++) {
    const len = cur.loadUint(8);
    parts.push(cur.loadBuffer(len));
    if (i < chunks - 1) cur = cur.loadRef().beginParse();
  }
  return Buffer.concat(parts).toString('utf8');
}

/** `flags:(## 8) { flags <= 1 }` of adnl and smc records. */
function loadFlags(s: Slice): void {
  const flags = s.loadUint(8);
  if (flags > 1) throw new Error(`flags ${flags} > 1`);
}

/**
 * One DNSRecord (block.tlb): dns_text#1eda, dns_next_resolver#ba93, dns_adnl_address#ad01, dns_smc_address#9fd3,
 * dns_storage_address#7473; any other tag (or fewer than 16 bits) is dns.entryDataUnknown with the record's BoC.
 */
export function parseRecord(cell: Cell): Record<string, unknown> {
  const s = cell.beginParse(true);
  const tag = s.remainingBits >= 16 ? s.loadUint(16) : -1;
  try {
    switch (tag) {
      case 0x1eda:
        return { '@type': 'dns.entryDataText', text: loadText(s) };
      case 0xba93:
        return { '@type': 'dns.entryDataNextResolver', resolver: accountJson(loadStdAddress(s)) };
      case 0xad01: {
        const adnl = s.loadBuffer(32);
        loadFlags(s);
        return { '@type': 'dns.entryDataAdnlAddress', adnl_address: { '@type': 'adnlAddress', adnl_address: adnlIdEncode(adnl) } };
      }
      case 0x9fd3: {
        const smc = loadStdAddress(s);
        loadFlags(s);
        return { '@type': 'dns.entryDataSmcAddress', smc_address: accountJson(smc) };
      }
      case 0x7473:
        return { '@type': 'dns.entryDataStorageAddress', bag_id: s.loadBuffer(32).toString('hex') };
      default:
        return { '@type': 'dns.entryDataUnknown', bytes: cell.toBoc({ idx: false }).toString('base64') };
    }
  } catch (e) {
    throw invalid(`malformed DNS record: ${(e as Error).message}`);
  }
}

/** The final record dictionary (HashmapE 256 ^DNSRecord): one dns.entry per category, in key order. */
export function parseRecords(cell: Cell, domain: string): Record<string, unknown> {
  let dict: Dictionary<bigint, Cell>;
  try {
    dict = Dictionary.loadDirect(
      Dictionary.Keys.BigUint(256),
      {
        serialize: () => {
          throw new Error('read only');
        },
        parse: (v: Slice) => {
          if (v.remainingBits !== 0 || v.remainingRefs !== 1) throw new Error('a value is not exactly one reference');
          return v.loadRef();
        },
      },
      cell,
    );
  } catch {
    throw invalid('invalid record dictionary');
  }
  const keys = [...dict.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const entries = keys.map((k) => ({
    '@type': 'dns.entry',
    name: domain,
    category: Buffer.from(k.toString(16).padStart(64, '0'), 'hex').toString('base64'),
    entry: parseRecord(dict.get(k)!),
  }));
  return { '@type': 'dns.resolved', entries };
}

/** Follows delegation from `root` until the whole encoded domain is resolved (dns.cpp ResolveImpl). */
export async function resolveDns(domain: PreparedDomain, root: AccountAddress, query: ResolverQuery): Promise<Record<string, unknown>> {
  let remaining = domain.encoded;
  let resolver = root;
  const visited = new Set<string>();
  for (let hop = 0; hop < MAX_RESOLVER_CALLS; hop++) {
    const key = `${resolver.workchain}:${resolver.hash}|${remaining.toString('hex')}`;
    if (visited.has(key)) throw invalid('resolver cycle detected');
    visited.add(key);
    const r = await query(resolver, remaining);
    if (r.exitCode !== 0 && r.exitCode !== 1) throw invalid(`dnsresolve get-method failed with exit code ${r.exitCode}`);
    const [first, second] = r.stack;
    if (r.stack.length !== 2 || first.type !== 'int') throw invalid('expected a consumed-bit count and a record cell');
    if (first.value > 8n * 1024n) throw invalid('consumed-bit count is outside the domain or not byte-aligned');
    const bits = Number(first.value);
    if (bits < 0 || bits % 8 !== 0 || bits > remaining.length * 8) throw invalid('consumed-bit count is outside the domain or not byte-aligned');
    const consumed = bits / 8;
    // tonlib renders TVM null as an empty list: no records
    if (second.type === 'null') {
      if (consumed !== 0 && consumed !== remaining.length) throw invalid('partial resolution without a next resolver');
      return { '@type': 'dns.resolved', entries: [] };
    }
    if (consumed === 0 || second.type !== 'cell') throw invalid('invalid record cell');
    if (consumed === remaining.length) return parseRecords(second.cell, domain.domain);
    // contracts may consume a label with or without its terminating zero byte
    if (remaining[consumed - 1] !== 0 && remaining[consumed] !== 0) throw invalid('delegation splits a domain label');
    const record = parseRecord(second.cell);
    if (record['@type'] !== 'dns.entryDataNextResolver') throw invalid('partial resolution did not return a next resolver');
    const next = second.cell.beginParse(true);
    next.skip(16);
    resolver = loadStdAddress(next);
    remaining = remaining.subarray(consumed);
  }
  throw invalid(`resolver hop limit exceeded (${MAX_RESOLVER_CALLS} calls)`);
}
