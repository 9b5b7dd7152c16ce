package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A batch retried after its write failed part-way (the writer resets the slices' positions and
 * writes the same array again) reaches the stream once: the slices the stream took are skipped.
 */
class StreamBackendTest {

    /** Takes writes until told to fail the next {@code failures} ones. */
    static final class Flaky extends ByteArrayOutputStream {
        int failAfter = Integer.MAX_VALUE;

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            if (failAfter-- <= 0) {
                throw new java.io.UncheckedIOException(new IOException("Stream Closed"));
            }
            super.write(b, off, len);
        }
    }

    private static ByteBuffer text(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldNotRepeatTheSlicesTheStreamTookWhenABatchIsRetried() throws IOException {
        Flaky out = new Flaky();
        StreamBackend backend = new StreamBackend(out);
        ByteBuffer[] batch = {text("one\n"), text("two\n"), ByteBuffer.allocateDirect(6).put(text("three\n")).flip()};
        out.failAfter = 1; // the first slice goes in, the second fails
        assertThrows(RuntimeException.class, () -> backend.write(batch));
        for (ByteBuffer b : batch) {
            b.rewind(); // what the writer does before a retry
        }
        backend.rewind(0);
        out.failAfter = Integer.MAX_VALUE;
        backend.write(batch);
        assertEquals("one\ntwo\nthree\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(14, backend.position());
        backend.write(new ByteBuffer[] {text("four\n")}); // another batch: nothing skipped
        assertEquals("one\ntwo\nthree\nfour\n", out.toString(StandardCharsets.UTF_8));
    }
}
