/**
 * The engine's native-protocol port, guarded. In the engine build the gateway ships (chdb 26.7, clickhouse-local with
 * its servers started), a native-protocol login that fails is an exception nothing catches on the connection's
 * thread: the whole engine process aborts (SIGABRT), under every client writing to it. HTTP logins that fail are
 * answered 516 as they should be. So ClickHouse's own native listener takes an internal loopback port, and the port
 * tools connect to (clickhouse-client, drivers) is this gate: it reads the client's Hello (the first packet: client
 * name, version, database, user, password), answers a login that would fail with ClickHouse's own Exception packet
 * (code 516, AUTHENTICATION_FAILED) itself, and passes every byte of a good one to the engine untouched.
 *
 * The Hello (ClickHouse's Connection::sendHello): VarUInt 0, String client name, VarUInt major, minor, protocol
 * revision, String database, String user, String password; a String is a VarUInt length and its bytes.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';

/** What a Hello may weigh before it is judged (names and a password: far less). */
const MAX_HELLO = 64 * 1024;
const HELLO_TIMEOUT_MS = 10_000;

/** A client Hello as far as the gate reads it; null: not whole yet. Throws on what is not a Hello. */
export function parseHello(buf: Buffer): { user: string; password: string; length: number } | null {
  let pos = 0;
  const varuint = (): number | null => {
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= buf.length) return null;
      const b = buf[pos++];
      n += (b & 0x7f) * mul;
      if (!(b & 0x80)) return n;
      mul *= 128;
    }
    throw new Error('a varint longer than 10 bytes');
  };
  const string = (): string | null => {
    const len = varuint();
    if (len === null) return null;
    if (len > MAX_HELLO) throw new Error('a string longer than a Hello may be');
    if (pos + len > buf.length) return null;
    const s = buf.subarray(pos, pos + len).toString('utf8');
    pos += len;
    return s;
  };
  const type = varuint();
  if (type === null) return null;
  if (type !== 0) throw new Error(`the first packet is not a Hello (type ${type})`);
  if (string() === null) return null; // client name
  for (let i = 0; i < 3; i++) if (varuint() === null) return null; // major, minor, revision
  if (string() === null) return null; // database
  const user = string();
  if (user === null) return null;
  const password = string();
  if (password === null) return null;
  return { user, password, length: pos };
}

export function varuint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  do {
    let b = v & 0x7f;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return Buffer.from(out);
}

export const nativeString = (s: string) => Buffer.concat([varuint(Buffer.byteLength(s)), Buffer.from(s)]);

/** ClickHouse's Exception packet (Protocol::Server::Exception = 2): code, name, message, stack trace, no nested one. */
export function exceptionPacket(code: number, message: string): Buffer {
  const c = Buffer.alloc(4);
  c.writeInt32LE(code);
  return Buffer.concat([varuint(2), c, nativeString('DB::Exception'), nativeString(message), nativeString(''), Buffer.from([0])]);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface NativeGateOptions {
  host: string;
  /** the port tools connect to */
  port: number;
  /** ClickHouse's own native listener */
  enginePort: number;
  /** who may log in: user -> password */
  users: ReadonlyMap<string, string>;
}

/** A listening gate; `close` also ends the sessions passing through it (the engine behind it is stopping). */
export interface NativeGate {
  server: Server;
  close(): void;
}

/** Starts the gate; resolves once it listens. */
export function startNativeGate(o: NativeGateOptions): Promise<NativeGate> {
  const sockets = new Set<Socket>();
  const server = createServer((client: Socket) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    let buf = Buffer.alloc(0);
    let decided = false;
    const refuse = (message: string) => {
      decided = true;
      client.end(exceptionPacket(516, message));
    };
    client.setTimeout(HELLO_TIMEOUT_MS, () => !decided && client.destroy());
    client.on('error', () => client.destroy());
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      let hello;
      try {
        hello = parseHello(buf);
      } catch (err) {
        refuse(`not a ClickHouse native-protocol Hello: ${(err as Error).message}`);
        return;
      }
      if (hello === null) {
        if (buf.length > MAX_HELLO) refuse('the Hello is too long');
        return;
      }
      client.off('data', onData);
      const expected = o.users.get(hello.user);
      if (expected === undefined || !same(hello.password, expected)) {
        refuse(`${hello.user}: Authentication failed: password is incorrect, or there is no user with such name`);
        return;
      }
      decided = true;
      client.setTimeout(0);
      client.pause();
      const engine = connect({ host: o.host, port: o.enginePort }, () => {
        engine.write(buf);
        client.pipe(engine);
        engine.pipe(client);
        client.resume();
      });
      engine.on('error', () => client.destroy());
      client.on('close', () => engine.destroy());
      engine.on('close', () => client.destroy());
    };
    client.on('data', onData);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: o.host, port: o.port, exclusive: true }, () => {
      server.off('error', reject);
      resolve({
        server,
        close() {
          server.close();
          for (const s of sockets) s.destroy();
        },
      });
    });
  });
}
