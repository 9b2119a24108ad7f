import { readFileSync } from 'node:fs';
import { parseJsonExact, traceFromToncenterJson } from '../adapters/toncenter-json.ts';
import { buildTree, type EventNode } from '../core.ts';
import { classifyTrace } from '../classify.ts';
const f = process.argv.slice(2).find((a) => a.endsWith("=")) ?? "";
const t = traceFromToncenterJson(parseJsonExact(readFileSync(`/work/main/test/fixtures/traces/toncenter-indexer/json/${f}.json`, 'utf8')));
const { root } = buildTree(t);
const pr = (n: EventNode, d: number) => {
  const ifs = t.interfaces?.[n.tx.account]?.raw ?? {};
  console.log(' '.repeat(d * 2) + `${n.extOut ? 'EXTOUT' : ''} op=${n.msg?.opcode?.toString(16)} ${n.msg?.source?.slice(0, 8)}->${n.tx.account.slice(0, 8)} v=${n.msg?.value} lt=${n.tx.lt} ${Buffer.from(n.tx.hash, 'hex').toString('base64').slice(0, 8)} ab=${n.tx.aborted} ${n.tx.origStatus}->${n.tx.endStatus} ${Object.keys(ifs).join(',')}`);
  for (const c of n.children) pr(c, d + 1);
};
pr(root, 0);
if (process.argv.includes("1")) for (const a of classifyTrace(t).actions) console.log(a.type, a.action_id, a.tx_hashes.map(h=>Buffer.from(h,'hex').toString('base64').slice(0,8)).join(','));
