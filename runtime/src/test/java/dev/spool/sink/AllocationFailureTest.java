package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer thread's own failures (issue 11, defect 3): a live {@code BufferBytes} the JVM
 * cannot allocate must keep the old buffer and report the error (before the fix: each recycle
 * lost a buffer, then the {@code block} producer waited for ever), and a throwable while
 * processing a direct write must complete it (before the fix: its caller waited for ever).
 */
class AllocationFailureTest {
    @TempDir
    Path dir;

    @Test
    void shouldKeepItsBuffersWhenALiveBufferSizeCannotBeAllocated() throws Exception {
        Path file = dir.resolve("alloc.bin");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:MaxDirectMemorySize=64m", "-cp", System.getProperty("java.class.path"),
                AllocationFailureChild.class.getName(), file.toString());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try {
                p.getInputStream().transferTo(out);
            } catch (IOException ignored) {
                // the child ended
            }
        });
        reader.start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        reader.join();
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(ended, "the child hung (a producer waited for a buffer that was lost); output: " + text);
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.contains("flushed true"), text);
        assertTrue(text.contains("done 200000"), text);
        assertTrue(text.contains("errors ") && !text.contains("errors 0 "), "the allocation failure is reported: " + text);
        assertEquals(200_000, Files.size(file));
    }

    @Test
    void shouldCompleteADirectWriteWhoseTargetThrowsAnError() throws Exception {
        OutputStream failing = new OutputStream() {
            @Override
            public void write(int b) {
                throw new AssertionError("the target failed");
            }

            @Override
            public void write(byte[] b, int off, int len) {
                throw new AssertionError("the target failed");
            }
        };
        SinkSettings s = SinkSettings.builder().directThreshold(1024).build();
        ByteSink sink = ByteSink.forStream(failing, "failing", s);
        Thread caller = new Thread(() -> sink.appendDirect(java.nio.ByteBuffer.wrap(new byte[4096])));
        caller.setDaemon(true);
        caller.start();
        caller.join(60_000);
        assertTrue(!caller.isAlive(), "the direct write's caller still waits: " + sink.metrics());
        assertTrue(sink.metrics().errors() > 0, "the failure is counted");
    }
}
