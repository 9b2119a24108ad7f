/**
 * Output into a closed pipe (`ton-gateway decode-block F | head`): Node ignores SIGPIPE, so a write to a pipe whose
 * reader has gone fails with EPIPE, and an unhandled stream error prints a stack trace and exits 1. A Unix tool is
 * stopped by SIGPIPE instead and the pipeline's status is its reader's; here the process ends at once, quietly,
 * with exit 0 (there is nobody left to tell, and the reader had what it wanted).
 */
let installed = false;

export function endQuietlyOnClosedPipe(): void {
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(0);
      // any other output error is the same failure it was before this handler existed
      throw err;
    });
  }
}
