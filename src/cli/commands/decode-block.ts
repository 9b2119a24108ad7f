import { readFileSync } from 'node:fs';
import { CliError, type Command } from '../command.ts';
import { DecodeError, decodeBlock, type DecodedBlock } from '../../ton/index.ts';

/** JSON of a decoded block: bigint -> decimal string, everything else as the rows are. */
export function decodedBlockJson(d: DecodedBlock, pretty = true): string {
  return JSON.stringify(
    {
      id: d.id,
      global_id: d.global_id,
      info: d.info,
      rand_seed: d.rand_seed,
      created_by: d.created_by,
      state_update: d.state_update,
      transactions: d.transactions,
      account_states: d.account_states,
      states_before: d.states_before,
      intermediate_states: d.intermediate_states,
      ...(d.shards ? { shards: d.shards } : {}),
      ...(d.config ? { config: d.config } : {}),
    },
    (_k, v) => (typeof v === 'bigint' ? v.toString() : v),
    pretty ? 2 : undefined,
  );
}

export const decodeBlockCommand: Command = {
  async run(argv) {
    let compact = false;
    const files: string[] = [];
    for (const a of argv) {
      if (a === '--compact') compact = true;
      else if (a.startsWith('--')) throw new CliError(`unknown option "${a}" (see --help)`);
      else files.push(a);
    }
    if (files.length !== 1) throw new CliError('give exactly one block BoC file (see --help)');
    const file = files[0];
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CliError(code === 'ENOENT' ? `${file}: no such file` : code === 'EISDIR' ? `${file}: is a directory` : `${file}: cannot read (${code ?? (err as Error).message})`);
    }
    bytes = maybeText(bytes);
    let decoded: DecodedBlock;
    try {
      decoded = decodeBlock(bytes);
    } catch (err) {
      if (err instanceof DecodeError) throw new CliError(`${file}: ${err.message}`);
      throw new CliError(`${file}: not a decodable block (${(err as Error).message})`);
    }
    process.stdout.write(decodedBlockJson(decoded, !compact) + '\n');
    return 0;
  },
};

/** Accept hex or base64 text files too (fixtures and SDK test data often carry BoCs that way). */
function maybeText(bytes: Buffer): Buffer {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0xb5ee9c72) return bytes;
  const text = bytes.toString('latin1').trim();
  if (/^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return Buffer.from(text, 'base64');
  return bytes;
}
