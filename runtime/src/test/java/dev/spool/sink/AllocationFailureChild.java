package dev.spool.sink;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Forked by {@link AllocationFailureTest} with {@code -XX:MaxDirectMemorySize=64m}: sets the live
 * buffer size to 1 GiB (accepted, but not allocatable here) and keeps appending under
 * {@code block}, so every recycle must replace a buffer it cannot allocate. Prints
 * {@code done <bytes>} and exits 0 when everything was written.
 */
public final class AllocationFailureChild {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        SinkSettings s = SinkSettings.builder().bufferBytes(4096).buffers(3).policy(SinkPolicy.BLOCK).build();
        ByteSink sink = ByteSink.forChannel(ch, 0, file.toString(), s);
        sink.metrics().setBufferBytes(SinkSettings.MAX_BUFFER_BYTES);
        byte[] unit = new byte[100];
        long bytes = 0;
        for (int i = 0; i < 2_000; i++) {
            java.util.Arrays.fill(unit, (byte) ('a' + i % 26));
            if (sink.append(ByteBuffer.wrap(unit))) {
                bytes += unit.length;
            }
        }
        boolean flushed = sink.flush(30_000);
        System.out.println("flushed " + flushed + " errors " + sink.metrics().errors() + " last " + sink.metrics().lastError());
        sink.close();
        System.out.println("done " + bytes);
        System.exit(0);
    }
}
