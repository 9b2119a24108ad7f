import { decodeBlock } from '../src/ton/index.ts';
import { readFileSync, readdirSync } from 'fs';
const found: Record<string, number> = {};
for (const net of ['mainnet','testnet','localnet']) for (const f of readdirSync(`test/fixtures/blocks/${net}`)) {
  const b = readFileSync(`test/fixtures/blocks/${net}/${f}`);
  try { const d = decodeBlock(b);
    for (const t of d.transactions) { 
      const msgs = [t.in_msg, ...t.out_msgs].filter(Boolean);
      for (const m of msgs) { if (m!.value_extra_currencies) found['extra:'+f]=(found['extra:'+f]??0)+1; if (m!.message_type==='ext_out') found['extout:'+f]=(found['extout:'+f]??0)+1; if (m!.bounced) found['bounced:'+f]=(found['bounced:'+f]??0)+1; }
      if (t.description.aborted) found['aborted:'+f]=(found['aborted:'+f]??0)+1;
      if (t.description.type==='tick_tock') found['ticktock:'+f]=(found['ticktock:'+f]??0)+1;
      if (t.description.compute_ph?.skipped) found['skipped:'+f]=(found['skipped:'+f]??0)+1;
      if (t.total_fees_extra_currencies) found['feeextra:'+f]=1;
      if (t.description.credit_ph?.credit_extra_currencies) found['creditextra:'+f]=1;
      if (t.description.type!=='ord' && t.description.type!=='tick_tock') found[t.description.type+':'+f]=1;
      if (t.in_msg?.message_type==='ext_in' && t.in_msg.hash_norm !== t.in_msg.msg_hash) found['normdiff:'+f]=(found['normdiff:'+f]??0)+1;
    }
    for (const a of d.account_states) { if (a.balance_extra_currencies) found['accextra:'+f]=1; if (a.account_status!=='active') found[a.account_status+':'+f]=(found[a.account_status+':'+f]??0)+1; if (a.code_boc) found['codeboc:'+f]=(found['codeboc:'+f]??0)+1;}
    for (const s of d.shards ?? []) { if (s.fees_collected_extra_currencies||s.funds_created_extra_currencies) found['shardextra:'+f]=1; }
  } catch { /* */ }
}
console.log(found);
