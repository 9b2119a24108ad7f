/** Input that is not what the decoder was asked to read (not a BoC, not a Block, truncated, bad tag). */
export class DecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecodeError';
  }
}
