package dev.spool.agent.host;

import static dev.spool.agent.host.LogbackDiffHost.call;
import static dev.spool.agent.host.LogbackDiffHost.create;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * Test host for the stamp of a Logback file a roll just created: {@code LogbackStampHost <dir>}.
 * Makes {@code <dir>/app.log} empty, stamped 1 ms before the current second began (what the kernel's
 * lagging clock gives a file created right after a second's boundary), then at once starts a
 * {@code RollingFileAppender} on it with a per-second {@code TimeBasedRollingPolicy} (built
 * reflectively: the test sources need no Logback), logs nothing, prints
 * {@code stamp <file's time after the start> start <wall clock before it> second <the second's start>}
 * and halts (as a kill -9 would: no write, no stop). The stamp is what the next start's
 * {@code TimeBasedRollingPolicy} names the file's period by. Waits for a fresh second first, so all
 * of it happens within that second.
 */
public final class LogbackStampHost {

    private LogbackStampHost() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path file = dir.resolve("app.log");
        Object context = Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
        Object warm = create("ch.qos.logback.core.FileAppender"); // classes loaded, the sink machinery started: the
        call(warm, "setContext", context);                        // timed start below is short
        call(warm, "setFile", dir.resolve("warm.log").toString());
        call(warm, "setEncoder", LogbackDiffHost.encoder("%msg%n"));
        call(warm, "start");
        Object appender = create("ch.qos.logback.core.rolling.RollingFileAppender");
        call(appender, "setContext", context);
        call(appender, "setName", "STAMP");
        call(appender, "setFile", file.toString());
        call(appender, "setEncoder", LogbackDiffHost.encoder("%msg%n"));
        Object rolling = create("ch.qos.logback.core.rolling.TimeBasedRollingPolicy");
        call(rolling, "setContext", context);
        call(rolling, "setFileNamePattern", dir.resolve("app-%d{yyyy-MM-dd_HH-mm-ss}.log").toString());
        call(rolling, "setParent", appender);
        call(appender, "setRollingPolicy", rolling);
        while (System.currentTimeMillis() % 1000 > 100) {
            Thread.onSpinWait(); // early in a second: the rest happens within it
        }
        Files.write(file, new byte[0]);
        long second = System.currentTimeMillis() / 1000 * 1000;
        Files.setLastModifiedTime(file, FileTime.fromMillis(second - 1));
        long start = System.currentTimeMillis();
        call(rolling, "start");
        call(appender, "start");
        long stamp = Files.getLastModifiedTime(file).toMillis();
        System.out.println("stamp " + stamp + " start " + start + " second " + second);
        Runtime.getRuntime().halt(0); // as a kill -9 right after the open: no write, no stop, nothing at exit
    }
}
