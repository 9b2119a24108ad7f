/**
 * API keys and plans from a JSON config file. Keys are stored as sha256 hex digests, never in clear.
 *
 * {
 *   "anonymous": { "rps": 1, "networks": ["mainnet", "testnet"] },
 *   "plans": { "free": { "rps": 10, "networks": ["mainnet", "testnet"] }, "pro": { "rps": 100 } },
 *   "keys": [ { "sha256": "<64 hex of sha256(key)>", "plan": "free", "name": "alice" } ]
 * }
 * `networks` omitted = every network. `ton-gateway serve --hash-key <key>` prints a key's digest.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export interface Plan {
  name: string;
  /** Requests per second (also the burst size). */
  rps: number;
  /** Networks the plan may use; null = all. */
  networks: string[] | null;
}

export interface KeyEntry {
  name: string;
  plan: Plan;
}

export class KeyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyConfigError';
  }
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const planSchema = z.object({ rps: z.number().positive(), networks: z.array(z.string()).optional() }).strict();
const configSchema = z
  .object({
    anonymous: planSchema.optional(),
    plans: z.record(z.string(), planSchema).default({}),
    keys: z
      .array(
        z
          .object({
            sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'sha256 must be 64 hex chars'),
            plan: z.string(),
            name: z.string().optional(),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

export type KeysConfig = z.input<typeof configSchema>;

export class KeyStore {
  readonly anonymous: Plan;
  private readonly byHash = new Map<string, KeyEntry>();

  constructor(config: KeysConfig = {}) {
    const parsed = configSchema.safeParse(config);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new KeyConfigError(`keys config: ${i.path.join('.') || '(root)'}: ${i.message}`);
    }
    const c = parsed.data;
    this.anonymous = { name: 'anonymous', rps: c.anonymous?.rps ?? 1, networks: c.anonymous?.networks ?? null };
    const plans = new Map<string, Plan>();
    for (const [name, p] of Object.entries(c.plans)) plans.set(name, { name, rps: p.rps, networks: p.networks ?? null });
    c.keys.forEach((k, i) => {
      const plan = plans.get(k.plan);
      if (!plan) throw new KeyConfigError(`keys config: keys.${i}.plan: unknown plan "${k.plan}" (defined: ${[...plans.keys()].join(', ') || 'none'})`);
      this.byHash.set(k.sha256.toLowerCase(), { name: k.name ?? `key#${i}`, plan });
    });
  }

  static fromFile(path: string): KeyStore {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new KeyConfigError(`cannot read keys config ${path}: ${(e as Error).message}`);
    }
    return new KeyStore(json as KeysConfig);
  }

  /** The key's entry, or null when the key is unknown. */
  lookup(key: string): (KeyEntry & { hash: string }) | null {
    const hash = hashApiKey(key);
    const e = this.byHash.get(hash);
    return e ? { ...e, hash } : null;
  }

  get size(): number {
    return this.byHash.size;
  }
}

export function planAllows(plan: Plan, network: string): boolean {
  return plan.networks === null || plan.networks.includes(network);
}
