/**
 * Validator groups and block signatures (src/ton/validators.ts) against real mainnet blocks: the validator
 * list hash a block header states is what validators computed from the config in force, so recomputing it
 * from the config checks the shuffle PRNG, the shard subgroup draw and the hash layout. Signature checks use
 * keys and signatures made with @noble/ed25519 (an independent implementation).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import {
  blockSignedData,
  checkBlockSignatures,
  computeValidatorSubset,
  crc32c,
  nodeIdShort,
  validatorSetHashShort,
  type ValidatorDescr,
} from '../../src/ton/index.ts';
import { configParam, loadCatchainConfig, loadValidatorSet, readBlockInfo } from '../../src/api/v2/tlb.ts';
import { adnlKeyId } from '../../src/devnet/liteserver/index.ts';

ed.hashes.sha512 = sha512;

const FIX = join(import.meta.dirname, '..', 'fixtures', 'blocks', 'mainnet');
const block = (name: string) => Cell.fromBoc(readFileSync(join(FIX, name)))[0];

/** ConfigParams of a key block: block -> extra -> ^McBlockExtra -> config (its last ref). */
function keyBlockConfig(root: Cell): Cell {
  const mc = root.refs[3].refs[3];
  return mc.refs[mc.refs.length - 1];
}

const MASTER = { workchain: -1, shard: 0x8000000000000000n };

describe('validator groups from mainnet configs (MANIFEST: mainnet-mc-46991999 key block, mainnet-wc0-6000000000000000-52111590)', () => {
  const key = block('mainnet-mc-46991999.boc');
  const config = keyBlockConfig(key);
  const ccv = loadCatchainConfig(configParam(config, 28));

  it('the key block header names the masterchain group of the previous set (param 32): 100 of 400 validators, shuffled', () => {
    const info = readBlockInfo(key);
    const prev = loadValidatorSet(configParam(config, 32)!);
    expect(ccv.shuffleMcValidators).toBe(true);
    expect([prev.total, prev.main]).toEqual([400, 100]);
    const nodes = computeValidatorSubset(ccv, MASTER, prev, info.gen_catchain_seqno);
    expect(nodes).toHaveLength(100);
    expect(validatorSetHashShort(info.gen_catchain_seqno, nodes)).toBe(info.gen_validator_list_hash_short);
    // the unshuffled head of the list, or another catchain seqno, gives another group
    expect(validatorSetHashShort(info.gen_catchain_seqno, prev.list.slice(0, 100))).not.toBe(info.gen_validator_list_hash_short);
    const other = computeValidatorSubset(ccv, MASTER, prev, info.gen_catchain_seqno - 1);
    expect(validatorSetHashShort(info.gen_catchain_seqno - 1, other)).not.toBe(info.gen_validator_list_hash_short);
  });

  it('a shard block of the new set (param 34) names its weighted draw of shard_validators_num validators', () => {
    const sb = block('mainnet-wc0-6000000000000000-52111590.boc');
    const info = readBlockInfo(sb);
    const vset = loadValidatorSet(configParam(config, 34)!);
    expect(info.gen_utime).toBeGreaterThanOrEqual(vset.utimeSince);
    expect(info.gen_utime).toBeLessThan(vset.utimeUntil);
    const nodes = computeValidatorSubset(ccv, { workchain: info.workchain, shard: BigInt('0x' + info.shard) }, vset, info.gen_catchain_seqno);
    expect(nodes).toHaveLength(ccv.shardValidatorsNum);
    expect(nodes.every((n) => n.weight === 1n)).toBe(true);
    expect(new Set(nodes.map((n) => n.publicKey.toString('hex'))).size).toBe(nodes.length);
    expect(validatorSetHashShort(info.gen_catchain_seqno, nodes)).toBe(info.gen_validator_list_hash_short);
  });
});

describe('hashes and signatures', () => {
  it('crc32c is CRC-32/Castagnoli (check value of "123456789")', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  it('node_id_short is the ADNL key id of the public key (same as the liteserver key code computes)', () => {
    const pub = Buffer.alloc(32, 7);
    expect(nodeIdShort(pub)).toEqual(adnlKeyId(pub));
  });

  it('the signed data is TL ton.blockId#c50b6e70 root_cell_hash file_hash', () => {
    const d = blockSignedData(Buffer.alloc(32, 1), Buffer.alloc(32, 2));
    expect(d.toString('hex')).toBe('706e0bc5' + '01'.repeat(32) + '02'.repeat(32));
  });

  it('checkBlockSignatures: > 2/3 of the weight passes; a bad, duplicate, unknown or short signature set fails', async () => {
    const secrets = [1, 2, 3, 4].map((i) => Buffer.alloc(32, i));
    const nodes: ValidatorDescr[] = await Promise.all(secrets.map(async (s) => ({ publicKey: Buffer.from(await ed.getPublicKeyAsync(s)), weight: 10n, adnlAddr: null })));
    const root = Buffer.alloc(32, 0xaa);
    const file = Buffer.alloc(32, 0xbb);
    const msg = Buffer.concat([Buffer.from([0x70, 0x6e, 0x0b, 0xc5]), root, file]);
    const sigs = await Promise.all(secrets.map(async (s, i) => ({ nodeIdShort: nodeIdShort(nodes[i].publicKey), signature: Buffer.from(await ed.signAsync(msg, s)) })));
    expect(checkBlockSignatures(nodes, sigs.slice(0, 3), root, file)).toEqual({ signedWeight: 30n, totalWeight: 40n });
    expect(() => checkBlockSignatures(nodes, sigs.slice(0, 2), root, file)).toThrow(/insufficient total signature weight: only 20 out of 40/);
    expect(() => checkBlockSignatures(nodes, [sigs[0], sigs[0], sigs[1]], root, file)).toThrow(/duplicate/);
    const forged = { ...sigs[2], signature: Buffer.from(sigs[2].signature).fill(0, 0, 8) };
    expect(() => checkBlockSignatures(nodes, [sigs[0], sigs[1], forged], root, file)).toThrow(/bad signature/);
    expect(() => checkBlockSignatures(nodes, sigs, Buffer.alloc(32, 0xab), file)).toThrow(/bad signature/);
    expect(() => checkBlockSignatures(nodes.slice(1), sigs, root, file)).toThrow(/unknown NodeIdShort/);
  });
});
