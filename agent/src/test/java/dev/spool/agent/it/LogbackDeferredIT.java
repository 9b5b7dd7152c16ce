package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.events.EventReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logback's encoding on Spool's thread (issue 13, item 3) writes the bytes plain Logback writes:
 * the same events ({@code LogbackDiffHost}: fixed timestamps across a DST change, MDC, markers,
 * exceptions with causes and suppressed ones, two threads) through file appenders with realistic
 * patterns (time zones, caller data, {@code %relative}, {@code %replace}, colours, headers and
 * footers, another charset, {@code immediateFlush=false}) and a time-based rolling appender, run
 * plain and with the agent in forked JVMs; every file must match byte for byte, the rolled ones
 * included (so rolling happened at the same event), also for three appenders given a new encoder
 * ({@code setEncoder}) between the host's two bursts: another compiled pattern, one Spool leaves on the
 * caller's thread, one that needs the caller data. The host's emitter method, teed into the event
 * file, and the thread list show that every sink shares the sink pool's threads (issue 13 item 4).
 */
class LogbackDeferredIT {

    private static final String FILE = "ch.qos.logback.core.FileAppender";
    private static final String JUL_FORMAT = "-Djava.util.logging.SimpleFormatter.format=%4$s %3$s %5$s%n";

    @TempDir
    Path root;

    /** {@code ""}: Logback {@code logback.version} (1.5.x); {@code "logback-next"}: the newest line ({@code logback.next.version}). */
    @ParameterizedTest(name = "host libraries ''{0}''")
    @ValueSource(strings = {"", "logback-next"})
    void shouldWriteTheSameBytesAsPlainLogbackWhenEncodingOnSpoolsThread(String logback) throws Exception {
        String cp = Forked.hostClassPath(Forked.logback(logback));
        Path plainDir = Files.createDirectories(root.resolve("plain").resolve("logs"));
        Path agentDir = Files.createDirectories(root.resolve("agent").resolve("logs"));
        Forked.start(root, "plain", List.of(JUL_FORMAT, "-Dlogback.configurationFile=" + config(plainDir)), cp,
                "dev.spool.agent.host.LogbackDiffHost", plainDir.toString(), "300").awaitSuccess();
        Path events = root.resolve("agent").resolve("events.spool");
        Forked agent = Forked.start(root, "agent", LogRouteIT.concat(Forked.agentArgs("spool.log.level=debug,"
                + "spool.events.methods=dev.spool.agent.host.LogbackDiffHost#emitEvent,spool.events.methods.mode=tee,"
                + "spool.events.file=" + events),
                JUL_FORMAT, "-Dlogback.configurationFile=" + config(agentDir)), cp, "dev.spool.agent.host.LogbackDiffHost",
                agentDir.toString(), "300");
        agent.awaitSuccess();
        String err = agent.err();
        for (String deferred : List.of("a.log", "b.log", "c.log", "e.log", "f0.log", "f4.log")) {
            assertTrue(err.contains("routing " + agentDir.resolve(deferred) + " through the sink, encoded on Spool's thread (compiled layout"), err);
        }
        // the realistic pattern with every converter compiled; no compiled layout gave up (a difference from Logback's bytes)
        assertTrue(err.contains("routing " + agentDir.resolve("f0.log") + " through the sink, encoded on Spool's thread "
                + "(compiled layout, 0 of "), err);
        assertTrue(!err.contains("compiled form of the pattern"), err);
        assertTrue(err.contains("routing " + agentDir.resolve("d.log") + " through the sink, encoded on the caller's thread"), err);
        assertTrue(err.contains("routing " + agentDir.resolve("roll-2030-03-31_01-01.log")
                + " through the sink, encoded on Spool's thread"), err);
        List<String> rolled;
        try (Stream<Path> files = Files.list(agentDir)) {
            rolled = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("roll-")).sorted()
                    .collect(Collectors.toList());
        }
        assertEquals(4, rolled.size(), "rolled every minute of the events' clock: " + rolled);
        Trees.assertSameFiles(plainDir, agentDir);
        String threads = agent.out().lines().filter(l -> l.startsWith("spool threads: ")).findFirst().orElseThrow();
        // ten deferred appenders (a b c e f0-f4 roll) and three captured JUL handlers: the shared pool's two threads
        assertEquals(2, threads.split("spool-capture-writer-", -1).length - 1, threads);
        assertTrue(!threads.contains("spool-logback-encode") && !threads.contains("spool-jul-"), threads);
        // and every sink (the eleven logs' and the emitters' event file) is written by the sink pool's
        // two threads and its timer, not a thread per file (issue 13 item 4); a spare only while a write is blocked
        List<String> sinkThreads = List.of(threads.substring(threads.indexOf('[') + 1, threads.lastIndexOf(']')).split(", "))
                .stream().filter(t -> t.startsWith("spool-sink-")).collect(Collectors.toList());
        assertEquals(2, sinkThreads.stream().filter(t -> t.matches("spool-sink-writer-[0-9]+")).count(), threads);
        assertEquals(1, sinkThreads.stream().filter(t -> t.equals("spool-sink-ticker")).count(), threads);
        assertTrue(sinkThreads.stream().allMatch(t -> t.matches("spool-sink-(writer-[0-9]+|ticker|writer-spare-[0-9]+)")),
                "no writer thread of a sink's own: " + threads);
        try (EventReader reader = EventReader.open(events)) {
            assertEquals(50, reader.scan(), "every emitter call is an event");
            assertTrue(reader.sound(), reader.problems().toString());
        }
        String b = Files.readString(agentDir.resolve("b.log"), StandardCharsets.UTF_8);
        assertTrue(b.contains("LogbackDiffHost.run(LogbackDiffHost.java:"), "caller data computed on the caller's thread: " + b);
    }

    private static String appender(String name, Path file, String extra, String encoder) {
        return "  <appender name=\"" + name + "\" class=\"" + FILE + "\">\n"
                + "    <file>" + file + "</file>" + extra + "\n" + encoder + "\n  </appender>\n";
    }

    private static String pattern(String pattern) {
        return "    <encoder><pattern>" + pattern + "</pattern></encoder>";
    }

    static Path config(Path dir) throws Exception {
        String body = appender("A", dir.resolve("a.log"), "", pattern(
                "%d{yyyy-MM-dd HH:mm:ss.SSS zzz, Europe/Berlin} [%thread] %-5level %logger{36} %X{user} {%X} %marker - %msg%n%ex"))
                + appender("B", dir.resolve("b.log"), "", pattern(
                "%d{ISO8601, America/New_York} %relative %caller{2}%class.%method\\(%file:%line\\) %-5level "
                        + "%replace(%msg){'[0-9]', '#'} %rootException{5}%n"))
                + appender("C", dir.resolve("c.log"), "",
                "    <encoder class=\"ch.qos.logback.core.encoder.LayoutWrappingEncoder\"><charset>ISO-8859-1</charset>\n"
                        + "      <layout class=\"ch.qos.logback.classic.PatternLayout\"><fileHeader>file header</fileHeader>"
                        + "<presentationHeader>presentation header</presentationHeader><fileFooter>file footer</fileFooter>"
                        + "<pattern>%date{HH:mm:ss.SSS, Asia/Kolkata} %highlight(%level) %cyan(%logger{0}) %mdc{request:-none} "
                        + "%msg %xEx{short}%n</pattern></layout></encoder>")
                + appender("D", dir.resolve("d.log"), "", pattern("%property{diff.run} %msg%n"))
                + appender("E", dir.resolve("e.log"), "<immediateFlush>false</immediateFlush>",
                "    <encoder><pattern>%-4relative [%t] %-5level %logger{35} - %msg %n</pattern>"
                        + "<outputPatternAsHeader>true</outputPatternAsHeader></encoder>");
        StringBuilder more = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            body += appender("F" + i, dir.resolve("f" + i + ".log"), "", pattern("%d{HH:mm:ss.SSS} %-5level %logger{20} " + i + " %msg%n"));
            more.append("<appender-ref ref=\"F").append(i).append("\"/>");
        }
        String xml = "<configuration>\n" + body + "  <root level=\"TRACE\"><appender-ref ref=\"A\"/><appender-ref ref=\"B\"/>"
                + "<appender-ref ref=\"C\"/><appender-ref ref=\"D\"/><appender-ref ref=\"E\"/>" + more + "</root>\n</configuration>\n";
        Path file = dir.getParent().resolve("logback.xml");
        Files.writeString(file, xml, StandardCharsets.UTF_8);
        return file;
    }
}
