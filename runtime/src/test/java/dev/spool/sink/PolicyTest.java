package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Full buffers under each policy, forced by a throttled writer. */
class PolicyTest {
    private static SinkSettings throttled(SinkPolicy p) {
        return SinkSettings.builder().bufferBytes(256).buffers(2).policy(p).maxBytesPerSecond(20_000).build();
    }

    @Test
    void shouldDropAndCountWhenFullUnderDrop() throws Exception {
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        OutputStream out = SinkStreams.wrap(target, "drop", throttled(SinkPolicy.DROP));
        SinkMetrics m = SinkStreams.metricsOf(out);
        int n = 2000;
        for (int i = 0; i < n; i++) {
            out.write(String.format("%07d\n", i).getBytes(StandardCharsets.US_ASCII));
        }
        m.setMaxBytesPerSecond(0);
        out.close();
        long written = target.size() / 8;
        assertTrue(m.dropped() > 0, "nothing dropped");
        assertEquals(n, written + m.dropped());
        String[] lines = target.toString(StandardCharsets.US_ASCII).split("\n");
        for (int i = 1; i < lines.length; i++) {
            assertTrue(Integer.parseInt(lines[i]) > Integer.parseInt(lines[i - 1]), "order kept");
        }
    }

    @Test
    void shouldWriteEverythingUnderSyncAndBlock() throws Exception {
        for (SinkPolicy p : new SinkPolicy[] {SinkPolicy.SYNC, SinkPolicy.BLOCK}) {
            ByteArrayOutputStream target = new ByteArrayOutputStream();
            OutputStream out = SinkStreams.wrap(target, "p", throttled(p));
            SinkMetrics m = SinkStreams.metricsOf(out);
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 300; i++) {
                String line = String.format("%07d\n", i);
                out.write(line.getBytes(StandardCharsets.US_ASCII));
                expected.append(line);
            }
            out.close();
            assertEquals(expected.toString(), target.toString(StandardCharsets.US_ASCII), "policy " + p);
            assertEquals(0, m.dropped());
        }
    }

    @Test
    void shouldValidateSettingsNamingTheKey() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SinkSettings.builder().bufferBytes(10));
        assertTrue(e.getMessage().contains("spool.sink.buffer.bytes=10"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SinkSettings.builder().maxBytesPerSecond(-1));
        assertTrue(e.getMessage().contains("spool.sink.max.bytes.per.second"), e.getMessage());
    }
}
