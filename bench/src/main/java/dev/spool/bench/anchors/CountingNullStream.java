package dev.spool.bench.anchors;

import java.io.OutputStream;

/**
 * A stream that writes nothing and counts bytes and newlines: under a JUL handler or a Logback
 * appender it gives the framework's own cost per line with no I/O at all (the floor any stream
 * under it, Spool's included, adds to). Not thread-safe: the handler or appender serialises.
 */
final class CountingNullStream extends OutputStream {
    private long bytes;
    private long lines;

    @Override
    public void write(int b) {
        bytes++;
        if (b == '\n') {
            lines++;
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        bytes += len;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                lines++;
            }
        }
    }

    /** Lines and bytes written so far. */
    long[] output() {
        return new long[] {lines, bytes};
    }
}
