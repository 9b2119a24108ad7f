/**
 * ClickHouse's native protocol, as far as its handshake: a client Hello with a user and password, and what the
 * server answers (its Hello, or an Exception with a code). Enough to prove who may log in on the engine's native port.
 */
import { connect } from 'node:net';
import { nativeString, varuint } from '../../src/engine/native-gate.ts';

// ClickHouse's VarUInt and String encodings, as the engine's gate reads them
const str = nativeString;

/** A protocol revision from before the fields newer servers add to their Hello: the answer stays short. */
const REVISION = 54_058;

export type HelloAnswer = { hello: string } | { exception: number; message: string };

/** Sends a client Hello as `user` / `password`; resolves with the server's answer to it. */
export function nativeHello(port: number, user: string, password: string, host = '127.0.0.1'): Promise<HelloAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    let buf = Buffer.alloc(0);
    const done = (a: HelloAnswer) => {
      socket.destroy();
      resolve(a);
    };
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer to Hello')));
    socket.on('error', reject);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      const r = reader(buf);
      try {
        const type = r.varuint();
        if (type === 0) done({ hello: r.string() });
        else if (type === 2) {
          const code = buf.readInt32LE(r.pos);
          r.pos += 4;
          r.string(); // name
          done({ exception: code, message: r.string() });
        } else done({ exception: -1, message: `packet ${type}` });
      } catch {
        /* not whole yet */
      }
    });
    socket.write(Buffer.concat([varuint(0), str('ton-gateway-test'), varuint(26), varuint(7), varuint(REVISION), str('default'), str(user), str(password)]));
  });
}

function reader(buf: Buffer) {
  const r = {
    pos: 0,
    varuint(): number {
      let n = 0;
      let shift = 1;
      for (;;) {
        if (r.pos >= buf.length) throw new Error('short');
        const b = buf[r.pos++];
        n += (b & 0x7f) * shift;
        if (!(b & 0x80)) return n;
        shift *= 128;
      }
    },
    string(): string {
      const len = r.varuint();
      if (r.pos + len > buf.length) throw new Error('short');
      const s = buf.subarray(r.pos, r.pos + len).toString();
      r.pos += len;
      return s;
    },
  };
  return r;
}
