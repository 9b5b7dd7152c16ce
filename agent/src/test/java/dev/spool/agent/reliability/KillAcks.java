package dev.spool.agent.reliability;

import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a kill test's host acknowledged: its {@code acks-<round>} file, a {@code MAP_SHARED} mapping the host
 * stores each thread's last acknowledged seq into (two big-endian longs, thread 0 then thread 1) once its
 * logging call returned, so the file holds them even after a SIGKILL ({@link JulJournalKillHost},
 * {@link LogbackJournalKillHost}).
 *
 * <p>Stateless; any thread (the test's, and its waits' conditions).
 */
final class KillAcks {
    private KillAcks() {
    }

    /** Both threads' last acknowledged seqs added up (-2: none yet). */
    static long total(Path acks) {
        long[] a = read(acks);
        return a[0] + a[1];
    }

    /** The last acknowledged seq per thread (-1: none yet). */
    static long[] read(Path acks) {
        try (FileChannel ch = FileChannel.open(acks, StandardOpenOption.READ)) {
            if (ch.size() < 16) {
                return new long[] {-1, -1};
            }
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, 16);
            m.order(ByteOrder.BIG_ENDIAN);
            return new long[] {m.getLong(0), m.getLong(8)};
        } catch (java.io.IOException e) {
            return new long[] {-1, -1};
        }
    }
}
